package puzzle

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Spec is one puzzle instance. Every spec has a canonical string form:
// Parse(s.String()) returns an equal spec, and String is what every CSV row
// and JSON answer records.
type Spec interface {
	// Puzzle names the puzzle: "queens", "pieces", "tour" or "swap".
	Puzzle() string
	// String returns the canonical spec string.
	String() string
}

// Puzzles lists the puzzle names Parse understands, in documentation order.
var Puzzles = []string{"queens", "pieces", "tour", "swap"}

// Queens is N-Queens: N queens on an N x N board, none attacking another.
type Queens struct {
	N int
}

// Puzzle returns "queens".
func (Queens) Puzzle() string { return "queens" }

// String returns "queens:N".
func (q Queens) String() string { return "queens:" + strconv.Itoa(q.N) }

// Board returns the N x N board.
func (q Queens) Board() Board { return Board{q.N, q.N} }

// Pieces is the non-attacking pieces puzzle: place Count[k] colourless pieces
// of each kind k on the board so that no piece threatens another.
type Pieces struct {
	Board Board
	Count [NumKinds]int
}

// Puzzle returns "pieces".
func (Pieces) Puzzle() string { return "pieces" }

// String returns "pieces:WxH:" followed by each present kind's letter and
// count in canonical order K, Q, B, R, N, such as "pieces:7x8:K3Q1B2R2N3".
func (p Pieces) String() string {
	var sb strings.Builder
	sb.WriteString("pieces:" + p.Board.String() + ":")
	for k, n := range p.Count {
		if n > 0 {
			sb.WriteByte(Kind(k).Letter())
			sb.WriteString(strconv.Itoa(n))
		}
	}
	return sb.String()
}

// Total returns the number of pieces to place.
func (p Pieces) Total() int {
	t := 0
	for _, n := range p.Count {
		t += n
	}
	return t
}

// Tour is the knight's tour: a knight starting on Start visits every square
// exactly once; if Closed, its last square is a knight's move from Start.
// AllStarts asks about tours from every start square (spec start "*").
type Tour struct {
	Board     Board
	Start     Square
	AllStarts bool
	Closed    bool
}

// Puzzle returns "tour".
func (Tour) Puzzle() string { return "tour" }

// String returns "tour:WxH:START", with ":closed" for closed tours.
func (t Tour) String() string {
	start := "*"
	if !t.AllStarts {
		start = t.Board.Name(t.Start)
	}
	s := "tour:" + t.Board.String() + ":" + start
	if t.Closed {
		s += ":closed"
	}
	return s
}

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

// Parse reads a spec string and validates it: the board, squares and pieces
// must make sense, and a placement must have room for its pieces. An error
// names exactly what is wrong.
func Parse(spec string) (Spec, error) {
	name, rest, _ := strings.Cut(spec, ":")
	switch name {
	case "queens":
		return parseQueens(rest)
	case "pieces":
		return parsePieces(rest)
	case "tour":
		return parseTour(rest)
	case "swap":
		return parseSwap(rest)
	case "":
		return nil, errors.New("empty spec: want PUZZLE:..., like queens:8")
	}
	return nil, fmt.Errorf("unknown puzzle %q in spec %q: want one of %s", name, spec, strings.Join(Puzzles, ", "))
}

// MustParse is Parse for specs known to be valid, such as literals in tests
// and built-in suites; it panics on error.
func MustParse(spec string) Spec {
	s, err := Parse(spec)
	if err != nil {
		panic(err)
	}
	return s
}

func parseQueens(rest string) (Spec, error) {
	n, err := parseSide(rest)
	if err != nil {
		return nil, fmt.Errorf("bad queens spec %q: want queens:N with N from 1 to %d", "queens:"+rest, MaxSide)
	}
	return Queens{n}, nil
}

func parsePieces(rest string) (Spec, error) {
	bs, ps, ok := strings.Cut(rest, ":")
	if !ok || strings.Contains(ps, ":") {
		return nil, fmt.Errorf("bad pieces spec %q: want pieces:WxH:COUNTS, like pieces:7x8:K3Q1B2R2N3", "pieces:"+rest)
	}
	b, err := parseBoard(bs)
	if err != nil {
		return nil, err
	}
	p := Pieces{Board: b}
	seen := [NumKinds]bool{}
	for i := 0; i < len(ps); {
		k, ok := KindOf(ps[i])
		if !ok {
			return nil, fmt.Errorf("unknown piece %q in %q: want K, Q, B, R or N, each followed by a count", ps[i:i+1], ps)
		}
		if seen[k] {
			return nil, fmt.Errorf("piece %c named twice in %q", ps[i], ps)
		}
		seen[k] = true
		j := i + 1
		for j < len(ps) && ps[j] >= '0' && ps[j] <= '9' {
			j++
		}
		n := 1
		if j > i+1 {
			if j-i-1 > 6 {
				return nil, fmt.Errorf("piece count %q too large", ps[i+1:j])
			}
			n, _ = strconv.Atoi(ps[i+1 : j])
		}
		p.Count[k] = n
		i = j
	}
	if p.Total() == 0 {
		return nil, fmt.Errorf("no pieces in %q: name at least one, like K1", "pieces:"+rest)
	}
	if p.Total() > b.Size() {
		return nil, fmt.Errorf("%d pieces cannot fit on the %s board (%d squares)", p.Total(), b, b.Size())
	}
	return p, nil
}

func parseTour(rest string) (Spec, error) {
	f := strings.Split(rest, ":")
	if len(f) < 2 || len(f) > 3 {
		return nil, fmt.Errorf("bad tour spec %q: want tour:WxH:START or tour:WxH:START:closed", "tour:"+rest)
	}
	b, err := parseBoard(f[0])
	if err != nil {
		return nil, err
	}
	t := Tour{Board: b}
	if f[1] == "*" {
		t.AllStarts = true
	} else if t.Start, err = b.ParseSquare(f[1]); err != nil {
		return nil, fmt.Errorf("bad tour start: %w", err)
	}
	if len(f) == 3 {
		switch f[2] {
		case "closed":
			t.Closed = true
		case "open":
		default:
			return nil, fmt.Errorf("bad tour kind %q: want open or closed", f[2])
		}
	}
	return t, nil
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

// parseSquareSet reads comma-separated squares, rejects repeats, and returns
// them sorted.
func parseSquareSet(b Board, val string) ([]Square, error) {
	if val == "" {
		return nil, errors.New("no squares")
	}
	var out []Square
	for _, name := range strings.Split(val, ",") {
		q, err := b.ParseSquare(name)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, q) {
			return nil, fmt.Errorf("square %s named twice", name)
		}
		out = append(out, q)
	}
	slices.Sort(out)
	return out, nil
}

func overlap(a, b []Square) bool {
	for _, q := range a {
		if slices.Contains(b, q) {
			return true
		}
	}
	return false
}
