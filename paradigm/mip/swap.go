package mip

import (
	"fmt"

	"github.com/boardsat/boardsat/paradigm/models"
	"github.com/boardsat/boardsat/puzzle"
)

// The knight swap model (swap:...), a time-indexed plan of exactly T moves
// (the horizon, Options.Steps). Binaries w_t_SQ and b_t_SQ say a white or
// black knight stands on SQ after t moves (t = 0 the start, fixed; t = T
// the targets, fixed); mw_t_SQ_SQ2 and mb_t_SQ_SQ2 say move t takes a
// white or black knight from SQ to SQ2, a knight move
// (puzzle.Board.KnightMoves). Exactly one move per step (rows one_t; with
// turns=alternate only white moves on odd t and black on even); a move
// leaves an occupied square for an empty one (rows from_..., to_...);
// occupancy flows (rows fw_t_SQ, fb_t_SQ: after = before - moves out +
// moves in), and a square holds at most one knight (rows sq_t_SQ). The
// landing rule: rule=own forbids a move to SQ2 together with a knight of
// the mover's colour a knight move from SQ2 after it; rule=enemy, one of
// the other colour (rows own_/enemy_). No objective: a feasible point is
// a plan of T moves; the mip backend searches T upward for the shortest.
func init() {
	builders.AddPlan("swap", swapModel)
}

// swapLetter names the colours in variable and row names.
var swapLetter = [2]string{"w", "b"}

// swapModel builds the swap integer program (see above).
func swapModel(spec puzzle.Spec, opt Options) (*Model, error) {
	sw, err := models.NewSwap(spec, opt.Steps, "the swap integer program")
	if err != nil {
		return nil, err
	}
	b, arcs := sw.Board, sw.Arcs
	T := sw.Steps
	var p Program
	p.Comments = []string{fmt.Sprintf("%s as a plan of %d moves: w_t_SQ, b_t_SQ occupancy after t moves; mw_t_SQ_SQ2, mb_t_SQ_SQ2 move t", spec, T)}
	occ := swapOccupancy(&p, sw)
	mv := swapMoveVars(&p, sw)
	for t := 1; t <= T; t++ {
		swapStepRows(&p, sw, occ, mv, t)
	}
	return &Model{Program: p, Decode: func(val []int64) (puzzle.Solution, error) {
		sol := puzzle.Solution{Board: b, Plan: make([]puzzle.Move, T)}
		for t := 1; t <= T; t++ {
			found := 0
			for c := range 2 {
				for i, a := range arcs {
					if v := mv[c][t-1][i]; v >= 0 && val[v] == 1 {
						sol.Plan[t-1] = a
						found++
					}
				}
			}
			if found != 1 {
				return puzzle.Solution{}, fmt.Errorf("%d moves at step %d", found, t)
			}
		}
		return sol, nil
	}}, nil
}

// swapOccupancy makes the occupancy variables occ[c][t][s], colour c (0
// white, 1 black) on s after t moves, with the start fixed at t = 0 and
// the targets at t = T.
func swapOccupancy(p *Program, sw *models.Swap) [2][][]int {
	b, T := sw.Board, sw.Steps
	n := b.Size()
	var occ [2][][]int
	for c := range 2 {
		occ[c] = make([][]int, T+1)
		for t := range T + 1 {
			occ[c][t] = make([]int, n)
			for s := range puzzle.Square(n) {
				occ[c][t][s] = p.NewVar(fmt.Sprintf("%s_%d_%s", swapLetter[c], t, b.Name(s)), Binary, 0, 1)
			}
		}
		for _, fix := range []struct {
			t    int
			cell []int
		}{{0, sw.Start}, {T, sw.Goal}} {
			for s := range puzzle.Square(n) {
				v := int64(0)
				if fix.cell[s] == c+1 {
					v = 1
				}
				p.AddRow(fmt.Sprintf("fix_%s_%d_%s", swapLetter[c], fix.t, b.Name(s)), []int{occ[c][fix.t][s]}, nil, EQ, v)
			}
		}
	}
	return occ
}

// swapMoveVars makes the move variables mv[c][t-1][i], colour c makes move
// t along arcs[i] (-1: not allowed).
func swapMoveVars(p *Program, sw *models.Swap) [2][][]int {
	b, T := sw.Board, sw.Steps
	var mv [2][][]int
	for c := range 2 {
		mv[c] = make([][]int, T)
		for t := 1; t <= T; t++ {
			mv[c][t-1] = make([]int, len(sw.Arcs))
			for i, a := range sw.Arcs {
				mv[c][t-1][i] = -1
				if sw.Turns == puzzle.Alternate && (t-1)%2 != c {
					continue
				}
				mv[c][t-1][i] = p.NewVar(fmt.Sprintf("m%s_%d_%s_%s", swapLetter[c], t, b.Name(a.From), b.Name(a.To)), Binary, 0, 1)
			}
		}
	}
	return mv
}

// swapStepRows adds the rows of move t: its move's conditions and the
// landing rule, one move, at most one knight a square, and the flows.
func swapStepRows(p *Program, sw *models.Swap, occ, mv [2][][]int, t int) {
	b, arcs, letter := sw.Board, sw.Arcs, swapLetter
	n := b.Size()
	var all []int
	for c := range 2 {
		for i, a := range arcs {
			v := mv[c][t-1][i]
			if v < 0 {
				continue
			}
			all = append(all, v)
			tag := fmt.Sprintf("%s_%d_%s_%s", letter[c], t, b.Name(a.From), b.Name(a.To))
			p.AddRow("from_"+tag, []int{v, occ[c][t-1][a.From]}, []int64{1, -1}, LE, 0)
			p.AddRow("to_"+tag, []int{v, occ[0][t-1][a.To], occ[1][t-1][a.To]}, nil, LE, 1)
			// The landing rule, on the board after the move.
			for _, q := range b.KnightMoves(a.To) {
				switch sw.Rule {
				case puzzle.RuleOwn:
					p.AddRow(fmt.Sprintf("own_%s_%s", tag, b.Name(q)), []int{v, occ[c][t][q]}, nil, LE, 1)
				case puzzle.RuleEnemy:
					p.AddRow(fmt.Sprintf("enemy_%s_%s", tag, b.Name(q)), []int{v, occ[1-c][t][q]}, nil, LE, 1)
				}
			}
		}
	}
	p.AddRow(fmt.Sprintf("one_%d", t), all, nil, EQ, 1)
	for s := range puzzle.Square(n) {
		p.AddRow(fmt.Sprintf("sq_%d_%s", t, b.Name(s)), []int{occ[0][t][s], occ[1][t][s]}, nil, LE, 1)
		for c := range 2 {
			vars := []int{occ[c][t][s], occ[c][t-1][s]}
			coefs := []int64{1, -1}
			for i, a := range arcs {
				if v := mv[c][t-1][i]; v >= 0 && (a.From == s || a.To == s) {
					vars = append(vars, v)
					if a.From == s {
						coefs = append(coefs, 1)
					} else {
						coefs = append(coefs, -1)
					}
				}
			}
			p.AddRow(fmt.Sprintf("f%s_%d_%s", letter[c], t, b.Name(s)), vars, coefs, EQ, 0)
		}
	}
}
