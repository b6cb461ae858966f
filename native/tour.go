package native

// Knight's tours (spec tour:WxH:START[:closed]).
//
// Strategies:
//
//   - auto (default): count with the exhaustive counter; first with the
//     exhaustive search on boards of at most tourAutoExhaustive squares (so
//     that "no tour" is proven), otherwise with the divide-and-conquer
//     construction, then (boards with a side of 3 or 4, which divide does
//     not handle) warnsdorff-roth+bt and warnsdorff-pohl+bt, then the
//     exhaustive search.
//   - exhaustive: depth-first search with dead-end pruning; counts open tours
//     (directed, from one start or summed over all starts by symmetry class)
//     and closed tours (undirected cycles), on both cores; first tour or a
//     proof that none exists.
//   - warnsdorff, warnsdorff-pohl, warnsdorff-roth, warnsdorff-random, each
//     also with "+bt": Warnsdorff's rule (go to the square with the fewest
//     onward moves) with a tie-breaking rule, greedy, or with a bounded
//     backtracking fallback.
//   - divide: a divide-and-conquer construction for boards with both sides
//     at least 5: the board is cut into blocks of 5 to 13 squares a side,
//     each block gets a tour of its own (closed, or for odd x odd boards one
//     open block holding the start), and the block tours are joined two by
//     two by exchanging a pair of parallel edges across a block border, the
//     merge step of Parberry's construction. Linear time.
//
// Conventions: open tours are counted directed (from the given start, or
// summed over all starts for "*"); closed tours are counted as undirected
// cycles, so every start has the same count. 1x1 has one open tour and no
// closed tour.
//
// Finders that give up because of their heuristic answer status Error with
// "not found"; only proofs answer Unsat: the exhaustive search, and the
// structural facts checked first by every strategy (tourImpossible): no
// closed tour when both sides are odd or a side is 1, 2 or 4 or the board is
// 3x4, 3x6 or 3x8 (Schwenk's theorem), and no open tour from a square of
// the minority colour of a board with an odd number of squares (a knight
// alternates colours), nor on the boards Conrad et al. list (1xN with N > 1,
// 2xN, 3x3, 3x5, 3x6, 4x4).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/puzzle"
)

// Limits of the exhaustive counter: counting open tours is refused on boards
// of more than TourCountMaxOpen squares (7x7 has about 1.7e11 open tours),
// closed tours on boards of more than TourCountMaxClosed squares.
const (
	TourCountMaxOpen   = 36
	TourCountMaxClosed = 40
)

// tourAutoExhaustive is the largest board on which auto uses the exhaustive
// search for the first tour.
const tourAutoExhaustive = 64

// tourDeltas are the knight moves in the seed's order: files +-2 with ranks
// +-1 first, then ranks +-2 with files +-1.
var tourDeltas = [8][2]int{{2, 1}, {2, -1}, {-2, 1}, {-2, -1}, {1, 2}, {-1, 2}, {1, -2}, {-1, -2}}

// tourTie is a tie-breaking rule among squares of equal Warnsdorff degree.
type tourTie int

const (
	tourTieFirst  tourTie = iota // first in the seed's move order
	tourTiePohl                  // least sum of the onward degrees of its neighbours (Pohl 1967)
	tourTieRoth                  // furthest from the board's centre (Roth)
	tourTieRandom                // uniformly at random, seeded by the start square (Ganzfried 2004)
)

func init() {
	all := []puzzle.Task{puzzle.First, puzzle.Count}
	register(Strategy{Puzzle: "tour", Name: "auto", Default: true, Tasks: all,
		Doc:   "count: exhaustive; first: exhaustive up to 64 squares, else divide, then roth+bt, pohl+bt, exhaustive",
		Solve: tourSolveAuto})
	register(Strategy{Puzzle: "tour", Name: "exhaustive", Tasks: all,
		Doc:   "DFS with dead-end and forced-move pruning, both cores; counts tours or proves none",
		Solve: tourSolveExhaustive})
	finders := []struct {
		name, doc string
		tie       tourTie
	}{
		{"warnsdorff", "Warnsdorff's rule, first minimum in the seed's move order", tourTieFirst},
		{"warnsdorff-pohl", "Warnsdorff, ties to the least sum of onward degrees (Pohl)", tourTiePohl},
		{"warnsdorff-roth", "Warnsdorff, ties to the square furthest from the centre (Roth)", tourTieRoth},
		{"warnsdorff-random", "Warnsdorff, random ties seeded by the start (Ganzfried)", tourTieRandom},
	}
	for _, f := range finders {
		register(Strategy{Puzzle: "tour", Name: f.name, Tasks: []puzzle.Task{puzzle.First},
			Doc: f.doc + ", no backtracking", Solve: tourFinderSolve(f.tie, false)})
		register(Strategy{Puzzle: "tour", Name: f.name + "+bt", Tasks: []puzzle.Task{puzzle.First},
			Doc: f.doc + ", then backtracking with pruning, at most max(50000, 20*squares) dead ends", Solve: tourFinderSolve(f.tie, true)})
	}
	register(Strategy{Puzzle: "tour", Name: "divide", Tasks: []puzzle.Task{puzzle.First},
		Doc:   "divide and conquer: block tours joined by edge exchanges (sides >= 5), linear time",
		Solve: tourSolveDivide})
}

// ---------------------------------------------------------------------------
// Board graph and structural facts.

// tourGraph is the knight graph of a board, neighbours in the seed's order.
type tourGraph struct {
	b   puzzle.Board
	n   int
	off []int32 // neighbours of s are adj[off[s]:off[s+1]]
	adj []int32
}

