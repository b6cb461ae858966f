package sat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"math/rand"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// minimizeOptions are the ways Minimize runs: every strategy, and the
// linear one on a kept solver.
var minimizeOptions = []OptimizeOptions{
	{Strategy: OptimizeLinear}, {Strategy: OptimizeUNSATSAT}, {Strategy: OptimizeBinary},
	{Strategy: OptimizeGophersat}, {Incremental: true},
}

// TestMinimize: on every formula over up to 6 variables built from a few
// random clauses, every strategy finds the minimum that exhaustive
// enumeration finds, and prove it (Bound = Cost); an unsatisfiable formula
// is Unsat; requests that cannot run are errors.
func TestMinimize(t *testing.T) {
	rng := uint64(7)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int((rng >> 33) % uint64(n))
	}
	for trial := range 60 {
		n := 2 + next(5)
		f := cnf.New()
		for range n {
			f.Var("x")
		}
		for range next(2 * n) {
			var c []cnf.Lit
			for range 1 + next(3) {
				l := cnf.Lit(1 + next(n))
				if next(2) == 0 {
					l = -l
				}
				c = append(c, l)
			}
			f.Add(c...)
		}
		var obj Objective
		for v := 1; v <= n; v++ {
			l := cnf.Lit(v)
			if next(2) == 0 {
				l = -l
			}
			obj.Lits, obj.Weights = append(obj.Lits, l), append(obj.Weights, 1+next(9))
		}
		// Exhaustive minimum.
		want := int64(-1)
		for a := range 1 << n {
			m := make([]bool, n+1)
			for v := 1; v <= n; v++ {
				m[v] = a>>(v-1)&1 == 1
			}
			if f.Satisfied(m) && (want < 0 || obj.Cost(m) < want) {
				want = obj.Cost(m)
			}
		}
		for _, o := range minimizeOptions {
			ctx, cancel := context.Background(), func() {}
			if trial%4 == 0 {
				// Some trials through the child processes (a context that
				// can end).
				ctx, cancel = context.WithTimeout(ctx, time.Minute)
			}
			r, err := Minimize(ctx, f, obj, o)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			strat := fmt.Sprintf("%+v", o)
			if want < 0 {
				if r.Status != puzzle.Unsat {
					t.Errorf("trial %d %s: status %s, want unsat", trial, strat, r.Status)
				}
				continue
			}
			if r.Status != puzzle.OK || r.Cost != want || r.Bound != want || !f.Satisfied(r.Model) || obj.Cost(r.Model) != want {
				t.Errorf("trial %d %s: %s cost %d bound %d, want %d", trial, strat, r.Status, r.Cost, r.Bound, want)
			}
		}
	}
	f := cnf.New()
	x := f.Var("x")
	obj := Objective{Lits: []cnf.Lit{x}, Weights: []int{1}}
	for _, c := range []struct {
		obj  Objective
		opt  OptimizeOptions
		want string
	}{
		{obj, OptimizeOptions{Strategy: "random"}, "unknown optimisation strategy"},
		{obj, OptimizeOptions{Solver: "no-such"}, "unknown solver"},
		{Objective{Lits: []cnf.Lit{x}, Weights: []int{0}}, OptimizeOptions{}, "not positive"},
		{obj, OptimizeOptions{Strategy: OptimizeBinary, Incremental: true}, "only tightens"},
		{obj, OptimizeOptions{Strategy: OptimizeGophersat, Solver: "cadical"}, "cadical is of kind sat"},
	} {
		if _, err := Minimize(context.Background(), f, c.obj, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opt, err, c.want)
		}
	}
}

// TestMinimizeStopped: a time limit stops every strategy with status
// timeout (never ok), its best model checked and its bound proved, and
// leaves gophersat's lock free.
func TestMinimizeStopped(t *testing.T) {
	f := cnf.Pigeonhole(11)
	var obj Objective
	for v := 1; v <= f.NumVars(); v++ {
		obj.Lits, obj.Weights = append(obj.Lits, cnf.Lit(v)), append(obj.Weights, 1)
	}
	for _, o := range minimizeOptions {
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		r, err := Minimize(ctx, f, obj, o)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		// Pigeonhole has no model: any bound is sound, and only UNSAT-SAT
		// proves any before the limit.
		if r.Status != puzzle.Timeout || r.Model != nil || (r.Bound != 0) != (o.Strategy == OptimizeUNSATSAT) {
			t.Errorf("%+v: %s model %v bound %d (%s), want a timeout without a model", o, r.Status, r.Model != nil, r.Bound, r.Message)
		}
		if !lockFree() {
			t.Fatalf("%+v: gophersat's lock is held after a stopped optimisation", o)
		}
	}
}

