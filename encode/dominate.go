package encode

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/puzzle"
)

// The domination model: x_s "a piece on s", one primary variable per
// square. For every square t, the clause "some x_s with s = t or s
// attacking t" (t is dominated); with :independent, "not both x_s and x_t"
// for every attacking pair; with a size bound k, "at most k of the x_s"
// through the chosen cardinality encoding. Each dominating set of at most
// k pieces is exactly one assignment of the x_s, so the projected model
// count is the number of sets.
//
// The minimum is found by a sequence of such formulas, each a fresh
// solver run (encode/sat has no incremental interface), under one of three
// named searches, each a model of the encoder:
//   - satunsat (default): linear SAT-UNSAT descent: a set of at most the
//     cap, then at most one fewer than the last set found, until UNSAT;
//     the UNSAT at size-1 is the proof of optimality;
//   - unsatsat: linear UNSAT-SAT ascent from a lower bound: every size
//     below the optimum is proved UNSAT, and the first SAT is the optimum;
//   - bisect: a first set gives an upper bound, then bisection between the
//     lower and upper bounds.
//
// The lower bound the searches start from is the encoder's own: ceil(n /
// c), n the squares and c the most squares one piece dominates.
//
// Tasks: optimum (the minimum, at most k= when given); first (with k=, a
// set of at most K or unsat in one run; without, a minimum set); count and
// all (with k=, every dominating set of at most K pieces; without, the
// minimum sets, counted as the sets of at most the proven minimum), the
// same definitions as the native backend's.
func init() {
	tasks := []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.First, puzzle.All}
	for _, s := range []struct {
		name, doc string
		search    dominateSearch
	}{
		{"satunsat", "x_s: piece on s; each square dominated by a clause; minimum by SAT-UNSAT descent (at most size-1 until UNSAT)", dominateSATUNSAT},
		{"unsatsat", "the same formula; minimum by UNSAT-SAT ascent from the lower bound ceil(squares / largest cover)", dominateUNSATSAT},
		{"bisect", "the same formula; minimum by bisection between the lower bound and the size of a first set", dominateBisect},
	} {
		search, name := s.search, s.name
		register(Encoder{Puzzle: "dominate", Name: s.name, Doc: s.doc, Default: s.name == "satunsat", Tasks: tasks,
			Build: dominateBuild,
			Solve: func(ctx context.Context, req puzzle.Request, enc card.Encoding) (puzzle.Answer, error) {
				return dominateSolve(ctx, req, enc, name, search)
			}})
	}
}

// dominateModel is one formula of the model: its variables by square.
type dominateModel struct {
	f *cnf.Formula
	x []cnf.Lit
}

// dominateFormula builds the model's formula for d with at most limit
// pieces (no size constraint when limit < 0).
func dominateFormula(d puzzle.Dominate, enc card.Encoding, limit int) (dominateModel, error) {
	b := d.Board
	n := b.Size()
	f := cnf.New()
	x := make([]cnf.Lit, n)
	for s := range n {
		x[s] = f.Var("x_" + b.Name(puzzle.Square(s)))
	}
	near := make([]cnf.Lit, 0, n)
	for t := range n {
		ft, rt := t%b.W, t/b.W
		near = near[:0]
		for s := range n {
			if s == t || piecesAttack(d.Piece, s%b.W-ft, s/b.W-rt) {
				near = append(near, x[s])
			}
		}
		f.Add(near...)
	}
	if d.Independent {
		for s := range n {
			for t := s + 1; t < n; t++ {
				if piecesAttack(d.Piece, t%b.W-s%b.W, t/b.W-s/b.W) {
					f.Add(x[s].Not(), x[t].Not())
				}
			}
		}
	}
	if limit >= 0 && limit < n {
		if err := enc.Encode(f, x, cnf.AtMost, limit); err != nil {
			return dominateModel{}, err
		}
	}
	return dominateModel{f: f, x: x}, nil
}

// dominateBuild encodes a domination spec: at most K pieces with k=K, no
// size constraint without (every dominating set is a model).
func dominateBuild(spec puzzle.Spec, enc card.Encoding, _ Options) (*Instance, error) {
	d, ok := spec.(puzzle.Dominate)
	if !ok {
		return nil, fmt.Errorf("the domination model encodes domination, not %s", spec.Puzzle())
	}
	limit := -1
	if d.HasK {
		limit = d.K
	}
	m, err := dominateFormula(d, enc, limit)
	if err != nil {
		return nil, err
	}
	return m.instance(d), nil
}

// instance wraps the model as an Instance that decodes to d's layout.
func (m dominateModel) instance(d puzzle.Dominate) *Instance {
	return &Instance{Formula: m.f, Decode: placementDecode(d.Board, m.x, func(i int) (puzzle.Square, puzzle.Kind) {
		return puzzle.Square(i), d.Piece
	})}
}