func newTourGraph(b puzzle.Board) *tourGraph {
	n := b.Size()
	g := &tourGraph{b: b, n: n, off: make([]int32, n+1), adj: make([]int32, 0, 8*n)}
	for s := range n {
		f, r := s%b.W, s/b.W
		for _, d := range tourDeltas {
			if b.On(f+d[0], r+d[1]) {
				g.adj = append(g.adj, int32(s+d[1]*b.W+d[0]))
			}
		}
		g.off[s+1] = int32(len(g.adj))
	}
	return g
}

func (g *tourGraph) nb(s int32) []int32 { return g.adj[g.off[s]:g.off[s+1]] }

// tourColour is a square's colour: 0 for the colour of a1.
func tourColour(b puzzle.Board, s int) int { return (s%b.W + s/b.W) % 2 }

// tourClosedImpossible says why a board has no closed tour (Schwenk's
// theorem, and the 1x1 convention), or "".
func tourClosedImpossible(b puzzle.Board) string {
	m, n := min(b.W, b.H), max(b.W, b.H)
	switch {
	case b.W%2 == 1 && b.H%2 == 1:
		return "no closed tour on a board with both sides odd (colour count)"
	case m == 1 || m == 2 || m == 4:
		return fmt.Sprintf("no closed tour on a board with a side of %d (Schwenk)", m)
	case m == 3 && (n == 4 || n == 6 || n == 8):
		return fmt.Sprintf("no closed tour on 3x%d (Schwenk)", n)
	}
	return ""
}

// tourOpenImpossible says why a board has no open tour at all (Conrad et
// al.), or "".
func tourOpenImpossible(b puzzle.Board) string {
	m, n := min(b.W, b.H), max(b.W, b.H)
	switch {
	case m == 1 && n > 1, m == 2, m == 3 && (n == 3 || n == 5 || n == 6), m == 4 && n == 4:
		return fmt.Sprintf("no open tour on a %dx%d board (Conrad et al.)", m, n)
	}
	return ""
}

// tourImpossible says why the instance provably has no tour, or "". For
// AllStarts it is about every start.
func tourImpossible(t puzzle.Tour) string {
	if t.Closed {
		return tourClosedImpossible(t.Board)
	}
	if r := tourOpenImpossible(t.Board); r != "" {
		return r
	}
	if !t.AllStarts && t.Board.Size()%2 == 1 && tourColour(t.Board, int(t.Start)) == 1 {
		return fmt.Sprintf("no open tour from %s: the board has an odd number of squares and %s is of the minority colour",
			t.Board.Name(t.Start), t.Board.Name(t.Start))
	}
	return ""
}

func tourUnsat(reason string) puzzle.Answer {
	return puzzle.Answer{Status: puzzle.Unsat, Message: reason, Stats: map[string]int64{}}
}

func tourStats(nodes, backtracks int64) map[string]int64 {
	return map[string]int64{puzzle.StatNodes: nodes, puzzle.StatBacktracks: backtracks}
}

func tourSolution(b puzzle.Board, path []int32) *puzzle.Solution {
	p := make([]puzzle.Square, len(path))
	for i, s := range path {
		p[i] = puzzle.Square(s)
	}
	return &puzzle.Solution{Board: b, Path: p}
}

// ---------------------------------------------------------------------------
// Warnsdorff finders.

// tourFinder runs Warnsdorff's rule with one tie-breaking rule, greedily or
// with backtracking limited to budget dead ends.
type tourFinder struct {
	g       *tourGraph
	tie     tourTie
	closed  bool
	budget  int64
	rng     *rand.Rand
	centreX []int32 // per square: squared distance from the centre, times 4

	visited []bool
	deg     []int8 // unvisited neighbours of each square
	path    []int32

	nodes, backtracks int64
	ctx               context.Context
	timedOut          bool
	search            *tourSearch // the backtracking fallback's state
}

func newTourFinder(g *tourGraph, tie tourTie, closed bool, backtrack bool) *tourFinder {
	f := &tourFinder{g: g, tie: tie, closed: closed,
		visited: make([]bool, g.n), deg: make([]int8, g.n), path: make([]int32, 0, g.n)}
	if backtrack {
		f.budget = max(50000, 20*int64(g.n))
	}
	if tie == tourTieRoth {
		f.centreX = make([]int32, g.n)
		for s := range g.n {
			x, y := 2*(s%g.b.W)-(g.b.W-1), 2*(s/g.b.W)-(g.b.H-1)
			f.centreX[s] = int32(x*x + y*y)
		}
	}
	return f
}

func (f *tourFinder) reset(start int32) {
	for s := range f.g.n {
		f.visited[s] = false
		f.deg[s] = int8(f.g.off[s+1] - f.g.off[s])
	}
	f.path = f.path[:0]
	if f.tie == tourTieRandom {
		f.rng = rand.New(rand.NewPCG(uint64(start)+1, 0x9e3779b97f4a7c15))
	}
	f.visit(start)
}

func (f *tourFinder) visit(s int32) {
	f.visited[s] = true
	f.path = append(f.path, s)
	for _, t := range f.g.nb(s) {
		f.deg[t]--
	}
}

func (f *tourFinder) unvisit(s int32) {
	f.visited[s] = false
	f.path = f.path[:len(f.path)-1]
	for _, t := range f.g.nb(s) {
		f.deg[t]++
	}
}

// key ranks candidate u (smaller is better): Warnsdorff degree first, then
// the tie-breaking rule, then move order.
func (f *tourFinder) key(u int32, order int) int64 {
	return f.rank(u, order, f.deg, f.visited)
}

