package dominate

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/native/symmetry"
	"github.com/boardsat/boardsat/puzzle"
)

// naiveSolve is the seed-style search: for each size from 0 up, every set
// of squares of that size in row-major order, tested at the end, with no
// bound and no branching rule. The first size with a dominating set is the
// minimum; a count then counts that size (and, with k=K, every larger size
// up to K).
func naiveSolve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	d := req.Spec.(puzzle.Dominate)
	g := newGeom(d)
	top := g.n
	if d.HasK {
		top = d.K
	}
	s := &naiveSearch{ctx: ctx, req: req, d: d, g: g, syms: symmetry.Perms[int32](d.Board),
		set: make([]int32, 0, top), img: make([]int32, 0, top), dom: make([][]uint64, top+1)}
	for i := range s.dom {
		s.dom[i] = make([]uint64, g.words)
	}
	minimum := -1
	for size := 0; size <= top && !s.stopped; size++ {
		if minimum >= 0 && (!d.HasK || req.Task == puzzle.Optimum || req.Task == puzzle.First) {
			break
		}
		c0 := s.count
		s.rec(0, size)
		if !s.stopped && (s.count > c0 || s.first != nil) && minimum < 0 {
			minimum = size
		}
	}
	return s.answer(minimum)
}

// naiveSearch is one run of naiveSolve: the set being built, each depth's
// dominated squares, and what was found.
type naiveSearch struct {
	ctx  context.Context
	req  puzzle.Request
	d    puzzle.Dominate
	g    *geom
	syms [][]int32

	set     []int32
	dom     [][]uint64 // dom[depth]: the squares set[:depth] dominates
	img     []int32
	nodes   int64
	count   uint64
	first   []int32
	emitErr error
	stopped bool
}

// rec extends the set with squares from from on until it has size squares.
func (s *naiveSearch) rec(from, size int) {
	if s.stopped {
		return
	}
	s.nodes++
	if s.nodes&1023 == 0 && s.ctx.Err() != nil {
		s.stopped = true
		return
	}
	depth := len(s.set)
	if depth == size {
		if s.dominates(depth) {
			s.found()
		}
		return
	}
	g, dom := s.g, s.dom
	for q := from; q <= g.n-(size-depth); q++ {
		for i := range dom[depth+1] {
			dom[depth+1][i] = dom[depth][i] | g.cover[q][i]
		}
		s.set = append(s.set, int32(q))
		s.rec(q+1, size)
		s.set = s.set[:depth]
		if s.stopped {
			return
		}
	}
}

// dominates reports whether the full set (of depth squares) dominates the
// board, and is independent when the spec asks.
func (s *naiveSearch) dominates(depth int) bool {
	for i, w := range s.g.full {
		if w&^s.dom[depth][i] != 0 {
			return false
		}
	}
	if s.d.Independent {
		for i, a := range s.set {
			for _, b := range s.set[i+1:] {
				if hasBit(s.g.attack[a], int(b)) {
					return false
				}
			}
		}
	}
	return true
}

// found counts (or emits) the set, a dominating set.
func (s *naiveSearch) found() {
	switch s.req.Task {
	case puzzle.Unique:
		s.img = append(s.img[:0], s.set...)
		if symmetry.SetClassWeight(s.syms, s.set, s.img) > 0 {
			s.count++
		}
	case puzzle.All:
		s.count++
		if s.emitErr = s.req.Emit(*solution(s.d, s.set)); s.emitErr != nil {
			s.stopped = true
		}
	default:
		s.count++
	}
	if s.first == nil {
		s.first = append([]int32(nil), s.set...)
	}
}

// answer answers the task from the search, minimum the least size with a
// dominating set (-1: none found).
func (s *naiveSearch) answer(minimum int) (puzzle.Answer, error) {
	d, nodes, count, first, stopped := s.d, s.nodes, s.count, s.first, s.stopped
	stats := map[string]int64{puzzle.StatNodes: nodes}
	switch s.req.Task {
	case puzzle.Optimum:
		if stopped {
			ans := puzzle.Answer{Status: puzzle.Timeout, Stats: stats, Message: fmt.Sprintf("stopped after %d nodes", nodes)}
			return ans, nil
		}
		var best []int32
		bound := 0
		if minimum >= 0 {
			best, bound = first, minimum
		}
		return optimumAnswer(d, best, bound, true, stats), nil
	case puzzle.First:
		var sol *puzzle.Solution
		if first != nil {
			sol = solution(d, first)
		}
		return search.Answer(puzzle.First, count, nodes, stopped && first == nil, sol, nil)
	}
	ans, err := search.Answer(s.req.Task, count, nodes, stopped && s.emitErr == nil, nil, s.emitErr)
	if ans.Status == puzzle.OK && count == 0 {
		ans.Status = puzzle.Unsat
	}
	return ans, err
}
