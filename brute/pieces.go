package brute

import (
	"context"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	solvers.Add("pieces", solver{tasks: []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All},
		solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			p := req.Spec.(puzzle.Pieces)
			return placements(ctx, req, p.Board, p.Count)
		}})
}