// rank is key over given degree and visited tables, so the greedy pass and
// the backtracking search (which keeps its own) rank moves alike.
func (f *tourFinder) rank(u int32, order int, deg []int8, visited []bool) int64 {
	k := int64(deg[u]) << 40
	switch f.tie {
	case tourTiePohl:
		sum := 0
		for _, w := range f.g.nb(u) {
			if !visited[w] {
				sum += int(deg[w]) - 1
			}
		}
		k |= int64(sum) << 8
	case tourTieRoth:
		k |= int64(1<<30-f.centreX[u]) << 8
	case tourTieRandom:
		k |= int64(f.rng.IntN(1<<20)) << 8
	}
	return k | int64(order)
}

// allowed reports whether moving to u keeps a closed tour possible: u may
// not take the start's last unvisited neighbour before the end.
func (f *tourFinder) allowed(u int32, left int) bool {
	if !f.closed || left == 1 {
		return true
	}
	start := f.path[0]
	if f.deg[start] == 1 {
		for _, w := range f.g.nb(start) {
			if w == u {
				return false
			}
		}
	}
	return true
}

func (f *tourFinder) complete() bool {
	if len(f.path) != f.g.n {
		return false
	}
	if !f.closed {
		return true
	}
	if f.g.n < 3 {
		return false
	}
	last := f.path[len(f.path)-1]
	for _, w := range f.g.nb(f.path[0]) {
		if w == last {
			return true
		}
	}
	return false
}

// run searches for a tour from start; it reports whether one was found (in
// f.path).
func (f *tourFinder) run(start int32) bool {
	f.reset(start)
	if f.greedy() || f.budget == 0 || f.timedOut {
		return len(f.path) == f.g.n && !f.timedOut
	}
	f.path = append(f.path[:0], start)
	return f.dfs()
}

func (f *tourFinder) greedy() bool {
	for len(f.path) < f.g.n {
		f.nodes++
		if f.nodes&4095 == 0 && f.ctx != nil && f.ctx.Err() != nil {
			f.timedOut = true
			return false
		}
		cur := f.path[len(f.path)-1]
		left := f.g.n - len(f.path)
		best, bestKey := int32(-1), int64(0)
		for i, u := range f.g.nb(cur) {
			if f.visited[u] || !f.allowed(u, left) {
				continue
			}
			if k := f.key(u, i); best < 0 || k < bestKey {
				best, bestKey = u, k
			}
		}
		if best < 0 {
			f.backtracks++
			return false
		}
		f.visit(best)
	}
	if !f.complete() {
		f.backtracks++
		return false
	}
	return true
}

// dfs is the backtracking fallback: the exhaustive search's pruning, its
// moves ordered by the finder's rule, stopped after budget dead ends.
func (f *tourFinder) dfs() bool {
	if f.search == nil {
		f.search = newTourSearch(f.g)
		f.search.first = true
		f.search.ctx = f.ctx
		f.search.key = func(u int32, i int) int64 { return f.searchKey(u, i) }
	}
	s := f.search
	s.reset()
	s.stopped = false
	s.budget = s.backtracks + f.budget
	s.closedStart = -1
	start := f.path[0]
	if f.closed {
		s.closedStart = start
	}
	s.visit(start)
	nodes, bts := s.nodes, s.backtracks
	s.dfs(start)
	f.nodes += s.nodes - nodes
	f.backtracks += s.backtracks - bts
	if s.found {
		f.path = append(f.path[:0], s.path...)
		return true
	}
	if f.ctx != nil && f.ctx.Err() != nil {
		f.timedOut = true
	}
	return false
}

// searchKey is key for the backtracking search's state.
func (f *tourFinder) searchKey(u int32, order int) int64 {
	return f.rank(u, order, f.search.cnt, f.search.visited)
}

func tourFinderSolve(tie tourTie, backtrack bool) func(context.Context, puzzle.Request) (puzzle.Answer, error) {
	return func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
		t := req.Spec.(puzzle.Tour)
		if r := tourImpossible(t); r != "" {
			return tourUnsat(r), nil
		}
		g := newTourGraph(t.Board)
		f := newTourFinder(g, tie, t.Closed, backtrack)
		f.ctx = ctx
		starts := []int32{int32(t.Start)}
		if t.AllStarts {
			starts = starts[:0]
			for s := range g.n {
				if g.n%2 == 0 || tourColour(t.Board, s) == 0 {
					starts = append(starts, int32(s))
				}
			}
		}
		for _, s := range starts {
			if f.run(s) {
				return puzzle.Answer{Status: puzzle.OK, Solution: tourSolution(t.Board, f.path),
					Stats: tourStats(f.nodes, f.backtracks)}, nil
			}
			if f.timedOut {
				return puzzle.Answer{Status: puzzle.Timeout, Message: ctx.Err().Error(), Stats: tourStats(f.nodes, f.backtracks)}, nil
			}
		}
		msg := "not found: the heuristic got stuck (this proves nothing)"
		if backtrack {
			msg = fmt.Sprintf("not found within the backtracking budget of %d dead ends (this proves nothing)", f.budget)
		}
		return puzzle.Answer{Status: puzzle.Error, Message: msg, Stats: tourStats(f.nodes, f.backtracks)}, nil
	}
}

// ---------------------------------------------------------------------------
// Exhaustive search.

