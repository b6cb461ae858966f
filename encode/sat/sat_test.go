package sat

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
)

// testQueens builds n-queens by hand: exactly one queen per row and column
// (one long clause plus pairwise at-most-one), at most one per diagonal.
// With native set, the constraints are PB constraints instead.
func testQueens(n int, native bool) *cnf.Formula {
	f := cnf.New()
	x := make([][]cnf.Lit, n)
	for r := range n {
		x[r] = make([]cnf.Lit, n)
		for c := range n {
			x[r][c] = f.Var(fmt.Sprintf("q%d_%d", r, c))
		}
	}
	var lines [][]cnf.Lit
	exactly := map[int]bool{}
	for r := range n {
		exactly[len(lines)] = true
		lines = append(lines, x[r])
	}
	for c := range n {
		var col []cnf.Lit
		for r := range n {
			col = append(col, x[r][c])
		}
		exactly[len(lines)] = true
		lines = append(lines, col)
	}
	for d := -(n - 1); d <= n-1; d++ {
		var a, b []cnf.Lit
		for r := range n {
			if c := r + d; c >= 0 && c < n {
				a = append(a, x[r][c])
			}
			if c := n - 1 - r + d; c >= 0 && c < n {
				b = append(b, x[r][c])
			}
		}
		lines = append(lines, a, b)
	}
	for i, line := range lines {
		if native {
			op := cnf.AtMost
			if exactly[i] {
				op = cnf.Exactly
			}
			f.AddPB(line, nil, op, 1)
			continue
		}
		if exactly[i] {
			f.Add(line...)
		}
		testPairwise(f, line)
	}
	return f
}

// testPairwise adds the pairwise at-most-one constraint over lits.
func testPairwise(f *cnf.Formula, lits []cnf.Lit) {
	for i := range lits {
		for j := i + 1; j < len(lits); j++ {
			f.Add(-lits[i], -lits[j])
		}
	}
}

// testQueensDecode turns a queens model into a solution for puzzle.Check.
func testQueensCheck(t *testing.T, n int, model []bool) {
	t.Helper()
	spec := puzzle.Queens{N: n}
	var sq []puzzle.Square
	var kinds []puzzle.Kind
	for v := 1; v <= n*n; v++ {
		if model[v] {
			sq = append(sq, puzzle.Square(v-1))
			kinds = append(kinds, puzzle.Queen)
		}
	}
	if err := puzzle.Check(spec, puzzle.PlacementOf(puzzle.BoardOf(spec), sq, kinds)); err != nil {
		t.Fatalf("queens %d: model fails the checker: %v", n, err)
	}
}

// bruteCount counts projected models of f by trying every assignment.
func bruteCount(f *cnf.Formula) uint64 {
	n := f.NumVars()
	proj := f.Projection()
	seen := map[uint64]bool{}
	model := make([]bool, n+1)
	for a := uint64(0); a < 1<<n; a++ {
		for v := 1; v <= n; v++ {
			model[v] = a>>(v-1)&1 == 1
		}
		if f.Satisfied(model) {
			var key uint64
			for i, v := range proj {
				if model[v] {
					key |= 1 << i
				}
			}
			seen[key] = true
		}
	}
	return uint64(len(seen))
}

// randomFormula builds a random 3-CNF over n variables, the first nProj
// primary and the rest auxiliary, with optional random PB constraints.
func randomFormula(rng *rand.Rand, n, nProj, clauses, pbs int) *cnf.Formula {
	f := cnf.New()
	perm := rng.Perm(n)
	isProj := map[int]bool{}
	for _, p := range perm[:nProj] {
		isProj[p] = true
	}
	for i := range n {
		if isProj[i] {
			f.Var(fmt.Sprint("p", i))
		} else {
			f.Aux(fmt.Sprint("a", i))
		}
	}
	lit := func() cnf.Lit {
		l := cnf.Lit(rng.Intn(n) + 1)
		if rng.Intn(2) == 0 {
			l = -l
		}
		return l
	}
	for range clauses {
		k := 1 + rng.Intn(3)
		if rng.Intn(6) > 0 {
			k = 3
		}
		c := make([]cnf.Lit, k)
		for j := range c {
			c[j] = lit()
		}
		f.Add(c...)
	}
	for range pbs {
		k := 2 + rng.Intn(4)
		lits := make([]cnf.Lit, k)
		w := make([]int, k)
		sum := 0
		for j := range lits {
			lits[j] = lit()
			w[j] = 1 + rng.Intn(3)
			sum += w[j]
		}
		f.AddPB(lits, w, cnf.Op(rng.Intn(3)), rng.Intn(sum+1))
	}
	return f
}

