package puzzle

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Rule restricts where a knight may land in a knight swap.
type Rule int8

// The swap rules.
const (
	// RuleNone: any empty square a knight's move away.
	RuleNone Rule = iota
	// RuleOwn: not a square from which the knight would attack a knight of
	// its own colour (the seed's rule).
	RuleOwn
	// RuleEnemy: not a square attacked by a knight of the other colour.
	RuleEnemy
)

var ruleNames = []string{"none", "own", "enemy"}

// String returns the rule's spec name.
func (r Rule) String() string { return ruleNames[r] }

// Turns says who may move when in a knight swap.
type Turns int8

// The turn orders.
const (
	// Alternate: white, black, white, ... (white moves first).
	Alternate Turns = iota
	// Free: any knight may move at any step.
	Free
)

var turnNames = []string{"alternate", "free"}

// String returns the turn order's spec name.
func (t Turns) String() string { return turnNames[t] }

// Swap is the knight swap: white knights on White and black knights on Black
// move, one knight per step, until white stands on TargetWhite and black on
// TargetBlack (by default the two sets exchanged). Squares are kept sorted.
type Swap struct {
	Board                    Board
	White, Black             []Square
	TargetWhite, TargetBlack []Square
	Rule                     Rule
	Turns                    Turns
}

// Puzzle returns "swap".
func (Swap) Puzzle() string { return "swap" }

// String returns the full canonical form,
// "swap:WxH:w=..:b=..[:tw=..:tb=..]:rule=..:turns=..", where the targets are
// written only when they differ from the exchanged sets.
func (s Swap) String() string {
	names := func(sq []Square) string {
		out := make([]string, len(sq))
		for i, q := range sq {
			out[i] = s.Board.Name(q)
		}
		return strings.Join(out, ",")
	}
	out := "swap:" + s.Board.String() + ":w=" + names(s.White) + ":b=" + names(s.Black)
	if !slices.Equal(s.TargetWhite, s.Black) || !slices.Equal(s.TargetBlack, s.White) {
		out += ":tw=" + names(s.TargetWhite) + ":tb=" + names(s.TargetBlack)
	}
	return out + ":rule=" + s.Rule.String() + ":turns=" + s.Turns.String()
}

func init() {
	Register(Descriptor{
		Name: "swap", Order: 40, Syntax: "swap:WxH[:w=..:b=..][:tw=..:tb=..][:rule=R][:turns=T]",
		Size:        SizeMeasure{"board squares", boardSquares},
		Parse:       parseSwap,
		Board:       func(s Spec) Board { return s.(Swap).Board },
		DefaultTask: Shortest,
		Shape:       PlanShape,
		Check:       func(s Spec, sol Solution) error { return checkPlan(s.(Swap), sol.Plan) },
		Extend: func(s Spec, sol Solution) error {
			_, err := replayPlan(s.(Swap), sol.Plan)
			return err
		},
		Shortest: func(s Spec) (int, bool) {
			n, ok := knownShortest[s.String()]
			return n, ok
		},
		Lengths: true,
		Probe:   "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free",
		// Swaps are not swept: their instances are not a simple ladder of sizes.
	})
}

// knownShortest maps canonical swap specs to published shortest plan lengths.
// A swap's count (the number of shortest plans) has no published values.
var knownShortest = map[string]int{
	// The seed's puzzle.
	"swap:4x3:w=a1,a2,a3:b=d1,d2,d3:rule=own:turns=alternate": 22,
	// Guarini's problem (1512): no landing rule, knights move in any order.
	"swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free": 16,
}

