package native

// Self-avoiding king paths (the paths a Boggle word traces): a depth-first
// search over the king's moves that counts the last step by the number of
// free neighbours, and for paths from every start searches one start per
// board-symmetry class (squareClasses), weighted by the class size.

import (
	"context"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	register(Strategy{Puzzle: "kingpath", Name: "dfs", Default: true,
		Tasks: []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All}, Solve: kingPathSolve,
		Doc: "depth-first search; the last step counted by free neighbours; every start by symmetry class"})
}

// kingSearch is one king-path search: the board's king moves, the squares
// taken, and what the search has found.
type kingSearch struct {
	ctx     context.Context
	nb      [][]int32
	used    []bool
	path    []puzzle.Square
	length  int
	nodes   int64
	stopped bool
	// visit, if set, is called with every complete path (First and All);
	// it returns false to stop.
	visit func(path []puzzle.Square) bool
}

func newKingSearch(ctx context.Context, k puzzle.KingPath) *kingSearch {
	b := k.Board
	s := &kingSearch{ctx: ctx, nb: make([][]int32, b.Size()), used: make([]bool, b.Size()), length: k.Length}
	for q := range b.Size() {
		for _, t := range b.Attacks(puzzle.King, puzzle.Square(q)) {
			s.nb[q] = append(s.nb[q], int32(t))
		}
	}
	return s
}

// from counts the paths that extend the current path, which ends on q.
func (s *kingSearch) from(q int32) uint64 {
	s.nodes++
	if s.nodes&4095 == 0 && s.ctx.Err() != nil {
		s.stopped = true
	}
	if s.stopped {
		return 0
	}
	s.used[q] = true
	s.path = append(s.path, puzzle.Square(q))
	defer func() {
		s.used[q] = false
		s.path = s.path[:len(s.path)-1]
	}()
	switch {
	case len(s.path) == s.length:
		if s.visit != nil && !s.visit(s.path) {
			s.stopped = true
		}
		return 1
	case len(s.path) == s.length-1 && s.visit == nil:
		var n uint64
		for _, t := range s.nb[q] {
			if !s.used[t] {
				n++
			}
		}
		return n
	}
	var n uint64
	for _, t := range s.nb[q] {
		if !s.used[t] && !s.stopped {
			n += s.from(t)
		}
	}
	return n
}

// kingPathSolve answers count, first and all.
func kingPathSolve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	k := req.Spec.(puzzle.KingPath)
	s := newKingSearch(ctx, k)
	var count uint64
	var first *puzzle.Solution
	var emitErr error
	if req.Task != puzzle.Count {
		s.visit = func(path []puzzle.Square) bool {
			sol := puzzle.Solution{Board: k.Board, Path: append([]puzzle.Square(nil), path...)}
			if req.Task == puzzle.First {
				first = &sol
				return false
			}
			emitErr = req.Emit(sol)
			return emitErr == nil
		}
	}
	starts, weights := []int32{int32(k.Start)}, []uint64{1}
	switch {
	case k.AllStarts && req.Task == puzzle.Count:
		starts, weights = squareClasses(k.Board)
	case k.AllStarts:
		starts, weights = nil, nil
		for q := range k.Board.Size() {
			starts, weights = append(starts, int32(q)), append(weights, 1)
		}
	}
	for i, q := range starts {
		if s.stopped {
			break
		}
		count += weights[i] * s.from(q)
	}
	stopped := s.stopped && first == nil && emitErr == nil
	if req.Task == puzzle.First && first != nil {
		count = 1
	}
	return searchAnswer(req.Task, count, s.nodes, stopped, first, emitErr)
}
