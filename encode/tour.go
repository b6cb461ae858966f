package encode

// Knight's tours (spec tour:WxH:START[:closed]) as SAT, three models:
//
//   - position: x[s,t] "the knight stands on square s at step t"; exactly one
//     square per step and one step per square (with the chosen cardinality
//     encoding); x[s,t] implies some knight neighbour at step t+1 (and at
//     t-1). The start fixes x[start,0]; a closed tour forbids last squares
//     that are not a knight's move from the start. Implied colour clauses:
//     a knight alternates colours, so x[s,t] fixes the start's colour to
//     colour(s) xor t (a constant with a known start), and boards with an
//     odd number of squares start on the majority colour.
//   - successor: e[u,v] "the knight moves from u to v" for every directed
//     knight edge; exactly one successor and one predecessor per square
//     (open tours: at most one successor, none into the start). Subtours are
//     eliminated by ranks in the order encoding: r[v,k] means rank(v) >= k,
//     the start (anchor) has rank 0 and e[u,v] forces rank(v) = rank(u)+1, so
//     every square lies on the one path from the anchor. Ranks are
//     functionally determined by the edges. Implied colour clauses fix each
//     rank's parity against the anchor's (or the unknown start's) colour.
//     Counts of open tours from every start are summed over per-start
//     formulas (tourSolveSuccessor).
//   - successor-mtz: the successor model with Miller-Tucker-Zemlin ordering
//     instead: e[u,v] forces only rank(v) > rank(u). Fewer clauses, weaker
//     propagation, and the ranks are not determined by the tour, so only a
//     projected count is exact; it offers first only (counting is slow).
//
// Primary (projected) variables are x[s,t] and e[u,v]: they determine the
// tour, so a projected model count counts tours. Counting follows the native
// convention: open tours directed (from the start, or over all starts for
// "*", where the start is the square without a predecessor); closed tours as
// undirected cycles: the cycle is anchored at the start (square a1 for "*",
// every cycle passes through it) and its direction is fixed by requiring the
// anchor's successor to have a smaller square index than its predecessor.

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	tasks := []puzzle.Task{puzzle.First, puzzle.Count}
	register(Encoder{Puzzle: "tour", Name: "successor", Default: true, Tasks: tasks,
		Why:   "counts tour:5x5:* (1,728 open tours) in about 2 s; successor-mtz took 528 s",
		Doc:   "e[u,v] per directed knight move, one successor/predecessor per square, order-encoded ranks against subtours",
		Build: tourBuildSuccessor, Solve: tourSolveSuccessor})
	// successor-mtz counts correctly (projected) but far more slowly than
	// successor (docs/measurements/tour.md), so it offers first only.
	register(Encoder{Puzzle: "tour", Name: "successor-mtz", Tasks: []puzzle.Task{puzzle.First},
		Doc: "successor model with Miller-Tucker-Zemlin ordering: e[u,v] forces rank(v) > rank(u) only (fast first tour; counting left to the exact models)",
		Build: func(spec puzzle.Spec, enc card.Encoding, opt Options) (*Instance, error) {
			return tourSuccessor(spec, enc, false)
		}})
	register(Encoder{Puzzle: "tour", Name: "position", Tasks: tasks,
		Doc:   "x[s,t] square s at step t, one square per step and one step per square, consecutive steps a knight's move",
		Build: tourBuildPosition, Solve: tourSolvePosition})
}

// tourCard adds a cardinality constraint, settling the empty set itself.
func tourCard(f *cnf.Formula, enc card.Encoding, lits []cnf.Lit, op cnf.Op, k int) error {
	if len(lits) == 0 {
		if !op.Holds(0, k) {
			f.Add()
		}
		return nil
	}
	return enc.Encode(f, lits, op, k)
}

// tourAnchor is the square a tour's encoding fixes at step 0: the start, or
// a1 for closed tours from any start; -1 for open tours from any start.
func tourAnchor(t puzzle.Tour) int {
	if !t.AllStarts {
		return int(t.Start)
	}
	if t.Closed {
		return 0
	}
	return -1
}

