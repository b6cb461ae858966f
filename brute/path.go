package brute

import (
	"context"

	"github.com/boardsat/boardsat/puzzle"
)

// paths extends a path from each start by every unvisited square, keeping a
// square only if the checker's partial check accepts it; a path of length
// squares is counted when puzzle.Check accepts it. Paths are directed.
func paths(ctx context.Context, req puzzle.Request, b puzzle.Board, starts []puzzle.Square, length int) (count uint64, nodes int64, first *puzzle.Solution, stopped bool, err error) {
	extend, err := puzzle.Extender(req.Spec)
	if err != nil {
		return 0, 0, nil, false, err
	}
	n := b.Size()
	path := make([]puzzle.Square, 0, length)
	used := make([]bool, n) // bookkeeping only: which squares the path holds
	var rec func() error
	rec = func() error {
		nodes++
		if nodes%stopEvery == 0 && ctx.Err() != nil {
			return errStop
		}
		if len(path) == length {
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
	var stop error
	for _, s := range starts {
		path = append(path[:0], s)
		if extend(puzzle.Solution{Board: b, Path: path}) == nil {
			used[s] = true
			stop = rec()
			used[s] = false
		}
		if stop != nil {
			break
		}
	}
	return count, nodes, first, stop == errStop && first == nil, nil
}

// allSquares returns every square of b, in order.
func allSquares(b puzzle.Board) []puzzle.Square {
	out := make([]puzzle.Square, b.Size())
	for i := range out {
		out[i] = puzzle.Square(i)
	}
	return out
}
