package encode

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
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
// The minimum is found by sat.Descend, the project's one optimisation
// loop, each probe "a set of at most k pieces?" a solver run, under one of
// the named searches, each a model of the encoder:
//   - satunsat (default): linear SAT-UNSAT descent: a set of at most the
//     cap, then at most one fewer than the last set found, until UNSAT;
//     the UNSAT at size-1 is the proof of optimality;
//   - unsatsat: linear UNSAT-SAT ascent from a lower bound: every size
//     below the optimum is proved UNSAT, and the first SAT is the optimum;
//   - bisect: a first set gives an upper bound, then bisection between the
//     lower and upper bounds;
//   - satunsat-inc: the SAT-UNSAT descent on one kept gophersat solver
//     (sat.Session): the formula holds a totalizer over the squares whose
//     outputs count the pieces, and each step adds the unit clause "not
//     output k" (at most k), so learnt clauses carry over from step to
//     step; the cardinality encoding named serves count only;
//   - pbmin: gophersat's own PB optimisation (sat.Minimize with
//     sat.OptimizeGophersat): the number of pieces as its cost function.
//
// Each probe of satunsat, unsatsat and bisect is a fresh formula and a
// fresh solver run. The model options: -hilbert gives the cardinality
// constraint's inputs in Hilbert-curve order of the squares, -coverage in
// order of how many squares each dominates (most first, ties along the
// Hilbert curve), -lex adds static lex-leader symmetry breaking.
//
// The line model (models *-lines*, for queens, rooks and bishops; kings
// and knights get the plain clauses): an auxiliary variable per rank,
// file, diagonal and anti-diagonal the piece moves along, true exactly
// when a piece stands on that line (a clause "some x on it" and "x implies
// the line" for each of its squares), so that every set has exactly one
// extension and counts are unchanged. Square t's clause is then the short
// disjunction of the (at most four) lines through it instead of the 4n-3
// squares attacking it, and with a size bound k the formula also states
// "at most k occupied lines" in each family, implied but a strong hint:
// the solver reasons about which ranks and files are free, the way the
// human proofs do: UNSAT probes below the optimum get much shorter
// (docs/measurements/dominate.md).
//
// The lower bound the searches start from is the encoder's own: ceil(n /
// c), n the squares and c the most squares one piece dominates.
//
// Tasks: optimum (the minimum, at most k= when given); first (with k=, a
// set of at most K or unsat in one run; without, a minimum set); count and
// all (with k=, every dominating set of at most K pieces; without, the
// minimum sets, counted as the sets of at most the proven minimum), the
// same definitions as the native backend's; unique (lex-leader models
// only) is that count with one set per class of the board's symmetries.
// The lex-leader models count (not list) all sets too: one set per class
// enumerated, each weighted by the size of its orbit.
func init() {
	tasks := []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.First, puzzle.All}
	linear, inc := dominateConfig{strategy: sat.OptimizeLinear}, dominateConfig{strategy: sat.OptimizeLinear, incremental: true}
	ascent := dominateConfig{strategy: sat.OptimizeUNSATSAT}
	with := func(c dominateConfig, order string, lex bool) dominateConfig {
		c.order, c.lex = order, lex
		return c
	}
	lined := func(c dominateConfig) dominateConfig {
		c.lines = true
		return c
	}
	for _, s := range []struct {
		name, doc string
		cfg       dominateConfig
	}{
		{"satunsat", "x_s: piece on s; each square dominated by a clause; minimum by SAT-UNSAT descent (at most size-1 until UNSAT)", linear},
		{"unsatsat", "the same formula; minimum by UNSAT-SAT ascent from the lower bound ceil(squares / largest cover)", ascent},
		{"bisect", "the same formula; minimum by bisection between the lower bound and the size of a first set", dominateConfig{strategy: sat.OptimizeBinary}},
		{"satunsat-hilbert", "satunsat with the cardinality constraint's inputs in Hilbert-curve order of the squares (not row-major)", with(linear, orderHilbert, false)},
		{"satunsat-lex", "satunsat with static lex-leader symmetry breaking (every board symmetry, one set per class); optimum, first, unique, count (classes times orbit sizes)", with(linear, "", true)},
		{"satunsat-hilbert-lex", "satunsat with Hilbert order and lex-leader symmetry breaking; optimum, first, unique, count (classes times orbit sizes)", with(linear, orderHilbert, true)},
		{"satunsat-coverage", "satunsat with the cardinality constraint's inputs in coverage order: squares dominating the most squares first, ties along the Hilbert curve", with(linear, orderCoverage, false)},
		{"satunsat-coverage-lex", "satunsat with coverage order and lex-leader symmetry breaking; optimum, first, unique, count (classes times orbit sizes)", with(linear, orderCoverage, true)},
		{"satunsat-inc", "SAT-UNSAT descent on one kept gophersat solver: a totalizer over the squares, each step adds the unit 'not output k' (learnt clauses kept); gophersat only; the card encoding serves count", inc},
		{"satunsat-inc-hilbert-lex", "satunsat-inc with Hilbert order and lex-leader symmetry breaking; optimum, first, unique, count (classes times orbit sizes)", with(inc, orderHilbert, true)},
		{"satunsat-inc-coverage-lex", "satunsat-inc with coverage order and lex-leader symmetry breaking; optimum, first, unique, count (classes times orbit sizes)", with(inc, orderCoverage, true)},
		{"satunsat-lines", "satunsat on the line model (queens, rooks, bishops): a variable per occupied rank, file and diagonal, each square dominated by a clause of the lines through it, and at most k occupied lines of each family (implied, stated)", lined(linear)},
		{"satunsat-lines-lex", "satunsat-lines with lex-leader symmetry breaking", lined(with(linear, "", true))},
		{"satunsat-lines-hilbert-lex", "satunsat-lines with Hilbert order and lex-leader symmetry breaking", lined(with(linear, orderHilbert, true))},
		{"unsatsat-lines-lex", "the line model with lex-leader symmetry breaking; minimum by UNSAT-SAT ascent from the lower bound", lined(with(ascent, "", true))},
		{"unsatsat-lines-hilbert-lex", "the line model with Hilbert order and lex-leader symmetry breaking; minimum by UNSAT-SAT ascent from the lower bound", lined(with(ascent, orderHilbert, true))},
		{"pbmin", "the same formula, no size bound; minimum by the solver's own optimisation in one run (gophersat's Optimal, or a maxsat or pb solver), the pieces as cost function", dominateConfig{strategy: sat.OptimizeGophersat}},
		{"pbmin-lex", "pbmin with lex-leader symmetry breaking; optimum, first, unique, count (classes times orbit sizes)", dominateConfig{strategy: sat.OptimizeGophersat, lex: true}},
	} {
		name, cfg := s.name, s.cfg
		ts := tasks
		if cfg.lex {
			// Lex-leader keeps exactly one set per symmetry class: sound
			// for the optimum and a first set, and its count is the count
			// of classes (unique); count adds up the classes' orbit sizes
			// (dominateOrbitCount); all is refused.
			ts = []puzzle.Task{puzzle.Optimum, puzzle.First, puzzle.Unique, puzzle.Count}
		}
		e := Encoder{Puzzle: "dominate", Name: name, Doc: s.doc, Tasks: ts,
			GophersatOnly: cfg.incremental, OwnOptimiser: cfg.strategy == sat.OptimizeGophersat,
			Build: func(spec puzzle.Spec, enc card.Encoding, opt Options) (*Instance, error) {
				c := cfg
				c.lex = c.lex || opt.SymmetryBreaking
				return dominateBuild(spec, enc, c)
			},
			Solve: func(ctx context.Context, req puzzle.Request, enc card.Encoding) (puzzle.Answer, error) {
				return dominateSolve(ctx, req, enc, name, cfg)
			}}
		if name == dominateDefault {
			e.Default, e.DefaultCard, e.Why = true, "totalizer", dominateDefaultWhy
		}
		register(e)
	}
}

