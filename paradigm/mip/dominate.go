package mip

import (
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// The domination model (dominate:WxH:P[:k=K][:independent]): a binary
// x_SQ per square, 1 when a piece P stands there. Every square is occupied
// or attacked (rows cover_SQ: x_SQ plus the x of every square a P on it
// attacks >= 1; attack is symmetric for every piece). With independent,
// no two pieces attack each other: at most one per line for the sliding
// pieces, at most one of each attacking pair for kings and knights (rows
// indep_I, puzzle.Board.Cliques). With k=K, sum x <= K (row
// atmost_k). Objective: minimise sum x, the domination number; any
// optimal point is a minimum dominating set, the solutions of the
// instance (with k=K, any point of at most K pieces is one).
func init() {
	builders.Add("dominate", func(spec puzzle.Spec, _ Options) (*Model, error) {
		d := spec.(puzzle.Dominate)
		b := d.Board
		var p Program
		p.Comments = []string{spec.String() + ": x_SQ = 1 when a " + d.Piece.String() + " stands on SQ",
			"every square occupied or attacked; minimise the pieces"}
		var x [puzzle.NumKinds][]int
		x[d.Piece] = squareVars(&p, b, "x")
		v := x[d.Piece]
		for s := range puzzle.Square(b.Size()) {
			p.AddRow("cover_"+b.Name(s), append([]int{v[s]}, pick(v, b.Attacks(d.Piece, s))...), nil, GE, 1)
		}
		if d.Independent {
			for i, c := range b.Cliques(d.Piece) {
				p.AddRow(fmt.Sprintf("indep_%d", i), pick(v, c), nil, LE, 1)
			}
		}
		if d.HasK {
			p.AddRow("atmost_k", v, nil, LE, int64(d.K))
		}
		for _, i := range v {
			p.Objective = append(p.Objective, Term{Coef: 1, Var: i})
		}
		return &Model{Program: p, Decode: placementDecoder(b, x)}, nil
	})
}
