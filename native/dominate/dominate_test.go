package dominate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

func solve(t testing.TB, spec, heuristic string, task puzzle.Task) puzzle.Answer {
	t.Helper()
	ans, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Heuristic: heuristic})
	if err != nil {
		t.Fatalf("%s %s %s: %v", spec, heuristic, task, err)
	}
	if ans.Status != puzzle.OK && ans.Status != puzzle.Unsat {
		t.Fatalf("%s %s %s: status %s (%s)", spec, heuristic, task, ans.Status, ans.Message)
	}
	return ans
}

// value is an answer's number for comparison: the optimum, the count, or
// "unsat".
func value(ans puzzle.Answer, task puzzle.Task) string {
	switch {
	case ans.Status == puzzle.Unsat:
		return "unsat"
	case task == puzzle.Optimum:
		return fmt.Sprintf("%v/%v", ans.Objective, ans.Bound)
	case task == puzzle.First:
		return "found"
	}
	return ans.CountString()
}

// TestQueenDominationNumber: the optimum with proof is OEIS A075458 for
// n = 1..11, the solution passes the checker, and the bound equals the
// objective (the search proved that one fewer does not dominate).
func TestQueenDominationNumber(t *testing.T) {
	a075458 := []int64{1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5}
	for i, want := range a075458 {
		spec := fmt.Sprintf("dominate:%dx%d:Q", i+1, i+1)
		ans := solve(t, spec, "", puzzle.Optimum)
		if ans.Status != puzzle.OK || ans.Objective == nil || ans.Objective.Int64() != want || ans.Bound == nil || ans.Bound.Int64() != want {
			t.Errorf("%s: %s objective %v bound %v, A075458 says %d", spec, ans.Status, ans.Objective, ans.Bound, want)
			continue
		}
		if err := puzzle.Check(puzzle.MustParse(spec), *ans.Solution); err != nil {
			t.Errorf("%s: optimal set rejected: %v", spec, err)
		}
	}
}

// TestQueenDominatingSets: the number of minimum queen dominating sets is
// OEIS A002564 for n = 1..12, and of minimum independent ones OEIS A002568
// for n = 1..12 (the values are the puzzle's published tables).
func TestQueenDominatingSets(t *testing.T) {
	a002564 := []uint64{1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8}
	for i, want := range a002564 {
		spec := fmt.Sprintf("dominate:%dx%d:Q", i+1, i+1)
		if pub, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count); !ok || pub != want {
			t.Fatalf("%s: table says %d %v, A002564 %d", spec, pub, ok, want)
		}
		if got := solve(t, spec, "", puzzle.Count); got.Status != puzzle.OK || got.Count != want {
			t.Errorf("%s: %s %d sets, A002564 says %d", spec, got.Status, got.Count, want)
		}
	}
	for n := 1; n <= 12; n++ {
		spec := fmt.Sprintf("dominate:%dx%d:Q:independent", n, n)
		want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
		if !ok {
			t.Fatalf("%s: no published count", spec)
		}
		if got := solve(t, spec, "", puzzle.Count); got.Status != puzzle.OK || got.Count != want {
			t.Errorf("%s: %s %d sets, A002568 says %d", spec, got.Status, got.Count, want)
		}
	}
}

// TestQueenIndependentSets: beyond the n = 1..12 of
// TestQueenDominatingSets, the minimum independent queen dominating sets
// of n = 13 and 14 are A002568 (24 and 436, the puzzle's table), and the
// unique count equals the classes the count reports (one search gives
// both). n = 14 costs about a second of CPU: skipped with -short.
func TestQueenIndependentSets(t *testing.T) {
	for n := 13; n <= 14; n++ {
		if n == 14 && testing.Short() {
			t.Skip("n = 14 takes about a second of CPU")
		}
		spec := fmt.Sprintf("dominate:%dx%d:Q:independent", n, n)
		want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
		if !ok {
			t.Fatalf("%s: no published count", spec)
		}
		count, unique := solve(t, spec, "", puzzle.Count), solve(t, spec, "", puzzle.Unique)
		if count.Status != puzzle.OK || count.Count != want {
			t.Errorf("%s: %s %d sets, A002568 says %d", spec, count.Status, count.Count, want)
		}
		if got := count.Stats[statClasses]; unique.Status != puzzle.OK || got != int64(unique.Count) || unique.Stats[statSets] != int64(want) {
			t.Errorf("%s: count reports %d classes, unique counts %d (%s) and reports %d sets", spec, got, unique.Count, unique.Status, unique.Stats[statSets])
		}
	}
}