// tourSearch is the state of one exhaustive depth-first search. It keeps,
// for every square, its number of unvisited neighbours (cnt) and how many
// unvisited squares have 0 or 1 of them, which gives the pruning rules: with
// more than one square left, no unvisited square may be cut off, no
// neighbour of the current square may be a dead end, and at most one
// unvisited square (the path's end) may have a single way in.
type tourSearch struct {
	g       *tourGraph
	visited []bool
	cnt     []int8
	c0, c1  int
	left    int
	end     int32 // the fixed last square (closed tours), or -1
	path    []int32

	nodes, backtracks int64
	count             uint64
	first             bool // stop at the first tour
	found             bool
	stopped           bool
	stop              *atomic.Bool
	ctx               context.Context
	order             []int32 // scratch for candidate ordering
	keys              []int64 // scratch: the candidates' keys
	// key, if set, orders a first search's moves (smaller first) instead of
	// fewest onward moves; i is the move's index in the seed's order.
	key func(u int32, i int) int64
	// budget, if positive, stops a first search after that many dead ends.
	budget int64
	// closedStart, if not -1, asks for a closed tour back to this square.
	closedStart int32
	// connect adds the connectivity prune: every unvisited square must be
	// reachable from the current one through unvisited squares.
	connect bool
	stamp   []int32 // connectivity scratch: visit marks
	mark    int32
	queue   []int32
}

func newTourSearch(g *tourGraph) *tourSearch {
	s := &tourSearch{g: g, visited: make([]bool, g.n), cnt: make([]int8, g.n), end: -1, closedStart: -1,
		path: make([]int32, 0, g.n), order: make([]int32, 0, 8*g.n), keys: make([]int64, 0, 8*g.n)}
	s.reset()
	return s
}

func (s *tourSearch) reset() {
	s.c0, s.c1 = 0, 0
	for v := range s.g.n {
		s.visited[v] = false
		c := int8(s.g.off[v+1] - s.g.off[v])
		s.cnt[v] = c
		if c == 0 {
			s.c0++
		} else if c == 1 {
			s.c1++
		}
	}
	s.left = s.g.n
	s.path = s.path[:0]
	s.end = -1
	s.found = false
}

func (s *tourSearch) visit(x int32) {
	s.visited[x] = true
	s.left--
	s.path = append(s.path, x)
	switch s.cnt[x] {
	case 0:
		s.c0--
	case 1:
		s.c1--
	}
	for _, y := range s.g.nb(x) {
		c := s.cnt[y]
		s.cnt[y] = c - 1
		if s.visited[y] {
			continue
		}
		switch c {
		case 1:
			s.c1--
			s.c0++
		case 2:
			s.c1++
		}
	}
}

func (s *tourSearch) unvisit(x int32) {
	for _, y := range s.g.nb(x) {
		c := s.cnt[y]
		s.cnt[y] = c + 1
		if s.visited[y] {
			continue
		}
		switch c {
		case 0:
			s.c0--
			s.c1++
		case 1:
			s.c1--
		}
	}
	switch s.cnt[x] {
	case 0:
		s.c0++
	case 1:
		s.c1++
	}
	s.visited[x] = false
	s.left++
	s.path = s.path[:len(s.path)-1]
}

// viable applies the pruning rules at the current square; it reports
// whether the search may continue below it.
func (s *tourSearch) viable(cur int32) bool {
	if s.left <= 1 {
		return true
	}
	m0, m1 := 0, 0
	for _, y := range s.g.nb(cur) {
		if s.visited[y] {
			continue
		}
		switch s.cnt[y] {
		case 0:
			m0++
		case 1:
			m1++
		}
	}
	if m0 > 0 || s.c0 > 0 {
		return false
	}
	e := s.c1 - m1 // unvisited squares away from cur with one way in: path ends
	if s.end >= 0 {
		if s.cnt[s.end] == 1 && !s.adjacent(cur, s.end) {
			e--
		}
		return e == 0
	}
	return e <= 1
}

func (s *tourSearch) adjacent(a, b int32) bool {
	for _, y := range s.g.nb(a) {
		if y == b {
			return true
		}
	}
	return false
}

// connected reports whether every unvisited square can be reached from cur
// through unvisited squares.
func (s *tourSearch) connected(cur int32) bool {
	if s.stamp == nil {
		s.stamp = make([]int32, s.g.n)
		s.queue = make([]int32, 0, s.g.n)
	}
	s.mark++
	if s.mark == 0 {
		clear(s.stamp)
		s.mark = 1
	}
	q := s.queue[:0]
	for _, y := range s.g.nb(cur) {
		if !s.visited[y] && s.stamp[y] != s.mark {
			s.stamp[y] = s.mark
			q = append(q, y)
		}
	}
	for i := 0; i < len(q); i++ {
		for _, y := range s.g.nb(q[i]) {
			if !s.visited[y] && s.stamp[y] != s.mark {
				s.stamp[y] = s.mark
				q = append(q, y)
			}
		}
	}
	s.queue = q
	return len(q) == s.left
}

// deadEnd counts a dead end and stops a budgeted search past its budget.
func (s *tourSearch) deadEnd() {
	s.backtracks++
	if s.budget > 0 && s.backtracks > s.budget {
		s.stopped = true
	}
}

// poll counts a node and reports whether the search must stop (context
// done, or another worker saw it); once stopped it stays stopped.
func (s *tourSearch) poll() bool {
	s.nodes++
	if s.stopped {
		return true
	}
	if s.nodes&4095 == 0 {
		if (s.stop != nil && s.stop.Load()) || (s.ctx != nil && s.ctx.Err() != nil) {
			s.stopped = true
			if s.stop != nil {
				s.stop.Store(true)
			}
		}
	}
	return s.stopped
}

