// Package tour holds the native knight's tour strategies (spec
// tour:WxH:START[:closed]).
//
// Strategies:
//
//   - auto (default): count closed tours, and open tours from all starts,
//     on boards of more than 30 squares with the fastest exact method that
//     takes the board (split on boards at most twice as long as wide, or
//     whenever the count is sharded or checkpointed; frontier on longer
//     ones), other counts with the exhaustive counter; first with the
//     exhaustive search on boards of at most tourAutoExhaustive squares (so
//     that "no tour" is proven), otherwise with the divide-and-conquer
//     construction, then (boards with a side of 3 or 4, which divide does
//     not handle) warnsdorff-roth+bt and warnsdorff-pohl+bt, then the
//     exhaustive search.
//   - exhaustive: depth-first search with dead-end pruning; counts open tours
//     (directed, from one start or summed over all starts by symmetry class)
//     and closed tours (undirected cycles), on both cores; first tour or a
//     proof that none exists.
//   - warnsdorff, warnsdorff-pohl, warnsdorff-roth, warnsdorff-random, each
//     also with "+bt": Warnsdorff's rule (go to the square with the fewest
//     onward moves) with a tie-breaking rule, greedy, or with a bounded
//     backtracking fallback.
//   - split (count, closed tours and open tours from all starts): the
//     board cut in two halves, each counted per interface by a frontier
//     DP, joined over the crossing knight moves (split.go); reaches 8x8
//     closed and 7x7 open.
//   - frontier (count): a frontier DP over the whole board (frontier.go).
//   - divide: a divide-and-conquer construction for boards with both sides
//     at least 5: the board is cut into blocks of 5 to 13 squares a side,
//     each block gets a tour of its own (closed, or for odd x odd boards one
//     open block holding the start), and the block tours are joined two by
//     two by exchanging a pair of parallel edges across a block border, the
//     merge step of Parberry's construction. Linear time.
//
// Conventions: open tours are counted directed (from the given start, or
// summed over all starts for "*"); closed tours are counted as undirected
// cycles, so every start has the same count. 1x1 has one open tour and no
// closed tour.
//
// Finders that give up because of their heuristic answer status Error with
// "not found"; only proofs answer Unsat: the exhaustive search, and the
// structural facts checked first by every strategy (tourImpossible): no
// closed tour when both sides are odd or a side is 1, 2 or 4 or the board is
// 3x4, 3x6 or 3x8 (Schwenk's theorem), and no open tour from a square of
// the minority colour of a board with an odd number of squares (a knight
// alternates colours), nor on the boards Conrad et al. list (1xN with N > 1,
// 2xN, 3x3, 3x5, 3x6, 4x4).
package tour

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// Limits of the exhaustive counter: counting open tours is refused on boards
// of more than TourCountMaxOpen squares (7x7 has about 1.7e11 open tours),
// closed tours on boards of more than TourCountMaxClosed squares.
const (
	TourCountMaxOpen   = 36
	TourCountMaxClosed = 40
)

// tourAutoExhaustiveCount is the largest board on which auto counts
// closed tours with the exhaustive search; larger ones go to the split
// counter or the frontier DP (tourCountExactAuto), as do open tours from
// all starts.
const tourAutoExhaustiveCount = 30

// tourAutoExhaustive is the largest board on which auto uses the exhaustive
// search for the first tour.
const tourAutoExhaustive = 64

// tourDeltas are the knight moves in the seed's order: files +-2 with ranks
// +-1 first, then ranks +-2 with files +-1.
var tourDeltas = [8][2]int{{2, 1}, {2, -1}, {-2, 1}, {-2, -1}, {1, 2}, {-1, 2}, {1, -2}, {-1, -2}}

// tourTie is a tie-breaking rule among squares of equal Warnsdorff degree.
type tourTie int

