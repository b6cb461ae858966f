package brute

import (
	"context"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	solvers.Add("tour", solver{tasks: []puzzle.Task{puzzle.Count, puzzle.First}, solve: tours})
}

// tours counts knight's tours as paths over every square (paths). Counting
// conventions: open tours are directed and summed over starts for "*"; a
// closed tour is an undirected cycle, found twice (once per direction) from
// its start, and every start of a board has the same number of them.
func tours(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t := req.Spec.(puzzle.Tour)
	b := t.Board
	n := b.Size()
	if n > MaxTourSquares {
		return puzzle.Answer{}, TooLarge{req.Spec, "a board of " + itoa(n) + " squares", MaxTourSquares}
	}
	if t.AllStarts && !t.Closed && n > MaxTourAllSquares {
		return puzzle.Answer{}, TooLarge{req.Spec, "open tours from every start on " + itoa(n) + " squares", MaxTourAllSquares}
	}
	starts := []puzzle.Square{t.Start}
	if t.AllStarts {
		starts = allSquares(b)
		if t.Closed {
			starts = starts[:1] // the same cycles from every start
		}
	}
	count, nodes, first, stopped, err := paths(ctx, req, b, starts, n)
	if err != nil {
		return puzzle.Answer{}, err
	}
	if t.Closed && !stopped {
		count /= 2
	}
	return finish(req.Task, count, nodes, stopped, first), nil
}
