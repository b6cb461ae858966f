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

// The searches of the domination models: the minimum through sat.Descend
// (or a kept solver, or gophersat's own optimisation), a first set, and
// the counts, each probe a solver run.

// dominateRun is one solve: the request, the solver, the answer being
// filled in, the best set found and the best proven lower bound.
type dominateRun struct {
	d      puzzle.Dominate
	enc    card.Encoding
	cfg    dominateConfig
	solver string
	ans    puzzle.Answer
	log    []string
	best   *puzzle.Solution
	size   int // pieces of best
	lower  int // every set has at least lower pieces (proved)
	// stopped holds the status of a run that gave no answer (Timeout or
	// Error); the search ends there.
	stopped puzzle.Status
	// The kept solver of an incremental descent and its totalizer's
	// outputs (outs[k] true when more than k pieces are placed).
	sess *sat.Session
	outs []cnf.Lit
}

// probe is sat.Descend's step: a dominating set of at most k pieces (any
// size when k >= the squares), in a fresh formula and solver run, or on
// the kept solver of an incremental descent. A set found is decoded,
// checked and kept in r.best when it is the smallest so far; a model that
// fails the checker is an Error answer.
func (r *dominateRun) probe(ctx context.Context, k, _ int64) (sat.Result, int64, error) {
	ctx = sat.WithClaim(ctx, r.claim(int(k)))
	start := time.Now()
	var res sat.Result
	var f *cnf.Formula
	var took time.Duration
	if r.cfg.incremental && int(k) < r.d.Board.Size() {
		if r.sess == nil {
			m, err := dominateFormula(r.d, r.enc, -1, r.cfg)
			if err != nil {
				return res, 0, err
			}
			r.outs = card.Totalizer(m.f, cardOrder(r.d, m.x, r.cfg.order), int(k)+1)
			r.sess = sat.NewSession(ctx, m.f)
		}
		r.sess.Add(r.outs[k].Not())
		f = r.sess.Formula()
		r.ans.EncodeSeconds += time.Since(start).Seconds()
		start = time.Now()
		res = r.sess.Solve(ctx)
		took = time.Since(start)
	} else {
		m, err := dominateFormula(r.d, r.enc, int(k), r.cfg)
		r.ans.EncodeSeconds += time.Since(start).Seconds()
		if err != nil {
			return res, 0, err
		}
		f = m.f
		start = time.Now()
		res, err = sat.Solve(ctx, m.f, r.solver)
		took = time.Since(start)
		if err != nil {
			return res, 0, err
		}
	}
	st := f.Stats()
	r.ans.Stats[puzzle.StatVariables] = max(r.ans.Stats[puzzle.StatVariables], int64(st.Variables))
	r.ans.Stats[puzzle.StatClauses] = max(r.ans.Stats[puzzle.StatClauses], int64(st.Clauses+st.PBConstraints))
	r.ans.SolveSeconds += took.Seconds()
	for key, v := range res.Stats {
		if key != puzzle.StatSolverCalls && key != puzzle.StatVariables && key != puzzle.StatClauses {
			r.ans.Stats[key] += v
		}
	}
	r.ans.Stats[puzzle.StatSolverCalls]++
	r.log = append(r.log, fmt.Sprintf("at most %d: %s %dms", k, res.Status, took.Milliseconds()))
	if res.Status != puzzle.OK {
		return res, 0, nil
	}
	size, fail := r.keep(res.Model)
	if fail != "" {
		return sat.Result{Status: puzzle.Error, Message: fail}, 0, nil
	}
	return res, int64(size), nil
}

// claim says what the formula of "at most k pieces" being unsatisfiable
// proves, for a certified run: with lex-leader constraints, that no set
// of at most k is the least of its symmetry class, which means none
// exists (every class has a least member: the run notes that argument).
func (r *dominateRun) claim(k int) string {
	d := r.d
	d.HasK, d.K = false, 0
	what := "dominating set"
	if d.Independent {
		what = "independent dominating set"
	}
	c := fmt.Sprintf("%s has no %s of at most %d %s", d, what, k, pieceNames[d.Piece])
	if r.cfg.lex {
		c = "the lex-leader formula of " + c
	}
	return c
}

// pieceNames name the pieces of a set, in claims.
var pieceNames = [puzzle.NumKinds]string{"kings", "queens", "bishops", "rooks", "knights"}

// keep decodes a model, checks it, and keeps it as r.best when it is the
// smallest set so far. It returns the set's size, or why the model is
// wrong (an encoding bug).
func (r *dominateRun) keep(model []bool) (int, string) {
	// The x_s are variables 1..n in every formula of the model.
	sol, err := placementDecode(r.d.Board, dominateVars(r.d.Board.Size()), func(i int) (puzzle.Square, puzzle.Kind) {
		return puzzle.Square(i), r.d.Piece
	})(model)
	if err != nil {
		return 0, "decoding a model: " + err.Error()
	}
	if err := puzzle.Dominates(r.d, sol); err != nil {
		return 0, "a decoded model fails the checker (encoding bug): " + err.Error()
	}
	size := 0
	for _, p := range sol.Layout {
		if p != puzzle.NoPiece {
			size++
		}
	}
	if r.best == nil || size < r.size {
		r.best, r.size = &sol, size
	}
	return size, ""
}

// dominateVars are the literals x_s of a board of n squares, variables
// 1..n as dominateFormula declares them first.
func dominateVars(n int) []cnf.Lit {
	x := make([]cnf.Lit, n)
	for i := range x {
		x[i] = cnf.Lit(i + 1)
	}
	return x
}

