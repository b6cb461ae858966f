package brute

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	solvers["swap"] = solver{tasks: []puzzle.Task{puzzle.Shortest, puzzle.First, puzzle.Count}, solve: swaps}
}

// swapState is one position reached by breadth-first search, with one plan
// reaching it (its representative) and the number of distinct shortest
// plans that do.
type swapState struct {
	plan  []puzzle.Move
	cell  []int8 // which side stands on each square: bookkeeping, no geometry
	paths uint64
}

// swaps searches positions breadth first. From a position it proposes every
// move of a knight to any empty square and keeps it only if the checker
// accepts the representative plan extended by it (puzzle.CheckExtension
// replays the plan under the swap's rules); a position is a goal when
// puzzle.Check accepts its plan. Whether a move is legal and whether a
// position is a goal depend only on the position and, with alternate turns,
// on whose turn it is, so one plan per position decides for all. The count
// is the number of distinct shortest plans.
func swaps(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	s := req.Spec.(puzzle.Swap)
	b := s.Board
	n := b.Size()
	if n > MaxSwapSquares {
		return puzzle.Answer{}, TooLarge{req.Spec, "a board of " + itoa(n) + " squares", MaxSwapSquares}
	}
	start := swapState{cell: make([]int8, n), paths: 1}
	for _, q := range s.White {
		start.cell[q] = 1
	}
	for _, q := range s.Black {
		start.cell[q] = 2
	}
	key := func(cell []int8, depth int) string {
		k := make([]byte, n+1)
		for i, c := range cell {
			k[i] = byte(c)
		}
		if s.Turns == puzzle.Alternate {
			k[n] = byte(depth % 2)
		}
		return string(k)
	}
	extend, err := puzzle.Extender(req.Spec)
	if err != nil {
		return puzzle.Answer{}, err
	}
	seen := map[string]bool{key(start.cell, 0): true}
	layer := []*swapState{&start}
	var nodes int64
	for depth := 0; len(layer) > 0; depth++ {
		// Goals of this layer: every position here is first reached now.
		goals, first, err := swapGoals(req.Spec, layer)
		if err != nil {
			return puzzle.Answer{}, err
		}
		if first != nil {
			ans := puzzle.Answer{Status: puzzle.OK, Length: depth, Count: goals,
				Stats: map[string]int64{puzzle.StatNodes: nodes, puzzle.StatStates: int64(len(seen))}}
			if req.Task != puzzle.Count {
				ans.Count = 0
				sol := puzzle.Solution{Board: b, Plan: append([]puzzle.Move(nil), first.plan...)}
				ans.Solution = &sol
			}
			return ans, nil
		}
		next := map[string]*swapState{}
		var order []*swapState
		for _, st := range layer {
			for from := range n {
				if st.cell[from] == 0 {
					continue
				}
				for to := range n {
					if st.cell[to] != 0 {
						continue
					}
					nodes++
					if nodes%stopEvery == 0 && ctx.Err() != nil {
						return puzzle.Answer{Status: puzzle.Timeout, Message: fmt.Sprintf("stopped at depth %d", depth),
							Stats: map[string]int64{puzzle.StatNodes: nodes, puzzle.StatStates: int64(len(seen))}}, nil
					}
					plan := append(append([]puzzle.Move(nil), st.plan...), puzzle.Move{From: puzzle.Square(from), To: puzzle.Square(to)})
					if extend(puzzle.Solution{Board: b, Plan: plan}) != nil {
						continue
					}
					cell := append([]int8(nil), st.cell...)
					cell[to], cell[from] = cell[from], 0
					k := key(cell, depth+1)
					if nx, ok := next[k]; ok {
						if nx.paths+st.paths < nx.paths {
							return puzzle.Answer{}, fmt.Errorf("the check backend: more than 2^64 shortest plans")
						}
						nx.paths += st.paths
						continue
					}
					if seen[k] {
						continue
					}
					seen[k] = true
					if len(seen) > MaxSwapStates {
						return puzzle.Answer{}, TooLarge{req.Spec, "more positions than the search stores", MaxSwapStates}
					}
					nx := &swapState{plan: plan, cell: cell, paths: st.paths}
					next[k] = nx
					order = append(order, nx)
				}
			}
		}
		layer = order
	}
	return puzzle.Answer{Status: puzzle.Unsat, Message: "no position reachable from the start is a goal",
		Stats: map[string]int64{puzzle.StatNodes: nodes, puzzle.StatStates: int64(len(seen))}}, nil
}

// swapGoals returns the number of plans that reach the goal positions of
// layer, and the first of those positions (nil: none).
func swapGoals(spec puzzle.Spec, layer []*swapState) (uint64, *swapState, error) {
	b := spec.(puzzle.Swap).Board
	var goals uint64
	var first *swapState
	for _, st := range layer {
		if puzzle.Check(spec, puzzle.Solution{Board: b, Plan: st.plan}) == nil {
			if goals+st.paths < goals {
				return 0, nil, fmt.Errorf("the check backend: more than 2^64 shortest plans")
			}
			goals += st.paths
			if first == nil {
				first = st
			}
		}
	}
	return goals, first, nil
}
