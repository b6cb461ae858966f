package puzzle

import (
	"fmt"
	"strings"
)

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

func init() {
	Register(Descriptor{
		Name: "tour", Order: 30, Syntax: "tour:WxH:START[:closed]",
		Size:        SizeMeasure{"board squares", boardSquares},
		Parse:       parseTour,
		Board:       func(s Spec) Board { return s.(Tour).Board },
		DefaultTask: First,
		Shape:       PathShape,
		Check:       func(s Spec, sol Solution) error { return checkTour(s.(Tour), sol.Path) },
		Extend: func(s Spec, sol Solution) error {
			t := s.(Tour)
			return extendPath(t.Board, sol.Path, t.Start, !t.AllStarts, knightApart, "knight")
		},
		Count: knownTour,
		CountTheorem: func(s Spec, task Task) string {
			t := s.(Tour)
			if _, ok := knownTour(s, task); ok && t.Closed && closedTourTheorem(t.Board) != "" {
				return closedTourTheorem(t.Board)
			}
			return ""
		},
		Probe: "tour:5x5:a1",
		Sweep: &Sweep{Task: Count, Generate: genTours, Shrink: shrinkTour},
	})
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

// knownTours maps canonical tour specs to published counts: directed for
// open tours, undirected for closed tours (a closed tour is a cycle,
// counted once whatever its start and direction). Boards are keyed with
// the shorter side first; closed tours and open tours from all starts of
// the transposed board share the count. Sources (OEIS):
//   - A165134: open tours of n x n, directed, all starts;
//   - A169696: open tours of 3 x n, undirected (doubled below: directed,
//     A118067);
//   - A083386: open tours of 5 x n, undirected (doubled below: directed);
//     the values are the full 5 x m boards of A389755 (Hamiltonian paths
//     in the first n cells of a 5 x ceiling(n/5) board, Knuth), n = 5m;
//   - A001230: closed tours of n x n;
//   - A070030: closed tours of 3 x 2n; the values below are the full
//     3 x m boards of A383660 (closed tours in the first 2n cells of a
//     3 x ceiling(2n/3) board, Knuth), n = 3m/2; 3x6 and 3x8 have none
//     (Schwenk's theorem);
//   - A175855: closed tours of 5 x n; the values below are the full 5 x m
//     boards of A383661 (the same for 5 rows), n = 5m/2;
//   - A175881: closed tours of 6 x n;
//   - A193054: closed tours of 7 x 2n; A193055: closed tours of 8 x n.
var knownTours = map[string]uint64{
	"tour:5x5:*":  1728,
	"tour:5x5:a1": 304,
	"tour:5x5:e1": 304,
	"tour:5x5:a5": 304,
	"tour:5x5:e5": 304,
	"tour:6x6:*":  6637920,
	"tour:7x7:*":  165575218320,
	"tour:8x8:*":  19591828170979904,

	"tour:3x3:*":  0,
	"tour:3x4:*":  2 * 8,
	"tour:3x5:*":  0,
	"tour:3x6:*":  0,
	"tour:3x7:*":  2 * 52,
	"tour:3x8:*":  2 * 396,
	"tour:3x9:*":  2 * 560,
	"tour:3x10:*": 2 * 3048,
	"tour:3x11:*": 2 * 10672,
	"tour:3x12:*": 2 * 57248,
	"tour:3x13:*": 2 * 128864,
	"tour:3x14:*": 2 * 646272,
	"tour:3x15:*": 2 * 1838784,
	"tour:3x16:*": 2 * 8636880,
	"tour:3x17:*": 2 * 23400992,
	"tour:3x18:*": 2 * 105865688,
	"tour:3x19:*": 2 * 305753680,
	"tour:3x20:*": 2 * 1322849752,
	"tour:3x21:*": 2 * 3862974304,
	"tour:3x22:*": 2 * 16225820000,
	"tour:3x23:*": 2 * 48744080192,
	"tour:3x24:*": 2 * 198673312880,
	"tour:3x25:*": 2 * 607041217056,
	"tour:3x26:*": 2 * 2417584484232,
	"tour:3x27:*": 2 * 7519864632928,
	"tour:3x28:*": 2 * 29320809649000,
	"tour:3x29:*": 2 * 92507134938336,

	"tour:5x6:*": 2 * 18784,
	"tour:5x7:*": 2 * 622868,
	"tour:5x8:*": 2 * 18061054,
	"tour:5x9:*": 2 * 264895640,

	"tour:6x6:*:closed": 9862,
	"tour:8x8:*:closed": 13267364410532,

	"tour:3x6:*:closed":  0,
	"tour:3x8:*:closed":  0,
	"tour:3x10:*:closed": 16,
	"tour:3x12:*:closed": 176,
	"tour:3x14:*:closed": 1536,
	"tour:3x16:*:closed": 15424,
	"tour:3x18:*:closed": 147728,
	"tour:3x20:*:closed": 1448416,
	"tour:3x22:*:closed": 14060048,
	"tour:3x24:*:closed": 136947616,
	"tour:3x26:*:closed": 1332257856,
	"tour:3x28:*:closed": 12965578752,
	"tour:3x30:*:closed": 126169362176,

	"tour:5x6:*:closed":  8,
	"tour:5x8:*:closed":  44202,
	"tour:5x10:*:closed": 13311268,
	"tour:5x12:*:closed": 4557702762,
	"tour:5x14:*:closed": 1495135512514,

	"tour:6x7:*:closed":  1067638,
	"tour:6x8:*:closed":  55488142,
	"tour:6x9:*:closed":  3374967940,
	"tour:6x10:*:closed": 239187240144,
	"tour:6x11:*:closed": 15360134570696,
	"tour:6x12:*:closed": 964730606632516,

	"tour:7x8:*:closed":  34524432316,
	"tour:7x10:*:closed": 1250063279938854,
	"tour:8x9:*:closed":  7112881119092574,
}

// knownTour returns the published count of a tour spec. Closed tours count
// undirected cycles, so every start of a board shares the board's count; no
// closed tour exists when both sides are odd, nor on a board with a side of
// 4 (a 1x1 board has no closed tour by convention).
func knownTour(spec Spec, task Task) (uint64, bool) {
	s := spec.(Tour)
	if task != Count {
		return 0, false
	}
	if s.Closed {
		if closedTourTheorem(s.Board) != "" {
			return 0, true
		}
		s.AllStarts, s.Start = true, 0
	}
	if s.AllStarts && s.Board.W > s.Board.H {
		s.Board.W, s.Board.H = s.Board.H, s.Board.W
	}
	n, ok := knownTours[s.String()]
	return n, ok
}

// closedTourTheorem names the theorem by which board b has no closed tour,
// for the published-value table: both sides odd (a closed tour alternates
// colours, so it needs as many squares of each), or a side of 4 (Schwenk).
// "" when neither applies.
func closedTourTheorem(b Board) string {
	switch {
	case b.W%2 == 1 && b.H%2 == 1:
		return "colour count: no closed tour when both sides are odd"
	case b.W == 4 || b.H == 4:
		return "Schwenk: no closed tour on a board with a side of 4"
	}
	return ""
}

// checkTour checks a knight's tour with the checker's own geometry.
func checkTour(t Tour, path []Square) error {
	b := t.Board
	n := b.W * b.H
	if len(path) != n {
		return fmt.Errorf("tour visits %d squares, board has %d", len(path), n)
	}
	if !t.AllStarts && path[0] != t.Start {
		return fmt.Errorf("tour starts on %s, not %s", b.Name(path[0]), b.Name(t.Start))
	}
	if err := checkSimplePath(b, path, knightApart, "knight"); err != nil {
		return err
	}
	if t.Closed && (n < 2 || !knightApart(b, path[n-1], path[0])) {
		return fmt.Errorf("tour is not closed: %s is no knight move from %s", b.Name(path[0]), b.Name(path[n-1]))
	}
	return nil
}

// genTours sweeps open tours from a1 on every board up to MaxSide.
func genTours(lim Limits) []Spec {
	var out []Spec
	for _, b := range sweepBoards(lim.MaxSide) {
		out = append(out, Tour{Board: b, Start: 0})
	}
	return out
}

func shrinkTour(s Spec) []Spec {
	t := s.(Tour)
	var out []Spec
	for _, b := range shrunkBoards(t.Board) {
		n := t
		n.Board, n.Start = b, moveSquare(t.Board, b, t.Start)
		out = append(out, n)
	}
	return out
}
