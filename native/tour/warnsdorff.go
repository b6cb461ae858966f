package tour

// Knight's tours: Warnsdorff finders (greedy, with tie-breaking rules, and with
// bounded backtracking).

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/boardsat/boardsat/puzzle"
)

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
		msg := puzzle.NotFound + "the heuristic got stuck (this proves nothing)"
		if backtrack {
			msg = fmt.Sprintf("%swithin the backtracking budget of %d dead ends (this proves nothing)", puzzle.NotFound, f.budget)
		}
		return puzzle.Answer{Status: puzzle.Error, Message: msg, Stats: tourStats(f.nodes, f.backtracks)}, nil
	}
}
