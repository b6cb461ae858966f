package pieces

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// piecesNames lists every pieces strategy.
var piecesNames = []string{"copies", "free", "lookahead", "copies-lifted", "free-lifted", "lookahead-lifted", "fast"}

// piecesSolve runs one strategy.
func piecesSolve(t testing.TB, name string, spec puzzle.Spec, task puzzle.Task, threads int, emit func(puzzle.Solution) error) puzzle.Answer {
	t.Helper()
	req := puzzle.Request{Spec: spec, Task: task, Heuristic: name, Threads: threads, Emit: emit}
	ans, err := search.Solve(context.Background(), req)
	if err != nil {
		t.Fatalf("%s %s %s: %v", spec, name, task, err)
	}
	if ans.Status == puzzle.Timeout || ans.Status == puzzle.Error {
		t.Fatalf("%s %s %s: status %s", spec, name, task, ans.Status)
	}
	return ans
}

// piecesBrute counts the placements of p by enumerating every way to put
// its pieces on distinct squares (each kind's copies in increasing square
// order) and keeping those puzzle.Check accepts.
func piecesBrute(p puzzle.Pieces) uint64 {
	n := p.Board.Size()
	layout := make([]puzzle.Kind, n)
	for i := range layout {
		layout[i] = puzzle.NoPiece
	}
	var kinds []puzzle.Kind
	for k := range puzzle.Kind(puzzle.NumKinds) {
		for range p.Count[k] {
			kinds = append(kinds, k)
		}
	}
	var count uint64
	var walk func(i, from int)
	walk = func(i, from int) {
		if i == len(kinds) {
			if puzzle.Check(p, puzzle.Solution{Board: p.Board, Layout: layout}) == nil {
				count++
			}
			return
		}
		if i > 0 && kinds[i] != kinds[i-1] {
			from = 0
		}
		for q := from; q < n; q++ {
			if layout[q] != puzzle.NoPiece {
				continue
			}
			layout[q] = kinds[i]
			walk(i+1, q+1)
			layout[q] = puzzle.NoPiece
		}
	}
	walk(0, 0)
	return count
}

// piecesMultisets returns every multiset of exactly size pieces.
func piecesMultisets(size int) [][puzzle.NumKinds]int {
	var out [][puzzle.NumKinds]int
	var c [puzzle.NumKinds]int
	var walk func(k, left int)
	walk = func(k, left int) {
		if k == puzzle.NumKinds-1 {
			c[k] = left
			out = append(out, c)
			return
		}
		for x := left; x >= 0; x-- {
			c[k] = x
			walk(k+1, left-x)
		}
	}
	walk(0, size)
	return out
}

func TestPiecesPublished(t *testing.T) {
	for _, c := range []struct {
		spec  string
		names []string
	}{
		{"pieces:3x3:K1R2", piecesNames},
		{"pieces:4x4:R2N4", piecesNames},
		{"pieces:7x7:K2Q2B2N1", []string{"fast", "free-lifted"}}, // the fastest seed strategy
	} {
		spec := puzzle.MustParse(c.spec)
		want, ok := puzzle.KnownCount(spec, puzzle.Count)
		if !ok {
			t.Fatalf("no known count for %s", c.spec)
		}
		for _, name := range c.names {
			ans := piecesSolve(t, name, spec, puzzle.Count, 0, nil)
			if ans.Count != want || ans.Status != puzzle.OK {
				t.Errorf("%s %s: status %s count %d, want %d", c.spec, name, ans.Status, ans.Count, want)
			}
			if ans.Heuristic != name {
				t.Errorf("%s: answer names heuristic %q, want %q", c.spec, ans.Heuristic, name)
			}
			if ans.Stats[puzzle.StatNodes] <= 0 {
				t.Errorf("%s %s: no nodes reported", c.spec, name)
			}
		}
	}
}

