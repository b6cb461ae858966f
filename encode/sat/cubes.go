package sat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/puzzle"
)

// Cube-and-conquer for certified counts (and refutations: a refutation is
// the certified count 0). A formula too big for one proof-giving call is
// split on d variables into the 2^d cubes of the complete decision tree
// over them: cube i sets variable j true when bit j of i is 1. Each cube,
// the formula with the cube's literals as unit clauses, is counted
// certified (countProving: its models checked, the rest refuted with a
// checked proof), as one subproblem of the shared pool, so shards,
// checkpoints and Slurm arrays run cubes like any other subproblems. That
// the cubes cover every assignment is proved too: the formula of the
// cubes' negations (one clause per cube) is refuted with a checked proof.
// The cubes are disjoint, so the count is the sum of theirs.

// MaxCubeDepth bounds the cube variables: 2^16 cubes, each a solver call
// and a proof check.
const MaxCubeDepth = 16

// cubeVars picks the d variables to split on: the model's own choice
// first (CountOptions.CubeVars), then the primary variables that occur in
// the most clauses.
func cubeVars(f *cnf.Formula, want []cnf.Lit, d int) []int {
	var out []int
	for _, l := range want {
		if len(out) < d && !slices.Contains(out, l.Var()) {
			out = append(out, l.Var())
		}
	}
	if len(out) < d {
		occ := make([]int, f.NumVars()+1)
		for i := range f.NumClauses() {
			for _, l := range f.Clause(i) {
				occ[l.Var()]++
			}
		}
		proj := f.Projection()
		slices.SortStableFunc(proj, func(a, b int) int { return occ[b] - occ[a] })
		for _, v := range proj {
			if len(out) < d && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// cubeLits returns cube id's literals over vars.
func cubeLits(vars []int, id int) []cnf.Lit {
	out := make([]cnf.Lit, len(vars))
	for j, v := range vars {
		out[j] = -cnf.Lit(v)
		if id>>j&1 == 1 {
			out[j] = cnf.Lit(v)
		}
	}
	return out
}

// cubeName writes a cube in the formula's variable names.
func cubeName(f *cnf.Formula, cube []cnf.Lit) string {
	parts := make([]string, len(cube))
	for i, l := range cube {
		parts[i] = fmt.Sprintf("%s=%d", f.Name(l.Var()), map[bool]int{false: 0, true: 1}[l > 0])
	}
	return strings.Join(parts, " ")
}

// countCubes is a certified count by cube-and-conquer over opt.Cubes
// variables (see above).
func countCubes(ctx context.Context, f *cnf.Formula, opt CountOptions, sink ProofSink) (CountResult, string, error) {
	d := opt.Cubes
	if d > MaxCubeDepth {
		return CountResult{}, "", fmt.Errorf("cube-and-conquer splits on at most %d variables (2^%d cubes), not %d", MaxCubeDepth, MaxCubeDepth, d)
	}
	vars := cubeVars(f, opt.CubeVars, d)
	if len(vars) < d {
		return CountResult{}, "", fmt.Errorf("cube-and-conquer on %d variables, and the formula has %d primary variables", d, len(vars))
	}
	total := 1 << d
	claim := claimOf(ctx, f)
	method := fmt.Sprintf("cube-and-conquer: %d cubes over %d variables, each a certified count", total, d)

	names := make([]string, d)
	for j, v := range vars {
		names[j] = f.Name(v)
	}
	if stop, err := proveCubesSound(ctx, f, vars, names, sink); stop != nil || err != nil {
		return *stop, method, err
	}

	key := opt.Key
	key.Partition = fmt.Sprintf("certified cubes over %s: %d subproblems", strings.Join(names, ","), total)
	key.Version = subproblem.Version()
	var (
		mu     sync.Mutex
		failed *CountResult
		stats  = map[string]int64{}
	)
	emit := opt.Emit
	one := opt
	one.Split, one.Cubes, one.CubeVars = nil, 0, nil
	if emit != nil {
		one.Emit = func(model []bool) error {
			mu.Lock()
			defer mu.Unlock()
			return emit(model)
		}
	}
	var emitErr error
	res, err := subproblem.Run(ctx, subproblem.Job{Key: key, Total: total, Threads: opt.Threads}, opt.Split, func() subproblem.Solver {
		return func(id int) (uint64, bool) {
			cube := cubeLits(vars, id)
			g := cloneFormula(f)
			for _, l := range cube {
				g.Add(l)
			}
			cctx := WithClaim(ctx, fmt.Sprintf("%s, in cube %d of %d (%s)", claim, id+1, total, cubeName(f, cube)))
			r, _, err := countProving(cctx, g, one, sink)
			mu.Lock()
			defer mu.Unlock()
			for k, v := range r.Stats {
				stats[k] += v
			}
			if err != nil {
				if emitErr == nil {
					emitErr = err
				}
				return 0, false
			}
			if r.Status != puzzle.OK {
				if failed == nil && ctx.Err() == nil {
					r.Message = fmt.Sprintf("cube %d of %d: %s", id+1, total, r.Message)
					failed = &r
				}
				return 0, false
			}
			return r.Count, true
		}
	})
	switch {
	case err != nil:
		return CountResult{}, method, err
	case emitErr != nil:
		return CountResult{Status: puzzle.Error, Stats: stats, Message: emitErr.Error()}, method, emitErr
	case failed != nil:
		failed.Stats = stats
		return *failed, method, nil
	case !res.Complete:
		return CountResult{Status: puzzle.Timeout, Stats: stats, Message: fmt.Sprintf("time limit reached after %d of %d cubes", res.Done, res.InShard)}, method, nil
	case !res.Count.IsUint64():
		return CountResult{}, method, fmt.Errorf("count %s exceeds 64 bits", res.Count)
	}
	return CountResult{Status: puzzle.OK, Count: res.Count.Uint64(), Stats: stats}, method, nil
}

// proveCubesSound proves, with sink's proofs, that the cubes over vars
// (named names) count every projected model once: they cover every
// assignment, and a cube variable outside the projection is a function of
// it. It returns a result to answer with when the proof fails or does not
// finish, else nil.
func proveCubesSound(ctx context.Context, f *cnf.Formula, vars []int, names []string, sink ProofSink) (*CountResult, error) {
	d := len(vars)
	total := 1 << d
	// The cubes cover every assignment: their negations are refuted.
	cover := cnf.New()
	for _, v := range vars {
		cover.Var(f.Name(v))
	}
	local := make([]int, d)
	for j := range local {
		local[j] = j + 1
	}
	for id := range total {
		c := cubeLits(local, id)
		for j := range c {
			c[j] = -c[j]
		}
		cover.Add(c...)
	}
	gs, _ := Solvers.Lookup(DefaultSolver)
	cr, err := solveProving(WithClaim(ctx, fmt.Sprintf("the %d cubes over %s cover every assignment (their negations are unsatisfiable)", total, strings.Join(names, ", "))), gs, cover, sink)
	if err != nil {
		return &CountResult{}, err
	}
	switch cr.Status {
	case puzzle.Unsat:
	case puzzle.OK:
		return &CountResult{Status: puzzle.Error, Message: "the cubes leave an assignment uncovered (bug)"}, nil
	default:
		return &CountResult{Status: cr.Status, Message: cr.Message}, nil
	}

	// A cube variable outside the projection (the line model's ranks)
	// keeps the cubes' projected counts apart only when it is a function
	// of the projection: proved by refuting two copies of the formula
	// that agree on the primary variables and disagree on it.
	for _, v := range vars {
		if f.Primary(v) {
			continue
		}
		dr, err := solveProving(WithClaim(ctx, fmt.Sprintf("the cube variable %s is a function of the primary variables (two models that agree on them agree on it), so no projected model is counted in two cubes", f.Name(v))), gs, twoCopies(f, v), sink)
		if err != nil {
			return &CountResult{}, err
		}
		switch dr.Status {
		case puzzle.Unsat:
		case puzzle.OK:
			return &CountResult{Status: puzzle.Error, Message: fmt.Sprintf("the cube variable %s is not a function of the primary variables: the cubes' projected counts would overlap", f.Name(v))}, nil
		default:
			return &CountResult{Status: dr.Status, Message: dr.Message}, nil
		}
	}
	return nil, nil
}

// twoCopies returns f's clauses twice, the second copy over fresh
// variables but for the primary ones, which both copies share, with v
// true in the first copy and false in the second: unsatisfiable exactly
// when v is a function of the primary variables.
func twoCopies(f *cnf.Formula, v int) *cnf.Formula {
	g := cnf.New()
	n := f.NumVars()
	second := make([]cnf.Lit, n+1)
	for u := 1; u <= n; u++ {
		if f.Primary(u) {
			g.Var(f.Name(u))
		} else {
			g.Aux(f.Name(u))
		}
	}
	for u := 1; u <= n; u++ {
		second[u] = cnf.Lit(u)
		if !f.Primary(u) {
			second[u] = g.Aux(f.Name(u) + "'")
		}
	}
	copyLits := func(c []cnf.Lit) []cnf.Lit {
		d := make([]cnf.Lit, len(c))
		for j, l := range c {
			d[j] = second[l.Var()]
			if l < 0 {
				d[j] = -d[j]
			}
		}
		return d
	}
	for i := range f.NumClauses() {
		g.Add(f.Clause(i)...)
		g.Add(copyLits(f.Clause(i))...)
	}
	for _, p := range f.PBs() { // refused by the proving call, as in the cubes
		g.AddPB(p.Lits, p.Weights, p.Op, p.K)
		g.AddPB(copyLits(p.Lits), p.Weights, p.Op, p.K)
	}
	g.Add(cnf.Lit(v))
	g.Add(-second[v])
	return g
}
