package queens

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// queensSolve runs one strategy on queens:n.
func queensSolve(t testing.TB, name string, n int, task puzzle.Task, emit func(puzzle.Solution) error) puzzle.Answer {
	t.Helper()
	req := puzzle.Request{Spec: puzzle.Queens{N: n}, Task: task, Heuristic: name, Emit: emit}
	ans, err := search.Solve(context.Background(), req)
	if err != nil {
		t.Fatalf("queens:%d %s %s: %v", n, name, task, err)
	}
	return ans
}

func TestQueensCounts(t *testing.T) {
	for _, name := range []string{"plain", "bitboard", "symmetric", "constellations"} {
		maxN := 12
		if name == "symmetric" && !testing.Short() {
			maxN = 14
		}
		if name == "constellations" {
			// The range, 1..17: queens:17 takes about 10 s of
			// one core for count and unique together (5 s of wall on two
			// cores); 18 and 19 live in the benchmarks.
			maxN = 14
			if !testing.Short() {
				maxN = 17
			}
		}
		for n := 1; n <= maxN; n++ {
			for _, task := range []puzzle.Task{puzzle.Count, puzzle.Unique} {
				want, ok := puzzle.KnownCount(puzzle.Queens{N: n}, task)
				if !ok {
					t.Fatalf("no known %s for queens:%d", task, n)
				}
				ans := queensSolve(t, name, n, task, nil)
				if ans.Status != puzzle.OK || ans.Count != want {
					t.Errorf("queens:%d %s %s: status %s count %d, want %d", n, name, task, ans.Status, ans.Count, want)
				}
				// symmetric hands boards below queensSymMin to bitboard
				// and says so.
				wantName := name
				if name == "symmetric" && n < queensSymMin || name == "constellations" && n < queensConstMin {
					wantName = "bitboard"
				}
				if ans.Heuristic != wantName {
					t.Errorf("queens:%d %s: answer names heuristic %q, want %q", n, name, ans.Heuristic, wantName)
				}
				if ans.Stats[puzzle.StatNodes] <= 0 && want > 0 {
					t.Errorf("queens:%d %s %s: no nodes reported", n, name, task)
				}
			}
		}
	}
}

func TestQueensSymmetricThreads(t *testing.T) {
	// The count must not depend on the number of goroutines.
	for _, name := range []string{"symmetric", "constellations"} {
		for _, task := range []puzzle.Task{puzzle.Count, puzzle.Unique} {
			want, _ := puzzle.KnownCount(puzzle.Queens{N: 11}, task)
			for _, threads := range []int{1, 2, 3, 8} {
				req := puzzle.Request{Spec: puzzle.Queens{N: 11}, Task: task, Heuristic: name, Threads: threads}
				ans, err := search.Solve(context.Background(), req)
				if err != nil || ans.Status != puzzle.OK || ans.Count != want {
					t.Errorf("%s %s threads %d: status %s count %d err %v, want %d", name, task, threads, ans.Status, ans.Count, err, want)
				}
			}
		}
	}
}

func TestQueensFirstAll(t *testing.T) {
	for _, name := range []string{"plain", "bitboard", "symmetric", "constellations"} {
		for n := 1; n <= 9; n++ {
			spec := puzzle.Queens{N: n}
			want, _ := puzzle.KnownCount(spec, puzzle.Count)
			seen := map[string]bool{}
			ans := queensSolve(t, name, n, puzzle.All, func(s puzzle.Solution) error {
				if err := puzzle.Check(spec, s); err != nil {
					t.Errorf("queens:%d %s all: bad solution: %v\n%s", n, name, err, s.Text())
				}
				seen[s.Text()] = true
				return nil
			})
			if ans.Count != want || uint64(len(seen)) != want {
				t.Errorf("queens:%d %s all: count %d, %d distinct, want %d", n, name, ans.Count, len(seen), want)
			}
			first := queensSolve(t, name, n, puzzle.First, nil)
			if want == 0 {
				if first.Status != puzzle.Unsat || first.Solution != nil {
					t.Errorf("queens:%d %s first: status %s, want unsat", n, name, first.Status)
				}
				continue
			}
			if first.Status != puzzle.OK || first.Solution == nil {
				t.Fatalf("queens:%d %s first: status %s, no solution", n, name, first.Status)
			}
			if err := puzzle.Check(spec, *first.Solution); err != nil {
				t.Errorf("queens:%d %s first: %v", n, name, err)
			}
		}
	}
}

func TestQueensFirstLarge(t *testing.T) {
	// A first solution on boards far beyond counting range.
	for _, name := range []string{"plain", "bitboard"} {
		for _, n := range []int{20, 24, 26} {
			ans := queensSolve(t, name, n, puzzle.First, nil)
			if ans.Status != puzzle.OK || ans.Solution == nil {
				t.Fatalf("queens:%d %s first: status %s", n, name, ans.Status)
			}
			if err := puzzle.Check(puzzle.Queens{N: n}, *ans.Solution); err != nil {
				t.Errorf("queens:%d %s first: %v", n, name, err)
			}
		}
	}
}

