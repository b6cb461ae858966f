// Package kingpath counts self-avoiding king paths (the paths a Boggle word
// traces) natively: a depth-first
// search over the king's moves that counts the last step by the number of
// free neighbours. A count searches from one start per board-symmetry
// class (symmetry.SquareClasses) for "*", weighted by the class size, split into
// path prefixes that the shared pool (package subproblem) runs on all cores.
package kingpath

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/native/symmetry"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	search.Register(search.Strategy{Puzzle: "kingpath", Name: "dfs", Default: true,
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

// kingSplitWant is how many subproblems a count aims for: prefixes grow a
// square at a time until there are at least this many (or the path is
// complete), so the pool keeps both cores busy and shards are balanced.
const kingSplitWant = 256

// kingTask is one subproblem of a count: a path prefix and the number of
// paths each of its completions stands for (its start's class size).
type kingTask struct {
	prefix []int32
	weight uint64
}

// kingSplit returns the subproblems of a count: the prefixes of the same
// length from one start per symmetry class (every start counted by its
// class size) or from the given start, grown until there are kingSplitWant
// or the prefixes are whole paths.
func kingSplit(k puzzle.KingPath, nb [][]int32) []kingTask {
	var tasks []kingTask
	if k.AllStarts {
		reps, sizes := symmetry.SquareClasses(k.Board)
		for i, r := range reps {
			tasks = append(tasks, kingTask{[]int32{r}, sizes[i]})
		}
	} else {
		tasks = []kingTask{{[]int32{int32(k.Start)}, 1}}
	}
	for depth := 1; depth < k.Length && len(tasks) < kingSplitWant; depth++ {
		var next []kingTask
		for _, tk := range tasks {
			for _, t := range nb[tk.prefix[depth-1]] {
				if !slices.Contains(tk.prefix, t) {
					next = append(next, kingTask{append(slices.Clone(tk.prefix), t), tk.weight})
				}
			}
		}
		tasks = next
	}
	return tasks
}

// kingPathCount counts through the shared subproblem pool (threads, shards,
// checkpoints, progress).
func kingPathCount(ctx context.Context, req puzzle.Request, k puzzle.KingPath) (puzzle.Answer, error) {
	nb := newKingSearch(ctx, k).nb
	tasks := kingSplit(k, nb)
	var nodes atomic.Int64
	partition := fmt.Sprintf("king path prefixes of %d squares: %d subproblems", kingPrefixLen(tasks), len(tasks))
	res, err := search.RunSplit(ctx, req, "dfs", partition, len(tasks), func() subproblem.Solver {
		s := newKingSearch(ctx, k)
		return func(id int) (uint64, bool) {
			tk := tasks[id]
			n0 := s.nodes
			count := s.extend(tk.prefix)
			nodes.Add(s.nodes - n0)
			return count * tk.weight, !s.stopped
		}
	})
	if err != nil {
		return puzzle.Answer{}, err
	}
	return search.SplitAnswer(res, map[string]int64{puzzle.StatNodes: nodes.Load()}), nil
}

// kingPrefixLen is the length of the subproblems' prefixes (0 if none).
func kingPrefixLen(tasks []kingTask) int {
	if len(tasks) == 0 {
		return 0
	}
	return len(tasks[0].prefix)
}

// extend counts the paths that begin with prefix (already a path).
func (s *kingSearch) extend(prefix []int32) uint64 {
	last := len(prefix) - 1
	for _, q := range prefix[:last] {
		s.used[q] = true
		s.path = append(s.path, puzzle.Square(q))
	}
	n := s.from(prefix[last])
	for _, q := range prefix[:last] {
		s.used[q] = false
	}
	s.path = s.path[:0]
	return n
}

// KingPathMaxSquares bounds the board of the native king-path search: its
// per-square move lists and start classes are built before the search can
// poll for a timeout.
const KingPathMaxSquares = 1 << 18

// kingPathSolve answers count (through the pool), first and all (one
// search over the starts in order).
func kingPathSolve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	k := req.Spec.(puzzle.KingPath)
	if n := k.Board.Size(); n > KingPathMaxSquares {
		return puzzle.Answer{}, fmt.Errorf("the king-path search refuses boards of more than %d squares (%s has %d)", KingPathMaxSquares, k.Board, n)
	}
	if req.Task == puzzle.Count {
		return kingPathCount(ctx, req, k)
	}
	s := newKingSearch(ctx, k)
	var first *puzzle.Solution
	var emitErr error
	s.visit = func(path []puzzle.Square) bool {
		sol := puzzle.Solution{Board: k.Board, Path: append([]puzzle.Square(nil), path...)}
		if req.Task == puzzle.First {
			first = &sol
			return false
		}
		emitErr = req.Emit(sol)
		return emitErr == nil
	}
	starts := []int32{int32(k.Start)}
	if k.AllStarts {
		starts = nil
		for q := range k.Board.Size() {
			starts = append(starts, int32(q))
		}
	}
	var count uint64
	for _, q := range starts {
		if s.stopped {
			break
		}
		count += s.from(q)
	}
	stopped := s.stopped && first == nil && emitErr == nil
	return search.Answer(req.Task, count, s.nodes, stopped, first, emitErr)
}
