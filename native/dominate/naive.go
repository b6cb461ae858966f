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
	syms := symmetry.Perms[int32](d.Board)
	var nodes int64
	var count uint64
	var first []int32
	var emitErr error
	stopped := false
	minimum := -1
	set := make([]int32, 0, top)
	dom := make([][]uint64, top+1)
	for i := range dom {
		dom[i] = make([]uint64, g.words)
	}
	img := make([]int32, 0, top)
	var rec func(from, size int)
	rec = func(from, size int) {
		if stopped {
			return
		}
		nodes++
		if nodes&1023 == 0 && ctx.Err() != nil {
			stopped = true
			return
		}
		depth := len(set)
		if depth == size {
			for i, w := range g.full {
				if w&^dom[depth][i] != 0 {
					return
				}
			}
			if d.Independent {
				for i, a := range set {
					for _, b := range set[i+1:] {
						if hasBit(g.attack[a], int(b)) {
							return
						}
					}
				}
			}
			switch req.Task {
			case puzzle.Unique:
				img = append(img[:0], set...)
				if symmetry.SetClassWeight(syms, set, img) > 0 {
					count++
				}
			case puzzle.All:
				count++
				if emitErr = req.Emit(*solution(d, set)); emitErr != nil {
					stopped = true
				}
			default:
				count++
			}
			if first == nil {
				first = append([]int32(nil), set...)
			}
			return
		}
		for q := from; q <= g.n-(size-depth); q++ {
			for i := range dom[depth+1] {
				dom[depth+1][i] = dom[depth][i] | g.cover[q][i]
			}
			set = append(set, int32(q))
			rec(q+1, size)
			set = set[:depth]
			if stopped {
				return
			}
		}
	}
	for size := 0; size <= top && !stopped; size++ {
		if minimum >= 0 && (!d.HasK || req.Task == puzzle.Optimum || req.Task == puzzle.First) {
			break
		}
		c0 := count
		rec(0, size)
		if !stopped && (count > c0 || first != nil) && minimum < 0 {
			minimum = size
		}
	}
	stats := map[string]int64{puzzle.StatNodes: nodes}
	switch req.Task {
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
	ans, err := search.Answer(req.Task, count, nodes, stopped && emitErr == nil, nil, emitErr)
	if ans.Status == puzzle.OK && count == 0 {
		ans.Status = puzzle.Unsat
	}
	return ans, err
}
