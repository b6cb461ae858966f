package encode

import (
	"strconv"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// The line model of domination (queens, rooks, bishops): a variable per
// occupied rank, file and diagonal.

// dominateLinePiece reports whether every attack of piece k runs along a
// line (rank, file or diagonal), so that the line model applies.
func dominateLinePiece(k puzzle.Kind) bool {
	return k == puzzle.Queen || k == puzzle.Rook || k == puzzle.Bishop
}

// dominateLines adds the line model's variables and returns, for every
// square, the line variables through it. A line variable is true exactly
// when a piece stands on its line (rank, file, diagonal or anti-diagonal,
// the lines the piece moves along), so every set of pieces has exactly one
// extension and counts projected on the x_s are unchanged. A square is
// dominated exactly when a line through it is occupied. With a size limit
// k, at most k lines of each family are occupied: implied by the limit,
// but stated, so that the solver reasons about ranks and files directly.
func dominateLines(f *cnf.Formula, d puzzle.Dominate, x []cnf.Lit, limit int, enc card.Encoding) (through [][]cnf.Lit, cubes []cnf.Lit, err error) {
	b := d.Board
	through = make([][]cnf.Lit, b.Size())
	type family struct {
		name string
		of   func(fl, rk int) int
		n    int
	}
	var fams []family
	if d.Piece != puzzle.Bishop {
		fams = append(fams, family{"rank", func(fl, rk int) int { return rk }, b.H},
			family{"file", func(fl, rk int) int { return fl }, b.W})
	}
	if d.Piece != puzzle.Rook {
		fams = append(fams, family{"diag", func(fl, rk int) int { return fl - rk + b.H - 1 }, b.W + b.H - 1},
			family{"anti", func(fl, rk int) int { return fl + rk }, b.W + b.H - 1})
	}
	for _, fam := range fams {
		on := make([][]cnf.Lit, fam.n)
		for s := range x {
			i := fam.of(s%b.W, s/b.W)
			on[i] = append(on[i], x[s])
		}
		vars := make([]cnf.Lit, fam.n)
		for i, xs := range on {
			v := f.Aux(fam.name + strconv.Itoa(i))
			vars[i] = v
			f.Add(append([]cnf.Lit{v.Not()}, xs...)...)
			for _, xl := range xs {
				f.Add(xl.Not(), v)
			}
		}
		for s := range x {
			through[s] = append(through[s], vars[fam.of(s%b.W, s/b.W)])
		}
		if limit >= 0 && limit < fam.n {
			if err := enc.Encode(f, vars, cnf.AtMost, limit); err != nil {
				return nil, nil, err
			}
		}
		if len(cubes) == 0 {
			// The first family's lines, from the middle outward.
			for i := range vars {
				mid := (len(vars) - 1) / 2
				j := mid + (i+1)/2*map[bool]int{false: -1, true: 1}[i%2 == 1]
				cubes = append(cubes, vars[j])
			}
		}
	}
	return through, cubes, nil
}
