package encode

import (
	"context"
	"fmt"
	"slices"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/puzzle"
)

// The domination models (dominate:WxH:P[:k=K][:independent]): x_s "a
// piece on s", one primary variable per square; every square dominated by
// a clause; with :independent, no attacking pair; with k, at most k of the
// x_s through the chosen cardinality encoding. Each set is one assignment
// of the x_s, so the projected count is the number of sets. The models
// differ in the search for the minimum (dominate_search.go), the order of
// the cardinality constraint's inputs (dominate_order.go), lex-leader
// symmetry breaking (dominate_symmetry.go) and the line model
// (dominate_lines.go); docs/families/dominate.md ("SAT side") describes
// each, with the measurements behind the default, and the tasks.
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