// TestQueenDominatingClasses: the unique count (minimum sets up to the 8
// symmetries) is the published A002563 for n = 1..12.
func TestQueenDominatingClasses(t *testing.T) {
	for n := 1; n <= 12; n++ {
		spec := fmt.Sprintf("dominate:%dx%d:Q", n, n)
		want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Unique)
		if !ok {
			t.Fatalf("%s: no published unique count", spec)
		}
		if got := solve(t, spec, "", puzzle.Unique); got.Status != puzzle.OK || got.Count != want {
			t.Errorf("%s: %s %d classes, A002563 says %d", spec, got.Status, got.Count, want)
		}
	}
}

// TestCountAndUniqueOneSearch: one search over the canonical set of each
// class gives both counts: a count reports its classes and a unique count
// its sets, each equal to the other task's answer, on square and oblong
// boards, every piece, with k= (sets of at most K) and independence.
func TestCountAndUniqueOneSearch(t *testing.T) {
	for _, spec := range []string{"dominate:8x8:Q", "dominate:7x7:Q:k=5", "dominate:9x9:Q:independent", "dominate:6x4:Q", "dominate:5x3:Q:k=4",
		"dominate:6x6:K", "dominate:5x7:N", "dominate:6x6:B:k=6", "dominate:5x5:R:independent", "dominate:7x5:K:independent"} {
		count, unique := solve(t, spec, "bnb", puzzle.Count), solve(t, spec, "bnb", puzzle.Unique)
		if count.Status != puzzle.OK || unique.Status != puzzle.OK {
			t.Fatalf("%s: count %s, unique %s", spec, count.Status, unique.Status)
		}
		if got := count.Stats[statClasses]; got != int64(unique.Count) {
			t.Errorf("%s: count reports %d classes, unique counts %d", spec, got, unique.Count)
		}
		if got := unique.Stats[statSets]; got != int64(count.Count) {
			t.Errorf("%s: unique reports %d sets, count counts %d", spec, got, count.Count)
		}
		if count.Count < unique.Count || count.Count > 8*unique.Count {
			t.Errorf("%s: %d sets in %d classes of at most 8", spec, count.Count, unique.Count)
		}
	}
}

// TestOrbitRoots: the roots of a count over classes are the squares that
// are least in their orbit, one per orbit of squares (queens n x n:
// (m+1)(m+2)/2 with m = ceil(n/2)-1), in rank order, each allowing only
// squares whose orbit's least square is not before it.
func TestOrbitRoots(t *testing.T) {
	for n := 1; n <= 9; n++ {
		g := newGeom(puzzle.MustParse(fmt.Sprintf("dominate:%dx%d:Q", n, n)).(puzzle.Dominate))
		o := newOrbitSplit(g)
		roots := o.roots(newEngine(context.Background(), g, false, n))
		m := (n+1)/2 - 1
		if len(roots) != (m+1)*(m+2)/2 {
			t.Errorf("n=%d: %d roots, want %d", n, len(roots), (m+1)*(m+2)/2)
		}
		for i, r := range roots {
			lead := r.chosen[0]
			if o.least[lead] != o.rank[lead] || (i > 0 && o.rank[roots[i-1].chosen[0]] >= o.rank[lead]) {
				t.Errorf("n=%d: root %d leads with square %d (rank %d, orbit least %d)", n, i, lead, o.rank[lead], o.least[lead])
			}
			for s := range g.n {
				if want := s != int(lead) && o.least[s] >= o.rank[lead]; hasBit(r.allow, s) != want {
					t.Errorf("n=%d root %d: square %d allowed %v, want %v", n, lead, s, !want, want)
				}
			}
		}
	}
}

