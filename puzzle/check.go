package puzzle

import (
	"errors"
	"fmt"
)

// This file is the independent checker. It decides from first principles,
// with its own coordinate arithmetic, whether a claimed solution solves an
// instance: it calls none of the attack or move tables the solvers use
// (Attacks, KnightMoves), so a bug there cannot hide here.

// Check reports why sol does not solve spec, or nil if it does. For a swap it
// checks that the plan replays legally and reaches the targets; that the plan
// is shortest is for the caller to compare.
func Check(spec Spec, sol Solution) error {
	if sol.Board != BoardOf(spec) {
		return fmt.Errorf("solution is for a %s board, instance is on %s", sol.Board, BoardOf(spec))
	}
	switch s := spec.(type) {
	case Queens:
		var want [NumKinds]int
		want[Queen] = s.N
		return checkPlacement(s.Board(), want, sol.Layout)
	case Pieces:
		return checkPlacement(s.Board, s.Count, sol.Layout)
	case Tour:
		return checkTour(s, sol.Path)
	case Swap:
		return checkPlan(s, sol.Plan)
	}
	return fmt.Errorf("no checker for %T", spec)
}

// threatens reports whether a piece of kind k at (f1, r1) threatens (f2, r2)
// on an empty board. When no piece may threaten another this equals the
// blocked chess rule: the first piece on a blocked line is itself threatened.
func threatens(k Kind, f1, r1, f2, r2 int) bool {
	df, dr := abs(f1-f2), abs(r1-r2)
	if df == 0 && dr == 0 {
		return false
	}
	line := df == 0 || dr == 0
	diag := df == dr
	switch k {
	case King:
		return df <= 1 && dr <= 1
	case Queen:
		return line || diag
	case Rook:
		return line
	case Bishop:
		return diag
	case Knight:
		return df*dr == 2
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func checkPlacement(b Board, want [NumKinds]int, layout []Kind) error {
	if len(layout) != b.W*b.H {
		return fmt.Errorf("layout has %d squares, board has %d", len(layout), b.W*b.H)
	}
	type placed struct {
		k    Kind
		f, r int
	}
	var ps []placed
	var got [NumKinds]int
	for i, k := range layout {
		if k == NoPiece {
			continue
		}
		if k < 0 || k >= NumKinds {
			return fmt.Errorf("square %d holds no known piece (%d)", i, k)
		}
		got[k]++
		ps = append(ps, placed{k, i % b.W, i / b.W})
	}
	if got != want {
		return fmt.Errorf("piece counts %v, want %v (order K, Q, B, R, N)", got, want)
	}
	for i, p := range ps {
		for _, q := range ps[i+1:] {
			if threatens(p.k, p.f, p.r, q.f, q.r) || threatens(q.k, q.f, q.r, p.f, p.r) {
				return fmt.Errorf("%c at %s and %c at %s threaten each other",
					p.k.Letter(), b.Name(b.Sq(p.f, p.r)), q.k.Letter(), b.Name(b.Sq(q.f, q.r)))
			}
		}
	}
	return nil
}

func checkTour(t Tour, path []Square) error {
	b := t.Board
	n := b.W * b.H
	if len(path) != n {
		return fmt.Errorf("tour visits %d squares, board has %d", len(path), n)
	}
	if !t.AllStarts && path[0] != t.Start {
		return fmt.Errorf("tour starts on %s, not %s", b.Name(path[0]), b.Name(t.Start))
	}
	seen := make([]bool, n)
	for i, s := range path {
		if s < 0 || int(s) >= n {
			return fmt.Errorf("step %d is off the board", i+1)
		}
		if seen[s] {
			return fmt.Errorf("square %s visited twice", b.Name(s))
		}
		seen[s] = true
		if i > 0 && !knightApart(b, path[i-1], s) {
			return fmt.Errorf("step %d, %s-%s, is no knight move", i+1, b.Name(path[i-1]), b.Name(s))
		}
	}
	if t.Closed && (n < 2 || !knightApart(b, path[n-1], path[0])) {
		return fmt.Errorf("tour is not closed: %s is no knight move from %s", b.Name(path[0]), b.Name(path[n-1]))
	}
	return nil
}

func knightApart(b Board, s, t Square) bool {
	df, dr := abs(int(s)%b.W-int(t)%b.W), abs(int(s)/b.W-int(t)/b.W)
	return df*dr == 2
}

// colour of a knight on a square during replay.
const (
	empty = iota
	white
	black
)

func checkPlan(s Swap, plan []Move) error {
	b := s.Board
	n := b.W * b.H
	cell := make([]int, n)
	for _, q := range s.White {
		cell[q] = white
	}
	for _, q := range s.Black {
		cell[q] = black
	}
	for i, m := range plan {
		if m.From < 0 || int(m.From) >= n || m.To < 0 || int(m.To) >= n {
			return fmt.Errorf("move %d is off the board", i+1)
		}
		name := b.Name(m.From) + "-" + b.Name(m.To)
		c := cell[m.From]
		if c == empty {
			return fmt.Errorf("move %d, %s: no knight on %s", i+1, name, b.Name(m.From))
		}
		if s.Turns == Alternate && c != white+i%2 {
			return fmt.Errorf("move %d, %s: not that colour's turn", i+1, name)
		}
		if cell[m.To] != empty {
			return fmt.Errorf("move %d, %s: %s is occupied", i+1, name, b.Name(m.To))
		}
		if !knightApart(b, m.From, m.To) {
			return fmt.Errorf("move %d, %s: no knight move", i+1, name)
		}
		cell[m.From] = empty
		if err := landingAllowed(s, cell, m.To, c); err != nil {
			return fmt.Errorf("move %d, %s: %w", i+1, name, err)
		}
		cell[m.To] = c
	}
	for _, q := range s.TargetWhite {
		if cell[q] != white {
			return fmt.Errorf("after the plan %s holds no white knight", b.Name(q))
		}
	}
	for _, q := range s.TargetBlack {
		if cell[q] != black {
			return fmt.Errorf("after the plan %s holds no black knight", b.Name(q))
		}
	}
	return nil
}

// landingAllowed applies the swap rule to a knight of colour c landing on to,
// with the board as it stands once the knight has left its square.
func landingAllowed(s Swap, cell []int, to Square, c int) error {
	if s.Rule == RuleNone {
		return nil
	}
	for q, other := range cell {
		if other == empty || !knightApart(s.Board, to, Square(q)) {
			continue
		}
		if s.Rule == RuleOwn && other == c {
			return errors.New("lands attacking a knight of its own colour")
		}
		if s.Rule == RuleEnemy && other != c {
			return errors.New("lands where an enemy knight attacks it")
		}
	}
	return nil
}
