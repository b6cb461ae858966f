package encode

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/puzzle"
)

// The weighted-intervals models (the seed's Gattaca): x[i] "interval i is
// chosen", the primary variables, so the projected model count is the
// number of selections. Two ways to forbid overlaps (closed intervals:
// they overlap when they share a position):
//
//   - pairwise: one clause (not x[i] or not x[j]) per overlapping pair;
//   - clique: at most one of the intervals that contain a point, for each
//     point where an interval starts (every overlapping pair contains the
//     later start of the two), only for the maximal such sets, through the
//     chosen cardinality encoding. Interval graphs have at most n maximal
//     cliques, so this is far smaller than pairwise on dense instances.
//
// The objective, the total value of the chosen intervals, is maximised by
// sat.Minimize on the values of the intervals left out (a PB objective);
// count fixes it at the optimum (a PB constraint) and counts the
// projected models.
//
// The searches for the optimum, by model name: pairwise and clique run
// sat.Minimize's linear SAT-UNSAT descent, a fresh solver call per bound;
// -inc keeps one gophersat solver and appends each bound to it
// (sat.Session); -pbmin runs gophersat's own PB optimisation (its
// Optimal, the values left out as cost function).
func init() {
	for _, m := range []struct {
		name, doc string
		clique    bool
		opt       sat.OptimizeOptions
	}{
		{"pairwise", "x[i]: interval i chosen; one clause per overlapping pair; value maximised by PB optimisation", false, sat.OptimizeOptions{}},
		{"clique", "x[i]: interval i chosen; at most one per maximal set of intervals sharing a start point (card encoding); value maximised by PB optimisation", true, sat.OptimizeOptions{}},
		{"pairwise-inc", "pairwise, the linear descent on one kept gophersat solver (each value bound appended, learnt clauses kept); gophersat only", false, sat.OptimizeOptions{Incremental: true}},
		{"clique-inc", "clique, the linear descent on one kept gophersat solver; gophersat only", true, sat.OptimizeOptions{Incremental: true}},
		{"pairwise-pbmin", "pairwise, value maximised by the solver's own optimisation in one run (gophersat's Optimal, or a maxsat or pb solver)", false, sat.OptimizeOptions{Strategy: sat.OptimizeGophersat}},
		{"clique-pbmin", "clique, value maximised by the solver's own optimisation in one run (gophersat's Optimal, or a maxsat or pb solver)", true, sat.OptimizeOptions{Strategy: sat.OptimizeGophersat}},
	} {
		clique, opt, name := m.clique, m.opt, m.name
		register(Encoder{
			Puzzle: "intervals", Name: m.name, Doc: m.doc, Default: name == "clique",
			GophersatOnly: opt.Incremental, OwnOptimiser: opt.Strategy == sat.OptimizeGophersat,
			Tasks: []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.First},
			Why:   whyIf(name == "clique", "2 to 2.6 times faster than pairwise for the optimum at N = 50 to 60 (count at N = 50: 1.9 s against 4.3 s), on every solver; pairwise-pbmin is faster still, on gophersat only"),
			Build: func(spec puzzle.Spec, enc card.Encoding, _ Options) (*Instance, error) {
				return intervalsBuild(spec, enc, clique)
			},
			Solve: func(ctx context.Context, req puzzle.Request, enc card.Encoding) (puzzle.Answer, error) {
				return intervalsSolve(ctx, req, enc, clique, opt)
			},
		})
	}
}

// intervalsBuild encodes the constraints (no objective): every model is a
// selection of pairwise apart intervals.
func intervalsBuild(spec puzzle.Spec, enc card.Encoding, clique bool) (*Instance, error) {
	iv, ok := spec.(puzzle.Intervals)
	if !ok {
		return nil, fmt.Errorf("the intervals models encode weighted intervals, not %s", spec.Puzzle())
	}
	items := iv.Items
	f := cnf.New()
	x := make([]cnf.Lit, len(items))
	for i := range items {
		x[i] = f.Var(fmt.Sprintf("x_%d", i))
	}
	// The encoder's own overlap test: closed intervals sorted by start
	// overlap a later one exactly while it starts at or before their end.
	byStart := make([]int, len(items))
	for i := range byStart {
		byStart[i] = i
	}
	slices.SortStableFunc(byStart, func(a, b int) int { return cmp.Compare(items[a].Start, items[b].Start) })
	if !clique {
		for k, i := range byStart {
			for _, j := range byStart[k+1:] {
				if items[j].Start > items[i].End {
					break
				}
				f.Add(x[i].Not(), x[j].Not())
			}
		}
	} else {
		var active, set []cnf.Lit
		var ends []int64
		for k := 0; k < len(byStart); {
			p := items[byStart[k]].Start
			// Drop the intervals that end before p, add those starting at p.
			active, ends = dropEnded(active, ends, p)
			for ; k < len(byStart) && items[byStart[k]].Start == p; k++ {
				active = append(active, x[byStart[k]])
				ends = append(ends, items[byStart[k]].End)
			}
			// The set at p is contained in the set at the next start point
			// unless one of its intervals ends before that point.
			if k < len(byStart) && slices.Min(ends) >= items[byStart[k]].Start {
				continue
			}
			if len(active) > 1 {
				set = append(set[:0], active...)
				if err := enc.Encode(f, set, cnf.AtMost, 1); err != nil {
					return nil, err
				}
			}
		}
	}
	return &Instance{Formula: f, Decode: func(model []bool) (puzzle.Solution, error) {
		sol := puzzle.Solution{Board: puzzle.BoardOf(iv), Picks: []int{}}
		for i, l := range x {
			if model[l.Var()] {
				sol.Picks = append(sol.Picks, i)
			}
		}
		return sol, nil
	}}, nil
}