// TestOtherPiecesPublished: knights (A006075, n = 1..8), kings, rooks and
// bishops: the optimum equals the puzzle's table wherever it has one.
func TestOtherPiecesPublished(t *testing.T) {
	var specs []string
	for n := 1; n <= 8; n++ {
		specs = append(specs, fmt.Sprintf("dominate:%dx%d:N", n, n), fmt.Sprintf("dominate:%dx%d:B", n, n))
	}
	for w := 1; w <= 7; w++ {
		for h := 1; h <= 6; h++ {
			specs = append(specs, fmt.Sprintf("dominate:%dx%d:K", w, h), fmt.Sprintf("dominate:%dx%d:R", w, h))
		}
	}
	for _, spec := range specs {
		want, ok := puzzle.KnownOptimum(puzzle.MustParse(spec))
		if !ok {
			t.Fatalf("%s: no published optimum", spec)
		}
		if ans := solve(t, spec, "", puzzle.Optimum); ans.Objective == nil || ans.Objective.Int64() != int64(want) {
			t.Errorf("%s: optimum %v, published %d", spec, ans.Objective, want)
		}
	}
}

// TestKBound: with k=K the optimum is the minimum when K allows it and
// unsat below; first finds a set of at most K exactly when one exists;
// count counts every dominating set of at most K pieces (not only the
// minimum ones), so it grows with K.
func TestKBound(t *testing.T) {
	for _, c := range []struct {
		spec, optimum, first, count string
	}{
		{"dominate:8x8:Q:k=4", "unsat", "unsat", "unsat"},
		{"dominate:8x8:Q:k=5", "5/5", "found", "4860"},
		{"dominate:8x8:Q:k=6", "5/5", "found", ""},
		{"dominate:4x4:Q:k=0", "unsat", "unsat", "unsat"},
		{"dominate:4x4:Q:k=2", "2/2", "found", "12"},
		{"dominate:3x3:K:k=2", "1/1", "found", "11"}, // b2 alone, b2 and any of 8, a2+c2, b1+b3
	} {
		for _, task := range []puzzle.Task{puzzle.Optimum, puzzle.First, puzzle.Count} {
			want := map[puzzle.Task]string{puzzle.Optimum: c.optimum, puzzle.First: c.first, puzzle.Count: c.count}[task]
			if want == "" {
				continue
			}
			for _, h := range []string{"bnb", "naive"} {
				ans := solve(t, c.spec, h, task)
				if got := value(ans, task); got != want {
					t.Errorf("%s %s %s: %s, want %s", c.spec, h, task, got, want)
				}
				if ans.Solution != nil {
					if err := puzzle.Check(puzzle.MustParse(c.spec), *ans.Solution); err != nil {
						t.Errorf("%s %s %s: solution rejected: %v", c.spec, h, task, err)
					}
				}
			}
		}
	}
}

