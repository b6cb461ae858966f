package sat

import (
	"context"
	"errors"
	"fmt"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/internal/progress"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
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

// The strategies of Minimize and Descend (OptimizeOptions.Strategy).
const (
	// OptimizeLinear is linear SAT-UNSAT search, the algorithm of
	// gophersat's own Minimize: solve, then demand a cost below the model's
	// and solve again, until UNSAT proves the last model optimal.
	OptimizeLinear = "linear"
	// OptimizeUNSATSAT is linear UNSAT-SAT search: demand a cost at most
	// the proved lower bound, then one more, and so on; every UNSAT raises
	// the bound, and the first model is optimal.
	OptimizeUNSATSAT = "unsatsat"
	// OptimizeBinary is binary search on the cost between the proved lower
	// bound and the best model's cost: each probe demands a cost at most
	// the midpoint; SAT lowers the upper end to the model's cost, UNSAT
	// raises the lower bound past the midpoint.
	OptimizeBinary = "binary"
	// OptimizeGophersat is gophersat's own PB optimisation: the objective
	// set as the solver's cost function (Problem.SetCostFunc) and
	// Solver.Optimal, one kept solver that tightens the cost bound itself
	// (with the objective's literals false by default). It proves no lower
	// bound before it ends, so a stopped run reports the caller's. Minimize
	// only, gophersat only.
	OptimizeGophersat = "gophersat"
)

// OptimizeOptions say how Minimize runs.
type OptimizeOptions struct {
	// Solver is "" (gophersat) or any solver that takes PB constraints
	// (the objective's bounds are PB constraints).
	Solver string
	// Strategy is OptimizeLinear ("" too), OptimizeUNSATSAT,
	// OptimizeBinary or OptimizeGophersat.
	Strategy string
	// Incremental keeps one gophersat solver (a Session) across the calls
	// of the linear strategy, each bound appended to it, instead of a
	// fresh solver per call. Linear strategy and gophersat only.
	Incremental bool
	// Lower is a lower bound on the minimum the caller has proved (0 if
	// none): searches start from it and a stopped search reports it.
	Lower int64
}

// OptimizeResult is the outcome of Minimize and Descend.
type OptimizeResult struct {
	// Status is OK (Model is optimal: Cost equals Bound), Unsat (no model
	// at all, or none of cost at most the upper end), Timeout or Error.
	// With Timeout, Model is the best model found, nil if none, and never
	// claimed optimal.
	Status puzzle.Status
	// Model is the best model found (model[v], v = 1..NumVars), checked
	// against the formula.
	Model []bool
	// Cost is the objective's value under Model.
	Cost int64
	// Bound is the largest lower bound on the minimum that was proved
	// (by an UNSAT answer, or given).
	Bound int64
	// Stats holds solver counters under puzzle.Stat* keys, summed over
	// every solver call (StatSolverCalls counts them).
	Stats map[string]int64
	// Message explains an Error or Timeout status.
	Message string
}

// Probe is one step of Descend: it asks the solver for a model of cost at
// most k, knowing that every model costs at least lower (proved), and
// returns the solver's answer and, when it is OK, the model's cost. An
// error is for a request that cannot run at all.
type Probe func(ctx context.Context, k, lower int64) (r Result, cost int64, err error)

// DescentOptions say how Descend searches.
type DescentOptions struct {
	// Strategy is OptimizeLinear ("" too), OptimizeUNSATSAT or
	// OptimizeBinary.
	Strategy string
	// Lower is a proved lower bound on the minimum.
	Lower int64
	// Upper is the largest cost of interest: the first probe of the
	// linear and binary strategies asks for at most Upper, and no model
	// of at most Upper is Unsat.
	Upper int64
}

// Descend is the one optimisation loop of the project: it finds a model
// of least cost by a sequence of probes (each "a model of cost at most
// k?") under a named strategy, and proves it least, keeping the best
// model and the best proved bound at every step. A probe that stops
// (time limit) or fails ends the search with that status, the best model
// so far and the bound proved so far, never claimed optimal. Minimize
// bounds a PB objective this way; the domination searches
// (encode/dominate.go) bound a cardinality encoding.
func Descend(ctx context.Context, opt DescentOptions, probe Probe) (OptimizeResult, error) {
	strategy := opt.Strategy
	switch strategy {
	case "":
		strategy = OptimizeLinear
	case OptimizeLinear, OptimizeUNSATSAT, OptimizeBinary:
	default:
		return OptimizeResult{}, fmt.Errorf("unknown descent strategy %q: want %s, %s or %s", opt.Strategy, OptimizeLinear, OptimizeUNSATSAT, OptimizeBinary)
	}
	res := OptimizeResult{Stats: map[string]int64{}, Bound: opt.Lower}
	// ask runs one probe; it reports whether the search goes on.
	ask := func(k int64) (bool, error) {
		if ctx.Err() != nil {
			return false, stopAt(&res, timeoutResult(nil))
		}
		progress.Notef(ctx, "probe: a model of cost at most %d? (%d proved a lower bound)", k, res.Bound)
		r, cost, err := probe(ctx, k, res.Bound)
		if err != nil {
			return false, err
		}
		for key, v := range r.Stats {
			res.Stats[key] += v
		}
		switch r.Status {
		case puzzle.OK:
			if cost > k || cost < res.Bound {
				return false, stopAt(&res, Result{Status: puzzle.Error, Message: fmt.Sprintf("a model of cost %d answers a probe for at most %d with %d proved (encoding bug)", cost, k, res.Bound)})
			}
			if res.Model == nil || cost < res.Cost {
				res.Model, res.Cost = r.Model, cost
			}
			return true, nil
		case puzzle.Unsat:
			res.Bound = max(res.Bound, k+1)
			return true, nil
		}
		return false, stopAt(&res, r)
	}
	done := func() bool { return res.Model != nil && res.Cost <= res.Bound }
	var err error
	goOn := true
	switch strategy {
	case OptimizeUNSATSAT:
		for k := res.Bound; goOn && err == nil && !done() && k <= opt.Upper; k++ {
			goOn, err = ask(k)
		}
	default:
		if res.Bound <= opt.Upper {
			goOn, err = ask(opt.Upper)
		}
		for goOn && err == nil && res.Model != nil && !done() {
			k := res.Cost - 1
			if strategy == OptimizeBinary {
				k = res.Bound + (res.Cost-1-res.Bound)/2
			}
			goOn, err = ask(k)
		}
	}
	switch {
	case err == errDescentStopped:
		return res, nil
	case err != nil:
		return OptimizeResult{}, err
	case res.Model == nil:
		res.Status = puzzle.Unsat
	default:
		res.Status, res.Bound = puzzle.OK, res.Cost
	}
	return res, nil
}

// errDescentStopped marks a search stopped by a probe's answer (the status is in
// the result).
var errDescentStopped = errors.New("stopped")

// stopAt records the answer r that stopped a search in res and returns
// errDescentStopped.
func stopAt(res *OptimizeResult, r Result) error {
	res.Status, res.Message = r.Status, r.Message
	if r.Status == puzzle.Timeout {
		res.Message = fmt.Sprintf("time limit reached: best cost %d, proved at least %d", res.Cost, res.Bound)
		if res.Model == nil {
			res.Message = fmt.Sprintf("time limit reached before a first model; proved at least %d", res.Bound)
		}
	}
	return errDescentStopped
}

// GophersatOnly refuses, by name and before any solver binary is looked
// for, a solver other than gophersat for what runs only on gophersat's own
// solver (a kept solver, gophersat's own optimisation): the refusal then
// names the real reason, also where the other solver's binary is absent.
func GophersatOnly(solver, what string) error {
	if solver != "" && solver != DefaultSolver && solver != BlockingSolver {
		return fmt.Errorf("%s runs gophersat's own solver, not %s", what, solver)
	}
	return nil
}

// OwnOptimiser refuses, by name, a solver that cannot optimise a
// formula's objective by itself in one run: gophersat (its Optimal) can,
// and so can an external solver whose definition is of kind maxsat (the
// objective as soft clauses) or pb (the objective as the OPB "min:" line);
// a sat or counting solver cannot. A name that is no solver at all is
// left to Lookup, which names the solvers.
func OwnOptimiser(solver, what string) error {
	if GophersatOnly(solver, what) == nil {
		return nil
	}
	s, err := find(solver)
	if err != nil {
		return nil
	}
	if s.Def.Kind == solverdef.KindMaxSAT || s.Def.Kind == solverdef.KindPB {
		return nil
	}
	return fmt.Errorf("%s optimises in one run, on gophersat or a maxsat or pb solver; %s is of kind %s", what, solver, s.Def.Kind)
}

// solverAllowed refuses, by name, a solver other than gophersat for the
// strategies that run on gophersat's own solver.
func (opt OptimizeOptions) solverAllowed() error {
	if opt.Strategy == OptimizeGophersat {
		return OwnOptimiser(opt.Solver, "optimisation strategy "+OptimizeGophersat)
	}
	if opt.Incremental {
		return GophersatOnly(opt.Solver, "an incremental search")
	}
	return nil
}

// Minimize finds a model of f that minimises obj, and proves it minimal
// (f itself is not changed). The linear, UNSAT-SAT and binary strategies
// run Descend, each probe f plus PB bounds on obj: a separate solver call
// that a time limit stops like any other (in a killable child process for
// gophersat), or with Incremental, one kept gophersat Session that the
// bounds are appended to. OptimizeGophersat runs gophersat's own
// optimisation instead. The error is for a request that cannot run: an
// unknown strategy or solver, a solver without PB constraints, a
// strategy the solver or Incremental does not take.
func Minimize(ctx context.Context, f *cnf.Formula, obj Objective, opt OptimizeOptions) (OptimizeResult, error) {
	if Proving(ctx) {
		// Its bounds are PB constraints, and gophersat's own optimisation
		// writes no proof: nothing here can be certified.
		return OptimizeResult{}, errors.New("a certified run cannot bound a PB objective: Minimize's bounds are pseudo-Boolean constraints (and gophersat's own optimisation writes no proof); pick a model that bounds the objective with clauses")
	}
	if err := opt.solverAllowed(); err != nil {
		return OptimizeResult{}, err
	}
	s, err := Lookup(opt.Solver)
	if err != nil {
		return OptimizeResult{}, err
	}
	external := s.Def.Name != ""
	if s.Def.Kind == solverdef.KindMaxSAT || (external && s.Def.Kind == solverdef.KindPB && opt.Strategy == OptimizeGophersat) {
		if err := s.accepts(f); err != nil {
			return OptimizeResult{}, err
		}
		return minimizeOneRun(ctx, s, f, obj, opt.Lower), nil
	}
	if !s.PB {
		return OptimizeResult{}, fmt.Errorf("solver %s takes CNF only, and optimisation bounds the objective by pseudo-Boolean constraints: pick gophersat or minisat+", s.Name)
	}
	if err := s.accepts(f); err != nil {
		return OptimizeResult{}, err
	}
	var total int64
	for i, w := range obj.Weights {
		if w <= 0 {
			return OptimizeResult{}, fmt.Errorf("objective weight %d of literal %d is not positive", w, obj.Lits[i])
		}
		total += int64(w)
	}
	switch opt.Strategy {
	case OptimizeGophersat:
		return minimizeGophersat(ctx, f, obj, opt.Lower), nil
	case "", OptimizeLinear, OptimizeUNSATSAT, OptimizeBinary:
	default:
		return OptimizeResult{}, fmt.Errorf("unknown optimisation strategy %q: want %s, %s, %s or %s", opt.Strategy, OptimizeLinear, OptimizeUNSATSAT, OptimizeBinary, OptimizeGophersat)
	}
	atMost := func(add func([]cnf.Lit, []int, cnf.Op, int), k, lower int64) {
		if k < total {
			add(obj.Lits, obj.Weights, cnf.AtMost, int(k))
		}
		if lower > 0 {
			add(obj.Lits, obj.Weights, cnf.AtLeast, int(lower))
		}
	}
	probe := func(ctx context.Context, k, lower int64) (Result, int64, error) {
		g := cloneFormula(f)
		atMost(g.AddPB, k, lower)
		r := s.run(ctx, g)
		return r, costOf(obj, r), nil
	}
	if opt.Incremental {
		if opt.Strategy != "" && opt.Strategy != OptimizeLinear {
			return OptimizeResult{}, fmt.Errorf("an incremental search only tightens its bounds: strategy %s, not %s", OptimizeLinear, opt.Strategy)
		}
		sess := NewSession(ctx, f)
		defer sess.Close()
		probe = func(ctx context.Context, k, lower int64) (Result, int64, error) {
			atMost(sess.AddPB, k, lower)
			r := sess.Solve(ctx)
			return r, costOf(obj, r), nil
		}
	}
	return Descend(ctx, DescentOptions{Strategy: opt.Strategy, Lower: opt.Lower, Upper: total}, probe)
}

// minimizeOneRun is Minimize by an external solver's own optimisation:
// one run on f with obj as its objective (soft clauses for a MaxSAT
// solver, the "min:" line for a PB solver). Its model is checked against
// f and its o value against the model's cost (runDef); the model is
// optimal by the solver's s OPTIMUM FOUND, and a cost below the caller's
// proved lower bound is an error.
func minimizeOneRun(ctx context.Context, s Solver, f *cnf.Formula, obj Objective, lower int64) OptimizeResult {
	g := cloneFormula(f)
	lits, weights := positiveObjective(g, obj)
	g.Minimize(lits, weights)
	r := s.run(ctx, g)
	res := OptimizeResult{Status: r.Status, Stats: r.Stats, Message: r.Message, Bound: lower}
	switch {
	case r.Status == puzzle.OK && !r.Optimal:
		res.Status, res.Message = puzzle.Error, fmt.Sprintf("%s answered s SATISFIABLE, not s OPTIMUM FOUND, before any time limit", s.Name)
	case r.Status == puzzle.OK:
		res.Model, res.Cost = r.Model, obj.Cost(r.Model)
		if res.Cost < lower {
			res.Status, res.Message = puzzle.Error, fmt.Sprintf("%s claims an optimum of %d, below the proved bound %d", s.Name, res.Cost, lower)
		} else {
			res.Bound = res.Cost
		}
	}
	return res
}

// positiveObjective returns obj over positive literals of g, which an
// objective (cnf.Formula.Minimize) must be: a negative literal -x of
// weight w is replaced by a new variable y of g with y <-> -x, so that the
// cost of every model of g is obj's. (Maximising the value of intervals
// is minimising the values left out: literals -x.)
func positiveObjective(g *cnf.Formula, obj Objective) ([]cnf.Lit, []int) {
	lits := make([]cnf.Lit, len(obj.Lits))
	for i, l := range obj.Lits {
		if l > 0 {
			lits[i] = l
			continue
		}
		y := g.Aux(fmt.Sprintf("objective-not-x%d", l.Var()))
		g.Add(y, l.Not())
		g.Add(y.Not(), l)
		lits[i] = y
	}
	return lits, append([]int(nil), obj.Weights...)
}

// costOf is obj's value under r's model, 0 without one.
func costOf(obj Objective, r Result) int64 {
	if r.Status != puzzle.OK {
		return 0
	}
	return obj.Cost(r.Model)
}

// minimizeGophersat is Minimize under OptimizeGophersat: gophersat's
// Optimal on f with obj as its cost function, each improved model kept as
// it arrives so that a run stopped by the time limit still answers with
// its best model (and lower, the only bound it has).
func minimizeGophersat(ctx context.Context, f *cnf.Formula, obj Objective, lower int64) OptimizeResult {
	res := OptimizeResult{Stats: map[string]int64{}, Bound: lower}
	keep := func(model []bool) bool {
		if len(model) != f.NumVars()+1 || !f.Satisfied(model) {
			return false
		}
		if c := obj.Cost(model); res.Model == nil || c < res.Cost {
			res.Model, res.Cost = model, c
		}
		return true
	}
	bad := false
	r := searchOptimal(ctx, f, obj, func(p searchResult) {
		if !keep(p.Model) {
			bad = true
		}
		progress.Notef(ctx, "gophersat's optimisation: best cost so far %d", res.Cost)
	})
	for k, v := range r.Stats {
		res.Stats[k] += v
	}
	switch {
	case bad:
		res.Status, res.Message = puzzle.Error, "gophersat's optimisation returned a model that violates the formula"
	case r.Timeout:
		stopAt(&res, timeoutResult(nil))
	case r.Err != "":
		res.Status, res.Message = puzzle.Error, r.Err
	case r.Verdict == "unsat":
		res.Status = puzzle.Unsat
	case r.Verdict == "sat":
		if !keep(r.Model) {
			res.Status, res.Message = puzzle.Error, "gophersat's optimisation returned a model that violates the formula"
			break
		}
		if res.Cost < lower {
			res.Status, res.Message = puzzle.Error, fmt.Sprintf("gophersat's optimum %d is below the proved bound %d", res.Cost, lower)
			break
		}
		res.Status, res.Bound = puzzle.OK, res.Cost
	default:
		res.Status, res.Message = puzzle.Error, "gophersat's optimisation ended without a verdict ("+r.Verdict+")"
	}
	return res
}
