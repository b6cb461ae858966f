package mip

import (
	"fmt"
	"strconv"

	"github.com/boardsat/boardsat/puzzle"
)

// The weighted intervals model (intervals:...): a binary xI per interval
// I (numbered from 0 in input order), 1 when it is chosen. At most one
// interval of each maximal set of pairwise overlapping ones is chosen
// (rows cI: sum <= 1, one per clique of puzzle.Intervals.Cliques).
// Objective: maximise the total value of the chosen intervals. The rows
// have the consecutive-ones property, so the constraint matrix is totally
// unimodular and the LP relaxation already has an integral optimum.
func init() {
	builders.Add("intervals", func(spec puzzle.Spec, _ Options) (*Model, error) {
		iv := spec.(puzzle.Intervals)
		var p Program
		p.Comments = []string{spec.String() + ": xI = 1 when interval I is chosen",
			"at most one interval per clique of overlapping ones; maximise the total value"}
		p.Maximize = true
		x := make([]int, len(iv.Items))
		for i, it := range iv.Items {
			x[i] = p.NewVar("x"+strconv.Itoa(i), Binary, 0, 1)
			p.Objective = append(p.Objective, Term{Coef: it.Value, Var: x[i]})
		}
		for c, clique := range iv.Cliques() {
			if len(clique) > 1 {
				p.AddRow(fmt.Sprintf("c%d", c), pickInts(x, clique), nil, LE, 1)
			}
		}
		board := puzzle.BoardOf(spec)
		return &Model{Program: p, Decode: func(val []int64) (puzzle.Solution, error) {
			sol := puzzle.Solution{Board: board, Picks: []int{}}
			for i, v := range x {
				if val[v] == 1 {
					sol.Picks = append(sol.Picks, i)
				}
			}
			return sol, nil
		}}, nil
	})
}