func parseSwap(rest string) (Spec, error) {
	f := strings.Split(rest, ":")
	b, err := parseBoard(f[0])
	if err != nil {
		return nil, err
	}
	s := Swap{Board: b, Rule: RuleOwn, Turns: Alternate}
	var haveTW, haveTB bool
	seen := map[string]bool{}
	for _, field := range f[1:] {
		key, val, ok := strings.Cut(field, "=")
		if !ok || seen[key] {
			return nil, fmt.Errorf("bad swap field %q: want w=, b=, tw=, tb=, rule= or turns=, each once", field)
		}
		seen[key] = true
		switch key {
		case "w", "b", "tw", "tb":
			sq, err := parseSquareSet(b, val)
			if err != nil {
				return nil, fmt.Errorf("bad swap %s= set: %w", key, err)
			}
			switch key {
			case "w":
				s.White = sq
			case "b":
				s.Black = sq
			case "tw":
				s.TargetWhite, haveTW = sq, true
			case "tb":
				s.TargetBlack, haveTB = sq, true
			}
		case "rule":
			i := slices.Index(ruleNames, val)
			if i < 0 {
				return nil, fmt.Errorf("unknown swap rule %q: want none, own or enemy", val)
			}
			s.Rule = Rule(i)
		case "turns":
			i := slices.Index(turnNames, val)
			if i < 0 {
				return nil, fmt.Errorf("unknown swap turns %q: want alternate or free", val)
			}
			s.Turns = Turns(i)
		default:
			return nil, fmt.Errorf("unknown swap field %q: want w=, b=, tw=, tb=, rule= or turns=", key)
		}
	}
	if !seen["w"] && !seen["b"] {
		// The seed's puzzle, generalised: white fills the first file and
		// black the last.
		if b.W < 2 {
			return nil, fmt.Errorf("swap:%s needs at least 2 files for the default knights", b)
		}
		for r := range b.H {
			s.White = append(s.White, b.Sq(0, r))
			s.Black = append(s.Black, b.Sq(b.W-1, r))
		}
	}
	if len(s.White) == 0 || len(s.Black) == 0 {
		return nil, errors.New("a swap names both w= and b= squares, or neither (the default knights)")
	}
	if haveTW != haveTB {
		return nil, errors.New("a swap names both tw= and tb= targets or neither")
	}
	if !haveTW {
		s.TargetWhite, s.TargetBlack = s.Black, s.White
	}
	if len(s.TargetWhite) != len(s.White) || len(s.TargetBlack) != len(s.Black) {
		return nil, fmt.Errorf("unequal targets: %d white knights for %d white targets, %d black for %d black targets",
			len(s.White), len(s.TargetWhite), len(s.Black), len(s.TargetBlack))
	}
	if overlap(s.White, s.Black) {
		return nil, errors.New("white and black knights overlap")
	}
	if overlap(s.TargetWhite, s.TargetBlack) {
		return nil, errors.New("white and black targets overlap")
	}
	return s, nil
}

func overlap(a, b []Square) bool {
	for _, q := range a {
		if slices.Contains(b, q) {
			return true
		}
	}
	return false
}

// colour of a knight on a square during replay.
const (
	empty = iota
	white
	black
)

func checkPlan(s Swap, plan []Move) error {
	cell, err := replayPlan(s, plan)
	if err != nil {
		return err
	}
	b := s.Board
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

// replayPlan plays plan from the start position, checking every move, and
// returns the board after it (empty, white or black on each square).
func replayPlan(s Swap, plan []Move) ([]int, error) {
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
			return nil, fmt.Errorf("move %d is off the board", i+1)
		}
		name := b.Name(m.From) + "-" + b.Name(m.To)
		c := cell[m.From]
		if c == empty {
			return nil, fmt.Errorf("move %d, %s: no knight on %s", i+1, name, b.Name(m.From))
		}
		if s.Turns == Alternate && c != white+i%2 {
			return nil, fmt.Errorf("move %d, %s: not that colour's turn", i+1, name)
		}
		if cell[m.To] != empty {
			return nil, fmt.Errorf("move %d, %s: %s is occupied", i+1, name, b.Name(m.To))
		}
		if !knightApart(b, m.From, m.To) {
			return nil, fmt.Errorf("move %d, %s: no knight move", i+1, name)
		}
		cell[m.From] = empty
		if err := landingAllowed(s, cell, m.To, c); err != nil {
			return nil, fmt.Errorf("move %d, %s: %w", i+1, name, err)
		}
		cell[m.To] = c
	}
	return cell, nil
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