// dropEnded removes from active (with their ends) the intervals that end
// before p.
func dropEnded(active []cnf.Lit, ends []int64, p int64) ([]cnf.Lit, []int64) {
	n := 0
	for i := range active {
		if ends[i] >= p {
			active[n], ends[n] = active[i], ends[i]
			n++
		}
	}
	return active[:n], ends[:n]
}

// intervalsSolve answers optimum and first by maximising the total value
// (sat.Minimize on the values left out), and count by counting the
// projected models whose value is the optimum.
func intervalsSolve(ctx context.Context, req puzzle.Request, enc card.Encoding, clique bool, opt sat.OptimizeOptions) (puzzle.Answer, error) {
	s, err := sat.Lookup(req.Solver)
	if err != nil {
		return puzzle.Answer{}, err
	}
	iv := req.Spec.(puzzle.Intervals)
	start := time.Now()
	inst, err := intervalsBuild(req.Spec, enc, clique)
	if err != nil {
		return puzzle.Answer{}, err
	}
	f := inst.Formula
	var obj sat.Objective
	var total int64
	for i, it := range iv.Items {
		if it.Value > 0 {
			obj.Lits = append(obj.Lits, cnf.Lit(i+1).Not())
			obj.Weights = append(obj.Weights, int(it.Value))
			total += it.Value
		}
	}
	ans := puzzle.Answer{Solver: s.Name, EncodeSeconds: time.Since(start).Seconds()}
	st := f.Stats()
	ans.Stats = map[string]int64{puzzle.StatVariables: int64(st.Variables), puzzle.StatClauses: int64(st.Clauses + st.PBConstraints)}
	start = time.Now()
	opt.Solver = s.Name
	r, err := sat.Minimize(ctx, f, obj, opt)
	if err != nil {
		return puzzle.Answer{}, err
	}
	ans.SolveSeconds = time.Since(start).Seconds()
	satAddStats(&ans, r.Stats)
	ans.Status, ans.Message = r.Status, r.Message
	switch r.Status {
	case puzzle.Unsat:
		// The empty selection is always a model.
		ans.Status, ans.Message = puzzle.Error, "the formula has no model, yet choosing no interval satisfies it (encoding bug)"
		return ans, nil
	case puzzle.Error:
		return ans, nil
	}
	ans.Bound = big.NewInt(total - r.Bound)
	if r.Model == nil {
		return ans, nil
	}
	sol, err := satDecode(req.Spec, inst, r.Model)
	if err != nil {
		ans.Status, ans.Message = puzzle.Error, err.Error()
		return ans, nil
	}
	value, err := puzzle.IntervalsValue(iv, sol.Picks)
	if err != nil || value != total-r.Cost {
		ans.Status, ans.Message = puzzle.Error, fmt.Sprintf("the model's value %d is not its cost's complement %d (encoding bug)", value, total-r.Cost)
		return ans, nil
	}
	ans.Objective = big.NewInt(value)
	if r.Status != puzzle.OK || req.Task != puzzle.Count {
		ans.Solution = &sol
		return ans, nil
	}
	// Count: the selections of the optimal value. Its bound is a PB
	// constraint, whatever card encoding the model uses.
	var xs []cnf.Lit
	var ws []int
	for i, it := range iv.Items {
		if it.Value > 0 {
			xs, ws = append(xs, cnf.Lit(i+1)), append(ws, int(it.Value))
		}
	}
	f.AddPB(xs, ws, cnf.AtLeast, int(value))
	counted, err := satCount(ctx, req, satPrepared{inst: inst}, s.Name, ans, start)
	if err == nil && counted.Status == puzzle.OK && counted.Count == 0 {
		return puzzle.Answer{}, errors.New("no selection reaches the optimum just found (encoding bug)")
	}
	return counted, err
}
