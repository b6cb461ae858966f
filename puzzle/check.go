package puzzle

import (
	"fmt"
)

// This file is the independent checker's geometry; each puzzle's own file
// holds its Check, built on these. It decides from first principles,
// with its own coordinate arithmetic, whether a claimed solution solves an
// instance: it calls none of the attack or move tables the solvers use
// (Attacks, KnightMoves), so a bug there cannot hide here.

// threatens reports whether a piece of kind k at (f1, r1) threatens (f2, r2)
// on an empty board. When no piece may threaten another this equals the
// blocked chess rule: the first piece on a blocked line is itself threatened.
func threatens(k Kind, f1, r1, f2, r2 int) bool {
	df, dr := abs(f1-f2), abs(r1-r2)
	if df == 0 && dr == 0 {
		return false
	}
	line := df == 0 || dr == 0
	diag := df == dr
	switch k {
	case King:
		return df <= 1 && dr <= 1
	case Queen:
		return line || diag
	case Rook:
		return line
	case Bishop:
		return diag
	case Knight:
		return df*dr == 2
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// placed is a piece of a layout with its coordinates.
type placed struct {
	k    Kind
	f, r int
}

// placedPieces returns the pieces of layout in square order and the count
// of each kind, or why the layout is malformed.
func placedPieces(b Board, layout []Kind) ([]placed, [NumKinds]int, error) {
	var ps []placed
	var got [NumKinds]int
	if len(layout) != b.W*b.H {
		return nil, got, fmt.Errorf("layout has %d squares, board has %d", len(layout), b.W*b.H)
	}
	for i, k := range layout {
		if k == NoPiece {
			continue
		}
		if k < 0 || k >= NumKinds {
			return nil, got, fmt.Errorf("square %d holds no known piece (%d)", i, k)
		}
		got[k]++
		ps = append(ps, placed{k, i % b.W, i / b.W})
	}
	return ps, got, nil
}

// clash reports whether p and q threaten each other.
func clash(b Board, p, q placed) error {
	if threatens(p.k, p.f, p.r, q.f, q.r) || threatens(q.k, q.f, q.r, p.f, p.r) {
		return fmt.Errorf("%c at %s and %c at %s threaten each other",
			p.k.Letter(), b.Name(b.Sq(p.f, p.r)), q.k.Letter(), b.Name(b.Sq(q.f, q.r)))
	}
	return nil
}

func checkPlacement(b Board, want [NumKinds]int, layout []Kind) error {
	ps, got, err := placedPieces(b, layout)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("piece counts %v, want %v (order K, Q, B, R, N)", got, want)
	}
	for i, p := range ps {
		for _, q := range ps[i+1:] {
			if err := clash(b, p, q); err != nil {
				return err
			}
		}
	}
	return nil
}

func knightApart(b Board, s, t Square) bool {
	df, dr := abs(int(s)%b.W-int(t)%b.W), abs(int(s)/b.W-int(t)/b.W)
	return df*dr == 2
}

// checkSimplePath checks that a path stays on the board, visits no square
// twice and makes only moves that apart allows (mover names the move kind
// in errors).
func checkSimplePath(b Board, path []Square, apart func(Board, Square, Square) bool, mover string) error {
	n := b.W * b.H
	seen := make([]bool, n)
	for i, s := range path {
		if s < 0 || int(s) >= n {
			return fmt.Errorf("step %d is off the board", i+1)
		}
		if seen[s] {
			return fmt.Errorf("square %s visited twice", b.Name(s))
		}
		seen[s] = true
		if i > 0 && !apart(b, path[i-1], s) {
			return fmt.Errorf("step %d, %s-%s, is no %s move", i+1, b.Name(path[i-1]), b.Name(s), mover)
		}
	}
	return nil
}

// extendPlacement is Descriptor.Extend for placements: the piece on the
// highest occupied square of layout (squares after it empty) threatens no
// earlier piece nor is threatened by one, and no kind exceeds its count.
func extendPlacement(b Board, want [NumKinds]int, layout []Kind) error {
	ps, got, err := placedPieces(b, layout)
	if err != nil {
		return err
	}
	for k := range got {
		if got[k] > want[k] {
			return fmt.Errorf("%d pieces of kind %c, want %d", got[k], Kind(k).Letter(), want[k])
		}
	}
	if len(ps) == 0 {
		return nil
	}
	last := ps[len(ps)-1]
	for _, q := range ps[:len(ps)-1] {
		if err := clash(b, last, q); err != nil {
			return err
		}
	}
	return nil
}

// extendPath is Descriptor.Extend for paths: the last square of path is on
// the board, not visited before, one move (apart) from the square before
// it, and the start when the start is fixed.
func extendPath(b Board, path []Square, start Square, fixedStart bool, apart func(Board, Square, Square) bool, mover string) error {
	n := len(path)
	if n == 0 {
		return nil
	}
	if n > b.W*b.H {
		return fmt.Errorf("path of %d squares on a board of %d", n, b.W*b.H)
	}
	s := path[n-1]
	if s < 0 || int(s) >= b.W*b.H {
		return fmt.Errorf("step %d is off the board", n)
	}
	if n == 1 {
		if fixedStart && s != start {
			return fmt.Errorf("path starts on %s, not %s", b.Name(s), b.Name(start))
		}
		return nil
	}
	for _, q := range path[:n-1] {
		if q == s {
			return fmt.Errorf("square %s visited twice", b.Name(s))
		}
	}
	if !apart(b, path[n-2], s) {
		return fmt.Errorf("step %d, %s-%s, is no %s move", n, b.Name(path[n-2]), b.Name(s), mover)
	}
	return nil
}
