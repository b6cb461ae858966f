package models

import (
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// Swap is a knight swap (swap:...) to be written as a plan of exactly
// Steps moves: the data the MiniZinc and the integer-programming plan
// models are both written from.
type Swap struct {
	puzzle.Swap
	// Steps is the horizon T, at least 1.
	Steps int
	// Start and Goal are what each square holds before the first move and
	// after the last: 0 empty, 1 a white knight, 2 a black one.
	Start, Goal []int
	// Arcs are the knight moves on the board, From square by square (a1
	// first, rank by rank) and To in puzzle.Board.KnightMoves order.
	Arcs []puzzle.Move
}

// NewSwap returns spec's plan data for a horizon of steps moves; model
// names the model in the error for a horizon below 1 ("the MiniZinc swap
// model").
func NewSwap(spec puzzle.Spec, steps int, model string) (*Swap, error) {
	if steps <= 0 {
		return nil, fmt.Errorf("%s is a plan of a fixed number of moves: give the horizon with --steps T (T >= 1)", model)
	}
	sw := &Swap{Swap: spec.(puzzle.Swap), Steps: steps}
	n := sw.Board.Size()
	sw.Start, sw.Goal = make([]int, n), make([]int, n)
	for _, q := range sw.White {
		sw.Start[q] = 1
	}
	for _, q := range sw.Black {
		sw.Start[q] = 2
	}
	for _, q := range sw.TargetWhite {
		sw.Goal[q] = 1
	}
	for _, q := range sw.TargetBlack {
		sw.Goal[q] = 2
	}
	for s := range puzzle.Square(n) {
		for _, d := range sw.Board.KnightMoves(s) {
			sw.Arcs = append(sw.Arcs, puzzle.Move{From: s, To: d})
		}
	}
	return sw, nil
}
