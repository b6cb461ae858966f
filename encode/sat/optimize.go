package sat

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// Objective is a weighted sum of literals to minimise: the sum of
// Weights[i] over the true Lits[i]. Weights are positive (a term of weight
// 0 changes nothing and may be left out). To maximise a sum of positive
// weights, minimise the same weights on the negated literals: the maximum
// is the total weight minus the minimum.
type Objective struct {
	Lits    []cnf.Lit
	Weights []int
}

// Cost returns the objective's value under a model (model[v], v = 1..n).
func (o Objective) Cost(model []bool) int64 {
	var c int64
	for i, l := range o.Lits {
		if model[l.Var()] == (l > 0) {
			c += int64(o.Weights[i])
		}
	}
	return c
}

// The strategies of Minimize (OptimizeOptions.Strategy).
const (
	// OptimizeLinear is linear SAT-UNSAT search, the algorithm of
	// gophersat's own Minimize: solve, then demand a cost below the model's
	// and solve again, until UNSAT proves the last model optimal.
	OptimizeLinear = "linear"
	// OptimizeBinary is binary search on the cost between the proved lower
	// bound and the best model's cost: each probe demands a cost at most
	// the midpoint; SAT lowers the upper end to the model's cost, UNSAT
	// raises the lower bound past the midpoint.
	OptimizeBinary = "binary"
)

// OptimizeOptions say how Minimize runs.
type OptimizeOptions struct {
	// Solver is "" (gophersat) or any solver that takes PB constraints
	// (the objective's bounds are PB constraints).
	Solver string
	// Strategy is OptimizeLinear ("" too) or OptimizeBinary.
	Strategy string
}

// OptimizeResult is the outcome of Minimize.
type OptimizeResult struct {
	// Status is OK (Model is optimal: Cost equals Bound), Unsat (f has no
	// model at all), Timeout or Error. With Timeout, Model is the best model
	// found, nil if none, and never claimed optimal.
	Status puzzle.Status
	// Model is the best model found (model[v], v = 1..NumVars), checked
	// against f.
	Model []bool
	// Cost is the objective's value under Model.
	Cost int64
	// Bound is the largest lower bound on the minimum that was proved
	// (by an UNSAT answer, or 0).
	Bound int64
	// Stats holds solver counters under puzzle.Stat* keys, summed over
	// every solver call (StatSolverCalls counts them).
	Stats map[string]int64
	// Message explains an Error or Timeout status.
	Message string
}

// Minimize finds a model of f that minimises obj, and proves it minimal,
// by a sequence of solver calls on f plus PB bounds on obj (f itself is
// not changed). Each call is a separate search, which a time limit stops
// like any other (in a killable child process for gophersat): learnt
// clauses are not kept between calls. The error is for a request that
// cannot run: an unknown strategy or solver, or a solver without PB
// constraints.
func Minimize(ctx context.Context, f *cnf.Formula, obj Objective, opt OptimizeOptions) (OptimizeResult, error) {
	s, err := Lookup(opt.Solver)
	if err != nil {
		return OptimizeResult{}, err
	}
	if !s.PB {
		return OptimizeResult{}, fmt.Errorf("solver %s takes CNF only, and optimisation bounds the objective by pseudo-Boolean constraints: pick gophersat or minisat+", s.Name)
	}
	if err := s.accepts(f); err != nil {
		return OptimizeResult{}, err
	}
	for i, w := range obj.Weights {
		if w <= 0 {
			return OptimizeResult{}, fmt.Errorf("objective weight %d of literal %d is not positive", w, obj.Lits[i])
		}
	}
	binary := false
	switch opt.Strategy {
	case "", OptimizeLinear:
	case OptimizeBinary:
		binary = true
	default:
		return OptimizeResult{}, fmt.Errorf("unknown optimisation strategy %q: want %s or %s", opt.Strategy, OptimizeLinear, OptimizeBinary)
	}
	res := OptimizeResult{Stats: map[string]int64{}}
	// base holds f and every bound proved safe for an optimal model: the
	// cost is at most the best model's and at least the proved bound.
	base := cloneFormula(f)
	atMost := func(g *cnf.Formula, k int64) { g.AddPB(obj.Lits, obj.Weights, cnf.AtMost, int(k)) }
	call := func(g *cnf.Formula) Result {
		if ctx.Err() != nil {
			return timeoutResult(nil)
		}
		r := s.run(ctx, g)
		for k, v := range r.Stats {
			res.Stats[k] += v
		}
		return r
	}
	stop := func(r Result) OptimizeResult {
		res.Status, res.Message = r.Status, r.Message
		if r.Status == puzzle.Timeout {
			res.Message = fmt.Sprintf("time limit reached: best cost %d, proved at least %d", res.Cost, res.Bound)
			if res.Model == nil {
				res.Message = "time limit reached before a first model"
			}
		}
		return res
	}
	better := func(model []bool) {
		res.Model, res.Cost = model, obj.Cost(model)
	}
	r := call(base)
	switch r.Status {
	case puzzle.Unsat:
		res.Status = puzzle.Unsat
		return res, nil
	case puzzle.OK:
		better(r.Model)
	default:
		return stop(r), nil
	}
	for res.Bound < res.Cost {
		probe := res.Cost - 1
		if binary {
			probe = res.Bound + (res.Cost-res.Bound)/2
		}
		g := base
		if binary {
			g = cloneFormula(base)
		}
		atMost(g, probe)
		r := call(g)
		switch r.Status {
		case puzzle.OK:
			better(r.Model)
			if binary {
				atMost(base, res.Cost)
			}
		case puzzle.Unsat:
			res.Bound = probe + 1
			if binary {
				base.AddPB(obj.Lits, obj.Weights, cnf.AtLeast, int(res.Bound))
			}
		default:
			return stop(r), nil
		}
	}
	res.Status = puzzle.OK
	return res, nil
}
