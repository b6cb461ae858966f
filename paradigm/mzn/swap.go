package mzn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/paradigm/models"
	"github.com/boardsat/boardsat/puzzle"
)

// The knight swap model (swap:...), a plan of exactly T moves (the
// horizon, Options.Steps; boardsat encode --steps T). c[t, S] is what
// square S (a1 = 0, rank by rank) holds after t moves: 0 empty, 1 white,
// 2 black; c[0, ..] is the start, c[T, ..] the targets. Move t goes from
// from[t] to to[t], a knight move (a table over puzzle.Board.KnightMoves):
// from[t] holds a knight (with turns=alternate, white's on odd t, black's
// on even), to[t] is empty, and c[t] is c[t-1] with the knight moved
// (frame axioms). The landing rule looks at the knights a knight move from
// to[t] after the move: rule=own, none of the mover's colour; rule=enemy,
// none of the other colour. Satisfaction: each solution is one plan of T
// moves; the shortest plan is the least T with a solution (the cp backend
// searches T upward), and --all-solutions at it counts the shortest plans.
func init() {
	builders.AddPlan("swap", func(spec puzzle.Spec, opt Options) (*Model, error) {
		sw, err := models.NewSwap(spec, opt.Steps, "the MiniZinc swap model")
		if err != nil {
			return nil, err
		}
		b := sw.Board
		n, T := b.Size(), sw.Steps
		var w writer
		w.comment(spec.String()+fmt.Sprintf(" as a MiniZinc model of a plan of %d moves, written by boardsat", T),
			"c[t,S] is square S (a1 = 0, b1 = 1, ..., rank by rank) after t moves: 0 empty, 1 white, 2 black",
			"move t goes from[t] -> to[t]")
		w.line(`include "table.mzn";`)
		w.line("int: S = %d;", n)
		w.line("int: T = %d;", T)
		w.line("array[0..S-1] of int: start = array1d(0..S-1, [%s]);", list(sw.Start))
		w.line("array[0..S-1] of int: goal = array1d(0..S-1, [%s]);", list(sw.Goal))
		near := make([]string, n)
		for s := range puzzle.Square(n) {
			near[s] = setOf(b.KnightMoves(s), 0)
		}
		w.moveTable(sw.Arcs)
		w.comment("near[S+1]: the squares a knight move from S")
		w.setArray("near", near)
		w.line("array[0..T, 0..S-1] of var 0..2: c;")
		w.line("array[1..T] of var 0..S-1: from;")
		w.line("array[1..T] of var 0..S-1: to;")
		w.line("constraint forall(s in 0..S-1)(c[0,s] = start[s] /\\ c[T,s] = goal[s]);")
		if len(sw.Arcs) == 0 {
			// MiniZinc aborts on a table constraint over an empty
			// table; with no knight move on the board no move exists.
			w.comment("no knight move on this board: no move t exists")
			w.line("constraint false;")
		} else {
			w.line("constraint forall(t in 1..T)(table([from[t], to[t]], moves));")
		}
		w.line("constraint forall(t in 1..T)(c[t-1, from[t]] != 0 /\\ c[t-1, to[t]] = 0);")
		w.line("constraint forall(t in 1..T, s in 0..S-1)(c[t,s] = if s = from[t] then 0 elseif s = to[t] then c[t-1, from[t]] else c[t-1, s] endif);")
		if sw.Turns == puzzle.Alternate {
			w.comment("turns=alternate: white moves first")
			w.line("constraint forall(t in 1..T)(c[t-1, from[t]] = 1 + (t - 1) mod 2);")
		}
		switch sw.Rule {
		case puzzle.RuleOwn:
			w.comment("rule=own: a knight lands attacking no knight of its own colour")
			w.line("constraint forall(t in 1..T, q in 0..S-1)(q in near[to[t]+1] -> c[t,q] != c[t, to[t]]);")
		case puzzle.RuleEnemy:
			w.comment("rule=enemy: a knight lands where no enemy knight attacks it")
			w.line("constraint forall(t in 1..T, q in 0..S-1)(q in near[to[t]+1] -> c[t,q] = 0 \\/ c[t,q] = c[t, to[t]]);")
		}
		w.line("solve satisfy;")
		w.line(`output ["%s", show([if i <= T then from[i] else to[i-T] endif | i in 1..2*T]), "\n"];`, SolutionPrefix)
		return &Model{Text: w.sb.String(), Decode: func(vals []int64) (puzzle.Solution, error) {
			if err := wantLen(vals, 2*T); err != nil {
				return puzzle.Solution{}, err
			}
			sol := puzzle.Solution{Board: b, Plan: make([]puzzle.Move, T)}
			for i := range T {
				f, t := puzzle.Square(vals[i]), puzzle.Square(vals[T+i])
				if !b.Valid(f) || !b.Valid(t) {
					return puzzle.Solution{}, fmt.Errorf("square number off the board in move %d", i+1)
				}
				sol.Plan[i] = puzzle.Move{From: f, To: t}
			}
			return sol, nil
		}}, nil
	})
}

// list returns the numbers separated by ", ".
func list(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}