// TestStrategiesAgree: bnb and naive give the same optimum, count and
// unique count on every small board, every piece, with and without
// independence and k=; all emits exactly count sets, each passing the
// checker and none twice.
func TestStrategiesAgree(t *testing.T) {
	var specs []string
	for _, p := range "QKRBN" {
		for _, wh := range [][2]int{{1, 1}, {2, 1}, {2, 2}, {3, 2}, {3, 3}, {4, 3}, {4, 4}, {5, 3}} {
			base := fmt.Sprintf("dominate:%dx%d:%c", wh[0], wh[1], p)
			specs = append(specs, base, base+":independent")
			if wh[0]*wh[1] >= 3 {
				specs = append(specs, base+":k=3", base+":k=2:independent")
			}
		}
	}
	for _, s := range specs {
		for _, task := range []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.Unique} {
			a, b := solve(t, s, "bnb", task), solve(t, s, "naive", task)
			if va, vb := value(a, task), value(b, task); va != vb {
				t.Errorf("%s %s: bnb %s, naive %s", s, task, va, vb)
			}
		}
		spec := puzzle.MustParse(s)
		seen := map[string]bool{}
		ans, err := search.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.All, Emit: func(sol puzzle.Solution) error {
			if err := puzzle.Check(spec, sol); err != nil {
				return err
			}
			key := fmt.Sprint(sol.Layout)
			if seen[key] {
				return fmt.Errorf("set emitted twice: %v", sol.Layout)
			}
			seen[key] = true
			return nil
		}})
		count := solve(t, s, "bnb", puzzle.Count)
		if err != nil || ans.Count != count.Count || uint64(len(seen)) != count.Count {
			t.Errorf("%s all: %v, %d emitted (%d distinct), count %d", s, err, ans.Count, len(seen), count.Count)
		}
	}
}

// TestStoppedOptimisation: an optimisation stopped by a limit reports
// status timeout with its best set and proven bound, never ok; counts
// stopped likewise are timeouts with no count.
func TestStoppedOptimisation(t *testing.T) {
	for _, h := range []string{"bnb", "naive"} {
		for _, spec := range []string{"dominate:22x22:Q", "dominate:30x30:N"} {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			s := puzzle.MustParse(spec)
			ans, err := search.Solve(ctx, puzzle.Request{Spec: s, Task: puzzle.Optimum, Heuristic: h})
			cancel()
			if err != nil || ans.Status != puzzle.Timeout {
				t.Fatalf("%s %s: %v status %s, want timeout", spec, h, err, ans.Status)
			}
			if h == "bnb" {
				if ans.Solution == nil || ans.Objective == nil || ans.Bound == nil || ans.Bound.Cmp(ans.Objective) > 0 {
					t.Errorf("%s %s: best %v bound %v, want a set and a bound at most its size", spec, h, ans.Objective, ans.Bound)
				} else if err := puzzle.Dominates(s.(puzzle.Dominate), *ans.Solution); err != nil {
					t.Errorf("%s %s: best set rejected: %v", spec, h, err)
				}
			}
			ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
			ans, err = search.Solve(ctx, puzzle.Request{Spec: s, Task: puzzle.Count, Heuristic: h})
			cancel()
			if err != nil || ans.Status != puzzle.Timeout || ans.Count != 0 {
				t.Errorf("%s %s count: %v status %s count %d, want timeout", spec, h, err, ans.Status, ans.Count)
			}
		}
	}
}

func benchQueens(b *testing.B, n int, task puzzle.Task) {
	spec := fmt.Sprintf("dominate:%dx%d:Q", n, n)
	for b.Loop() {
		solve(b, spec, "", task)
	}
}

func BenchmarkDominateQueens12Optimum(b *testing.B) { benchQueens(b, 12, puzzle.Optimum) }
func BenchmarkDominateQueens13Optimum(b *testing.B) { benchQueens(b, 13, puzzle.Optimum) }
func BenchmarkDominateQueens14Optimum(b *testing.B) { benchQueens(b, 14, puzzle.Optimum) }
func BenchmarkDominateQueens10Count(b *testing.B)   { benchQueens(b, 10, puzzle.Count) }
func BenchmarkDominateQueens11Count(b *testing.B)   { benchQueens(b, 11, puzzle.Count) }
func BenchmarkDominateQueens12Count(b *testing.B)   { benchQueens(b, 12, puzzle.Count) }
func BenchmarkDominateQueens13Count(b *testing.B)   { benchQueens(b, 13, puzzle.Count) }

