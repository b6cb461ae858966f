package encode

import (
	"fmt"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// This file holds what the encoders share of the board: their own attack
// and move geometry, written apart from the native searches' (puzzle.Board
// and its move tables) and from the checker's, so that a bug in one
// geometry shows up as a disagreement instead of being shared (see
// TestOwnGeometry); and the decoders that turn a model into a placement or
// a path.

// piecesAttack reports whether a piece of kind k attacks the square df files
// and dr ranks away on an empty board: the SAT encoder's own attack
// predicate, written apart from puzzle.Board.Attacks (the native searches')
// and from the checker's, so that a bug in one geometry shows up as a
// disagreement instead of being shared.
func piecesAttack(k puzzle.Kind, df, dr int) bool {
	if df < 0 {
		df = -df
	}
	if dr < 0 {
		dr = -dr
	}
	if df == 0 && dr == 0 {
		return false
	}
	switch k {
	case puzzle.King:
		return df <= 1 && dr <= 1
	case puzzle.Queen:
		return df == 0 || dr == 0 || df == dr
	case puzzle.Rook:
		return df == 0 || dr == 0
	case puzzle.Bishop:
		return df == dr
	case puzzle.Knight:
		return (df == 1 && dr == 2) || (df == 2 && dr == 1)
	}
	return false
}

// knightNeighbours returns each square's knight neighbours, by the
// encoders' own coordinate arithmetic.
func knightNeighbours(b puzzle.Board) [][]int {
	moves := [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	nb := make([][]int, b.Size())
	for s := range b.Size() {
		f, r := s%b.W, s/b.W
		for _, m := range moves {
			if b.On(f+m[0], r+m[1]) {
				nb[s] = append(nb[s], (r+m[1])*b.W+f+m[0])
			}
		}
	}
	return nb
}

// kingSteps returns the squares a king on s reaches in one move: the
// encoder's own move table (see TestOwnGeometry), not the native searches'.
func kingSteps(b puzzle.Board, s puzzle.Square) []puzzle.Square {
	f, r := int(s)%b.W, int(s)/b.W
	var out []puzzle.Square
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			if (df != 0 || dr != 0) && f+df >= 0 && f+df < b.W && r+dr >= 0 && r+dr < b.H {
				out = append(out, puzzle.Square((r+dr)*b.W+f+df))
			}
		}
	}
	return out
}

// squareColour returns the colour of square s, 0 or 1 as (file + rank)
// mod 2: a knight move always changes it.
func squareColour(b puzzle.Board, s int) int { return (s%b.W + s/b.W) % 2 }

// placementDecode returns a Decode for placement puzzles: vars[i] true puts
// a piece of kinds[i] (a queen when kinds is nil) on square squares(i).
func placementDecode(b puzzle.Board, vars []cnf.Lit, at func(i int) (puzzle.Square, puzzle.Kind)) func([]bool) (puzzle.Solution, error) {
	return func(model []bool) (puzzle.Solution, error) {
		layout := make([]puzzle.Kind, b.Size())
		for i := range layout {
			layout[i] = puzzle.NoPiece
		}
		for i, v := range vars {
			if v.Var() >= len(model) {
				return puzzle.Solution{}, fmt.Errorf("model has %d variables, formula more", len(model)-1)
			}
			if !model[v.Var()] {
				continue
			}
			s, k := puzzle.Square(i), puzzle.Queen
			if at != nil {
				s, k = at(i)
			}
			if layout[s] != puzzle.NoPiece {
				return puzzle.Solution{}, fmt.Errorf("model puts two pieces on %s", b.Name(s))
			}
			layout[s] = k
		}
		return puzzle.Solution{Board: b, Layout: layout}, nil
	}
}

// pathDecode returns a Decode for path puzzles encoded by position
// variables: at(s, t) is true when the path's step t (from 0) is on square
// s. A model must put exactly one square on each of the steps.
func pathDecode(b puzzle.Board, steps int, at func(s, t int) cnf.Lit) func([]bool) (puzzle.Solution, error) {
	return func(model []bool) (puzzle.Solution, error) {
		path := make([]puzzle.Square, steps)
		for t := range steps {
			found := -1
			for s := range b.Size() {
				if v := at(s, t).Var(); v < len(model) && model[v] {
					if found >= 0 {
						return puzzle.Solution{}, fmt.Errorf("step %d has two squares", t+1)
					}
					found = s
				}
			}
			if found < 0 {
				return puzzle.Solution{}, fmt.Errorf("step %d has no square", t+1)
			}
			path[t] = puzzle.Square(found)
		}
		return puzzle.Solution{Board: b, Path: path}, nil
	}
}
