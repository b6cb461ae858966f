package brute

import (
	"context"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	solvers.Add("queens", solver{tasks: []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All},
		solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			q := req.Spec.(puzzle.Queens)
			var want [puzzle.NumKinds]int
			want[puzzle.Queen] = q.N
			return placements(ctx, req, q.Board(), want)
		}})
}