// BenchmarkIndependentCount counts the minimum independent queen
// dominating sets (A002568) of n = 15..18 with the default strategy on
// every core, each checked against the published term. Not run in CI:
// n = 17 takes about half a minute of CPU and n = 18 about ten minutes
// (see docs/measurements/dominate-frontier.md).
func BenchmarkIndependentCount(b *testing.B) {
	for n := 15; n <= 18; n++ {
		spec := fmt.Sprintf("dominate:%dx%d:Q:independent", n, n)
		want, _ := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if ans := solve(b, spec, "", puzzle.Count); ans.Count != want {
					b.Fatalf("%s: %d sets, A002568 says %d", spec, ans.Count, want)
				}
			}
		})
	}
}

// TestThreadsAgree: the split count on one goroutine and on two gives
// A002564 for n = 1..9, and the same counts of sets of at most K and of
// independent sets (the root fold and the pool must not change a count).
func TestThreadsAgree(t *testing.T) {
	a002564 := []uint64{1, 4, 1, 12, 186, 4, 86, 4860, 114}
	specs := []string{"dominate:6x6:Q:k=3", "dominate:6x6:Q:independent", "dominate:6x6:K:k=5", "dominate:6x6:N:independent", "dominate:5x4:Q:k=3"}
	for n := 1; n <= len(a002564); n++ {
		specs = append(specs, fmt.Sprintf("dominate:%dx%d:Q", n, n))
	}
	for _, spec := range specs {
		var got [2]puzzle.Answer
		for i, threads := range []int{1, 2} {
			ans, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count, Threads: threads})
			if err != nil || ans.Status != puzzle.OK {
				t.Fatalf("%s threads=%d: %v %s (%s)", spec, threads, err, ans.Status, ans.Message)
			}
			got[i] = ans
		}
		if got[0].CountString() != got[1].CountString() {
			t.Errorf("%s: %s sets on one thread, %s on two", spec, got[0].CountString(), got[1].CountString())
		}
		var n int
		if _, err := fmt.Sscanf(spec, "dominate:%dx%d:Q", &n, &n); err == nil && !strings.Contains(spec, ":k=") && !strings.HasSuffix(spec, "independent") {
			if want := a002564[n-1]; got[0].Count != want {
				t.Errorf("%s: %d sets, A002564 says %d", spec, got[0].Count, want)
			}
		}
	}
}

// TestFoldKeepsCounts: the split folded by the root's symmetry weighs its
// subproblems so that their weighted counts add up to the unfolded split's
// count, on square boards of every piece, with k= and independent sets.
func TestFoldKeepsCounts(t *testing.T) {
	for _, spec := range []string{"dominate:6x6:Q", "dominate:7x7:Q:k=4", "dominate:6x6:Q:independent", "dominate:6x6:K:k=4", "dominate:5x5:R:k=5",
		"dominate:6x6:B", "dominate:6x6:N:independent", "dominate:5x5:N:k=6", "dominate:4x4:R:k=4:independent"} {
		d := puzzle.MustParse(spec).(puzzle.Dominate)
		g := newGeom(d)
		sigma := rootSymmetry(g)
		if sigma == nil {
			t.Fatalf("%s: no symmetry fixes the first branch square", spec)
		}
		limit := d.K
		if !d.HasK {
			best, _, _, err := optimum(context.Background(), puzzle.Request{Spec: d, Task: puzzle.Optimum}, g, d.Independent, g.n, new(atomic.Int64))
			if err != nil {
				t.Fatal(err)
			}
			limit = len(best)
		}
		var sums [2]uint64
		var sizes [2]int
		for i, s := range [][]int32{nil, sigma} {
			for depth := 1; depth <= 3; depth++ {
				tasks := newEngine(context.Background(), g, d.Independent, limit).expand(depth, s, nil)
				e := newEngine(context.Background(), g, d.Independent, limit)
				e.supersets = true
				var sum uint64
				for _, st := range tasks {
					e.count = 0
					e.run(st)
					sum += e.count * st.weight
				}
				if depth > 1 && sum != sums[i] {
					t.Errorf("%s fold=%v: %d sets split at depth %d, %d at depth 1", spec, s != nil, sum, depth, sums[i])
				}
				sums[i] = sum
				sizes[i] += len(tasks)
			}
		}
		if sums[0] != sums[1] || sums[0] == 0 {
			t.Errorf("%s: %d sets unfolded, %d folded", spec, sums[0], sums[1])
		}
	}
}

