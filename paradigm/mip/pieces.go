package mip

import (
	"github.com/boardsat/boardsat/puzzle"
)

// The non-attacking pieces model (pieces:WxH:COUNTS): a binary x_P_SQ per
// kind P the instance places and square SQ, 1 when a P stands on SQ. Each
// square holds at most one piece (rows sq_SQ), each kind exactly its count
// (rows count_P), and a piece attacks no square that holds a piece (rows
// att_P_SQ_SQ2: x_P_SQ + sum over kinds of x_*_SQ2 <= 1 for each square
// SQ2 a P on SQ attacks on the empty board, puzzle.Board.Attacks; the
// attack of either of two pieces on the other is such a row). No
// objective.
func init() {
	builders.Add("pieces", func(spec puzzle.Spec, _ Options) (*Model, error) {
		pc := spec.(puzzle.Pieces)
		b := pc.Board
		var p Program
		p.Comments = []string{spec.String() + ": x_P_SQ = 1 when a piece P stands on SQ",
			"at most one piece per square, each kind its count, no piece attacks an occupied square"}
		var x [puzzle.NumKinds][]int
		var kinds []puzzle.Kind
		for k, n := range pc.Count {
			if n > 0 {
				kinds = append(kinds, puzzle.Kind(k))
				x[k] = squareVars(&p, b, "x_"+puzzle.Kind(k).String())
			}
		}
		on := func(s puzzle.Square) []int {
			var out []int
			for _, k := range kinds {
				out = append(out, x[k][s])
			}
			return out
		}
		for s := range puzzle.Square(b.Size()) {
			if len(kinds) > 1 {
				p.AddRow("sq_"+b.Name(s), on(s), nil, LE, 1)
			}
		}
		for _, k := range kinds {
			p.AddRow("count_"+k.String(), x[k], nil, EQ, int64(pc.Count[k]))
			for s := range puzzle.Square(b.Size()) {
				for _, t := range b.Attacks(k, s) {
					p.AddRow("att_"+k.String()+"_"+b.Name(s)+"_"+b.Name(t), append([]int{x[k][s]}, on(t)...), nil, LE, 1)
				}
			}
		}
		return &Model{Program: p, Decode: placementDecoder(b, x)}, nil
	})
}
