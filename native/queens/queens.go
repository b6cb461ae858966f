// Package queens holds the native N-Queens strategies:
//
//   - plain: the seeds' backtracker, row by row with attack counters per
//     column and diagonal (the baseline a paper compares against);
//   - bitboard: the same search on bit masks, one thread;
//   - symmetric: a counter that searches one representative of each class
//     of solutions under the board's eight symmetries (the Takaken-style
//     scheme: corner-queen solutions, then solutions whose closest-to-corner
//     edge queen stands on the top row), weighs each by its class size (2, 4
//     or 8), and spreads many independent subproblems over goroutines. It
//     gives the count and the count up to symmetry at once;
//   - constellations (default): one representative of each symmetry class of
//     start constellations (the queens on the four border lines), weighed by
//     its class size and completed by a bitboard search; each is one
//     subproblem (queens_constellations.go).
//
// Board coordinates: row r is rank r (from zero), and a row's queen stands
// in column (file) cols[r]; in bit masks, bit c is column c.
package queens

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// queensMaxCount is the largest n whose solution count fits in a uint64
// (the count for n = 29 exceeds 2^64).
const queensMaxCount = 28

// queensMaxBits is the largest n the bit-mask strategies handle.
const queensMaxBits = 64

// queensPollMask sets how often searches poll their context: every 4096 nodes.
const queensPollMask = 4095

func init() {
	all := []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All, puzzle.Unique}
	search.Register(search.Strategy{Puzzle: "queens", Name: "plain", Tasks: all, Solve: queensSolvePlain,
		Doc: "backtracking row by row with attack counters (the seeds' baseline); unique by canonical check"})
	search.Register(search.Strategy{Puzzle: "queens", Name: "bitboard", Tasks: all, Solve: queensSolveBitboard,
		Doc: "bit-mask backtracking row by row, one thread; unique by canonical check"})
	search.Register(search.Strategy{Puzzle: "queens", Name: "symmetric", Tasks: all, Solve: queensCounter(queensSymMin, queensSymCount),
		Doc: "one representative per symmetry class (weights 2/4/8), subproblems over all cores; first/all use bitboard"})
	search.Register(search.Strategy{Puzzle: "queens", Name: "constellations", Default: true, Tasks: all, Solve: queensCounter(queensConstMin, queensConstCount),
		Doc: "symmetry classes of border-queen start constellations, each completed by a bitboard search, over all cores; first/all use bitboard"})
}

// queensCounter is the Solve of a counting strategy (symmetric,
// constellations): tasks count and unique from n = min up by count, every
// other task and smaller boards by the bitboard search (and the answer
// names the bitboard heuristic).
func queensCounter(min int, count func(context.Context, puzzle.Request, int) (puzzle.Answer, error)) func(context.Context, puzzle.Request) (puzzle.Answer, error) {
	return func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
		n, err := queensN(req, queensMaxBits)
		if err != nil {
			return puzzle.Answer{}, err
		}
		if n < min || (req.Task != puzzle.Count && req.Task != puzzle.Unique) {
			ans, err := queensSolveBitboard(ctx, req)
			ans.Heuristic = "bitboard"
			return ans, err
		}
		return count(ctx, req, n)
	}
}

// queensN checks a queens request and returns n.
func queensN(req puzzle.Request, maxN int) (int, error) {
	q, ok := req.Spec.(puzzle.Queens)
	if !ok {
		return 0, fmt.Errorf("not a queens instance: %s", req.Spec)
	}
	n := q.N
	if n < 1 {
		return 0, fmt.Errorf("queens: n must be at least 1, not %d", n)
	}
	if n > maxN {
		return 0, fmt.Errorf("queens: the bit-mask strategies (bitboard, symmetric, constellations) handle n up to %d, not %d; "+
			"use --backend sat, or --heuristic plain (backtracking with no size limit, slow on large boards)", maxN, n)
	}
	if (req.Task == puzzle.Count || req.Task == puzzle.Unique) && n > queensMaxCount {
		return 0, fmt.Errorf("queens: counts for n above %d overflow 64 bits (n = %d)", queensMaxCount, n)
	}
	return n, nil
}

// queensSolution turns a column-per-row array into a solution.
func queensSolution(n int, cols []int) puzzle.Solution {
	b := puzzle.Board{W: n, H: n}
	sq := make([]puzzle.Square, n)
	kinds := make([]puzzle.Kind, n)
	for r, c := range cols {
		sq[r] = b.Sq(c, r)
		kinds[r] = puzzle.Queen
	}
	return puzzle.PlacementOf(b, sq, kinds)
}

// queensCanonical reports whether cols (a solution, one column per row) is
// the lexicographically least of the eight boards its symmetries give; inv
// is scratch space of the same length. Exactly one member of each symmetry
// class passes, so counting those that pass counts the classes.
func queensCanonical(cols, inv []int) bool {
	m := len(cols) - 1
	for r, c := range cols {
		inv[c] = r
	}
	for g := 1; g < 8; g++ {
		for x := 0; x <= m; x++ {
			v := queensImage(g, cols, inv, x)
			if v < cols[x] {
				return false
			}
			if v > cols[x] {
				break
			}
		}
	}
	return true
}

// queensImage returns the column of row x's queen in the image of the
// solution (cols, with inverse inv) under symmetry g of the square:
// 1 quarter turn, 2 half turn, 3 three-quarter turn, 4 mirror of columns,
// 5 mirror of rows, 6 transpose, 7 anti-transpose (0 is the identity).
func queensImage(g int, cols, inv []int, x int) int {
	m := len(cols) - 1
	switch g {
	case 1:
		return m - inv[x]
	case 2:
		return m - cols[m-x]
	case 3:
		return inv[m-x]
	case 4:
		return m - cols[x]
	case 5:
		return cols[m-x]
	case 6:
		return inv[x]
	case 7:
		return m - inv[m-x]
	}
	return cols[x]
}

// queensVisit is called with each solution; it returns false to stop.
type queensVisit func(cols []int) bool

// queensRun collects what every queens strategy reports.
type queensRun struct {
	ctx      context.Context
	nodes    int64
	timedOut bool
	count    uint64
	first    []int
	emitErr  error
}

// poll checks the context every 4096 nodes; it returns false when done.
func (q *queensRun) poll() bool {
	if q.nodes&queensPollMask == 0 && q.ctx.Err() != nil {
		q.timedOut = true
	}
	return !q.timedOut
}

// visitor returns the solution callback that serves the request's task.
func (q *queensRun) visitor(req puzzle.Request, n int) queensVisit {
	inv := make([]int, n)
	switch req.Task {
	case puzzle.First:
		return func(cols []int) bool {
			q.count++
			q.first = append([]int(nil), cols...)
			return false
		}
	case puzzle.All:
		return func(cols []int) bool {
			q.count++
			if req.Emit != nil {
				if err := req.Emit(queensSolution(n, cols)); err != nil {
					q.emitErr = err
					return false
				}
			}
			return true
		}
	case puzzle.Unique:
		return func(cols []int) bool {
			if queensCanonical(cols, inv) {
				q.count++
			}
			return true
		}
	}
	return func([]int) bool { q.count++; return true }
}

// answer builds the answer from a finished (or stopped) run.
func (q *queensRun) answer(req puzzle.Request, n int) (puzzle.Answer, error) {
	var first *puzzle.Solution
	if q.first != nil {
		sol := queensSolution(n, q.first)
		first = &sol
	}
	return search.Answer(req.Task, q.count, q.nodes, q.timedOut, first, q.emitErr)
}

// queensSolvePlain answers with the plain backtracker.
