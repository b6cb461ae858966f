package sat

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/boardsat/boardsat/puzzle"
)

// benchCount counts f with opt b.N times and checks the count against want.
func benchCount(b *testing.B, n int, native bool, opt CountOptions) {
	f := testQueens(n, native)
	want, _ := puzzle.KnownCount(puzzle.Queens{N: n}, puzzle.Count)
	b.ResetTimer()
	for range b.N {
		r, err := Count(context.Background(), f, opt)
		if err != nil || r.Status != puzzle.OK || r.Count != want {
			b.Fatalf("count %d status %s err %v, want %d", r.Count, r.Status, err, want)
		}
	}
}

// BenchmarkCountQueens12 counts 12-queens (pairwise CNF, 14,200 models)
// with the projected enumerator on one and two goroutines, with native PB
// constraints, and with clasp's own projected enumeration on the same CNF.
func BenchmarkCountQueens12(b *testing.B) {
	b.Run("pairwise/enum/threads=2", func(b *testing.B) { benchCount(b, 12, false, CountOptions{Threads: 2}) })
	b.Run("pairwise/enum/threads=1", func(b *testing.B) { benchCount(b, 12, false, CountOptions{Threads: 1}) })
	b.Run("native/enum/threads=2", func(b *testing.B) { benchCount(b, 12, true, CountOptions{Threads: 2}) })
	b.Run("pairwise/clasp-project", func(b *testing.B) {
		if _, err := exec.LookPath("clasp"); err != nil {
			b.Skip("clasp not on PATH")
		}
		benchCount(b, 12, false, CountOptions{Solver: "clasp"})
	})
	b.Run("pairwise/clasp-n0-dimacs", func(b *testing.B) { benchClaspDIMACS(b, 12) })
}

// BenchmarkCountQueens13 counts 13-queens (73,712 models) likewise.
func BenchmarkCountQueens13(b *testing.B) {
	b.Run("pairwise/enum/threads=2", func(b *testing.B) { benchCount(b, 13, false, CountOptions{Threads: 2}) })
	b.Run("pairwise/enum/threads=1", func(b *testing.B) { benchCount(b, 13, false, CountOptions{Threads: 1}) })
	b.Run("pairwise/clasp-n0-dimacs", func(b *testing.B) { benchClaspDIMACS(b, 13) })
}

// BenchmarkCountQueens10Blocking is the gophersat blocking-clause method
// (serial: see gophersatSem), for comparison (724 models).
func BenchmarkCountQueens10Blocking(b *testing.B) {
	benchCount(b, 10, false, CountOptions{Method: MethodBlocking})
}

// benchClaspDIMACS runs plain "clasp -n 0 -q" on the pairwise DIMACS file,
// the reference the speed target is set against (no auxiliary variables, so
// its unprojected count is the projected one).
func benchClaspDIMACS(b *testing.B, n int) {
	if _, err := exec.LookPath("clasp"); err != nil {
		b.Skip("clasp not on PATH")
	}
	path := filepath.Join(b.TempDir(), fmt.Sprintf("q%d.cnf", n))
	fh, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := testQueens(n, false).WriteDIMACS(fh); err != nil {
		b.Fatal(err)
	}
	fh.Close()
	want, _ := puzzle.KnownCount(puzzle.Queens{N: n}, puzzle.Count)
	b.ResetTimer()
	for range b.N {
		out, _ := exec.Command("clasp", "-n", "0", "-q", path).Output()
		got, err := parseClaspCount(out)
		if err != nil || got != want {
			b.Fatalf("clasp: %d %v, want %d", got, err, want)
		}
	}
}

// BenchmarkTimedSolve solves 8-queens (pairwise) with gophersat in process
// (no time limit) and in a child process (a time limit: see searchOne),
// side by side: the difference is what running a timed search where it can
// be killed costs.
func BenchmarkTimedSolve(b *testing.B) {
	f := testQueens(8, false)
	for _, timed := range []bool{false, true} {
		name := map[bool]string{false: "in-process", true: "child"}[timed]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				if timed {
					ctx, cancel = context.WithTimeout(ctx, time.Minute)
				}
				r, err := Solve(ctx, f, "")
				cancel()
				if err != nil || r.Status != puzzle.OK {
					b.Fatal(err, r.Status)
				}
			}
		})
	}
}