// TestDescendStopped: a probe that stops ends the descent with its status,
// the best model and the bound proved so far, never ok.
func TestDescendStopped(t *testing.T) {
	// Probes answered from a table: at most 6 or more finds a model of
	// cost 6, at most 2 or less is unsat, anything between times out.
	probe := func(_ context.Context, k, lower int64) (Result, int64, error) {
		switch {
		case k >= 6:
			return Result{Status: puzzle.OK, Model: []bool{false}}, 6, nil
		case k <= 2:
			return Result{Status: puzzle.Unsat}, 0, nil
		}
		return Result{Status: puzzle.Timeout, Message: "time limit reached"}, 0, nil
	}
	for _, c := range []struct {
		strategy   string
		cost, bnd  int64
		withModel  bool
		wantStatus puzzle.Status
	}{
		{OptimizeLinear, 6, 1, true, puzzle.Timeout},
		{OptimizeUNSATSAT, 0, 3, false, puzzle.Timeout},
		{OptimizeBinary, 6, 1, true, puzzle.Timeout}, // probes 9, then 3
	} {
		r, err := Descend(context.Background(), DescentOptions{Strategy: c.strategy, Lower: 1, Upper: 9}, probe)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != c.wantStatus || (r.Model != nil) != c.withModel || r.Bound != c.bnd || (c.withModel && r.Cost != c.cost) {
			t.Errorf("%s: %s cost %d bound %d model %v (%s), want %s cost %d bound %d", c.strategy, r.Status, r.Cost, r.Bound, r.Model != nil, r.Message, c.wantStatus, c.cost, c.bnd)
		}
	}
	if _, err := Descend(context.Background(), DescentOptions{Strategy: OptimizeGophersat}, probe); err == nil {
		t.Error("Descend took the gophersat strategy, which is not a descent")
	}
}

// TestSessionAgreesWithFresh: on random formulas, a kept solver that is
// given one clause after another answers each step as a fresh solver does
// on the same clauses (satisfiable or not, its model checked), in this
// process and in a child process; once unsat it stays unsat.
func TestSessionAgreesWithFresh(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for trial := range 40 {
		n := 4 + rng.Intn(8)
		f := cnf.New()
		for range n {
			f.Var("x")
		}
		randClause := func(width int) []cnf.Lit {
			var c []cnf.Lit
			for range width {
				l := cnf.Lit(1 + rng.Intn(n))
				if rng.Intn(2) == 0 {
					l = -l
				}
				c = append(c, l)
			}
			return c
		}
		for range n {
			f.Add(randClause(3)...)
		}
		ctx, cancel := context.Background(), func() {}
		if trial%2 == 1 {
			ctx, cancel = context.WithTimeout(ctx, time.Minute)
		}
		sess := NewSession(ctx, f)
		fresh := cloneFormula(f)
		for step := range 3 * n {
			var want Result
			if step > 0 {
				c := randClause(1 + rng.Intn(3))
				if step%5 == 0 {
					pbl := randClause(3)
					sess.AddPB(pbl, nil, cnf.AtMost, 1)
					fresh.AddPB(pbl, nil, cnf.AtMost, 1)
				} else {
					sess.Add(c...)
					fresh.Add(c...)
				}
			}
			want, err := Solve(context.Background(), fresh, "")
			if err != nil {
				t.Fatal(err)
			}
			got := sess.Solve(ctx)
			if got.Status != want.Status {
				t.Fatalf("trial %d step %d: session %s (%s), fresh %s", trial, step, got.Status, got.Message, want.Status)
			}
			if got.Status == puzzle.OK && !fresh.Satisfied(got.Model) {
				t.Fatalf("trial %d step %d: the session's model violates the formula", trial, step)
			}
			if got.Status == puzzle.Unsat {
				break
			}
		}
		sess.Close()
		cancel()
	}
}

// TestSessionStopped: a time limit stops a kept solver in its child
// process; the session then answers timeout, and the lock stays free.
func TestSessionStopped(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	sess := NewSession(ctx, cnf.Pigeonhole(12))
	defer sess.Close()
	if r := sess.Solve(ctx); r.Status != puzzle.Timeout {
		t.Fatalf("pigeonhole 13/12 in a session: %s %s, want timeout", r.Status, r.Message)
	}
	if r := sess.Solve(context.Background()); r.Status != puzzle.Timeout {
		t.Errorf("a stopped session answered %s afterwards", r.Status)
	}
	if !lockFree() {
		t.Error("gophersat's lock is held after a stopped session")
	}
}