// dfs counts (or, with first, finds) the completions of the current path.
func (s *tourSearch) dfs(cur int32) {
	if s.poll() {
		return
	}
	if s.left == 0 {
		if s.closedStart >= 0 && (len(s.path) < 3 || !s.adjacent(cur, s.closedStart)) {
			s.deadEnd()
			return
		}
		s.count++
		if s.first {
			s.found = true
		}
		return
	}
	if !s.viable(cur) || (s.closedStart >= 0 && s.cnt[s.closedStart] == 0) || (s.connect && !s.connected(cur)) {
		s.deadEnd()
		return
	}
	nb := s.g.nb(cur)
	if s.first {
		// Try the squares in Warnsdorff order: fewest onward moves first.
		base := len(s.order)
		for i, y := range nb {
			if s.visited[y] || (y == s.end && s.left > 1) {
				continue
			}
			k := int64(s.cnt[y])<<8 | int64(i)
			if s.key != nil {
				k = s.key(y, i)
			}
			j := len(s.order)
			s.order = append(s.order, y)
			s.keys = append(s.keys, k)
			for j > base && s.keys[j-1] > k {
				s.order[j], s.keys[j] = s.order[j-1], s.keys[j-1]
				j--
			}
			s.order[j], s.keys[j] = y, k
		}
		for i := base; i < len(s.order); i++ {
			y := s.order[i]
			s.visit(y)
			s.dfs(y)
			if s.found || s.stopped {
				s.order, s.keys = s.order[:base], s.keys[:base]
				return
			}
			s.unvisit(y)
		}
		s.order, s.keys = s.order[:base], s.keys[:base]
		return
	}
	for _, y := range nb {
		if s.visited[y] || (y == s.end && s.left > 1) {
			continue
		}
		s.visit(y)
		s.dfs(y)
		s.unvisit(y)
	}
}

// tourTask is one subtree of an exhaustive count: a path prefix (replayed
// with visit), a fixed end or -1, and a multiplicity.
type tourTask struct {
	prefix []int32
	end    int32
	weight uint64
}

// tourSymmetries returns the board's symmetries as square permutations.
func tourSymmetries(b puzzle.Board) [][]int32 {
	type tr func(f, r int) (int, int)
	w, h := b.W, b.H
	ts := []tr{
		func(f, r int) (int, int) { return f, r },
		func(f, r int) (int, int) { return w - 1 - f, r },
		func(f, r int) (int, int) { return f, h - 1 - r },
		func(f, r int) (int, int) { return w - 1 - f, h - 1 - r },
	}
	if w == h {
		ts = append(ts,
			func(f, r int) (int, int) { return r, f },
			func(f, r int) (int, int) { return h - 1 - r, f },
			func(f, r int) (int, int) { return r, w - 1 - f },
			func(f, r int) (int, int) { return h - 1 - r, w - 1 - f })
	}
	var out [][]int32
	for _, t := range ts {
		p := make([]int32, b.Size())
		for s := range b.Size() {
			f, r := t(s%w, s/w)
			p[s] = int32(b.Sq(f, r))
		}
		out = append(out, p)
	}
	return out
}

// tourStartClasses returns one start per symmetry class of squares with the
// class size.
func tourStartClasses(b puzzle.Board) (reps []int32, sizes []uint64) {
	syms := tourSymmetries(b)
	seen := make([]bool, b.Size())
	for s := range b.Size() {
		if seen[s] {
			continue
		}
		var size uint64
		for _, p := range syms {
			if !seen[p[s]] {
				seen[p[s]] = true
				size++
			}
		}
		reps = append(reps, int32(s))
		sizes = append(sizes, size)
	}
	return reps, sizes
}

// tourRootTasks returns the subtrees a count of t splits into before they
// are split further between workers.
func tourRootTasks(g *tourGraph, t puzzle.Tour) []tourTask {
	if t.Closed {
		// Each undirected cycle passes through the anchor (a square of
		// least degree) using two of its neighbours p < q: count the
		// paths anchor, p, ..., q.
		anchor := int32(0)
		for v := range g.n {
			if len(g.nb(int32(v))) < len(g.nb(anchor)) {
				anchor = int32(v)
			}
		}
		var tasks []tourTask
		nb := g.nb(anchor)
		for i, p := range nb {
			for _, q := range nb[i+1:] {
				a, b := p, q
				if a > b {
					a, b = b, a
				}
				tasks = append(tasks, tourTask{prefix: []int32{anchor, a}, end: b, weight: 1})
			}
		}
		return tasks
	}
	if !t.AllStarts {
		return []tourTask{{prefix: []int32{int32(t.Start)}, end: -1, weight: 1}}
	}
	reps, sizes := tourStartClasses(g.b)
	var tasks []tourTask
	for i, r := range reps {
		if g.n%2 == 1 && tourColour(g.b, int(r)) == 1 {
			continue // no open tour from the minority colour
		}
		tasks = append(tasks, tourTask{prefix: []int32{r}, end: -1, weight: sizes[i]})
	}
	return tasks
}

// tourSplit expands tasks by one move each (keeping only viable ones) until
// there are at least want of them or they stop growing.
func tourSplit(g *tourGraph, tasks []tourTask, want int) []tourTask {
	s := newTourSearch(g)
	for range 12 {
		if len(tasks) >= want {
			break
		}
		var next []tourTask
		grew := false
		for _, tk := range tasks {
			s.reset()
			for _, v := range tk.prefix {
				s.visit(v)
			}
			s.end = tk.end
			cur := tk.prefix[len(tk.prefix)-1]
			if s.left == 0 || !s.viable(cur) {
				if s.left == 0 {
					next = append(next, tk)
				}
				continue
			}
			for _, y := range g.nb(cur) {
				if s.visited[y] || (y == s.end && s.left > 1) {
					continue
				}
				p := append(slices.Clone(tk.prefix), y)
				next = append(next, tourTask{prefix: p, end: tk.end, weight: tk.weight})
				grew = true
			}
		}
		tasks = next
		if !grew {
			break
		}
	}
	return tasks
}