// dominateLowerBound is ceil(n / c): n squares, each piece dominating at
// most c of them (computed with the encoder's own attack predicate).
func dominateLowerBound(d puzzle.Dominate) int {
	b := d.Board
	c := 1
	for s := range b.Size() {
		m := 1
		for t := range b.Size() {
			if piecesAttack(d.Piece, t%b.W-s%b.W, t/b.W-s/b.W) {
				m++
			}
		}
		c = max(c, m)
	}
	return (b.Size() + c - 1) / c
}

// dominateRun is one solve: the request, the solver, the answer being
// filled in, the best set found and the best proven lower bound.
type dominateRun struct {
	ctx    context.Context
	d      puzzle.Dominate
	enc    card.Encoding
	solver string
	ans    puzzle.Answer
	log    []string
	best   *puzzle.Solution
	size   int // pieces of best
	lower  int // every set has at least lower pieces (proved)
	// stopped holds the status of a run that gave no answer (Timeout or
	// Error); the search ends there.
	stopped puzzle.Status
}

// dominateSearch finds the minimum of r's instance, at most capK pieces:
// it leaves r.best at a minimum set and r.lower at its size, or r.best nil
// when no set of at most capK exists, or r.stopped set.
type dominateSearch func(r *dominateRun, capK int) error

// feasible asks for a dominating set of at most k pieces (any size when k
// >= the squares). It returns true with r.best updated when the solver
// finds one, false with r.lower raised to k+1 when it proves none, and
// false with r.stopped set otherwise.
func (r *dominateRun) feasible(k int) (bool, error) {
	start := time.Now()
	m, err := dominateFormula(r.d, r.enc, k)
	r.ans.EncodeSeconds += time.Since(start).Seconds()
	if err != nil {
		return false, err
	}
	st := m.f.Stats()
	r.ans.Stats[puzzle.StatVariables] = max(r.ans.Stats[puzzle.StatVariables], int64(st.Variables))
	r.ans.Stats[puzzle.StatClauses] = max(r.ans.Stats[puzzle.StatClauses], int64(st.Clauses+st.PBConstraints))
	start = time.Now()
	res, err := sat.Solve(r.ctx, m.f, r.solver)
	took := time.Since(start)
	r.ans.SolveSeconds += took.Seconds()
	if err != nil {
		return false, err
	}
	for key, v := range res.Stats {
		if key != puzzle.StatSolverCalls && key != puzzle.StatVariables && key != puzzle.StatClauses {
			r.ans.Stats[key] += v
		}
	}
	r.ans.Stats[puzzle.StatSolverCalls]++
	r.log = append(r.log, fmt.Sprintf("at most %d: %s %dms", k, res.Status, took.Milliseconds()))
	switch res.Status {
	case puzzle.Unsat:
		r.lower = max(r.lower, k+1)
		return false, nil
	case puzzle.OK:
		sol, err := m.instance(r.d).Decode(res.Model)
		if err != nil {
			return false, fmt.Errorf("decoding a model: %v", err)
		}
		if err := puzzle.Dominates(r.d, sol); err != nil {
			r.stopped = puzzle.Error
			r.log = append(r.log, "a decoded model fails the checker (encoding bug): "+err.Error())
			return false, nil
		}
		size := 0
		for _, p := range sol.Layout {
			if p != puzzle.NoPiece {
				size++
			}
		}
		if size > k {
			r.stopped = puzzle.Error
			r.log = append(r.log, fmt.Sprintf("a model of at most %d pieces has %d (encoding bug)", k, size))
			return false, nil
		}
		if r.best == nil || size < r.size {
			r.best, r.size = &sol, size
		}
		return true, nil
	}
	r.stopped = res.Status
	if res.Message != "" {
		r.log = append(r.log, res.Message)
	}
	return false, nil
}

// done reports whether the search is over: stopped, or the best set meets
// the lower bound.
func (r *dominateRun) done() bool {
	return r.stopped != "" || (r.best != nil && r.size <= r.lower)
}

// dominateSATUNSAT is the linear SAT-UNSAT descent.
func dominateSATUNSAT(r *dominateRun, capK int) error {
	k := capK
	for !r.done() && k >= r.lower {
		found, err := r.feasible(k)
		if err != nil || !found {
			return err
		}
		k = r.size - 1
	}
	return nil
}

// dominateUNSATSAT is the linear UNSAT-SAT ascent from the lower bound.
func dominateUNSATSAT(r *dominateRun, capK int) error {
	for k := r.lower; !r.done() && k <= capK; k++ {
		if _, err := r.feasible(k); err != nil {
			return err
		}
	}
	return nil
}

