package mzn

import (
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// The king path model (kingpath:WxH:START:L): p[I], I = 1..L, is the I-th
// square of the path (a1 = 0, b1 = 1, ..., rank by rank). All squares
// differ (all_different), consecutive squares are a king move apart (a
// table constraint over the king's moves, puzzle.Board.Attacks), and p[1]
// is the start unless START is *. Satisfaction; each solution is one
// path, so --all-solutions counts the paths.
func init() {
	builders.Add("kingpath", func(spec puzzle.Spec, opt Options) (*Model, error) {
		k := spec.(puzzle.KingPath)
		b := k.Board
		var w writer
		w.comment(spec.String()+" as a MiniZinc model, written by boardsat",
			"p[I] is the I-th square of the path (a1 = 0, b1 = 1, ..., rank by rank)")
		w.line(`include "alldifferent.mzn";`)
		w.line(`include "table.mzn";`)
		w.line("int: S = %d;", b.Size())
		w.line("int: L = %d;", k.Length)
		w.line("array[1..L] of var 0..S-1: p;")
		var moves []puzzle.Move
		for s := range puzzle.Square(b.Size()) {
			for _, t := range b.Attacks(puzzle.King, s) {
				moves = append(moves, puzzle.Move{From: s, To: t})
			}
		}
		w.comment("the king's moves (from, to)")
		w.moveTable(moves)
		w.line("constraint alldifferent(p);")
		w.line("constraint forall(i in 1..L-1)(table([p[i], p[i+1]], moves));")
		if !k.AllStarts {
			w.line("constraint p[1] = %d; %% %s", k.Start, b.Name(k.Start))
		}
		w.solve(opt, "", "", "p")
		return &Model{Text: w.sb.String(), Decode: func(vals []int64) (puzzle.Solution, error) {
			if err := wantLen(vals, k.Length); err != nil {
				return puzzle.Solution{}, err
			}
			return pathOf(b, vals, 0)
		}}, nil
	})
}

// pathOf returns the path of squares vals[i] - off, each on the board.
func pathOf(b puzzle.Board, vals []int64, off int64) (puzzle.Solution, error) {
	path := make([]puzzle.Square, len(vals))
	for i, v := range vals {
		q := puzzle.Square(v - off)
		if !b.Valid(q) {
			return puzzle.Solution{}, fmt.Errorf("square number %d off the board", v)
		}
		path[i] = q
	}
	return puzzle.Solution{Board: b, Path: path}, nil
}