func tourThreads(req puzzle.Request) int {
	if req.Threads > 0 {
		return req.Threads
	}
	return runtime.NumCPU()
}

// tourCount counts the tours of t exhaustively.
func tourCount(ctx context.Context, t puzzle.Tour, threads int) (puzzle.Answer, error) {
	b := t.Board
	if t.Closed {
		if r := tourClosedImpossible(b); r != "" {
			a := tourUnsat(r)
			return a, nil
		}
		if b.Size() > TourCountMaxClosed {
			return puzzle.Answer{}, fmt.Errorf("the exhaustive counter refuses closed tours on boards of more than %d squares (%s has %d)",
				TourCountMaxClosed, b, b.Size())
		}
	} else {
		if b.Size() > TourCountMaxOpen {
			return puzzle.Answer{}, fmt.Errorf("the exhaustive counter refuses open tours on boards of more than %d squares (%s has %d)",
				TourCountMaxOpen, b, b.Size())
		}
		if r := tourImpossible(t); r != "" {
			return tourUnsat(r), nil
		}
	}
	g := newTourGraph(b)
	tasks := tourSplit(g, tourRootTasks(g, t), 64*threads)
	var (
		next       atomic.Int64
		total      atomic.Uint64
		nodes, bts atomic.Int64
		stop       atomic.Bool
		wg         sync.WaitGroup
	)
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newTourSearch(g)
			s.stop, s.ctx = &stop, ctx
			for {
				i := int(next.Add(1)) - 1
				if i >= len(tasks) || stop.Load() {
					break
				}
				tk := tasks[i]
				s.reset()
				for _, v := range tk.prefix {
					s.visit(v)
				}
				s.end = tk.end
				s.count = 0
				s.dfs(tk.prefix[len(tk.prefix)-1])
				total.Add(s.count * tk.weight)
			}
			nodes.Add(s.nodes)
			bts.Add(s.backtracks)
		}()
	}
	wg.Wait()
	stats := tourStats(nodes.Load(), bts.Load())
	if ctx.Err() != nil {
		return puzzle.Answer{Status: puzzle.Timeout, Message: ctx.Err().Error(), Stats: stats}, nil
	}
	n := total.Load()
	if n == 0 {
		return puzzle.Answer{Status: puzzle.Unsat, Count: 0, Stats: stats, Message: "no tour (exhaustive search)"}, nil
	}
	return puzzle.Answer{Status: puzzle.OK, Count: n, Stats: stats}, nil
}

// tourFirstExhaustive finds a tour by exhaustive search in Warnsdorff order,
// or proves that none exists.
func tourFirstExhaustive(ctx context.Context, t puzzle.Tour) puzzle.Answer {
	if r := tourImpossible(t); r != "" {
		return tourUnsat(r)
	}
	g := newTourGraph(t.Board)
	s := newTourSearch(g)
	s.ctx, s.first, s.connect = ctx, true, true
	var tasks []tourTask
	if t.Closed {
		// A closed tour from Start: fix its first move p and its last
		// square q, both neighbours of Start, p < q (direction is free).
		nb := g.nb(int32(t.Start))
		for i, p := range nb {
			for _, q := range nb[i+1:] {
				tasks = append(tasks, tourTask{prefix: []int32{int32(t.Start), min(p, q)}, end: max(p, q)})
			}
		}
		if g.n == 1 {
			return tourUnsat("no closed tour on 1x1 (convention)")
		}
	} else if t.AllStarts {
		reps, _ := tourStartClasses(g.b)
		for _, r := range reps {
			if g.n%2 == 0 || tourColour(g.b, int(r)) == 0 {
				tasks = append(tasks, tourTask{prefix: []int32{r}, end: -1})
			}
		}
	} else {
		tasks = []tourTask{{prefix: []int32{int32(t.Start)}, end: -1}}
	}
	for _, tk := range tasks {
		s.reset()
		for _, v := range tk.prefix {
			s.visit(v)
		}
		s.end = tk.end
		s.dfs(tk.prefix[len(tk.prefix)-1])
		if s.found {
			return puzzle.Answer{Status: puzzle.OK, Solution: tourSolution(t.Board, s.path), Stats: tourStats(s.nodes, s.backtracks)}
		}
		if ctx.Err() != nil {
			return puzzle.Answer{Status: puzzle.Timeout, Message: ctx.Err().Error(), Stats: tourStats(s.nodes, s.backtracks)}
		}
	}
	return puzzle.Answer{Status: puzzle.Unsat, Message: "no tour (exhaustive search)", Stats: tourStats(s.nodes, s.backtracks)}
}

func tourSolveExhaustive(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t := req.Spec.(puzzle.Tour)
	if req.Task == puzzle.Count {
		return tourCount(ctx, t, tourThreads(req))
	}
	return tourFirstExhaustive(ctx, t), nil
}

func tourSolveAuto(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t := req.Spec.(puzzle.Tour)
	if req.Task == puzzle.Count {
		return tourCount(ctx, t, tourThreads(req))
	}
	if t.Board.Size() <= tourAutoExhaustive {
		return tourFirstExhaustive(ctx, t), nil
	}
	if a, _ := tourSolveDivide(ctx, req); a.Status != puzzle.Error {
		return a, nil
	}
	// Boards divide does not handle (a side of 3 or 4): the backtracking
	// finders, then the exhaustive search.
	for _, tie := range []tourTie{tourTieRoth, tourTiePohl} {
		if a, _ := tourFinderSolve(tie, true)(ctx, req); a.Status != puzzle.Error {
			return a, nil
		}
	}
	return tourFirstExhaustive(ctx, t), nil
}

// ---------------------------------------------------------------------------
// Divide and conquer.