// dominateDefault is the default dominate model, with the totalizer; the
// plain satunsat answers the task it does not do (all).
const dominateDefault = "unsatsat-lines-hilbert-lex"

// dominateDefaultWhy is the measurement behind dominateDefault.
const dominateDefaultWhy = "the fastest optimum with proof measured, queens n = 10 to 13 (n = 13: 10.6 s; with seqcounter 42.9 s; plain satunsat does not prove n = 12 within 60 s); lines for Q, R, B, the plain formula for K, N; task all goes to satunsat"

// The orders of the cardinality constraint's inputs (dominateConfig.order).
const (
	orderRowMajor = ""
	orderHilbert  = "hilbert"
	orderCoverage = "coverage"
)

// dominateConfig holds the model's options: the order of the squares in
// the cardinality constraint (row-major, along a Hilbert curve so that
// the encoding's partial sums count nearby squares together, or by
// coverage), static lex-leader symmetry breaking, and the search for the
// minimum (a sat.Optimize* strategy, on one kept solver when incremental).
type dominateConfig struct {
	order       string
	lex         bool
	lines       bool
	strategy    string
	incremental bool
}

// dominateModel is one formula of the model: its variables by square.
type dominateModel struct {
	f *cnf.Formula
	x []cnf.Lit
	// cubes are the variables a cube-and-conquer split decides first: the
	// line model's rank variables, middle ranks first (which ranks hold a
	// queen splits the sets evenly), else the squares in coverage order.
	cubes []cnf.Lit
}

