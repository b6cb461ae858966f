package brute

import (
	"context"
	"math/big"

	"github.com/boardsat/boardsat/puzzle"
)

// MaxDominateSubsets bounds the candidate sets a domination instance may
// try: every subset of the board's squares of each size from 0 up to the
// minimum (and on to K for a count with k=K).
const MaxDominateSubsets = 3_000_000

func init() {
	solvers.Add("dominate", solver{tasks: []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.First}, solve: dominateBrute})
}

// dominateBrute tries every set of squares, smallest sets first, through
// puzzle.Dominates alone: the first size with a dominating set is the
// minimum, proved by every smaller set failing. Count counts the
// dominating sets of at most K pieces (K the minimum when the spec gives
// none). It refuses, before trying a size, when the sets tried so far and
// that size's would pass MaxDominateSubsets.
func dominateBrute(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	d := req.Spec.(puzzle.Dominate)
	b := d.Board
	n := b.Size()
	limit := n
	if d.HasK {
		limit = d.K
	}
	layout := make([]puzzle.Kind, n)
	for i := range layout {
		layout[i] = puzzle.NoPiece
	}
	sol := puzzle.Solution{Board: b, Layout: layout}
	check := d
	check.HasK = false // sizes are the search's to choose
	var nodes, tried int64
	var count uint64
	var first *puzzle.Solution
	minimum := -1
	for size := 0; size <= limit; size++ {
		if minimum >= 0 && (!d.HasK || req.Task != puzzle.Count) {
			break
		}
		if tried += binomial64(n, size); tried > MaxDominateSubsets {
			return puzzle.Answer{}, TooLarge{req.Spec, "more candidate sets than that up to the sizes needed", MaxDominateSubsets}
		}
		c, f, more, stopped := dominateSize(ctx, check, sol, size)
		nodes += more
		if stopped {
			return finish(req.Task, 0, nodes, true, nil), nil
		}
		if c > 0 && minimum < 0 {
			minimum, first = size, f
		}
		count += c
	}
	if minimum < 0 {
		return finish(req.Task, 0, nodes, false, nil), nil
	}
	switch req.Task {
	case puzzle.Optimum:
		ans := finish(req.Task, 1, nodes, false, nil)
		ans.Count, ans.Solution = 0, first
		ans.Objective, ans.Bound = big.NewInt(int64(minimum)), big.NewInt(int64(minimum))
		return ans, nil
	case puzzle.First:
		return finish(req.Task, 1, nodes, false, first), nil
	}
	return finish(req.Task, count, nodes, false, nil), nil
}

// dominateSize counts the dominating sets of exactly size squares and
// returns the first in square order.
func dominateSize(ctx context.Context, d puzzle.Dominate, sol puzzle.Solution, size int) (count uint64, first *puzzle.Solution, nodes int64, stopped bool) {
	n := len(sol.Layout)
	var rec func(from, left int)
	rec = func(from, left int) {
		if stopped {
			return
		}
		if left == 0 {
			nodes++
			if nodes%stopEvery == 0 && ctx.Err() != nil {
				stopped = true
				return
			}
			if puzzle.Dominates(d, sol) == nil {
				count++
				if first == nil {
					first = &puzzle.Solution{Board: sol.Board, Layout: append([]puzzle.Kind(nil), sol.Layout...)}
				}
			}
			return
		}
		for q := from; q <= n-left; q++ {
			sol.Layout[q] = d.Piece
			rec(q+1, left-1)
			sol.Layout[q] = puzzle.NoPiece
		}
	}
	rec(0, size)
	return count, first, nodes, stopped
}

// binomial64 is n choose r, saturated at the int64 maximum.
func binomial64(n, r int) int64 {
	c := new(big.Int).Binomial(int64(n), int64(r))
	if !c.IsInt64() {
		return 1<<63 - 1
	}
	return c.Int64()
}