// minimize finds the minimum of r's instance, at most capK pieces, under
// the model's search: it leaves r.best at a minimum set and r.lower at its
// size, or r.best nil when no set of at most capK exists, or r.stopped set
// with r.best the best set found and r.lower the proved bound.
func (r *dominateRun) minimize(ctx context.Context, capK int) error {
	defer func() {
		if r.sess != nil {
			r.sess.Close()
		}
	}()
	var res sat.OptimizeResult
	var err error
	if r.cfg.strategy == sat.OptimizeGophersat {
		limit := -1
		if capK < r.d.Board.Size() {
			limit = capK
		}
		start := time.Now()
		m, err := dominateFormula(r.d, r.enc, limit, r.cfg)
		r.ans.EncodeSeconds += time.Since(start).Seconds()
		if err != nil {
			return err
		}
		st := m.f.Stats()
		r.ans.Stats[puzzle.StatVariables] = int64(st.Variables)
		r.ans.Stats[puzzle.StatClauses] = int64(st.Clauses + st.PBConstraints)
		obj := sat.Objective{Lits: m.x, Weights: make([]int, len(m.x))}
		for i := range obj.Weights {
			obj.Weights[i] = 1
		}
		start = time.Now()
		res, err = sat.Minimize(ctx, m.f, obj, sat.OptimizeOptions{Solver: r.solver, Strategy: sat.OptimizeGophersat, Lower: int64(r.lower)})
		r.ans.SolveSeconds += time.Since(start).Seconds()
		if err != nil {
			return err
		}
		satAddStats(&r.ans, res.Stats)
		r.log = append(r.log, fmt.Sprintf("gophersat's optimisation: %s", res.Status))
		if res.Model != nil {
			if _, fail := r.keep(res.Model); fail != "" {
				res.Status, res.Message = puzzle.Error, fail
			}
		}
	} else {
		res, err = sat.Descend(ctx, sat.DescentOptions{Strategy: r.cfg.strategy, Lower: int64(r.lower), Upper: int64(capK)}, r.probe)
		if err != nil {
			return err
		}
	}
	r.lower = int(res.Bound)
	switch res.Status {
	case puzzle.OK, puzzle.Unsat:
	default:
		r.stopped = res.Status
		if res.Message != "" {
			r.log = append(r.log, res.Message)
		}
	}
	return nil
}

// dominateSolve answers every task of the model with its search.
func dominateSolve(ctx context.Context, req puzzle.Request, enc card.Encoding, model string, cfg dominateConfig) (puzzle.Answer, error) {
	d, ok := req.Spec.(puzzle.Dominate)
	if !ok {
		return puzzle.Answer{}, fmt.Errorf("the domination model given a %s spec", req.Spec.Puzzle())
	}
	solver, err := sat.Lookup(req.Solver)
	if err != nil {
		return puzzle.Answer{}, err
	}
	r := &dominateRun{d: d, enc: enc, cfg: cfg, solver: solver.Name, lower: dominateLowerBound(d)}
	if sat.Proving(ctx) {
		if cfg.strategy == sat.OptimizeGophersat {
			return puzzle.Answer{}, fmt.Errorf("model %s runs gophersat's own PB optimisation, which writes no proof: a certified run takes satunsat, unsatsat, bisect or a lines model", model)
		}
		// Every bound is refuted by a proof, none taken from the
		// counting argument ceil(squares / largest cover).
		r.lower = 0
		if cfg.lex {
			sat.Note(ctx, "lex-leader symmetry breaking keeps the least set of every class of the board's symmetries, so the lex-leader formula has a set of at most k pieces exactly when the puzzle has one (an argument about the formula, outside the proofs)")
		}
	}
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
			r.cfg.incremental = false
			res, _, err := r.probe(ctx, int64(capK), 0)
			if err != nil {
				return puzzle.Answer{}, err
			}
			switch res.Status {
			case puzzle.OK:
				r.ans.Status, r.ans.Solution = puzzle.OK, r.best
			case puzzle.Unsat:
				r.ans.Status = puzzle.Unsat
			default:
				r.ans.Status = res.Status
				if res.Message != "" {
					r.log = append(r.log, res.Message)
				}
			}
			return finish(), nil
		}
		return dominateCount(ctx, req, r, capK, finish)
	}
	if err := r.minimize(ctx, capK); err != nil {
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
	m, err := dominateFormula(r.d, r.enc, limit, r.cfg)
	r.ans.EncodeSeconds += time.Since(start).Seconds()
	if err != nil {
		return puzzle.Answer{}, err
	}
	st := m.f.Stats()
	r.ans.Stats[puzzle.StatVariables] = max(r.ans.Stats[puzzle.StatVariables], int64(st.Variables))
	r.ans.Stats[puzzle.StatClauses] = max(r.ans.Stats[puzzle.StatClauses], int64(st.Clauses+st.PBConstraints))
	pr := satPrepared{inst: m.instance(r.d), encoded: true}
	d := r.d
	d.HasK, d.K = false, 0
	claim := fmt.Sprintf("the formula of %s with at most %d %s", d, limit, pieceNames[d.Piece])
	if r.cfg.lex {
		claim = "the lex-leader formula of " + claim[len("the formula of "):]
	}
	ctx = sat.WithClaim(ctx, claim)
	prefix := r.log
	r.ans.Message = ""
	// satCount sets SolveSeconds from its start: backdate it by the
	// optimisation's solver time so the answer has both.
	since := time.Now().Add(-time.Duration(r.ans.SolveSeconds * float64(time.Second)))
	var ans puzzle.Answer
	if r.cfg.lex && req.Task == puzzle.Count {
		ans, err = dominateOrbitCount(ctx, req, r, pr, since)
	} else {
		ans, err = satCount(ctx, req, pr, r.solver, r.ans, since)
	}
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