func mustCount(t *testing.T, f *cnf.Formula, opt CountOptions) uint64 {
	t.Helper()
	r, err := Count(context.Background(), f, opt)
	if err != nil {
		t.Fatalf("Count(%+v): %v", opt, err)
	}
	if r.Status != puzzle.OK {
		t.Fatalf("Count(%+v): status %s: %s", opt, r.Status, r.Message)
	}
	return r.Count
}

// TestCountHandBuilt checks formulas whose projected counts are known by
// hand, several with auxiliary variables that the projection does not
// determine (so unprojected counts would differ).
func TestCountHandBuilt(t *testing.T) {
	build := func(nProj, nAux int, clauses ...[]cnf.Lit) *cnf.Formula {
		f := cnf.New()
		for i := range nProj {
			f.Var(fmt.Sprint("x", i+1))
		}
		for i := range nAux {
			f.Aux(fmt.Sprint("a", i+1))
		}
		for _, c := range clauses {
			f.Add(c...)
		}
		return f
	}
	c := func(l ...cnf.Lit) []cnf.Lit { return l }
	tests := []struct {
		name string
		f    *cnf.Formula
		want uint64
	}{
		{"empty projection, sat", build(0, 1, c(1)), 1},
		{"no clauses, 3 vars", build(3, 0), 8},
		{"empty clause", build(2, 0, c(1), c()), 0},
		{"unit conflict", build(1, 0, c(1), c(-1)), 0},
		// x1 or a, x2 or a: a=1 allows all 4; unprojected count 5.
		{"free aux", build(2, 1, c(1, 3), c(2, 3)), 4},
		// a1 xor a2 free of x: 2 extensions each; unprojected 8.
		{"two extensions each", build(2, 2, c(3, 4), c(-3, -4)), 4},
		// x1 -> (a), x1 -> (-a): x1 must be false.
		{"aux refutes", build(2, 1, c(-1, 3), c(-1, -3)), 2},
		// a -> x1, a -> x2, (a or a2), a2 -> -x1: only x1 & -x2 has no extension.
		{"aux chain", build(2, 2, c(-3, 1), c(-3, 2), c(3, 4), c(-4, -1)), 3},
		{"tautology and repeats", build(2, 0, c(1, -1), c(2, 2, 2)), 2},
	}
	for _, tc := range tests {
		if got := bruteCount(tc.f); got != tc.want {
			t.Fatalf("%s: brute force says %d, table %d", tc.name, got, tc.want)
		}
		for _, opt := range []CountOptions{{Threads: 1}, {Threads: 2}, {Method: MethodBlocking, Threads: 1}, {Method: MethodBlocking, Threads: 2}} {
			if got := mustCount(t, tc.f, opt); got != tc.want {
				t.Errorf("%s, %+v: count %d, want %d", tc.name, opt, got, tc.want)
			}
		}
	}
}

