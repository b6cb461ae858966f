package mzn

import (
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// The domination model (dominate:WxH:P[:k=K][:independent]): x[S], S =
// 0..W*H-1 (a1 = 0, rank by rank), is 1 when a piece P stands on S. Every
// square S is occupied or attacked: the sum of x over dom[S+1] (S and the
// squares from which a P attacks S, puzzle.Board.Attacks) is at least 1.
// With independent, at most one piece in each set of indep (the lines of
// a sliding piece, the attacking pairs of kings and knights,
// puzzle.Board.Cliques). With k=K, pieces <= K. Objective: minimise
// pieces = sum x; the optimal solutions are the minimum dominating sets
// (Options.Fix writes the model whose solutions they are, for counting).
func init() {
	builders.Add("dominate", func(spec puzzle.Spec, opt Options) (*Model, error) {
		d := spec.(puzzle.Dominate)
		b := d.Board
		var w writer
		w.comment(spec.String()+" as a MiniZinc model, written by boardsat",
			"x[S] = 1 when a "+d.Piece.String()+" stands on square S (a1 = 0, b1 = 1, ..., rank by rank)")
		w.line("int: S = %d;", b.Size())
		w.line("array[0..S-1] of var 0..1: x;")
		var dom []string
		for s := range puzzle.Square(b.Size()) {
			dom = append(dom, setOf(append([]puzzle.Square{s}, b.Attacks(d.Piece, s)...), 0))
		}
		w.comment("dom[S+1]: S and the squares from which a " + d.Piece.String() + " attacks S")
		w.setArray("dom", dom)
		w.line("constraint forall(s in 0..S-1)(sum(t in dom[s+1])(x[t]) >= 1);")
		if d.Independent {
			var sets []string
			for _, c := range b.Cliques(d.Piece) {
				sets = append(sets, setOf(c, 0))
			}
			if len(sets) > 0 {
				w.comment("independent: at most one piece on each line or attacking pair")
				w.setArray("indep", sets)
				w.line("constraint forall(c in indep)(sum(t in c)(x[t]) <= 1);")
			}
		}
		w.line("var 0..S: pieces = sum(x);")
		if d.HasK {
			w.line("constraint pieces <= %d;", d.K)
		}
		sense := "minimize"
		if opt.Count && d.HasK {
			sense = "" // with k=K the count is of every set of at most K pieces
		}
		sense = w.solve(opt, sense, "pieces", "x")
		return &Model{Text: w.sb.String(), Sense: sense, Decode: func(vals []int64) (puzzle.Solution, error) {
			if err := wantLen(vals, b.Size()); err != nil {
				return puzzle.Solution{}, err
			}
			var squares []puzzle.Square
			var kinds []puzzle.Kind
			for s, v := range vals {
				if v != 0 && v != 1 {
					return puzzle.Solution{}, fmt.Errorf("x = %d, want 0 or 1", v)
				}
				if v == 1 {
					squares, kinds = append(squares, puzzle.Square(s)), append(kinds, d.Piece)
				}
			}
			return puzzle.PlacementOf(b, squares, kinds), nil
		}}, nil
	})
}