// piecesSweep lists the small instances every strategy must agree on.
func piecesSweep() []puzzle.Pieces {
	var out []puzzle.Pieces
	for w := 1; w <= 4; w++ {
		for h := 1; h <= 4; h++ {
			maxSize := 4
			if w*h > 12 {
				maxSize = 3 // 4x4 with four pieces: a selection below
			}
			for size := 1; size <= maxSize; size++ {
				for _, c := range piecesMultisets(size) {
					if size <= w*h {
						out = append(out, puzzle.Pieces{Board: puzzle.Board{W: w, H: h}, Count: c})
					}
				}
			}
		}
	}
	for _, spec := range []string{
		"pieces:4x4:K1Q1B1N1", "pieces:4x4:R2N2", "pieces:4x4:K2B2", "pieces:4x3:K1R1B1N1",
		"pieces:3x4:Q1N3", "pieces:4x4:B4", "pieces:4x4:N4", "pieces:4x4:K4", "pieces:2x4:R2B2",
		"pieces:5x5:K1Q1B1N1", "pieces:5x5:Q2N2", "pieces:5x5:R2B2", "pieces:5x5:K2N2",
		"pieces:5x4:K1Q1R1N1", "pieces:5x5:Q3", "pieces:5x5:B3N1", "pieces:5x5:K3R1",
	} {
		out = append(out, puzzle.MustParse(spec).(puzzle.Pieces))
	}
	return out
}

func TestPiecesSweep(t *testing.T) {
	for _, p := range piecesSweep() {
		want := piecesBrute(p)
		for _, name := range piecesNames {
			ans := piecesSolve(t, name, p, puzzle.Count, 0, nil)
			if ans.Count != want {
				t.Errorf("%s %s: count %d, brute force %d", p, name, ans.Count, want)
			}
		}
	}
}

func TestPiecesFastThreads(t *testing.T) {
	// Subproblems and symmetry weights must not depend on the goroutines.
	for _, spec := range []string{"pieces:5x6:K2Q1N2", "pieces:6x6:Q2R1B1", "pieces:5x5:N5"} {
		p := puzzle.MustParse(spec)
		want := piecesSolve(t, "copies-lifted", p, puzzle.Count, 0, nil).Count
		for _, threads := range []int{1, 2, 5} {
			if got := piecesSolve(t, "fast", p, puzzle.Count, threads, nil).Count; got != want {
				t.Errorf("%s fast threads %d: %d, copies-lifted %d", spec, threads, got, want)
			}
		}
	}
}

func TestPiecesWide(t *testing.T) {
	// Boards past 64 squares use the four-word engine, checked against
	// copies-lifted (a different search). Past 256 squares fast hands the
	// board to copies-lifted itself, so those are checked against closed
	// forms below instead.
	for _, spec := range []string{"pieces:9x8:Q2R1N1", "pieces:11x7:K2B1N1", "pieces:16x16:Q1R1"} {
		p := puzzle.MustParse(spec)
		want := piecesSolve(t, "copies-lifted", p, puzzle.Count, 0, nil).Count
		if got := piecesSolve(t, "fast", p, puzzle.Count, 0, nil).Count; got != want {
			t.Errorf("%s fast: %d, copies-lifted %d", spec, got, want)
		}
		if testing.Short() {
			break
		}
	}
	// Two rooks on WxH: choose two squares in different files and ranks,
	// n(n-W-H+1)/2 with n = WH; two knights: C(n,2) minus the attacking pairs.
	for _, wh := range [][2]int{{16, 17}, {17, 16}, {20, 13}} {
		w, h := uint64(wh[0]), uint64(wh[1])
		n := w * h
		want := n * (n - w - h + 1) / 2
		spec := fmt.Sprintf("pieces:%dx%d:R2", w, h)
		if got := piecesSolve(t, "fast", puzzle.MustParse(spec), puzzle.Count, 0, nil).Count; got != want {
			t.Errorf("%s fast: %d, want %d", spec, got, want)
		}
		// Knights attack along 2x1 and 1x2 moves: 2(W-1)(H-2) + 2(W-2)(H-1) pairs.
		attacks := 2*(w-1)*(h-2) + 2*(w-2)*(h-1)
		spec = fmt.Sprintf("pieces:%dx%d:N2", w, h)
		if got := piecesSolve(t, "fast", puzzle.MustParse(spec), puzzle.Count, 0, nil).Count; got != n*(n-1)/2-attacks {
			t.Errorf("%s fast: %d, want %d", spec, got, n*(n-1)/2-attacks)
		}
	}
}