// TestCountRandom compares the enumerator, the blocking method and brute
// force on random small formulas with auxiliary variables, with and
// without PB constraints.
func TestCountRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := range 300 {
		pbs := 0
		if i%3 == 0 {
			pbs = 1 + rng.Intn(3)
		}
		f := randomFormula(rng, 12, 4, 20+rng.Intn(30), pbs)
		want := bruteCount(f)
		for _, opt := range []CountOptions{{Threads: 1}, {Method: MethodBlocking, Threads: 1}, {Method: MethodBlocking, Threads: 2}} {
			if got := mustCount(t, f, opt); got != want {
				t.Fatalf("formula %d, %+v: count %d, brute force %d", i, opt, got, want)
			}
		}
	}
	// Larger projections exercise the enumerator's cube split.
	for i := range 12 {
		f := randomFormula(rng, 18, 16, 40+rng.Intn(20), i%2)
		want := bruteCount(f)
		for _, th := range []int{1, 2, 3} {
			if got := mustCount(t, f, CountOptions{Threads: th}); got != want {
				t.Fatalf("large formula %d, %d threads: count %d, brute force %d", i, th, got, want)
			}
		}
	}
}

// TestCountQueens counts hand-built queens formulas (CNF and native PB)
// against the published counts, with one and two threads, and checks every
// streamed model.
func TestCountQueens(t *testing.T) {
	for n := 1; n <= 9; n++ {
		want, _ := puzzle.KnownCount(puzzle.Queens{N: n}, puzzle.Count)
		for _, native := range []bool{false, true} {
			f := testQueens(n, native)
			for _, th := range []int{1, 2} {
				var emitted uint64
				seen := map[string]bool{}
				got := mustCount(t, f, CountOptions{Threads: th, Emit: func(m []bool) error {
					emitted++
					testQueensCheck(t, n, m)
					key := fmt.Sprint(m[1 : n*n+1])
					if seen[key] {
						t.Fatalf("queens %d: model emitted twice", n)
					}
					seen[key] = true
					return nil
				}})
				if got != want || emitted != want {
					t.Errorf("queens %d native=%v threads=%d: count %d, emitted %d, want %d", n, native, th, got, emitted, want)
				}
			}
			if n <= 7 {
				if got := mustCount(t, f, CountOptions{Method: MethodBlocking}); got != want {
					t.Errorf("queens %d native=%v blocking: count %d, want %d", n, native, got, want)
				}
			}
		}
	}
}

// TestSolveRandom checks gophersat and every installed external solver on
// random formulas: the same SAT/UNSAT answer as brute force, and checked
// models.
func TestSolveRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var fs []*cnf.Formula
	for i := range 30 {
		fs = append(fs, randomFormula(rng, 10, 10, 30+rng.Intn(25), i%4/3))
	}
	for _, s := range All() {
		if s.Binary != "" && cnftest.MissingSolver(t, s.Binary) {
			continue
		}
		for i, f := range fs {
			if len(f.PBs()) > 0 && !s.PB {
				if _, err := Solve(context.Background(), f, s.Name); err == nil {
					t.Errorf("%s accepted PB constraints", s.Name)
				}
				continue
			}
			want := puzzle.Unsat
			if bruteCount(f) > 0 {
				want = puzzle.OK
			}
			r, err := Solve(context.Background(), f, s.Name)
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			if r.Status != want {
				t.Errorf("%s formula %d: status %s (%s), want %s", s.Name, i, r.Status, r.Message, want)
			}
			if r.Status == puzzle.OK && !f.Satisfied(r.Model) {
				t.Errorf("%s formula %d: model violates the formula", s.Name, i)
			}
		}
	}
}

// TestExternalCountQueens counts queens n = 1..6 with every installed
// external solver (clasp through its projected enumeration, the others by
// the blocking loop) and with clasp on a formula with free auxiliary
// variables.
func TestExternalCountQueens(t *testing.T) {
	for _, s := range All() {
		if s.Binary == "" {
			continue
		}
		if s.Binary != "" && cnftest.MissingSolver(t, s.Binary) {
			continue
		}
		maxN := 6
		if testing.Short() {
			maxN = 5
		}
		for n := 1; n <= maxN; n++ {
			want, _ := puzzle.KnownCount(puzzle.Queens{N: n}, puzzle.Count)
			f := testQueens(n, s.PB && n%2 == 0)
			if got := mustCount(t, f, CountOptions{Solver: s.Name}); got != want {
				t.Errorf("%s queens %d: count %d, want %d", s.Name, n, got, want)
			}
		}
		// Free auxiliary variables: projected and unprojected counts differ.
		rng := rand.New(rand.NewSource(3))
		for i := range 5 {
			f := randomFormula(rng, 9, 4, 14, 0)
			if got, want := mustCount(t, f, CountOptions{Solver: s.Name}), bruteCount(f); got != want {
				t.Errorf("%s random %d: count %d, brute force %d", s.Name, i, got, want)
			}
		}
	}
}

