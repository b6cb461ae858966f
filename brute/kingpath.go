package brute

import (
	"context"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	solvers.Add("kingpath", solver{tasks: []puzzle.Task{puzzle.Count, puzzle.First}, solve: kingPaths})
}

// kingPaths counts king paths of the spec's length as directed paths
// (paths), summed over every start for "*".
func kingPaths(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	k := req.Spec.(puzzle.KingPath)
	b := k.Board
	if n := b.Size(); n > MaxKingPathSquares {
		return puzzle.Answer{}, TooLarge{req.Spec, "a board of " + itoa(n) + " squares", MaxKingPathSquares}
	}
	starts := []puzzle.Square{k.Start}
	if k.AllStarts {
		starts = allSquares(b)
	}
	count, nodes, first, stopped, err := paths(ctx, req, b, starts, k.Length)
	if err != nil {
		return puzzle.Answer{}, err
	}
	return finish(req.Task, count, nodes, stopped, first), nil
}
