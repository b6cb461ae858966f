package mzn

import (
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// The queens model (queens:N): q[F], from 1 to N, is the rank of the
// queen on file F (one queen per file by construction); all q differ (one
// per rank), and so do all q[F] + F and all q[F] - F (one per diagonal and
// anti-diagonal): the classic three all_different constraints. Satisfaction;
// each solution is one placement.
func init() {
	builders.Add("queens", func(spec puzzle.Spec, opt Options) (*Model, error) {
		n := spec.(puzzle.Queens).N
		b := puzzle.Board{W: n, H: n}
		var w writer
		w.comment(spec.String()+" as a MiniZinc model, written by boardsat",
			"q[F] is the rank (1..n) of the queen on file F (a = 1)")
		w.line(`include "alldifferent.mzn";`)
		w.line("int: n = %d;", n)
		w.line("array[1..n] of var 1..n: q;")
		w.line("constraint alldifferent(q);")
		w.line("constraint alldifferent([q[f] + f | f in 1..n]);")
		w.line("constraint alldifferent([q[f] - f | f in 1..n]);")
		w.solve(opt, "", "", "q")
		return &Model{Text: w.sb.String(), Decode: func(vals []int64) (puzzle.Solution, error) {
			if err := wantLen(vals, n); err != nil {
				return puzzle.Solution{}, err
			}
			var squares []puzzle.Square
			var kinds []puzzle.Kind
			for f, r := range vals {
				if r < 1 || r > int64(n) {
					return puzzle.Solution{}, fmt.Errorf("rank %d off the board", r)
				}
				squares, kinds = append(squares, b.Sq(f, int(r)-1)), append(kinds, puzzle.Queen)
			}
			return puzzle.PlacementOf(b, squares, kinds), nil
		}}, nil
	})
}