// dominateBisect bisects between the lower bound and the size of a first
// set.
func dominateBisect(r *dominateRun, capK int) error {
	if r.lower > capK {
		return nil
	}
	found, err := r.feasible(capK)
	if err != nil || !found {
		return err
	}
	for !r.done() {
		if _, err := r.feasible((r.lower + r.size - 1) / 2); err != nil {
			return err
		}
	}
	return nil
}

// dominateSolve answers every task of the model with the given search.
func dominateSolve(ctx context.Context, req puzzle.Request, enc card.Encoding, model string, search dominateSearch) (puzzle.Answer, error) {
	d, ok := req.Spec.(puzzle.Dominate)
	if !ok {
		return puzzle.Answer{}, fmt.Errorf("the domination model given a %s spec", req.Spec.Puzzle())
	}
	solver, err := sat.Lookup(req.Solver)
	if err != nil {
		return puzzle.Answer{}, err
	}
	r := &dominateRun{ctx: ctx, d: d, enc: enc, solver: solver.Name, lower: dominateLowerBound(d)}
	r.ans = puzzle.Answer{Solver: solver.Name, Encoding: model + "+" + enc.Name, Stats: map[string]int64{}}
	finish := func() puzzle.Answer {
		r.ans.Message = strings.Join(r.log, "; ")
		return r.ans
	}
	n := d.Board.Size()
	capK := n
	if d.HasK {
		capK = d.K
	}
	if d.HasK && req.Task != puzzle.Optimum {
		// First, count and all with k=: one formula, at most K.
		if req.Task == puzzle.First {
			found, err := r.feasible(capK)
			if err != nil {
				return puzzle.Answer{}, err
			}
			switch {
			case found:
				r.ans.Status, r.ans.Solution = puzzle.OK, r.best
			case r.stopped != "":
				r.ans.Status = r.stopped
			default:
				r.ans.Status = puzzle.Unsat
			}
			return finish(), nil
		}
		return dominateCount(ctx, req, r, capK, finish)
	}
	if err := search(r, capK); err != nil {
		return puzzle.Answer{}, err
	}
	switch {
	case r.stopped != "":
		r.ans.Status = r.stopped
		if req.Task == puzzle.Optimum {
			// The best set and the proven bound, never claimed optimal.
			r.ans.Bound = big.NewInt(int64(r.lower))
			if r.best != nil {
				r.ans.Solution, r.ans.Objective = r.best, big.NewInt(int64(r.size))
			}
		}
		r.log = append(r.log, fmt.Sprintf("stopped: at least %d pieces proven", r.lower))
		return finish(), nil
	case r.best == nil:
		r.ans.Status = puzzle.Unsat
		return finish(), nil
	}
	r.log = append(r.log, fmt.Sprintf("minimum %d", r.size))
	switch req.Task {
	case puzzle.Optimum, puzzle.First:
		if err := puzzle.Check(d, *r.best); err != nil {
			r.ans.Status = puzzle.Error
			r.log = append(r.log, "the minimum set fails the checker: "+err.Error())
			return finish(), nil
		}
		r.ans.Status, r.ans.Solution = puzzle.OK, r.best
		if req.Task == puzzle.Optimum {
			r.ans.Objective, r.ans.Bound = big.NewInt(int64(r.size)), big.NewInt(int64(r.size))
		}
		return finish(), nil
	}
	return dominateCount(ctx, req, r, r.size, finish)
}

// dominateCount counts (or lists) the dominating sets of at most limit
// pieces by the projected count of encode/sat.
func dominateCount(ctx context.Context, req puzzle.Request, r *dominateRun, limit int, finish func() puzzle.Answer) (puzzle.Answer, error) {
	start := time.Now()
	m, err := dominateFormula(r.d, r.enc, limit)
	r.ans.EncodeSeconds += time.Since(start).Seconds()
	if err != nil {
		return puzzle.Answer{}, err
	}
	st := m.f.Stats()
	r.ans.Stats[puzzle.StatVariables] = max(r.ans.Stats[puzzle.StatVariables], int64(st.Variables))
	r.ans.Stats[puzzle.StatClauses] = max(r.ans.Stats[puzzle.StatClauses], int64(st.Clauses+st.PBConstraints))
	pr := satPrepared{inst: m.instance(r.d), encoded: true}
	prefix := r.log
	r.ans.Message = ""
	// satCount sets SolveSeconds from its start: backdate it by the
	// optimisation's solver time so the answer has both.
	ans, err := satCount(ctx, req, pr, r.solver, r.ans, time.Now().Add(-time.Duration(r.ans.SolveSeconds*float64(time.Second))))
	if err != nil {
		return ans, err
	}
	if ans.Status == puzzle.OK && ans.Count == 0 && (req.Split == nil || req.Split.Shard.Whole()) {
		ans.Status = puzzle.Unsat
	}
	if ans.Message != "" {
		prefix = append(prefix, ans.Message)
	}
	r.ans, r.log = ans, prefix
	return finish(), nil
}
