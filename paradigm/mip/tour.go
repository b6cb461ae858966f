package mip

import (
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// The knight's tour model (tour:WxH:START[:closed]), a flow model with
// Miller-Tucker-Zemlin subtour elimination. A binary a_SQ_SQ2 per knight
// move (puzzle.Board.KnightMoves), 1 when the tour goes from SQ to SQ2.
// An open tour adds a depot: arcs s_SQ from the depot to the start (to
// every square for START *) and e_SQ from every square back, and so
// becomes a circuit through the depot. Every square has one arc out and
// one arc in (rows out_SQ, in_SQ); the depot one of each too. An integer
// u_SQ from 1 to N (N squares) orders the squares: for a move SQ to SQ2
// not entering the root, u_SQ2 >= u_SQ + 1 - N (1 - a_SQ_SQ2) (rows
// mtz_SQ_SQ2), which forbids every circuit that avoids the root. The root
// is the depot for open tours (so no move enters it) and the start square
// for closed ones (a1 for START *). No objective.
func init() {
	builders.Add("tour", func(spec puzzle.Spec, _ Options) (*Model, error) {
		t := spec.(puzzle.Tour)
		b := t.Board
		n := b.Size()
		var p Program
		p.Comments = []string{spec.String() + ": a_SQ_SQ2 = 1 when the tour moves from SQ to SQ2; u_SQ orders the squares",
			"one move out of and one into every square, MTZ rows against subtours"}
		type arc struct{ from, to puzzle.Square }
		var arcs []arc
		var av []int
		outs := make([][]int, n)
		ins := make([][]int, n)
		for s := range puzzle.Square(n) {
			for _, d := range b.KnightMoves(s) {
				v := p.NewVar("a_"+b.Name(s)+"_"+b.Name(d), Binary, 0, 1)
				arcs, av = append(arcs, arc{s, d}), append(av, v)
				outs[s], ins[d] = append(outs[s], v), append(ins[d], v)
			}
		}
		root := t.Start
		depotOut := make([]int, n) // the depot's arc to each square, -1 if none
		if !t.Closed {
			root = -1
			var starts, ends []int
			for s := range puzzle.Square(n) {
				depotOut[s] = -1
				if t.AllStarts || s == t.Start {
					v := p.NewVar("s_"+b.Name(s), Binary, 0, 1)
					depotOut[s], starts = v, append(starts, v)
					ins[s] = append(ins[s], v)
				}
				v := p.NewVar("e_"+b.Name(s), Binary, 0, 1)
				ends, outs[s] = append(ends, v), append(outs[s], v)
			}
			p.AddRow("depot_out", starts, nil, EQ, 1)
			p.AddRow("depot_in", ends, nil, EQ, 1)
		}
		u := make([]int, n)
		for s := range puzzle.Square(n) {
			u[s] = p.NewVar("u_"+b.Name(s), Integer, 1, int64(n))
		}
		for s := range puzzle.Square(n) {
			p.AddRow("out_"+b.Name(s), outs[s], nil, EQ, 1)
			p.AddRow("in_"+b.Name(s), ins[s], nil, EQ, 1)
		}
		N := int64(n)
		for i, a := range arcs {
			if a.to == root {
				continue
			}
			p.AddRow(fmt.Sprintf("mtz_%s_%s", b.Name(a.from), b.Name(a.to)),
				[]int{u[a.to], u[a.from], av[i]}, []int64{1, -1, -N}, GE, 1-N)
		}
		return &Model{Program: p, Decode: func(val []int64) (puzzle.Solution, error) {
			next := make([]puzzle.Square, n)
			for s := range next {
				next[s] = -1
			}
			for i, a := range arcs {
				if val[av[i]] == 1 {
					if next[a.from] >= 0 {
						return puzzle.Solution{}, fmt.Errorf("two moves out of %s", b.Name(a.from))
					}
					next[a.from] = a.to
				}
			}
			start := root
			if !t.Closed {
				for s, v := range depotOut {
					if v >= 0 && val[v] == 1 {
						start = puzzle.Square(s)
					}
				}
				if start < 0 {
					return puzzle.Solution{}, fmt.Errorf("no arc leaves the depot")
				}
			}
			path := []puzzle.Square{start}
			for q := next[start]; q >= 0 && q != start && len(path) < n; q = next[q] {
				path = append(path, q)
			}
			return puzzle.Solution{Board: b, Path: path}, nil
		}}, nil
	})
}