const (
	tourTieFirst  tourTie = iota // first in the seed's move order
	tourTiePohl                  // least sum of the onward degrees of its neighbours (Pohl 1967)
	tourTieRoth                  // furthest from the board's centre (Roth)
	tourTieRandom                // uniformly at random, seeded by the start square (Ganzfried 2004)
)

func init() {
	all := []puzzle.Task{puzzle.First, puzzle.Count}
	search.Register(search.Strategy{Puzzle: "tour", Name: "auto", Default: true, Tasks: all,
		Doc:   "count: closed tours and open tours from all starts over 30 squares by split or frontier, other counts exhaustive; first: exhaustive up to 64 squares, else divide, then roth+bt, pohl+bt, exhaustive",
		Solve: tourSolveAuto})
	search.Register(search.Strategy{Puzzle: "tour", Name: "exhaustive", Tasks: all,
		Doc:   "DFS with dead-end and forced-move pruning, both cores; counts tours or proves none",
		Solve: tourSolveExhaustive})
	finders := []struct {
		name, doc string
		tie       tourTie
	}{
		{"warnsdorff", "Warnsdorff's rule, first minimum in the seed's move order", tourTieFirst},
		{"warnsdorff-pohl", "Warnsdorff, ties to the least sum of onward degrees (Pohl)", tourTiePohl},
		{"warnsdorff-roth", "Warnsdorff, ties to the square furthest from the centre (Roth)", tourTieRoth},
		{"warnsdorff-random", "Warnsdorff, random ties seeded by the start (Ganzfried)", tourTieRandom},
	}
	for _, f := range finders {
		search.Register(search.Strategy{Puzzle: "tour", Name: f.name, Tasks: []puzzle.Task{puzzle.First},
			Doc: f.doc + ", no backtracking", Solve: tourFinderSolve(f.tie, false)})
		search.Register(search.Strategy{Puzzle: "tour", Name: f.name + "+bt", Tasks: []puzzle.Task{puzzle.First},
			Doc: f.doc + ", then backtracking with pruning, at most max(50000, 20*squares) dead ends", Solve: tourFinderSolve(f.tie, true)})
	}
	search.Register(search.Strategy{Puzzle: "tour", Name: "divide", Tasks: []puzzle.Task{puzzle.First},
		Doc:   "divide and conquer: block tours joined by edge exchanges (sides >= 5), linear time",
		Solve: tourSolveDivide})
}

// ---------------------------------------------------------------------------
// Board graph and structural facts.

// tourGraph is the knight graph of a board, neighbours in the seed's order.
type tourGraph struct {
	b   puzzle.Board
	n   int
	off []int32 // neighbours of s are adj[off[s]:off[s+1]]
	adj []int32
}

func newTourGraph(b puzzle.Board) *tourGraph {
	n := b.Size()
	g := &tourGraph{b: b, n: n, off: make([]int32, n+1), adj: make([]int32, 0, 8*n)}
	for s := range n {
		f, r := s%b.W, s/b.W
		for _, d := range tourDeltas {
			if b.On(f+d[0], r+d[1]) {
				g.adj = append(g.adj, int32(s+d[1]*b.W+d[0]))
			}
		}
		g.off[s+1] = int32(len(g.adj))
	}
	return g
}

func (g *tourGraph) nb(s int32) []int32 { return g.adj[g.off[s]:g.off[s+1]] }

// tourColour is a square's colour: 0 for the colour of a1.
func tourColour(b puzzle.Board, s int) int { return (s%b.W + s/b.W) % 2 }

// tourClosedImpossible says why a board has no closed tour (Schwenk's
// theorem, and the 1x1 convention), or "".
func tourClosedImpossible(b puzzle.Board) string {
	m, n := min(b.W, b.H), max(b.W, b.H)
	switch {
	case b.W%2 == 1 && b.H%2 == 1:
		return "no closed tour on a board with both sides odd (colour count)"
	case m == 1 || m == 2 || m == 4:
		return fmt.Sprintf("no closed tour on a board with a side of %d (Schwenk)", m)
	case m == 3 && (n == 4 || n == 6 || n == 8):
		return fmt.Sprintf("no closed tour on 3x%d (Schwenk)", n)
	}
	return ""
}