// dominateFormula builds the model's formula for d with at most limit
// pieces (no size constraint when limit < 0).
func dominateFormula(d puzzle.Dominate, enc card.Encoding, limit int, cfg dominateConfig) (dominateModel, error) {
	b := d.Board
	n := b.Size()
	f := cnf.New()
	x := make([]cnf.Lit, n)
	for s := range n {
		x[s] = f.Var("x_" + b.Name(puzzle.Square(s)))
	}
	lines := cfg.lines && dominateLinePiece(d.Piece)
	var through [][]cnf.Lit
	var cubes []cnf.Lit
	if lines {
		var err error
		if through, cubes, err = dominateLines(f, d, x, limit, enc); err != nil {
			return dominateModel{}, err
		}
	} else {
		cubes = coverageOrder(d, x)
	}
	near := make([]cnf.Lit, 0, n)
	for t := range n {
		if lines {
			f.Add(through[t]...)
			continue
		}
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
	if cfg.lex {
		dominateLexLeader(f, b, x)
	}
	if limit >= 0 && limit < n {
		if err := enc.Encode(f, cardOrder(d, x, cfg.order), cnf.AtMost, limit); err != nil {
			return dominateModel{}, err
		}
	}
	return dominateModel{f: f, x: x, cubes: cubes}, nil
}

// dominateBuild encodes a domination spec: at most K pieces with k=K, no
// size constraint without (every dominating set is a model); the
// objective, written by the OPB export as "min:", is the number of pieces.
func dominateBuild(spec puzzle.Spec, enc card.Encoding, cfg dominateConfig) (*Instance, error) {
	d, ok := spec.(puzzle.Dominate)
	if !ok {
		return nil, fmt.Errorf("the domination model encodes domination, not %s", spec.Puzzle())
	}
	limit := -1
	if d.HasK {
		limit = d.K
	}
	m, err := dominateFormula(d, enc, limit, cfg)
	if err != nil {
		return nil, err
	}
	m.f.Minimize(m.x, nil)
	return m.instance(d), nil
}

// instance wraps the model as an Instance that decodes to d's layout.
func (m dominateModel) instance(d puzzle.Dominate) *Instance {
	return &Instance{Formula: m.f, CubeVars: m.cubes, Decode: placementDecode(d.Board, m.x, func(i int) (puzzle.Square, puzzle.Kind) {
		return puzzle.Square(i), d.Piece
	})}
}

// dominateLowerBound is ceil(n / c): n squares, each piece dominating at
// most c of them (computed with the encoder's own attack predicate).
func dominateLowerBound(d puzzle.Dominate) int {
	c := max(1, slices.Max(dominateCover(d)))
	return (d.Board.Size() + c - 1) / c
}

// dominateCover returns, for every square, how many squares a piece there
// dominates (itself included), by the encoder's own attack predicate.
func dominateCover(d puzzle.Dominate) []int {
	b := d.Board
	cover := make([]int, b.Size())
	for s := range cover {
		cover[s] = 1
		for t := range b.Size() {
			if piecesAttack(d.Piece, t%b.W-s%b.W, t/b.W-s/b.W) {
				cover[s]++
			}
		}
	}
	return cover
}

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

// dominateOrbitCount is count under a lex-leader model: it enumerates
// the sets the model keeps, exactly one per class of the board's
// symmetries, and adds up the size of each one's orbit (its distinct
// images under the symmetries), which is the number of sets of its class.
// Every set lies in exactly one class, so the sum is the count of all
// sets, reached by enumerating about one set in eight.
func dominateOrbitCount(ctx context.Context, req puzzle.Request, r *dominateRun, pr satPrepared, since time.Time) (puzzle.Answer, error) {
	maps := boardMaps(r.d.Board)
	var mu sync.Mutex
	var total uint64
	creq := req
	creq.Task = puzzle.All
	creq.Emit = func(sol puzzle.Solution) error {
		n := orbitSize(sol.Layout, maps)
		mu.Lock()
		total += n
		mu.Unlock()
		return nil
	}
	ans, err := satCount(ctx, creq, pr, r.solver, r.ans, since)
	if err != nil || ans.Status != puzzle.OK {
		return ans, err
	}
	r.log = append(r.log, fmt.Sprintf("%d classes under the board's symmetries, expanded by their orbits", ans.Count))
	if total > 0 {
		sat.Note(ctx, fmt.Sprintf("the count %d is the sum of the orbit sizes of the lex-leader formula's %d models under the board's %d symmetries (each class keeps exactly its least set: an argument outside the proofs)", total, ans.Count, len(maps)+1))
	}
	ans.Count = total
	return ans, nil
}

// orbitSize returns the number of distinct images of a placement under
// the identity and maps.
func orbitSize(layout []puzzle.Kind, maps [][]int) uint64 {
	seen := map[string]bool{string(kindBytes(layout, nil)): true}
	for _, p := range maps {
		img := make([]puzzle.Kind, len(layout))
		for s, k := range layout {
			img[p[s]] = k
		}
		seen[string(kindBytes(img, nil))] = true
	}
	return uint64(len(seen))
}

// kindBytes appends a placement's pieces as bytes (a map key).
func kindBytes(layout []puzzle.Kind, buf []byte) []byte {
	for _, k := range layout {
		buf = append(buf, byte(k))
	}
	return buf
}

// boardMaps returns the board's symmetries other than the identity as
// permutations of its squares (perm[s] is the image of s), computed here
// from coordinates: the 7 of a square board, the 3 that keep a
// rectangle's sides. Every piece's attacks are invariant under them.
func boardMaps(b puzzle.Board) [][]int {
	w, h := b.W, b.H
	maps := []func(f, r int) (int, int){
		func(f, r int) (int, int) { return w - 1 - f, r },
		func(f, r int) (int, int) { return f, h - 1 - r },
		func(f, r int) (int, int) { return w - 1 - f, h - 1 - r },
	}
	if w == h {
		maps = append(maps,
			func(f, r int) (int, int) { return r, f },
			func(f, r int) (int, int) { return h - 1 - r, f },
			func(f, r int) (int, int) { return r, w - 1 - f },
			func(f, r int) (int, int) { return h - 1 - r, w - 1 - f })
	}
	var out [][]int
	for _, m := range maps {
		perm := make([]int, w*h)
		moved := false
		for s := range w * h {
			f, r := m(s%w, s/w)
			perm[s] = r*w + f
			moved = moved || perm[s] != s
		}
		if moved {
			out = append(out, perm)
		}
	}
	return out
}

// dominateLexLeader adds static lex-leader constraints: for every board
// symmetry p, the placement read in square order is lexicographically no
// greater than its image (x <=lex x∘p, with a piece greater than none).
// Each symmetry class of sets keeps exactly its least member, so the
// optimum and the existence of a set are unchanged, while counts become
// counts of classes. For each p, e_i ("the first i squares agree with the
// image") is forced true when e_{i-1} holds and square i agrees; while
// e_{i-1} holds, x_i implies x_p(i). The chain stops at the last square
// that p moves.
func dominateLexLeader(f *cnf.Formula, b puzzle.Board, x []cnf.Lit) {
	for _, p := range boardMaps(b) {
		last := 0
		for s := range p {
			if p[s] != s {
				last = s
			}
		}
		var eq cnf.Lit // 0: the empty prefix, always equal
		for s := 0; s <= last; s++ {
			if p[s] == s {
				continue
			}
			a, c := x[s], x[p[s]]
			// e_{i-1} -> (a -> c)
			f.Add(orEq(eq, a.Not(), c)...)
			if s == last {
				break
			}
			next := f.Aux("lex" + strconv.Itoa(f.NumVars()+1))
			// e_{i-1} and a = c -> e_i
			f.Add(orEq(eq, a.Not(), c.Not(), next)...)
			f.Add(orEq(eq, a, c, next)...)
			eq = next
		}
	}
}

// orEq returns the clause lits, preceded by "not eq" unless eq is 0 (the
// empty prefix, which always agrees).
func orEq(eq cnf.Lit, lits ...cnf.Lit) []cnf.Lit {
	if eq == 0 {
		return lits
	}
	return append([]cnf.Lit{eq.Not()}, lits...)
}

// cardOrder returns x, the squares' literals, in the order the
// cardinality constraint takes them.
func cardOrder(d puzzle.Dominate, x []cnf.Lit, order string) []cnf.Lit {
	switch order {
	case orderHilbert:
		return hilbertOrder(d.Board, x)
	case orderCoverage:
		return coverageOrder(d, x)
	}
	return x
}

// coverageOrder returns x with the squares in decreasing order of how
// many squares a piece there dominates (itself included), ties along the
// Hilbert curve. A minimum dominating set is made mostly of squares that
// dominate many (for queens, the centre), so this puts the candidates
// that matter together at the front of the counter, where its first
// partial sums bound them, and keeps squares of one coverage ring, which
// lie on concentric rings of the board, in spatial order.
func coverageOrder(d puzzle.Dominate, x []cnf.Lit) []cnf.Lit {
	b := d.Board
	side := 1
	for side < max(b.W, b.H) {
		side *= 2
	}
	cover := dominateCover(d)
	idx := make([]int, len(x))
	order := make([]int, len(x))
	for s := range x {
		order[s] = s
		idx[s] = hilbertIndex(side, s%b.W, s/b.W)
	}
	slices.SortFunc(order, func(p, q int) int {
		if cover[p] != cover[q] {
			return cover[q] - cover[p]
		}
		return idx[p] - idx[q]
	})
	out := make([]cnf.Lit, len(x))
	for i, s := range order {
		out[i] = x[s]
	}
	return out
}

// hilbertOrder returns x with the squares in the order of a Hilbert curve
// over the smallest power-of-two square that holds the board.
func hilbertOrder(b puzzle.Board, x []cnf.Lit) []cnf.Lit {
	side := 1
	for side < max(b.W, b.H) {
		side *= 2
	}
	idx := make([]int, len(x))
	order := make([]int, len(x))
	for s := range x {
		idx[s], order[s] = hilbertIndex(side, s%b.W, s/b.W), s
	}
	slices.SortFunc(order, func(p, q int) int { return idx[p] - idx[q] })
	out := make([]cnf.Lit, len(x))
	for i, s := range order {
		out[i] = x[s]
	}
	return out
}

// hilbertIndex is the distance of cell (fx, fy) along the Hilbert curve
// of a side x side grid, side a power of two (the classic rotate-and-flip
// conversion, quadrant by quadrant from the largest).
func hilbertIndex(side, fx, fy int) int {
	d := 0
	for q := side / 2; q > 0; q /= 2 {
		rx, ry := 0, 0
		if fx&q != 0 {
			rx = 1
		}
		if fy&q != 0 {
			ry = 1
		}
		d += q * q * ((3 * rx) ^ ry)
		if ry == 0 {
			if rx == 1 {
				fx, fy = side-1-fx, side-1-fy
			}
			fx, fy = fy, fx
		}
	}
	return d
}

// dominateLinePiece reports whether every attack of piece k runs along a
// line (rank, file or diagonal), so that the line model applies.
func dominateLinePiece(k puzzle.Kind) bool {
	return k == puzzle.Queen || k == puzzle.Rook || k == puzzle.Bishop
}

// dominateLines adds the line model's variables and returns, for every
// square, the line variables through it. A line variable is true exactly
// when a piece stands on its line (rank, file, diagonal or anti-diagonal,
// the lines the piece moves along), so every set of pieces has exactly one
// extension and counts projected on the x_s are unchanged. A square is
// dominated exactly when a line through it is occupied. With a size limit
// k, at most k lines of each family are occupied: implied by the limit,
// but stated, so that the solver reasons about ranks and files directly.
func dominateLines(f *cnf.Formula, d puzzle.Dominate, x []cnf.Lit, limit int, enc card.Encoding) (through [][]cnf.Lit, cubes []cnf.Lit, err error) {
	b := d.Board
	through = make([][]cnf.Lit, b.Size())
	type family struct {
		name string
		of   func(fl, rk int) int
		n    int
	}
	var fams []family
	if d.Piece != puzzle.Bishop {
		fams = append(fams, family{"rank", func(fl, rk int) int { return rk }, b.H},
			family{"file", func(fl, rk int) int { return fl }, b.W})
	}
	if d.Piece != puzzle.Rook {
		fams = append(fams, family{"diag", func(fl, rk int) int { return fl - rk + b.H - 1 }, b.W + b.H - 1},
			family{"anti", func(fl, rk int) int { return fl + rk }, b.W + b.H - 1})
	}
	for _, fam := range fams {
		on := make([][]cnf.Lit, fam.n)
		for s := range x {
			i := fam.of(s%b.W, s/b.W)
			on[i] = append(on[i], x[s])
		}
		vars := make([]cnf.Lit, fam.n)
		for i, xs := range on {
			v := f.Aux(fam.name + strconv.Itoa(i))
			vars[i] = v
			f.Add(append([]cnf.Lit{v.Not()}, xs...)...)
			for _, xl := range xs {
				f.Add(xl.Not(), v)
			}
		}
		for s := range x {
			through[s] = append(through[s], vars[fam.of(s%b.W, s/b.W)])
		}
		if limit >= 0 && limit < fam.n {
			if err := enc.Encode(f, vars, cnf.AtMost, limit); err != nil {
				return nil, nil, err
			}
		}
		if len(cubes) == 0 {
			// The first family's lines, from the middle outward.
			for i := range vars {
				mid := (len(vars) - 1) / 2
				j := mid + (i+1)/2*map[bool]int{false: -1, true: 1}[i%2 == 1]
				cubes = append(cubes, vars[j])
			}
		}
	}
	return through, cubes, nil
}