// tourBlockCache holds block tours by shape, start and alternative:
// relative square lists in tour order, or nil when none was found.
var tourBlockCache sync.Map

type tourBlockKey struct {
	w, h, start, alt int // start -1: a closed tour
}

// tourBlockAlts is the number of alternative tours tourBlock tries per
// block: the tie-breaking rules, then random ties with several seeds.
const tourBlockAlts = 8

// tourBlock returns a tour of a w x h block: a closed tour when start < 0,
// else an open tour from start (block-relative square index). Alternative
// alt (0 to tourBlockAlts-1) uses another tie-breaking rule; nil means that
// alternative found none within its budget.
func tourBlock(w, h, start, alt int) []int32 {
	key := tourBlockKey{w, h, start, alt}
	if v, ok := tourBlockCache.Load(key); ok {
		return v.([]int32)
	}
	g := newTourGraph(puzzle.Board{W: w, H: h})
	s := int32(start)
	if start < 0 {
		s = 0
	}
	ties := []tourTie{tourTieRoth, tourTiePohl, tourTieFirst}
	tie := tourTieRandom
	if alt < len(ties) {
		tie = ties[alt]
	}
	f := newTourFinder(g, tie, start < 0, true)
	f.budget = 100000
	var out []int32
	if tie == tourTieRandom {
		f.reset(s)
		f.rng = rand.New(rand.NewPCG(uint64(alt), uint64(s)))
		if f.dfs() {
			out = slices.Clone(f.path)
		}
	} else if f.run(s) {
		out = slices.Clone(f.path)
	}
	tourBlockCache.Store(key, out)
	return out
}

// tourParts splits a side of length n into parts for blocks: all even
// (6, 8 or 10) when even is set, else sizes 5 to 9.
func tourParts(n int, even bool) []int {
	var parts []int
	if even {
		for n > 0 {
			switch {
			case n == 10 || n == 6 || n == 8:
				parts = append(parts, n)
				n = 0
			case n == 12:
				parts = append(parts, 6, 6)
				n = 0
			default:
				parts = append(parts, 8)
				n -= 8
			}
		}
		return parts
	}
	for n > 0 {
		switch {
		case n <= 9:
			parts = append(parts, n)
			n = 0
		case n < 14:
			parts = append(parts, 5)
			n -= 5
		default:
			parts = append(parts, 8)
			n -= 8
		}
	}
	return parts
}

// tourOddParts splits an odd side of length n into even parts (6, 8, 10)
// and one odd part, of 5 to 13, that covers coordinate c. It returns the
// parts and the index of the odd one.
func tourOddParts(n, c int) ([]int, int, bool) {
	for odd := 5; odd <= 13 && odd <= n; odd += 2 {
		for p := max(0, c-odd+1); p <= c; p++ {
			rest := n - p - odd
			if p%2 != 0 || (p != 0 && p < 6) || rest < 0 || (rest != 0 && rest < 6) {
				continue
			}
			var parts []int
			if p > 0 {
				parts = tourParts(p, true)
			}
			idx := len(parts)
			parts = append(parts, odd)
			if rest > 0 {
				parts = append(parts, tourParts(rest, true)...)
			}
			return parts, idx, true
		}
	}
	return nil, 0, false
}

