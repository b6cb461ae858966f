package encode

import (
	"slices"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// The orders in which the domination models give the squares to the
// cardinality constraint: row-major, along a Hilbert curve, by coverage.

// cardOrder returns x, the squares' literals, in the order the
// cardinality constraint takes them.
func cardOrder(d puzzle.Dominate, x []cnf.Lit, order string) []cnf.Lit {
	switch order {
	case orderHilbert:
		return hilbertOrder(d.Board, x)
	case orderCoverage:
		return coverageOrder(d, x)
	}
	return x
}

// coverageOrder returns x with the squares in decreasing order of how
// many squares a piece there dominates (itself included), ties along the
// Hilbert curve. A minimum dominating set is made mostly of squares that
// dominate many (for queens, the centre), so this puts the candidates
// that matter together at the front of the counter, where its first
// partial sums bound them, and keeps squares of one coverage ring, which
// lie on concentric rings of the board, in spatial order.
func coverageOrder(d puzzle.Dominate, x []cnf.Lit) []cnf.Lit {
	b := d.Board
	side := 1
	for side < max(b.W, b.H) {
		side *= 2
	}
	cover := dominateCover(d)
	idx := make([]int, len(x))
	order := make([]int, len(x))
	for s := range x {
		order[s] = s
		idx[s] = hilbertIndex(side, s%b.W, s/b.W)
	}
	slices.SortFunc(order, func(p, q int) int {
		if cover[p] != cover[q] {
			return cover[q] - cover[p]
		}
		return idx[p] - idx[q]
	})
	out := make([]cnf.Lit, len(x))
	for i, s := range order {
		out[i] = x[s]
	}
	return out
}

// hilbertOrder returns x with the squares in the order of a Hilbert curve
// over the smallest power-of-two square that holds the board.
func hilbertOrder(b puzzle.Board, x []cnf.Lit) []cnf.Lit {
	side := 1
	for side < max(b.W, b.H) {
		side *= 2
	}
	idx := make([]int, len(x))
	order := make([]int, len(x))
	for s := range x {
		idx[s], order[s] = hilbertIndex(side, s%b.W, s/b.W), s
	}
	slices.SortFunc(order, func(p, q int) int { return idx[p] - idx[q] })
	out := make([]cnf.Lit, len(x))
	for i, s := range order {
		out[i] = x[s]
	}
	return out
}

// hilbertIndex is the distance of cell (fx, fy) along the Hilbert curve
// of a side x side grid, side a power of two (the classic rotate-and-flip
// conversion, quadrant by quadrant from the largest).
func hilbertIndex(side, fx, fy int) int {
	d := 0
	for q := side / 2; q > 0; q /= 2 {
		rx, ry := 0, 0
		if fx&q != 0 {
			rx = 1
		}
		if fy&q != 0 {
			ry = 1
		}
		d += q * q * ((3 * rx) ^ ry)
		if ry == 0 {
			if rx == 1 {
				fx, fy = side-1-fx, side-1-fy
			}
			fx, fy = fy, fx
		}
	}
	return d
}
