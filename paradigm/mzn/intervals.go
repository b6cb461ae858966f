package mzn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

// The weighted intervals model (intervals:...): x[I], I = 1..N (interval
// I-1 of the input), is 1 when the interval is chosen; value[I] is its
// value. At most one interval of each maximal set of pairwise overlapping
// ones is chosen (the sets of cliques, puzzle.Intervals.Cliques).
// Objective: maximise total = the sum of the chosen values. Gecode's
// integers are 32-bit: an instance whose values add up past 2^31 - 1 is
// refused.
func init() {
	builders.Add("intervals", func(spec puzzle.Spec, opt Options) (*Model, error) {
		iv := spec.(puzzle.Intervals)
		n := len(iv.Items)
		var total int64
		vals := make([]string, n)
		for i, it := range iv.Items {
			total += it.Value
			vals[i] = strconv.FormatInt(it.Value, 10)
		}
		if total > gecodeMax {
			return nil, fmt.Errorf("the values of %s add up to %d, past the 32-bit integers of MiniZinc's CP solvers (%d)", spec, total, int64(gecodeMax))
		}
		var w writer
		w.comment(spec.String()+" as a MiniZinc model, written by boardsat",
			"x[I] = 1 when interval I-1 of the input is chosen")
		w.line("int: N = %d;", n)
		w.line("array[1..N] of int: value = [%s];", strings.Join(vals, ", "))
		w.line("array[1..N] of var 0..1: x;")
		var sets []string
		for _, c := range iv.Cliques() {
			if len(c) > 1 {
				sets = append(sets, setOf(c, 1))
			}
		}
		if len(sets) > 0 {
			w.comment("at most one interval of each set of pairwise overlapping ones")
			w.setArray("cliques", sets)
			w.line("constraint forall(c in cliques)(sum(i in c)(x[i]) <= 1);")
		}
		w.line("var 0..%d: total = sum(i in 1..N)(value[i] * x[i]);", total)
		sense := w.solve(opt, "maximize", "total", "x")
		board := puzzle.BoardOf(spec)
		return &Model{Text: w.sb.String(), Sense: sense, Decode: func(vals []int64) (puzzle.Solution, error) {
			if err := wantLen(vals, n); err != nil {
				return puzzle.Solution{}, err
			}
			sol := puzzle.Solution{Board: board, Picks: []int{}}
			for i, v := range vals {
				if v != 0 && v != 1 {
					return puzzle.Solution{}, fmt.Errorf("x = %d, want 0 or 1", v)
				}
				if v == 1 {
					sol.Picks = append(sol.Picks, i)
				}
			}
			return sol, nil
		}}, nil
	})
}