func TestPiecesFirstAll(t *testing.T) {
	specs := []string{"pieces:3x3:K1R2", "pieces:4x4:R2N4", "pieces:4x4:K1Q1B1N1", "pieces:5x5:Q2N2",
		"pieces:3x3:Q3", "pieces:9x8:Q8", "pieces:5x4:K1Q1R1N1"}
	for _, s := range specs {
		spec := puzzle.MustParse(s)
		for _, name := range piecesNames {
			want := piecesSolve(t, name, spec, puzzle.Count, 0, nil).Count
			seen := map[string]bool{}
			ans := piecesSolve(t, name, spec, puzzle.All, 0, func(sol puzzle.Solution) error {
				if err := puzzle.Check(spec, sol); err != nil {
					t.Errorf("%s %s all: %v\n%s", s, name, err, sol.Text())
				}
				seen[sol.Text()] = true
				return nil
			})
			if ans.Count != want || uint64(len(seen)) != want {
				t.Errorf("%s %s all: count %d, %d distinct, want %d", s, name, ans.Count, len(seen), want)
			}
			first := piecesSolve(t, name, spec, puzzle.First, 0, nil)
			if want == 0 {
				if first.Status != puzzle.Unsat {
					t.Errorf("%s %s first: status %s, want unsat", s, name, first.Status)
				}
				continue
			}
			if first.Solution == nil {
				t.Fatalf("%s %s first: no solution", s, name)
			}
			if err := puzzle.Check(spec, *first.Solution); err != nil {
				t.Errorf("%s %s first: %v", s, name, err)
			}
		}
	}
}

func TestPiecesBadInput(t *testing.T) {
	p := puzzle.Pieces{Board: puzzle.Board{W: 2, H: 2}, Count: [puzzle.NumKinds]int{puzzle.Knight: 5}}
	for _, name := range []string{"fast", "copies"} {
		if _, err := search.Solve(context.Background(), puzzle.Request{Spec: p, Task: puzzle.Count, Heuristic: name}); err == nil {
			t.Errorf("%s: 5 knights on 4 squares gave no error", name)
		}
	}
	req := puzzle.Request{Spec: puzzle.MustParse("pieces:3x3:K1R2"), Task: puzzle.Count, Heuristic: "nosuch"}
	if _, err := search.Solve(context.Background(), req); err == nil {
		t.Error("unknown heuristic gave no error")
	}
}

func TestPiecesTimeout(t *testing.T) {
	// A context that is already done, and one whose deadline passes while
	// the search (minutes long) runs: every strategy must stop with status
	// timeout.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range piecesNames {
		for _, spec := range []string{"pieces:8x8:K3Q1B2R2N3", "pieces:10x10:K3Q1B2R2N3"} {
			req := puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count, Heuristic: name}
			ans, err := search.Solve(cancelled, req)
			if err != nil || ans.Status != puzzle.Timeout {
				t.Errorf("%s %s on a cancelled context: status %s err %v, want timeout", spec, name, ans.Status, err)
			}
			ctx, stop := context.WithTimeout(context.Background(), 20*time.Millisecond)
			ans, err = search.Solve(ctx, req)
			stop()
			if err != nil || ans.Status != puzzle.Timeout {
				t.Errorf("%s %s past its deadline: status %s err %v, want timeout", spec, name, ans.Status, err)
			}
		}
	}
}

func TestPiecesQueens(t *testing.T) {
	// n queens on an n x n board is N-Queens: every strategy must give the
	// published count (9x9 runs on the four-word engine).
	for n := 1; n <= 9; n++ {
		spec := puzzle.Pieces{Board: puzzle.Board{W: n, H: n}, Count: [puzzle.NumKinds]int{puzzle.Queen: n}}
		want, _ := puzzle.KnownCount(puzzle.Queens{N: n}, puzzle.Count)
		for _, name := range piecesNames {
			if got := piecesSolve(t, name, spec, puzzle.Count, 0, nil).Count; got != want {
				t.Errorf("%s %s: %d, want %d", spec, name, got, want)
			}
		}
	}
}

func benchmarkPieces(b *testing.B, name, spec string) {
	p := puzzle.MustParse(spec)
	var count uint64
	for b.Loop() {
		ans := piecesSolve(b, name, p, puzzle.Count, 0, nil)
		if count != 0 && ans.Count != count {
			b.Fatalf("count changed: %d then %d", count, ans.Count)
		}
		count = ans.Count
	}
	b.ReportMetric(float64(count), "solutions")
}

// BenchmarkPieces7x8 counts the seed's instance with the fast counter.
func BenchmarkPieces7x8(b *testing.B) { benchmarkPieces(b, "fast", "pieces:7x8:K3Q1B2R2N3") }

// BenchmarkPiecesSeed runs each seed strategy on 6x6 K2Q1B1R1N2.
func BenchmarkPiecesSeed(b *testing.B) {
	for _, name := range piecesNames[:6] {
		b.Run(name, func(b *testing.B) { benchmarkPieces(b, name, "pieces:6x6:K2Q1B1R1N2") })
	}
}
