package sat

import (
	"context"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// TestMinimize: on every formula over up to 6 variables built from a few
// random clauses, both strategies find the minimum that exhaustive
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
		for _, strat := range []string{OptimizeLinear, OptimizeBinary} {
			r, err := Minimize(context.Background(), f, obj, OptimizeOptions{Strategy: strat})
			if err != nil {
				t.Fatal(err)
			}
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
	} {
		if _, err := Minimize(context.Background(), f, c.obj, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opt, err, c.want)
		}
	}
}
