package queens

import (
	"slices"
	"testing"

	"github.com/boardsat/boardsat/native/symmetry"
	"github.com/boardsat/boardsat/puzzle"
)

// TestQueensImageIsBoardSymmetry holds the queens counter's solution
// images to the shared numbering: queensImage(g) of a solution is the
// placement that symmetry.Perms' symmetry g makes of it.
func TestQueensImageIsBoardSymmetry(t *testing.T) {
	for _, cols := range [][]int{{0, 4, 7, 5, 2, 6, 1, 3}, {1, 3, 0, 2}, {0}} {
		n := len(cols)
		b := puzzle.Board{W: n, H: n}
		inv := make([]int, n)
		for r, c := range cols {
			inv[c] = r
		}
		syms := symmetry.Perms[int](b)
		for g := range symmetry.Count {
			// The queen of row r stands on file cols[r], rank r.
			want := make([]int, n)
			for r, c := range cols {
				img := syms[g][b.Sq(c, r)]
				f, rank := b.FileRank(puzzle.Square(img))
				want[rank] = f
			}
			got := make([]int, n)
			for x := range got {
				got[x] = queensImage(g, cols, inv, x)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%v under symmetry %d: queensImage %v, board symmetry %v", cols, g, got, want)
			}
		}
	}
}
