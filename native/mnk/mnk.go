// Package mnk solves m,n,k games (tic-tac-toe and its generalisations)
// natively on bitboards: one bit per square, a stone set per side, every
// row of K squares as a mask. Three strategies:
//
//   - negamax: the seed's plain negamax over the whole game tree, no
//     pruning and no memory (task value), and the same plain tree walk
//     counting complete games (task count);
//   - alphabeta (default): task value by alpha-beta on the three values
//     (loss, draw, win) with a transposition table keyed by the position
//     up to board symmetry, immediate wins and forced blocks, dead rows
//     pruned, moves ordered by the rows they serve, and the first two
//     plies split between the threads; tasks count, first and all by
//     depth-first search memoised over positions (the number of games from
//     a position, by length and outcome, is stored once per position up to
//     the symmetries that fix the start).
package mnk

import (
	"fmt"
	"math/bits"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/native/symmetry"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	search.Register(search.Strategy{Puzzle: "mnk", Name: "negamax",
		Tasks: []puzzle.Task{puzzle.Value, puzzle.Count}, Solve: negamaxSolve,
		Doc: "the seed's plain negamax over the whole game tree (value); the plain tree walk counts games (count)"})
	search.Register(search.Strategy{Puzzle: "mnk", Name: "alphabeta", Default: true,
		Tasks: []puzzle.Task{puzzle.Value, puzzle.Count, puzzle.First, puzzle.All}, Solve: alphaBetaSolve,
		Doc: "value: alpha-beta, transposition table up to symmetry, forced moves, first two plies on all threads; count/first/all: DFS memoised over positions"})
}

// game is the geometry of one m,n,k board: its rows of K squares as masks,
// the rows through each square, and the board symmetries as bitboard maps.
type game struct {
	b     puzzle.Board
	k     int
	n     int
	full  uint64
	lines []uint64
	// through[q] lists the rows that contain square q.
	through [][]uint64
	// syms[i][c][v] is the image under symmetry i of the squares in byte c
	// of a bitboard when that byte is v (so a bitboard maps in n/8 lookups).
	syms [][][256]uint64
	// perm[i][q] is the image of square q under symmetry i, inv[i] the
	// inverse map.
	perm, inv [][]int
}

func newGame(m puzzle.MNK) *game {
	b := m.Board
	g := &game{b: b, k: m.K, n: b.Size(), through: make([][]uint64, b.Size())}
	g.full = ^uint64(0) >> (64 - g.n)
	for q := range g.n {
		f0, r0 := b.FileRank(puzzle.Square(q))
		for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} {
			var mask uint64
			ok := true
			for i := range m.K {
				f, r := f0+i*d[0], r0+i*d[1]
				if !b.On(f, r) {
					ok = false
					break
				}
				mask |= 1 << b.Sq(f, r)
			}
			if ok && (m.K > 1 || d == [2]int{1, 0}) {
				g.lines = append(g.lines, mask)
			}
		}
	}
	for _, l := range g.lines {
		for s := l; s != 0; s &= s - 1 {
			q := bits.TrailingZeros64(s)
			g.through[q] = append(g.through[q], l)
		}
	}
	chunks := (g.n + 7) / 8
	for _, perm := range symmetry.Perms[int](b) {
		inv := make([]int, g.n)
		for q, t := range perm {
			inv[t] = q
		}
		g.perm, g.inv = append(g.perm, perm), append(g.inv, inv)
		tab := make([][256]uint64, chunks)
		for c := range chunks {
			for v := range 256 {
				var img uint64
				for bit := range 8 {
					if q := c*8 + bit; v&(1<<bit) != 0 && q < g.n {
						img |= 1 << perm[q]
					}
				}
				tab[c][v] = img
			}
		}
		g.syms = append(g.syms, tab)
	}
	return g
}

// image maps bitboard s under symmetry i.
func (g *game) image(i int, s uint64) uint64 {
	var out uint64
	tab := g.syms[i]
	for c := range tab {
		out |= tab[c][byte(s>>(8*c))]
	}
	return out
}

// wins reports whether stones hold a full row through square q.
func (g *game) wins(stones uint64, q int) bool {
	for _, l := range g.through[q] {
		if stones&l == l {
			return true
		}
	}
	return false
}

// start returns the start position's stones, X's and O's, and whether X
// is to move.
func start(m puzzle.MNK) (x, o uint64, xToMove bool) {
	for q, c := range m.Cells() {
		switch c {
		case puzzle.MNKX:
			x |= 1 << q
		case puzzle.MNKO:
			o |= 1 << q
		}
	}
	return x, o, m.ToMove() == puzzle.MNKX
}

// gameRecord turns a list of squares played into a solution.
func gameRecord(b puzzle.Board, moves []int8) *puzzle.Solution {
	sol := &puzzle.Solution{Board: b, Game: make([]puzzle.Square, len(moves))}
	for i, q := range moves {
		sol.Game[i] = puzzle.Square(q)
	}
	return sol
}

// valueName returns the game value of v (1 win, 0 draw, -1 loss).
func valueName(v int8) string {
	switch {
	case v > 0:
		return puzzle.GameWin
	case v < 0:
		return puzzle.GameLoss
	}
	return puzzle.GameDraw
}

// refuseValue is the error of task value on a spec that restricts the
// game's length or counts positions: the value is of the whole game.
func refuseValue(m puzzle.MNK) error {
	if m.Moves > 0 || m.Positions {
		return fmt.Errorf("task value is the value of the whole game from the position: %s restricts the length or counts positions; drop :moves= and :positions", m)
	}
	return nil
}