func TestQueensCanonical(t *testing.T) {
	// Of the eight images of an asymmetric 8-queens solution exactly one is
	// canonical; a symmetric 10-queens class has fewer images.
	cols := []int{0, 4, 7, 5, 2, 6, 1, 3}
	inv := make([]int, len(cols))
	images := map[string]bool{}
	canon := 0
	for g := range 8 {
		for r, c := range cols {
			inv[c] = r
		}
		img := make([]int, len(cols))
		for x := range img {
			img[x] = queensImage(g, cols, inv, x)
		}
		if err := puzzle.Check(puzzle.Queens{N: 8}, queensSolution(8, img)); err != nil {
			t.Fatalf("image %d is no solution: %v", g, err)
		}
		if !images[fmt.Sprint(img)] && queensCanonical(img, make([]int, len(img))) {
			canon++
		}
		images[fmt.Sprint(img)] = true
	}
	if len(images) != 8 || canon != 1 {
		t.Errorf("%d distinct images, %d canonical; want 8 and 1", len(images), canon)
	}
}

func TestQueensBadInput(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		n    int
		task puzzle.Task
	}{
		{"bitboard", 65, puzzle.First},
		{"symmetric", 29, puzzle.Count},
		{"constellations", 29, puzzle.Unique},
		{"plain", 30, puzzle.Unique},
		{"plain", 8, puzzle.Shortest},
	} {
		req := puzzle.Request{Spec: puzzle.Queens{N: c.n}, Task: c.task, Heuristic: c.name}
		if _, err := search.Solve(ctx, req); err == nil {
			t.Errorf("queens:%d %s %s: no error", c.n, c.name, c.task)
		}
	}
}

func TestQueensTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range []string{"plain", "bitboard", "symmetric", "constellations"} {
		req := puzzle.Request{Spec: puzzle.Queens{N: 20}, Task: puzzle.Count, Heuristic: name}
		ans, err := search.Solve(ctx, req)
		if err != nil || ans.Status != puzzle.Timeout {
			t.Errorf("%s on a cancelled context: status %s err %v, want timeout", name, ans.Status, err)
		}
		// A deadline that passes while the search (hours long) runs.
		dl, stop := context.WithTimeout(context.Background(), 20*time.Millisecond)
		ans, err = search.Solve(dl, req)
		stop()
		if err != nil || ans.Status != puzzle.Timeout {
			t.Errorf("%s past its deadline: status %s err %v, want timeout", name, ans.Status, err)
		}
	}
}

func TestQueensStrategiesListed(t *testing.T) {
	var names []string
	for _, s := range search.Strategies("queens") {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"plain", "bitboard", "symmetric", "constellations"}) {
		t.Errorf("queens strategies %v", names)
	}
}

func benchmarkQueens(b *testing.B, n int) {
	want, _ := puzzle.KnownCount(puzzle.Queens{N: n}, puzzle.Count)
	for b.Loop() {
		ans := queensSolve(b, "", n, puzzle.Count, nil)
		if ans.Count != want {
			b.Fatalf("count %d, want %d", ans.Count, want)
		}
	}
}

// BenchmarkQueens16 counts queens:16 with the default (constellations)
// strategy on all cores.
func BenchmarkQueens16(b *testing.B) { benchmarkQueens(b, 16) }

// BenchmarkQueens17 counts queens:17 with the default (constellations)
// strategy on all cores.
func BenchmarkQueens17(b *testing.B) {
	if testing.Short() {
		b.Skip("queens:17 is skipped with -short")
	}
	benchmarkQueens(b, 17)
}

// BenchmarkQueens12Plain counts queens:12 with the plain backtracker.
func BenchmarkQueens12Plain(b *testing.B) {
	for b.Loop() {
		queensSolve(b, "plain", 12, puzzle.Count, nil)
	}
}

// BenchmarkQueens14Bitboard counts queens:14 with the bitboard search.
func BenchmarkQueens14Bitboard(b *testing.B) {
	for b.Loop() {
		queensSolve(b, "bitboard", 14, puzzle.Count, nil)
	}
}

// TestQueensSymWorkerStops checks that a worker of the symmetric counter
// gives up a subproblem soon after another worker stops the search: with
// the stop flag raised before it starts, it must halt at its first poll
// (within a few thousand calls) instead of finishing the subproblem.
func TestQueensSymWorkerStops(t *testing.T) {
	const n = 18
	var free atomic.Bool
	gen := newQueensSym(context.Background(), n, &free)
	gen.split = queensSplitRow
	gen.setB1(1)
	bit := uint64(1) << 1
	gen.edge(1, bit<<1, bit, bit>>1, []uint64{bit})
	if len(gen.tasks) == 0 {
		t.Fatal("no subproblems generated")
	}
	task := &gen.tasks[0]
	full := newQueensSym(context.Background(), n, &free)
	full.run(task)
	var stop atomic.Bool
	stop.Store(true)
	w := newQueensSym(context.Background(), n, &stop)
	w.run(task)
	const bound = 64 * (queensPollMask + 1)
	if full.res.nodes <= 4*bound {
		t.Fatalf("subproblem too small to tell: %d nodes", full.res.nodes)
	}
	if !w.halted || w.res.nodes > bound {
		t.Errorf("stopped worker: halted %v after %d nodes, want halted within %d (full subproblem: %d)",
			w.halted, w.res.nodes, bound, full.res.nodes)
	}
}