func tourCheckSize(t puzzle.Tour) error {
	if n := t.Board.Size(); n > 4096 {
		return fmt.Errorf("the tour encodings are quadratic in the board size: %s (%d squares) is too large (at most 4096)", t.Board, n)
	}
	return nil
}

// tourOf returns the tour a model encodes and its knight-move neighbours,
// or why the model cannot encode spec.
func tourOf(spec puzzle.Spec, model string) (puzzle.Tour, [][]int, error) {
	t, ok := spec.(puzzle.Tour)
	if !ok {
		return t, nil, fmt.Errorf("the %s model encodes tours, not %s", model, spec.Puzzle())
	}
	if err := tourCheckSize(t); err != nil {
		return t, nil, err
	}
	return t, knightNeighbours(t.Board), nil
}

// tourBuildPosition builds the position model.
func tourBuildPosition(spec puzzle.Spec, enc card.Encoding, _ Options) (*Instance, error) {
	t, nb, err := tourOf(spec, "position")
	if err != nil {
		return nil, err
	}
	b := t.Board
	n := b.Size()
	f := cnf.New()
	x := make([][]cnf.Lit, n) // x[s][t]
	for s := range n {
		x[s] = make([]cnf.Lit, n)
		for st := range n {
			x[s][st] = f.Var(fmt.Sprintf("x_%s_%d", b.Name(puzzle.Square(s)), st+1))
		}
	}
	for st := range n {
		lits := make([]cnf.Lit, n)
		for s := range n {
			lits[s] = x[s][st]
		}
		if err := tourCard(f, enc, lits, cnf.Exactly, 1); err != nil {
			return nil, err
		}
	}
	for s := range n {
		if err := tourCard(f, enc, x[s], cnf.Exactly, 1); err != nil {
			return nil, err
		}
	}
	for s := range n {
		for st := range n {
			if st+1 < n {
				c := []cnf.Lit{x[s][st].Not()}
				for _, u := range nb[s] {
					c = append(c, x[u][st+1])
				}
				f.Add(c...)
			}
			if st > 0 {
				c := []cnf.Lit{x[s][st].Not()}
				for _, u := range nb[s] {
					c = append(c, x[u][st-1])
				}
				f.Add(c...)
			}
		}
	}
	a := tourAnchor(t)
	if a >= 0 {
		f.Add(x[a][0])
		for s := range n {
			for st := range n {
				if squareColour(b, s)^squareColour(b, a) != st%2 {
					f.Add(x[s][st].Not())
				}
			}
		}
	} else {
		// Start unknown: c is the start's colour (1 when not a1's); square
		// s at step t forces c = colour(s) xor t. Odd boards start on the
		// majority colour.
		c := f.Aux("start_colour")
		if n%2 == 1 {
			f.Add(c.Not())
		}
		for s := range n {
			for st := range n {
				if squareColour(b, s)^(st%2) == 1 {
					f.Add(x[s][st].Not(), c)
				} else {
					f.Add(x[s][st].Not(), c.Not())
				}
			}
		}
	}
	if t.Closed {
		if n < 3 {
			f.Add()
		} else {
			adj := make([]bool, n)
			for _, u := range nb[a] {
				adj[u] = true
			}
			for s := range n {
				if !adj[s] {
					f.Add(x[s][n-1].Not())
				}
			}
			// One direction per cycle: successor index < predecessor index.
			for _, p := range nb[a] {
				for _, q := range nb[a] {
					if p < q {
						f.Add(x[q][1].Not(), x[p][n-1].Not())
					}
				}
			}
		}
	}
	return &Instance{Formula: f, Decode: pathDecode(b, n, func(s, t int) cnf.Lit { return x[s][t] })}, nil
}