// TestFakeSolver puts a fake "cadical" first on PATH and checks that
// nonsense, crashes, wrong models and hangs become status Error or Timeout.
func TestFakeSolver(t *testing.T) {
	f := testQueens(4, false) // satisfiable; "v 1 2 3 ... 0" violates it
	tests := []struct {
		name, script string
		want         puzzle.Status
		timeout      time.Duration
	}{
		{"nonsense", "echo hello world; echo s MAYBE", puzzle.Error, 0},
		{"no status", "echo c nothing to see", puzzle.Error, 0},
		{"crash", "echo s SATISFIABLE; kill -SEGV $$", puzzle.Error, 0},
		{"bad exit", "echo s UNSATISFIABLE; exit 3", puzzle.Error, 0},
		{"wrong model", "echo s SATISFIABLE; echo v 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 0; exit 10", puzzle.Error, 0},
		{"literal out of range", "echo s SATISFIABLE; echo v 99 0; exit 10", puzzle.Error, 0},
		{"garbage literal", "echo s SATISFIABLE; echo v 1 x 0; exit 10", puzzle.Error, 0},
		{"sat without model", "echo s SATISFIABLE; exit 10", puzzle.Error, 0},
		{"unsat with model", "echo s UNSATISFIABLE; echo v 1 0; exit 20", puzzle.Error, 0},
		{"hang", "sleep 30", puzzle.Timeout, 200 * time.Millisecond},
		{"right model", "echo s SATISFIABLE; echo v -1 2 -3 -4 -5 -6 -7 8 9 -10 -11 -12 -13 -14 15 -16 0; exit 10", puzzle.OK, 0},
	}
	for _, tc := range tests {
		cnftest.FakeSolver(t, "cadical", tc.script)
		ctx := context.Background()
		if tc.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, tc.timeout)
			defer cancel()
		}
		r, err := Solve(ctx, f, "cadical")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Status != tc.want {
			t.Errorf("%s: status %s (%s), want %s", tc.name, r.Status, r.Message, tc.want)
		}
		if tc.want == puzzle.Error && r.Message == "" {
			t.Errorf("%s: error without a message", tc.name)
		}
		if tc.timeout == 0 {
			cr, err := Count(context.Background(), f, CountOptions{Solver: "cadical"})
			if tc.want == puzzle.Error && (err != nil || cr.Status != puzzle.Error) {
				t.Errorf("%s: count gave %s %d (%v), want status error", tc.name, cr.Status, cr.Count, err)
			}
		}
	}
}

// TestSolverErrors checks unknown and absent solvers and CNF-only solvers
// given PB constraints.
func TestSolverErrors(t *testing.T) {
	f := testQueens(4, true)
	if _, err := Solve(context.Background(), f, "nosuch"); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown solver: %v", err)
	}
	if _, err := Count(context.Background(), f, CountOptions{Method: "nosuch"}); err == nil {
		t.Error("unknown method accepted")
	}
	if _, err := Solve(context.Background(), f, "cadical"); err == nil {
		t.Error("cadical accepted PB constraints")
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := Solve(context.Background(), testQueens(4, false), "cadical"); err == nil || !strings.Contains(err.Error(), `"cadical"`) {
		t.Errorf("absent binary: %v", err)
	}
}

