//go:build unix

package queens

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// The queens counter against the C anchor: a plain C symmetry counter kept
// outside the project (nqtk.c in the directory named by BOARDSAT_ANCHORS,
// by default ../shared/anchors from the repository root). The benchmark
// builds it into a temporary directory as its README says and runs it beside
// boardsat in the same run, so the two medians are measured under the same
// load; nothing of it is copied into the project. Besides the wall time,
// each sub-benchmark reports the CPU time it used (cpu-s/op: this process
// for boardsat, the child for the anchor), which other jobs sharing the
// machine disturb much less than the wall time.

// queensCPU returns the user plus system time used so far by this process
// (who = RUSAGE_SELF) or its finished children (RUSAGE_CHILDREN).
func queensCPU(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// queensCPUMetric runs the benchmark body and reports its CPU time per
// iteration as cpu-s/op.
func queensCPUMetric(b *testing.B, who int, body func()) {
	start := queensCPU(who)
	iters := 0
	for b.Loop() {
		body()
		iters++
	}
	b.ReportMetric((queensCPU(who)-start).Seconds()/float64(max(iters, 1)), "cpu-s/op")
}

// queensAnchorSource returns the path of nqtk.c, or why it is unavailable.
func queensAnchorSource() (string, error) {
	dir := os.Getenv("BOARDSAT_ANCHORS")
	if dir == "" {
		root, err := filepath.Abs(".")
		if err != nil {
			return "", err
		}
		for {
			if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
				break
			}
			up := filepath.Dir(root)
			if up == root {
				return "", fmt.Errorf("no go.mod above the test directory")
			}
			root = up
		}
		dir = filepath.Join(root, "..", "shared", "anchors")
	}
	src := filepath.Join(dir, "nqtk.c")
	if _, err := os.Stat(src); err != nil {
		return "", fmt.Errorf("no anchor %s (set BOARDSAT_ANCHORS to its directory)", src)
	}
	return src, nil
}

// queensAnchorBuild compiles the anchor into a temporary directory, or
// skips the benchmark with the reason.
func queensAnchorBuild(b *testing.B) string {
	src, err := queensAnchorSource()
	if err != nil {
		b.Skipf("C anchor unavailable: %v", err)
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		b.Skip("C anchor unavailable: no gcc on PATH")
	}
	bin := filepath.Join(b.TempDir(), "nqtk")
	// The build line of the anchors' README.
	if out, err := exec.Command(gcc, "-O3", "-march=native", "-pthread", "-o", bin, src).CombinedOutput(); err != nil {
		b.Fatalf("building the anchor: %v\n%s", err, out)
	}
	return bin
}

// queensAnchorRun runs the anchor on queens:n with the given threads and
// checks the count it prints ("N count seconds").
func queensAnchorRun(b *testing.B, bin string, n, threads int, want uint64) {
	out, err := exec.Command(bin, strconv.Itoa(n), strconv.Itoa(threads)).Output()
	if err != nil {
		b.Fatalf("anchor on queens:%d: %v", n, err)
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		b.Fatalf("anchor on queens:%d printed %q", n, out)
	}
	if got, err := strconv.ParseUint(f[1], 10, 64); err != nil || got != want {
		b.Fatalf("anchor on queens:%d counted %q, want %d", n, f[1], want)
	}
}

// BenchmarkQueensVsAnchor counts queens:15..18 with the constellations
// strategy and with the C anchor, on one thread and two, side by side:
// sub-benchmarks n=N/threads=T/boardsat and n=N/threads=T/nqtk. Run with
// -benchtime 1x -count 5 and compare the medians (benchstat). queens:18
// takes minutes on one thread; -short stops at 17.
func BenchmarkQueensVsAnchor(b *testing.B) {
	bin := queensAnchorBuild(b)
	for n := 15; n <= 18; n++ {
		if n == 18 && testing.Short() {
			break
		}
		want, _ := puzzle.KnownCount(puzzle.Queens{N: n}, puzzle.Count)
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/threads=%d/boardsat", n, threads), func(b *testing.B) {
				queensCPUMetric(b, syscall.RUSAGE_SELF, func() { queensCountWith(b, "constellations", n, threads, want) })
			})
			b.Run(fmt.Sprintf("n=%d/threads=%d/nqtk", n, threads), func(b *testing.B) {
				queensCPUMetric(b, syscall.RUSAGE_CHILDREN, func() { queensAnchorRun(b, bin, n, threads, want) })
			})
		}
	}
}

// queensCountWith counts queens:n with a strategy and checks the count.
func queensCountWith(b *testing.B, name string, n, threads int, want uint64) {
	req := puzzle.Request{Spec: puzzle.Queens{N: n}, Task: puzzle.Count, Heuristic: name, Threads: threads}
	ans, err := search.Solve(b.Context(), req)
	if err != nil || ans.Status != puzzle.OK || ans.Count != want {
		b.Fatalf("queens:%d %s: status %s count %d err %v, want %d", n, name, ans.Status, ans.Count, err, want)
	}
}

// BenchmarkQueens18Two counts queens:18 (666,090,624) on two threads with
// the constellations strategy (target: at most 25 s).
func BenchmarkQueens18Two(b *testing.B) { benchmarkQueensTwo(b, 18) }

// BenchmarkQueens19Two counts queens:19 (4,968,057,848) on two threads with
// the constellations strategy (target: under 4 minutes).
func BenchmarkQueens19Two(b *testing.B) { benchmarkQueensTwo(b, 19) }

// benchmarkQueensTwo counts queens:n on two threads with the constellations
// strategy and checks the published count; skipped with -short.
func benchmarkQueensTwo(b *testing.B, n int) {
	if testing.Short() {
		b.Skipf("queens:%d is skipped with -short", n)
	}
	want, _ := puzzle.KnownCount(puzzle.Queens{N: n}, puzzle.Count)
	for b.Loop() {
		queensCountWith(b, "constellations", n, 2, want)
	}
}

// BenchmarkQueensUnique17 counts the classes of queens:17 (A002562) with
// the constellations strategy on all cores.
func BenchmarkQueensUnique17(b *testing.B) {
	if testing.Short() {
		b.Skip("queens:17 is skipped with -short")
	}
	want, _ := puzzle.KnownCount(puzzle.Queens{N: 17}, puzzle.Unique)
	for b.Loop() {
		ans := queensSolve(b, "constellations", 17, puzzle.Unique, nil)
		if ans.Count != want {
			b.Fatalf("unique count %d, want %d", ans.Count, want)
		}
	}
}