// TestCoverageUnrolled: the coverage bound over covers padded to four
// words (boards of at most 256 squares) or eight (at most 512) equals the
// general loop's on random undominated and allowed sets, for every piece.
func TestCoverageUnrolled(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1))
	for _, spec := range []string{"dominate:13x13:Q", "dominate:16x16:N", "dominate:7x9:K", "dominate:10x10:B", "dominate:12x11:R",
		"dominate:17x17:Q", "dominate:22x22:Q", "dominate:20x19:N", "dominate:18x15:B"} {
		g := newGeom(puzzle.MustParse(spec).(puzzle.Dominate))
		if (g.cover4 == nil) == (g.cover8 == nil) {
			t.Fatalf("%s: padded covers to four words %v, to eight %v", spec, g.cover4 != nil, g.cover8 != nil)
		}
		e := newEngine(context.Background(), g, false, g.n)
		for range 200 {
			und, allow := make([]uint64, g.words), make([]uint64, g.words)
			for s := range g.n {
				if rng.IntN(3) == 0 {
					setBit(und, s)
				}
				if rng.IntN(4) != 0 {
					setBit(allow, s)
				}
			}
			fast := e.coverage(und, allow)
			c4, c8 := g.cover4, g.cover8
			g.cover4, g.cover8 = nil, nil
			slow := e.coverage(und, allow)
			g.cover4, g.cover8 = c4, c8
			if fast != slow {
				t.Fatalf("%s: coverage bound %d unrolled, %d general", spec, fast, slow)
			}
		}
	}
}

// TestExistenceRoot: an existence search branches at the centre of an odd
// board, searching one candidate per orbit (queens n x n: the centre and,
// at each distance, one orthogonal and one diagonal square: n of 4n-3;
// knights on 5x3: the centre and one of the four corners),
// and keeps the reflection fold where no square has more than one
// symmetry besides the identity (even boards).
func TestExistenceRoot(t *testing.T) {
	for _, c := range []struct {
		spec        string
		order, kept int
	}{{"dominate:13x13:Q", 49, 13}, {"dominate:5x5:Q", 17, 5}, {"dominate:5x3:N", 5, 2}, {"dominate:14x14:Q", 0, 0}, {"dominate:4x6:K", 0, 0}} {
		o := existenceRoot(newGeom(puzzle.MustParse(c.spec).(puzzle.Dominate)))
		if c.order == 0 {
			if o != nil {
				t.Errorf("%s: orbit root %v, want none", c.spec, o.order)
			}
			continue
		}
		if o == nil {
			t.Errorf("%s: no orbit root", c.spec)
			continue
		}
		kept := 0
		for _, f := range o.first {
			if f {
				kept++
			}
		}
		if len(o.order) != c.order || kept != c.kept {
			t.Errorf("%s: %d candidates, %d searched; want %d, %d", c.spec, len(o.order), kept, c.order, c.kept)
		}
	}
}