// tourSolveSuccessor answers requests with the successor model by the
// generic path, except counts of open tours from every start: those are
// summed over the starts, one projected count per start (ranks anchored at
// a known start propagate far better than one formula with an unknown
// start; docs/measurements/tour.md).
func tourSolveSuccessor(ctx context.Context, req puzzle.Request, c card.Encoding) (puzzle.Answer, error) {
	e := Encoder{Puzzle: "tour", Name: "successor", Tasks: []puzzle.Task{puzzle.First, puzzle.Count}, Build: tourBuildSuccessor}
	t, ok := req.Spec.(puzzle.Tour)
	if !ok || req.Task != puzzle.Count || !t.AllStarts || t.Closed {
		return tourUnsatZero(satSolveWith(ctx, req, e, c))
	}
	var sum puzzle.Answer
	sum.Status = puzzle.OK
	sum.Stats = map[string]int64{}
	for s := range t.Board.Size() {
		one := req
		one.Spec = puzzle.Tour{Board: t.Board, Start: puzzle.Square(s)}
		a, err := satSolveWith(ctx, one, e, c)
		if err != nil {
			return puzzle.Answer{}, err
		}
		sum.Encoding, sum.Solver = a.Encoding, a.Solver
		sum.EncodeSeconds += a.EncodeSeconds
		sum.SolveSeconds += a.SolveSeconds
		for k, v := range a.Stats {
			sum.Stats[k] += v
		}
		if a.Status != puzzle.OK {
			a.Count = 0
			a.Stats, a.EncodeSeconds, a.SolveSeconds = sum.Stats, sum.EncodeSeconds, sum.SolveSeconds
			return a, nil
		}
		sum.Count += a.Count
	}
	sum.Stats[puzzle.StatSolverCalls] = max(sum.Stats[puzzle.StatSolverCalls], int64(t.Board.Size()))
	return tourUnsatZero(sum, nil)
}

// tourUnsatZero reports a count of no tours as status unsat, count 0, as
// the native backend does.
func tourUnsatZero(a puzzle.Answer, err error) (puzzle.Answer, error) {
	if err == nil && a.Status == puzzle.OK && a.Count == 0 && a.Solution == nil {
		a.Status, a.Message = puzzle.Unsat, "no tour (projected count 0)"
	}
	return a, err
}

// tourSolvePosition answers with the position model by the generic path,
// reporting a count of 0 as unsat.
func tourSolvePosition(ctx context.Context, req puzzle.Request, c card.Encoding) (puzzle.Answer, error) {
	e := Encoder{Puzzle: "tour", Name: "position", Tasks: []puzzle.Task{puzzle.First, puzzle.Count}, Build: tourBuildPosition}
	return tourUnsatZero(satSolveWith(ctx, req, e, c))
}

// tourBuildSuccessor builds the successor model.
func tourBuildSuccessor(spec puzzle.Spec, enc card.Encoding, _ Options) (*Instance, error) {
	return tourSuccessor(spec, enc, true)
}

// tourSuccessor builds the successor model; exact ranks (rank(v) =
// rank(u)+1 along every move) or, if not exact, Miller-Tucker-Zemlin
// ordering (rank(v) > rank(u)), under which the ranks are not determined by
// the tour and the implied colour clauses do not hold.
func tourSuccessor(spec puzzle.Spec, enc card.Encoding, exact bool) (*Instance, error) {
	t, nb, err := tourOf(spec, "successor")
	if err != nil {
		return nil, err
	}
	m := &tourSucc{t: t, b: t.Board, n: t.Board.Size(), nb: nb, f: cnf.New(), enc: enc, exact: exact}
	m.edgeVars()
	m.a = tourAnchor(t)
	if t.Closed && m.n < 3 {
		m.f.Add()
	}
	if err := m.degrees(); err != nil {
		return nil, err
	}
	if m.a < 0 {
		if err := m.starts(); err != nil {
			return nil, err
		}
	}
	m.noTwoCycles()
	m.ranks()
	m.moves()
	m.oneDirection()
	return &Instance{Formula: m.f, Decode: m.decode}, nil
}

// tourSuccEdge is one move variable of the successor model: u's successor
// is v.
type tourSuccEdge struct {
	u, v int
	lit  cnf.Lit
}

// tourSucc is the successor model of one tour under construction.
type tourSucc struct {
	t     puzzle.Tour
	b     puzzle.Board
	n     int
	nb    [][]int // each square's knight neighbours
	f     *cnf.Formula
	enc   card.Encoding
	exact bool

	edges   []tourSuccEdge
	out, in [][]cnf.Lit       // each square's outgoing and incoming edges
	edgeLit []map[int]cnf.Lit // edgeLit[u][v]: the edge u -> v
	a       int               // the anchor square, or -1 (open from any start)
	// Open from any start: start[v] <-> v has no predecessor, and
	// startColour: the start's colour is not a1's.
	start       []cnf.Lit
	startColour cnf.Lit
	// r[v][k-1] for k = 1..n-1 means rank(v) >= k (nil for the anchor).
	r [][]cnf.Lit
}

