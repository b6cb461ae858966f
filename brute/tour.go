package brute

import (
	"context"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	solvers["tour"] = solver{tasks: []puzzle.Task{puzzle.Count, puzzle.First}, solve: tours}
}

// tours extends a path by every unvisited square, keeping a square only if
// the checker's partial check accepts it; a path over every square is
// counted when puzzle.Check accepts it. Counting conventions: open tours
// are directed and summed over starts for "*"; a closed tour is an
// undirected cycle, found twice (once per direction) from its start, and
// every start of a board has the same number of them.
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
		starts = nil
		for s := range n {
			starts = append(starts, puzzle.Square(s))
		}
		if t.Closed {
			starts = starts[:1] // the same cycles from every start
		}
	}
	extend, err := puzzle.Extender(req.Spec)
	if err != nil {
		return puzzle.Answer{}, err
	}
	path := make([]puzzle.Square, 0, n)
	used := make([]bool, n) // bookkeeping only: which squares the path holds
	var count uint64
	var nodes int64
	var first *puzzle.Solution
	var rec func() error
	rec = func() error {
		nodes++
		if nodes%stopEvery == 0 && ctx.Err() != nil {
			return errStop
		}
		if len(path) == n {
			if puzzle.Check(req.Spec, puzzle.Solution{Board: b, Path: path}) != nil {
				return nil
			}
			count++
			if req.Task == puzzle.First {
				first = &puzzle.Solution{Board: b, Path: append([]puzzle.Square(nil), path...)}
				return errStop
			}
			return nil
		}
		for s := range n {
			if used[s] {
				continue
			}
			path = append(path, puzzle.Square(s))
			if extend(puzzle.Solution{Board: b, Path: path}) == nil {
				used[s] = true
				err := rec()
				used[s] = false
				if err != nil {
					path = path[:len(path)-1]
					return err
				}
			}
			path = path[:len(path)-1]
		}
		return nil
	}
	for _, s := range starts {
		path = append(path[:0], s)
		if extend(puzzle.Solution{Board: b, Path: path}) == nil {
			used[s] = true
			err = rec()
			used[s] = false
		}
		if err != nil {
			break
		}
	}
	stopped := err == errStop && first == nil
	if t.Closed && !stopped {
		count /= 2
	}
	return finish(req.Task, count, nodes, stopped, first), nil
}
