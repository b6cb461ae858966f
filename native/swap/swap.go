// Package swap solves knight swaps natively: shortest plans by breadth-first search (with the number of
// distinct shortest plans, counted through the BFS layers), bidirectional
// breadth-first search, and A* with an admissible, consistent heuristic.
//
// A state is the set of squares of each colour (sorted, white then black)
// and, for alternating turns, the side to move. States get dense ids in the
// order they are found; the index from state to id is a dense array when the
// space of combination ranks is small, a map keyed by the rank (one uint64)
// when the rank fits, and a map keyed by the squares' bytes otherwise.
package swap

import (
	"context"
	"errors"
	"fmt"

	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	tasks := []puzzle.Task{puzzle.Shortest, puzzle.First, puzzle.Count}
	search.Register(search.Strategy{Puzzle: "swap", Name: "bfs", Default: true, Tasks: tasks,
		Doc: "breadth-first search over positions (as the seed); counts shortest plans through the layers",
		Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			return swapSolve(ctx, req, swapBFS)
		}})
	search.Register(search.Strategy{Puzzle: "swap", Name: "bidir", Tasks: tasks,
		Doc: "bidirectional breadth-first search, layer by layer from both ends; counts shortest plans at the meeting layer",
		Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			return swapSolve(ctx, req, swapBidir)
		}})
	search.Register(search.Strategy{Puzzle: "swap", Name: "astar", Tasks: []puzzle.Task{puzzle.Shortest, puzzle.First},
		Doc: "A* with per-colour min-cost knight-distance matching, square-colour parity and turn order (consistent)",
		Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			return swapSolve(ctx, req, swapAStar)
		}})
}

// swapMaxSquares bounds the boards the native swap searches accept; their
// per-square tables stay small, and larger boards have astronomically many
// positions anyway.
const swapMaxSquares = 1 << 16

// swapDenseLimit is the largest rank space indexed by a dense array (64 MB
// of int32) in the breadth-first searches, which visit much of the space;
// A* visits little of it and keeps dense arrays to swapDenseLimitAStar.
const (
	swapDenseLimit      = 1 << 24
	swapDenseLimitAStar = 1 << 16
)

// swapResult is what one search found.
type swapResult struct {
	status   puzzle.Status
	length   int
	count    uint64
	overflow bool // count exceeds uint64
	plan     []puzzle.Move
	nodes    int64
	states   int64
	// refusal, if set, says why the search stopped short of its memory
	// budget (swapBudget): the request is refused.
	refusal string
}

// swapSolve runs one search on a swap request and turns its result into an answer.
func swapSolve(ctx context.Context, req puzzle.Request, search func(context.Context, *swapGame, bool) swapResult) (puzzle.Answer, error) {
	spec, ok := req.Spec.(puzzle.Swap)
	if !ok {
		return puzzle.Answer{}, fmt.Errorf("not a swap spec: %s", req.Spec)
	}
	g, err := newSwapGame(spec)
	if err != nil {
		return puzzle.Answer{}, err
	}
	res := search(ctx, g, req.Task == puzzle.Count)
	if res.refusal != "" {
		return puzzle.Answer{}, errors.New(res.refusal)
	}
	ans := puzzle.Answer{Status: res.status,
		Stats: map[string]int64{puzzle.StatNodes: res.nodes, puzzle.StatStates: res.states}}
	switch res.status {
	case puzzle.Timeout:
		ans.Message = "deadline passed before the search finished"
	case puzzle.OK:
		ans.Length = res.length
		if req.Task == puzzle.Count {
			if res.overflow {
				ans.Status = puzzle.Error
				ans.Message = fmt.Sprintf("more than %d shortest plans of length %d: the count does not fit in 64 bits", uint64(1<<64-1), res.length)
				break
			}
			ans.Count = res.count
		} else {
			ans.Solution = &puzzle.Solution{Board: spec.Board, Plan: res.plan}
		}
	}
	return ans, nil
}

// swapAddCount adds b to *a, noting overflow.
func swapAddCount(a *uint64, b uint64, overflow *bool) {
	sum, over := limbs.Add64(*a, b)
	if over {
		*overflow = true
		sum = 1<<64 - 1
	}
	*a = sum
}

// swapPollEvery is how many expansions pass between context polls.
const swapPollEvery = 4096