func (m *tourSucc) name(s int) string { return m.b.Name(puzzle.Square(s)) }

// edgeVars makes the edge variables, and each square's outgoing and
// incoming ones.
func (m *tourSucc) edgeVars() {
	n := m.n
	m.out = make([][]cnf.Lit, n)
	m.in = make([][]cnf.Lit, n)
	m.edgeLit = make([]map[int]cnf.Lit, n)
	for u := range n {
		m.edgeLit[u] = map[int]cnf.Lit{}
		for _, v := range m.nb[u] {
			l := m.f.Var("e_" + m.name(u) + "_" + m.name(v))
			m.edges = append(m.edges, tourSuccEdge{u, v, l})
			m.out[u] = append(m.out[u], l)
			m.in[v] = append(m.in[v], l)
			m.edgeLit[u][v] = l
		}
	}
}

// degrees bounds each square's outgoing and incoming edges.
func (m *tourSucc) degrees() error {
	f, enc, a := m.f, m.enc, m.a
	for v := range m.n {
		switch {
		case m.t.Closed:
			if err := tourCard(f, enc, m.out[v], cnf.Exactly, 1); err != nil {
				return err
			}
			if err := tourCard(f, enc, m.in[v], cnf.Exactly, 1); err != nil {
				return err
			}
		default:
			if err := tourCard(f, enc, m.out[v], cnf.AtMost, 1); err != nil {
				return err
			}
			if v == a {
				for _, l := range m.in[v] {
					f.Add(l.Not())
				}
			} else if a >= 0 {
				if err := tourCard(f, enc, m.in[v], cnf.Exactly, 1); err != nil {
					return err
				}
			} else if err := tourCard(f, enc, m.in[v], cnf.AtMost, 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// starts defines, open from any start, the start variables (exactly one
// square has no predecessor) and the start's colour.
func (m *tourSucc) starts() error {
	f, n := m.f, m.n
	m.startColour = f.Aux("start_colour")
	if n%2 == 1 {
		f.Add(m.startColour.Not()) // an odd board's tours start on the majority colour
	}
	m.start = make([]cnf.Lit, n)
	for v := range n {
		m.start[v] = f.Aux("start_" + m.name(v))
		f.Add(append([]cnf.Lit{m.start[v]}, m.in[v]...)...)
		for _, l := range m.in[v] {
			f.Add(m.start[v].Not(), l.Not())
		}
		if squareColour(m.b, v) == 1 {
			f.Add(m.start[v].Not(), m.startColour)
		} else {
			f.Add(m.start[v].Not(), m.startColour.Not())
		}
	}
	return tourCard(f, m.enc, m.start, cnf.Exactly, 1)
}

// noTwoCycles forbids moving back and forth (implied for n > 2).
func (m *tourSucc) noTwoCycles() {
	if m.n <= 2 {
		return
	}
	for _, e := range m.edges {
		if e.u < e.v {
			m.f.Add(e.lit.Not(), m.edgeLit[e.v][e.u].Not())
		}
	}
}

// ranks makes the rank variables of every square but the anchor, ordered,
// tied to the start, and (exact) to the square's colour.
func (m *tourSucc) ranks() {
	f, n, a := m.f, m.n, m.a
	m.r = make([][]cnf.Lit, n)
	for v := range n {
		if v == a {
			continue
		}
		r := make([]cnf.Lit, n-1)
		m.r[v] = r
		for k := 1; k < n; k++ {
			r[k-1] = f.Aux(fmt.Sprintf("rank_%s_%d", m.name(v), k))
		}
		for k := 1; k+1 < n; k++ {
			f.Add(r[k].Not(), r[k-1]) // rank >= k+1 implies rank >= k
		}
		if a >= 0 && n > 1 {
			f.Add(r[0]) // every square but the anchor has rank >= 1
		}
		if m.start != nil && n > 1 {
			f.Add(m.start[v].Not(), r[0].Not())
			f.Add(m.start[v], r[0])
		}
		if m.exact {
			m.rankColour(v)
		}
	}
}

// rankColour adds, for exact ranks, the colour clauses of square v: its
// rank has the parity of its colour against the anchor's, or against the
// start's colour startColour when the start is unknown.
func (m *tourSucc) rankColour(v int) {
	f, n, a, r := m.f, m.n, m.a, m.r[v]
	if a >= 0 {
		want := squareColour(m.b, v) ^ squareColour(m.b, a)
		for k := 1; k < n; k++ {
			if k%2 != want {
				// not (rank == k): rank < k or rank >= k+1
				c := []cnf.Lit{r[k-1].Not()}
				if k+1 < n {
					c = append(c, r[k])
				}
				f.Add(c...)
			}
		}
	}
	if a < 0 && n > 1 {
		for k := 1; k < n; k++ {
			c := []cnf.Lit{r[k-1].Not()}
			if k+1 < n {
				c = append(c, r[k])
			}
			// rank(v) == k forces startColour = colour(v) xor k.
			if squareColour(m.b, v)^(k%2) == 1 {
				f.Add(append(c, m.startColour)...)
			} else {
				f.Add(append(c, m.startColour.Not())...)
			}
		}
	}
}

// moves ties the ranks to the edges: a move raises the rank (by exactly
// one when exact).
func (m *tourSucc) moves() {
	f, n, a, r, exact := m.f, m.n, m.a, m.r, m.exact
	for _, e := range m.edges {
		u, v := e.u, e.v
		if v == a {
			// The closing move: its tail has the last rank.
			if exact && m.t.Closed && n > 1 && u != a {
				f.Add(e.lit.Not(), r[u][n-2])
			}
			continue
		}
		if u == a {
			// rank(v) = 1.
			f.Add(e.lit.Not(), r[v][0])
			if n > 2 && exact {
				f.Add(e.lit.Not(), r[v][1].Not())
			}
			continue
		}
		f.Add(e.lit.Not(), r[v][0])
		for k := 1; k < n; k++ {
			// rank(u) >= k  ->  rank(v) >= k+1; exact: rank(u) < k -> rank(v) < k+1.
			if k+1 < n {
				f.Add(e.lit.Not(), r[u][k-1].Not(), r[v][k])
				if exact {
					f.Add(e.lit.Not(), r[u][k-1], r[v][k].Not())
				}
			} else {
				f.Add(e.lit.Not(), r[u][k-1].Not()) // rank(u) <= n-2
			}
		}
	}
}

// oneDirection keeps one direction per closed cycle: the anchor's
// successor has a smaller index than its predecessor.
func (m *tourSucc) oneDirection() {
	a := m.a
	if !m.t.Closed || a < 0 || m.n < 3 {
		return
	}
	for _, p := range m.nb[a] {
		for _, q := range m.nb[a] {
			if p < q {
				m.f.Add(m.edgeLit[a][q].Not(), m.edgeLit[p][a].Not())
			}
		}
	}
}

// decode reads the tour from a model: the successors from the start.
func (m *tourSucc) decode(model []bool) (puzzle.Solution, error) {
	n := m.n
	succ := make([]int, n)
	hasPred := make([]bool, n)
	for i := range succ {
		succ[i] = -1
	}
	for _, e := range m.edges {
		if model[e.lit.Var()] {
			if succ[e.u] >= 0 {
				return puzzle.Solution{}, fmt.Errorf("square %s has two successors", m.name(e.u))
			}
			succ[e.u] = e.v
			hasPred[e.v] = true
		}
	}
	s := m.a
	if s < 0 {
		for v := range n {
			if !hasPred[v] {
				s = v
				break
			}
		}
	}
	if s < 0 {
		return puzzle.Solution{}, fmt.Errorf("no start square in the model")
	}
	path := make([]puzzle.Square, 0, n)
	for len(path) < n && s >= 0 {
		path = append(path, puzzle.Square(s))
		s = succ[s]
	}
	if len(path) != n {
		return puzzle.Solution{}, fmt.Errorf("the model's moves visit %d squares from the start, not %d", len(path), n)
	}
	return puzzle.Solution{Board: m.b, Path: path}, nil
}