// tourOpenImpossible says why a board has no open tour at all (Conrad et
// al.), or "".
func tourOpenImpossible(b puzzle.Board) string {
	m, n := min(b.W, b.H), max(b.W, b.H)
	switch {
	case m == 1 && n > 1, m == 2, m == 3 && (n == 3 || n == 5 || n == 6), m == 4 && n == 4:
		return fmt.Sprintf("no open tour on a %dx%d board (Conrad et al.)", m, n)
	}
	return ""
}

// tourImpossible says why the instance provably has no tour, or "". For
// AllStarts it is about every start.
func tourImpossible(t puzzle.Tour) string {
	if t.Closed {
		return tourClosedImpossible(t.Board)
	}
	if r := tourOpenImpossible(t.Board); r != "" {
		return r
	}
	if !t.AllStarts && t.Board.Size()%2 == 1 && tourColour(t.Board, int(t.Start)) == 1 {
		return fmt.Sprintf("no open tour from %s: the board has an odd number of squares and %s is of the minority colour",
			t.Board.Name(t.Start), t.Board.Name(t.Start))
	}
	return ""
}

// tourUnsat is the answer of an instance a theorem rules out (reason, from
// tourImpossible): no search ran, and Theorem says so.
func tourUnsat(reason string) puzzle.Answer {
	return puzzle.Answer{Status: puzzle.Unsat, Message: reason, Theorem: reason, Stats: map[string]int64{}}
}

func tourStats(nodes, backtracks int64) map[string]int64 {
	return map[string]int64{puzzle.StatNodes: nodes, puzzle.StatBacktracks: backtracks}
}

func tourSolution(b puzzle.Board, path []int32) *puzzle.Solution {
	p := make([]puzzle.Square, len(path))
	for i, s := range path {
		p[i] = puzzle.Square(s)
	}
	return &puzzle.Solution{Board: b, Path: p}
}

// tourSolveAuto picks a method by board and task, and records in the
// answer which method answered (Method) and every method it tried before,
// with the error that made it move on (Fallbacks).
func tourSolveAuto(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t := req.Spec.(puzzle.Tour)
	if req.Task == puzzle.Count {
		if (t.Closed || t.AllStarts) && t.Board.Size() > tourAutoExhaustiveCount && tourImpossible(t) == "" {
			return tourCountExactAuto(ctx, req, t)
		}
		a, err := tourCount(ctx, req)
		a.Method = "exhaustive"
		return a, err
	}
	if t.Board.Size() <= tourAutoExhaustive {
		a := tourFirstExhaustive(ctx, t)
		a.Method = "exhaustive"
		return a, nil
	}
	var fallbacks []string
	answered := func(method string, a puzzle.Answer, err error) bool {
		if err == nil && a.Status != puzzle.Error {
			return true
		}
		why := a.Message
		if err != nil {
			why = err.Error()
		}
		fallbacks = append(fallbacks, method+": error: "+why)
		return false
	}
	if a, err := tourSolveDivide(ctx, req); answered("divide", a, err) {
		a.Method = "divide"
		return a, nil
	}
	// Boards divide does not handle (a side of 3 or 4): the backtracking
	// finders, then the exhaustive search.
	for _, f := range []struct {
		name string
		tie  tourTie
	}{{"warnsdorff-roth+bt", tourTieRoth}, {"warnsdorff-pohl+bt", tourTiePohl}} {
		if a, err := tourFinderSolve(f.tie, true)(ctx, req); answered(f.name, a, err) {
			a.Method, a.Fallbacks = f.name, fallbacks
			return a, nil
		}
	}
	a := tourFirstExhaustive(ctx, t)
	a.Method, a.Fallbacks = "exhaustive", fallbacks
	return a, nil
}