// TestInterleave: the subproblems of a count are every task of the tree
// order once, in the order of their index modulo the stride.
func TestInterleave(t *testing.T) {
	xs := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	if got, want := fmt.Sprint(interleave(xs, 4)), "[0 4 8 1 5 9 2 6 3 7]"; got != want {
		t.Errorf("interleave by 4: %s, want %s", got, want)
	}
	if got := fmt.Sprint(interleave(xs, 20)); got != fmt.Sprint(xs) {
		t.Errorf("interleave by more than the length: %s", got)
	}
	g := newGeom(puzzle.MustParse("dominate:9x9:Q").(puzzle.Dominate))
	o := newOrbitSplit(g)
	tasks, depth := orbitTasks(context.Background(), g, false, 5, o, 500)
	plain := newEngine(context.Background(), g, false, 5).expandFrom(o.roots(newEngine(context.Background(), g, false, 5)), depth)
	key := func(ss []state) []string {
		var out []string
		for _, s := range ss {
			out = append(out, fmt.Sprint(s.chosen, s.allow))
		}
		slices.Sort(out)
		return out
	}
	if len(tasks) < 500 || !slices.Equal(key(tasks), key(plain)) {
		t.Errorf("%d tasks interleaved, %d in tree order, or not the same", len(tasks), len(plain))
	}
}

// TestResumeKeepsMinimum: a count whose checkpoint this build wrote
// resumes with the minimum named in it and does not prove it again. A
// first run counts dominate:13x13:Q:independent into a checkpoint but is
// stopped after a few subproblems; the resumed run searches fewer nodes
// than a whole count less the proof would allow only if it skipped the
// proof, and answers the whole count (A002568(13) = 24). A checkpoint of
// another task is not taken as a proven minimum.
func TestResumeKeepsMinimum(t *testing.T) {
	spec := puzzle.MustParse("dominate:13x13:Q:independent")
	ck := filepath.Join(t.TempDir(), "ck.json")
	run := func(ctx context.Context, task puzzle.Task, progress func(done, total int)) puzzle.Answer {
		t.Helper()
		a, err := bnbSolve(ctx, puzzle.Request{Spec: spec, Task: task, Threads: 1,
			Split: &puzzle.SplitOptions{Checkpoint: ck, CheckpointEvery: time.Nanosecond, Progress: progress}})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	// The proof of the minimum alone, for comparison.
	opt, err := bnbSolve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Optimum, Threads: 1})
	if err != nil || opt.Status != puzzle.OK {
		t.Fatalf("optimum: %v %v", opt.Status, err)
	}
	proof := opt.Stats[puzzle.StatNodes]
	whole := run(context.Background(), puzzle.Count, nil)
	if whole.Status != puzzle.OK || whole.Count != 24 {
		t.Fatalf("whole count %s %d, want ok 24", whole.Status, whole.Count)
	}
	countNodes := whole.Stats[puzzle.StatNodes] - proof
	os.Remove(ck)

	ctx, cancel := context.WithCancel(context.Background())
	first := run(ctx, puzzle.Count, func(done, total int) {
		if done >= 3 {
			cancel()
		}
	})
	cancel()
	if first.Status != puzzle.Timeout {
		t.Fatalf("stopped count: %s, want timeout", first.Status)
	}
	resumed := run(context.Background(), puzzle.Count, nil)
	if resumed.Status != puzzle.OK || resumed.Count != 24 {
		t.Fatalf("resumed count %s %d, want ok 24", resumed.Status, resumed.Count)
	}
	if n := resumed.Stats[puzzle.StatNodes]; n > countNodes {
		t.Errorf("resumed count searched %d nodes, more than the count's %d without the proof (%d): it proved the minimum again", n, countNodes, proof)
	}
	if !strings.Contains(resumed.Method, "minimum 7 as proved by the run that wrote the checkpoint") {
		t.Errorf("resumed count's method %q does not say where its minimum came from", resumed.Method)
	}
	if whole.Method != "" {
		t.Errorf("a count that proved its own minimum says method %q", whole.Method)
	}
	if resumed.Stats[statLimit] != 7 {
		t.Errorf("resumed limit %d, want the minimum 7", resumed.Stats[statLimit])
	}
	// The checkpoint is of a count: a unique count does not take its
	// minimum (its key names another task) and is refused the file.
	if a, err := bnbSolve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Unique, Threads: 1,
		Split: &puzzle.SplitOptions{Checkpoint: ck}}); err == nil {
		t.Errorf("unique count from a count's checkpoint: %s %d, want a refusal", a.Status, a.Count)
	}
}
