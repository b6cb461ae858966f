package mzn

import (
	"fmt"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

// The non-attacking pieces model (pieces:WxH:COUNTS): p[S], S = 0..W*H-1
// (a1 = 0, b1 = 1, ..., rank by rank), is 0 for an empty square or the
// number (1, 2, ...) of the kind standing there, the kinds the instance
// places in the order K, Q, B, R, N. Each kind appears exactly its count;
// for every kind I, square S and square T that a piece I on S attacks on
// the empty board (puzzle.Board.Attacks), p[S] = I -> p[T] = 0 (the
// triples listed in att). Satisfaction; each solution is one placement.
func init() {
	builders.Add("pieces", func(spec puzzle.Spec, opt Options) (*Model, error) {
		pc := spec.(puzzle.Pieces)
		b := pc.Board
		var kinds []puzzle.Kind
		var names, counts []string
		for k, n := range pc.Count {
			if n > 0 {
				kinds = append(kinds, puzzle.Kind(k))
				names = append(names, fmt.Sprintf("%d = %s", len(kinds), puzzle.Kind(k)))
				counts = append(counts, fmt.Sprint(n))
			}
		}
		var w writer
		w.comment(spec.String()+" as a MiniZinc model, written by boardsat",
			"p[S] is the piece on square S (a1 = 0, b1 = 1, ..., rank by rank): 0 empty, "+strings.Join(names, ", "))
		w.line("int: S = %d;", b.Size())
		w.line("int: m = %d;", len(kinds))
		w.line("array[0..S-1] of var 0..m: p;")
		w.line("array[1..m] of int: count = [%s];", strings.Join(counts, ", "))
		w.line("constraint forall(i in 1..m)(sum(s in 0..S-1)(bool2int(p[s] = i)) = count[i]);")
		w.comment("att[J] = (kind, square, attacked square): a piece of that kind there empties the attacked square")
		var att []string
		for i, k := range kinds {
			for s := range puzzle.Square(b.Size()) {
				for _, t := range b.Attacks(k, s) {
					att = append(att, fmt.Sprintf("%d,%d,%d", i+1, s, t))
				}
			}
		}
		w.line("array[int, 1..3] of int: att = [|%s|];", strings.Join(att, "|"))
		w.line("constraint forall(j in index_set_1of2(att))(p[att[j,2]] = att[j,1] -> p[att[j,3]] = 0);")
		w.solve(opt, "", "", "p")
		return &Model{Text: w.sb.String(), Decode: func(vals []int64) (puzzle.Solution, error) {
			if err := wantLen(vals, b.Size()); err != nil {
				return puzzle.Solution{}, err
			}
			var squares []puzzle.Square
			var ks []puzzle.Kind
			for s, v := range vals {
				if v < 0 || v > int64(len(kinds)) {
					return puzzle.Solution{}, fmt.Errorf("piece number %d out of range", v)
				}
				if v > 0 {
					squares, ks = append(squares, puzzle.Square(s)), append(ks, kinds[v-1])
				}
			}
			return puzzle.PlacementOf(b, squares, ks), nil
		}}, nil
	})
}