// TestTimeout checks that counts cut short by the context answer Timeout.
func TestTimeout(t *testing.T) {
	f := testQueens(12, false)
	for _, opt := range []CountOptions{{Threads: 1}, {Threads: 2}, {Method: MethodBlocking}} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		r, err := Count(ctx, f, opt)
		cancel()
		if err != nil || r.Status != puzzle.Timeout || r.Count != 0 {
			t.Errorf("%+v: status %s count %d err %v, want timeout", opt, r.Status, r.Count, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := Solve(ctx, f, ""); err != nil || r.Status != puzzle.Timeout {
		t.Errorf("solve with a done context: %s %v", r.Status, err)
	}
}

// TestSolveQueens solves queens with gophersat, checks the model with the
// independent checker, and the UNSAT cases.
func TestSolveQueens(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for _, native := range []bool{false, true} {
			r, err := Solve(context.Background(), testQueens(n, native), "")
			if err != nil {
				t.Fatal(err)
			}
			want := puzzle.OK
			if n == 2 || n == 3 {
				want = puzzle.Unsat
			}
			if r.Status != want {
				t.Fatalf("queens %d native=%v: %s (%s), want %s", n, native, r.Status, r.Message, want)
			}
			if r.Status == puzzle.OK {
				testQueensCheck(t, n, r.Model)
			}
		}
	}
}

// TestCountBuiltin runs gophersat's own counter, which is labelled wrong:
// it must at least answer, and it counts at least the true models.
func TestCountBuiltin(t *testing.T) {
	r := CountBuiltin(context.Background(), testQueens(8, false))
	if r.Status != puzzle.OK || r.Count < 92 {
		t.Errorf("builtin count: %s %d", r.Status, r.Count)
	}
	t.Logf("gophersat CountModels on pairwise 8-queens: %d (true count 92)", r.Count)
}

// countQueens8Blocking counts 8-queens by gophersat's blocking loop, and
// says what is wrong with the answer (92).
func countQueens8Blocking() error {
	r, err := Count(context.Background(), testQueens(8, false), CountOptions{Method: MethodBlocking})
	if err == nil && (r.Status != puzzle.OK || r.Count != 92) {
		err = fmt.Errorf("count %d status %s, want 92", r.Count, r.Status)
	}
	return err
}

// TestGophersatConcurrent runs several gophersat counts at once: gophersat
// shares a package-level buffer between solvers, so without the package's
// serialisation these counts come out wrong (8-queens: most runs).
func TestGophersatConcurrent(t *testing.T) {
	errs := make(chan error, 4)
	for range 4 {
		go func() { errs <- countQueens8Blocking() }()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestCountAuxFallback forces every extension search that meets a conflict
// over to gophersat (budget 0) and compares with brute force again.
func TestCountAuxFallback(t *testing.T) {
	defer func(b int) { auxConflictBudget = b }(auxConflictBudget)
	auxConflictBudget = 0
	rng := rand.New(rand.NewSource(11))
	calls := int64(0)
	for i := range 150 {
		pbs := 0
		if i%3 == 0 {
			pbs = 1 + rng.Intn(3)
		}
		f := randomFormula(rng, 12, 4, 20+rng.Intn(30), pbs)
		want := bruteCount(f)
		var emitted uint64
		r, err := Count(context.Background(), f, CountOptions{Threads: 1, Emit: func([]bool) error { emitted++; return nil }})
		if err != nil || r.Status != puzzle.OK || r.Count != want || emitted != want {
			t.Fatalf("formula %d: %s count %d emitted %d err %v, brute force %d", i, r.Status, r.Count, emitted, err, want)
		}
		calls += r.Stats[puzzle.StatSolverCalls] - 1
	}
	for i := range 6 {
		f := randomFormula(rng, 18, 16, 50, i%2)
		want := bruteCount(f)
		if got := mustCount(t, f, CountOptions{Threads: 2}); got != want {
			t.Fatalf("large formula %d: count %d, brute force %d", i, got, want)
		}
	}
	if calls == 0 {
		t.Error("the fallback was never taken")
	}
}