// tourDivide builds a tour of t by the divide-and-conquer construction. It
// returns the path, or an explanation of why it found none.
func tourDivide(ctx context.Context, t puzzle.Tour) ([]int32, string) {
	b := t.Board
	W, H := b.W, b.H
	if W < 5 || H < 5 {
		return nil, fmt.Sprintf("divide needs both sides at least 5 (board %s)", b)
	}
	start := int(t.Start)
	if t.AllStarts {
		start = 0
	}
	sf, sr := start%W, start/W
	var cols, rows []int
	oddCol, oddRow := -1, -1
	switch {
	case W%2 == 0:
		cols, rows = tourParts(W, true), tourParts(H, false)
	case H%2 == 0:
		cols, rows = tourParts(W, false), tourParts(H, true)
	default:
		var ok1, ok2 bool
		cols, oddCol, ok1 = tourOddParts(W, sf)
		rows, oddRow, ok2 = tourOddParts(H, sr)
		if !ok1 || !ok2 {
			return nil, "divide found no block partition for this start"
		}
	}
	// Block geometry.
	colStart := make([]int, len(cols)+1)
	for i, c := range cols {
		colStart[i+1] = colStart[i] + c
	}
	rowStart := make([]int, len(rows)+1)
	for i, r := range rows {
		rowStart[i+1] = rowStart[i] + r
	}
	colOf := make([]int32, W)
	for i := range cols {
		for f := colStart[i]; f < colStart[i+1]; f++ {
			colOf[f] = int32(i)
		}
	}
	rowOf := make([]int32, H)
	for j := range rows {
		for r := rowStart[j]; r < rowStart[j+1]; r++ {
			rowOf[r] = int32(j)
		}
	}
	nc, nr := len(cols), len(rows)
	blockOf := func(s int32) int { return int(rowOf[int(s)/W])*nc + int(colOf[int(s)%W]) }

	// Every square's two tour neighbours (-1: a path end). lay gives block
	// (i, j) its tour: variant v picks alternative v/4 reflected by v%4
	// (closed blocks only; the open block keeps its start).
	n := W * H
	nb := make([]int32, 2*n)
	lay := func(i, j, v int) bool {
		w, h := cols[i], rows[j]
		open := i == oddCol && j == oddRow
		var rel []int32
		if open {
			rs := (sr-rowStart[j])*w + (sf - colStart[i])
			if v%4 != 0 {
				return false
			}
			rel = tourBlock(w, h, rs, v/4)
		} else {
			rel = tourBlock(w, h, -1, v/4)
		}
		if rel == nil {
			return false
		}
		abs := func(k int) int32 {
			q := int(rel[k])
			f, r := q%w, q/w
			if v&1 != 0 {
				f = w - 1 - f
			}
			if v&2 != 0 {
				r = h - 1 - r
			}
			return int32((rowStart[j]+r)*W + colStart[i] + f)
		}
		m := len(rel)
		for k := range m {
			s := abs(k)
			prev, next := int32(-1), int32(-1)
			if k > 0 {
				prev = abs(k - 1)
			} else if !open {
				prev = abs(m - 1)
			}
			if k < m-1 {
				next = abs(k + 1)
			} else if !open {
				next = abs(0)
			}
			nb[2*s], nb[2*s+1] = prev, next
		}
		return true
	}
	variant := make([]int, nc*nr)
	for j := range nr {
		for i := range nc {
			if ctx.Err() != nil {
				return nil, ctx.Err().Error()
			}
			v := 0
			for v < 4*tourBlockAlts && !lay(i, j, v) {
				v += 4
			}
			if v >= 4*tourBlockAlts {
				return nil, fmt.Sprintf("divide found no tour of a %dx%d block", cols[i], rows[j])
			}
			variant[j*nc+i] = v
		}
	}

	// Join the block tours along a spanning tree of the block grid.
	parent := make([]int, nc*nr)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	knight := func(a, c int32) bool {
		df, dr := int(a)%W-int(c)%W, int(a)/W-int(c)/W
		return df*dr == 2 || df*dr == -2
	}
	replace := func(s, old, new int32) {
		if nb[2*s] == old {
			nb[2*s] = new
		} else {
			nb[2*s+1] = new
		}
	}
	// join looks for tour edges a-b in block x and c-d in block y with a-c
	// and b-d knight moves, and exchanges them for a-c and b-d.
	join := func(x, y int) bool {
		xi, xj := x%nc, x/nc
		f0, f1 := colStart[xi], colStart[xi+1]
		r0, r1 := rowStart[xj], rowStart[xj+1]
		yi, yj := y%nc, y/nc
		// Only squares within two files or ranks of the shared border.
		if yi > xi {
			f0 = max(f0, f1-2)
		} else if yi < xi {
			f1 = min(f1, f0+2)
		} else if yj > xj {
			r0 = max(r0, r1-2)
		} else {
			r1 = min(r1, r0+2)
		}
		for r := r0; r < r1; r++ {
			for f := f0; f < f1; f++ {
				a := int32(r*W + f)
				for _, d := range tourDeltas {
					cf, cr := f+d[0], r+d[1]
					if !b.On(cf, cr) {
						continue
					}
					c := int32(cr*W + cf)
					if blockOf(c) != y {
						continue
					}
					for ka := range 2 {
						bb := nb[2*a+int32(ka)]
						if bb < 0 {
							continue
						}
						for kc := range 2 {
							dd := nb[2*c+int32(kc)]
							if dd < 0 || !knight(bb, dd) {
								continue
							}
							replace(a, bb, c)
							replace(bb, a, dd)
							replace(c, dd, a)
							replace(dd, c, bb)
							return true
						}
					}
				}
			}
		}
		return false
	}
	// A block not yet joined to any other may be laid again with another
	// variant when a join fails.
	comps := nc * nr
	joined := make([]bool, nc*nr)
	relay := func(x, y int) bool {
		for _, z := range []int{y, x} {
			if joined[z] {
				continue
			}
			for v := variant[z] + 1; v < 4*tourBlockAlts; v++ {
				if !lay(z%nc, z/nc, v) {
					continue
				}
				variant[z] = v
				if join(x, y) {
					return true
				}
			}
			for v := 0; v < 4*tourBlockAlts; v++ {
				if lay(z%nc, z/nc, v) {
					variant[z] = v
					break
				}
			}
		}
		return false
	}
	for progress := true; progress && comps > 1; {
		progress = false
		for x := range nc * nr {
			for dir, y := range []int{x + 1, x + nc} {
				if (dir == 0 && x%nc == nc-1) || y >= nc*nr {
					continue
				}
				if find(x) == find(y) {
					continue
				}
				if join(x, y) || relay(x, y) {
					parent[find(x)] = find(y)
					joined[x], joined[y] = true, true
					comps--
					progress = true
				}
			}
		}
	}
	if comps > 1 {
		return nil, "divide could not join the block tours"
	}

	// Walk from the start.
	path := make([]int32, 0, n)
	prev, cur := int32(-1), int32(start)
	for range n {
		path = append(path, cur)
		next := nb[2*cur]
		if next == prev || next < 0 {
			next = nb[2*cur+1]
		}
		prev, cur = cur, next
		if cur < 0 {
			break
		}
	}
	if len(path) != n {
		return nil, "divide built a broken tour (internal error)"
	}
	return path, ""
}

func tourSolveDivide(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t := req.Spec.(puzzle.Tour)
	if r := tourImpossible(t); r != "" {
		return tourUnsat(r), nil
	}
	path, msg := tourDivide(ctx, t)
	if ctx.Err() != nil {
		return puzzle.Answer{Status: puzzle.Timeout, Message: ctx.Err().Error(), Stats: tourStats(0, 0)}, nil
	}
	if path == nil {
		return puzzle.Answer{Status: puzzle.Error, Message: "not found: " + msg, Stats: tourStats(0, 0)}, nil
	}
	return puzzle.Answer{Status: puzzle.OK, Solution: tourSolution(t.Board, path), Stats: tourStats(int64(len(path)), 0)}, nil
}
