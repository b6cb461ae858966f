package mzn

import (
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// The knight's tour model (tour:WxH:START[:closed]), a successor model:
// succ[I] is the node after node I, nodes 1..W*H the squares (a1 = 1, b1
// = 2, ..., rank by rank). A square's successor is a knight move away
// (succ[I] in dom[I], puzzle.Board.KnightMoves) and the successors form
// one circuit (the circuit global). An open tour adds a depot, node
// W*H+1: every square may go to it (the tour's end), and it goes to the
// start (to any square for START *), so the circuit through the depot is
// the path. Satisfaction; an open tour is one solution (its direction is
// fixed by the depot), a closed tour two (a circuit and its reverse are
// one tour, counted once, as the published counts do).
func init() {
	builders.Add("tour", func(spec puzzle.Spec, opt Options) (*Model, error) {
		t := spec.(puzzle.Tour)
		b := t.Board
		n := b.Size()
		nodes := n
		if !t.Closed {
			nodes++
		}
		var w writer
		w.comment(spec.String()+" as a MiniZinc model, written by boardsat",
			"succ[I] follows node I; nodes 1..W*H are the squares (a1 = 1, b1 = 2, ..., rank by rank)")
		if !t.Closed {
			w.comment(fmt.Sprintf("node %d is the depot: the tour ends by going to it and starts where it goes", nodes))
		}
		w.line(`include "circuit.mzn";`)
		w.line("int: n = %d;", nodes)
		w.line("array[1..n] of var 1..n: succ;")
		var dom []string
		for s := range puzzle.Square(n) {
			next := b.KnightMoves(s)
			set := setOf(next, 1)
			if !t.Closed {
				set = setOf(append(next, puzzle.Square(n)), 1)
			}
			dom = append(dom, set)
		}
		if !t.Closed {
			if t.AllStarts {
				dom = append(dom, fmt.Sprintf("1..%d", n))
			} else {
				dom = append(dom, fmt.Sprintf("{%d}", t.Start+1))
			}
		}
		w.setArray("dom", dom)
		w.line("constraint forall(i in 1..n)(succ[i] in dom[i]);")
		w.line("constraint circuit(succ);")
		w.solve(opt, "", "", "succ")
		per := uint64(1)
		if t.Closed && n >= 3 {
			per = 2
		}
		return &Model{Text: w.sb.String(), PerSolution: per, Decode: func(vals []int64) (puzzle.Solution, error) {
			if err := wantLen(vals, nodes); err != nil {
				return puzzle.Solution{}, err
			}
			for _, v := range vals {
				if v < 1 || v > int64(nodes) {
					return puzzle.Solution{}, fmt.Errorf("successor %d is no node", v)
				}
			}
			start := int64(t.Start) + 1
			if !t.Closed {
				start = vals[nodes-1]
			}
			seq := []int64{}
			for v := start; len(seq) < n && (t.Closed || v != int64(nodes)); v = vals[v-1] {
				seq = append(seq, v)
			}
			return pathOf(b, seq, 1)
		}}, nil
	})
}
