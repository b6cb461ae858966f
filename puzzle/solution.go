package puzzle

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Move is one knight move of a swap plan.
type Move struct {
	From, To Square
}

// Solution is one answer to an instance. Exactly one of its fields is set,
// by the puzzle: Layout for queens and pieces, Path for tours, Plan for swaps.
type Solution struct {
	// Board is the board the squares refer to.
	Board Board
	// Layout holds the piece on each square (NoPiece where empty), indexed by Square.
	Layout []Kind
	// Path lists the tour's squares in visiting order.
	Path []Square
	// Plan lists a swap's moves in order.
	Plan []Move
}

// PlacementOf returns a solution of a placement puzzle from the squares
// holding pieces and the kind on each (kinds[i] stands on squares[i]).
func PlacementOf(b Board, squares []Square, kinds []Kind) Solution {
	layout := make([]Kind, b.Size())
	for i := range layout {
		layout[i] = NoPiece
	}
	for i, s := range squares {
		layout[s] = kinds[i]
	}
	return Solution{Board: b, Layout: layout}
}

// Rows returns a placement as the seeds print it: one string per rank, the
// top rank (highest number) first, '.' for an empty square and the piece's
// letter otherwise.
func (s Solution) Rows() []string {
	rows := make([]string, s.Board.H)
	buf := make([]byte, s.Board.W)
	for r := range s.Board.H {
		for f := range s.Board.W {
			buf[f] = s.Layout[s.Board.Sq(f, r)].Letter()
		}
		rows[s.Board.H-1-r] = string(buf)
	}
	return rows
}

// Grid returns a tour as a grid of step numbers (1 for the start), one string
// per rank, top rank first, numbers right-aligned in columns of equal width.
func (s Solution) Grid() []string {
	step := make([]int, s.Board.Size())
	for i, q := range s.Path {
		step[q] = i + 1
	}
	width := len(strconv.Itoa(len(s.Path)))
	rows := make([]string, s.Board.H)
	var sb strings.Builder
	for r := range s.Board.H {
		sb.Reset()
		for f := range s.Board.W {
			if f > 0 {
				sb.WriteByte(' ')
			}
			n := step[s.Board.Sq(f, r)]
			cell := "."
			if n > 0 {
				cell = strconv.Itoa(n)
			}
			sb.WriteString(strings.Repeat(" ", width-len(cell)) + cell)
		}
		rows[s.Board.H-1-r] = sb.String()
	}
	return rows
}

// SquareNames returns the tour's squares by name, in visiting order.
func (s Solution) SquareNames() []string {
	out := make([]string, len(s.Path))
	for i, q := range s.Path {
		out[i] = s.Board.Name(q)
	}
	return out
}

// MoveNames returns a plan's moves as "a1-b3" strings, in order.
func (s Solution) MoveNames() []string {
	out := make([]string, len(s.Plan))
	for i, m := range s.Plan {
		out[i] = s.Board.Name(m.From) + "-" + s.Board.Name(m.To)
	}
	return out
}

// Text formats the solution as the seeds print it: a placement as its board
// rows, a tour as its numbered grid, a plan as its moves separated by spaces.
// Every form ends with a newline.
func (s Solution) Text() string {
	var lines []string
	switch {
	case s.Layout != nil:
		lines = s.Rows()
	case s.Path != nil:
		lines = s.Grid()
	default:
		lines = []string{strings.Join(s.MoveNames(), " ")}
	}
	return strings.Join(lines, "\n") + "\n"
}

// MarshalJSON writes a placement as {"rows": [...]}, a tour as
// {"path": ["a1", ...]} and a plan as {"moves": ["a1-b3", ...]}.
func (s Solution) MarshalJSON() ([]byte, error) {
	switch {
	case s.Layout != nil:
		return json.Marshal(map[string][]string{"rows": s.Rows()})
	case s.Path != nil:
		return json.Marshal(map[string][]string{"path": s.SquareNames()})
	default:
		return json.Marshal(map[string][]string{"moves": s.MoveNames()})
	}
}

// ParseSolution reads a solution in the text form Text writes, for the spec's
// board: board rows, a numbered grid, or a move list. It is how a solution
// from outside boardsat reaches the checker.
func ParseSolution(spec Spec, text string) (Solution, error) {
	b := BoardOf(spec)
	sol := Solution{Board: b}
	lines := strings.Fields(strings.TrimSpace(text))
	switch spec.(type) {
	case Queens, Pieces:
		if len(lines) != b.H {
			return sol, fmt.Errorf("want %d rows of %d squares, got %d rows", b.H, b.W, len(lines))
		}
		sol.Layout = make([]Kind, b.Size())
		for i, row := range lines {
			if len(row) != b.W {
				return sol, fmt.Errorf("row %d has %d squares, want %d", i+1, len(row), b.W)
			}
			for f := range b.W {
				k, ok := KindOf(row[f])
				if !ok && row[f] != '.' {
					return sol, fmt.Errorf("row %d: unknown piece %q", i+1, row[f])
				}
				sol.Layout[b.Sq(f, b.H-1-i)] = k
			}
		}
	case Tour:
		if len(lines) != b.Size() {
			return sol, fmt.Errorf("want %d step numbers, got %d", b.Size(), len(lines))
		}
		sol.Path = make([]Square, b.Size())
		seen := make([]bool, b.Size())
		for i, cell := range lines {
			n, err := strconv.Atoi(cell)
			if err != nil || n < 1 || n > b.Size() || seen[n-1] {
				return sol, fmt.Errorf("bad or repeated step number %q", cell)
			}
			seen[n-1] = true
			sol.Path[n-1] = b.Sq(i%b.W, b.H-1-i/b.W)
		}
	case Swap:
		sol.Plan = []Move{}
		for _, m := range lines {
			from, to, ok := strings.Cut(m, "-")
			if !ok {
				return sol, fmt.Errorf("bad move %q: want like a1-b3", m)
			}
			f, err1 := b.ParseSquare(from)
			t, err2 := b.ParseSquare(to)
			if err1 != nil || err2 != nil {
				return sol, fmt.Errorf("bad move %q: squares must be on the %s board", m, b)
			}
			sol.Plan = append(sol.Plan, Move{f, t})
		}
	}
	return sol, nil
}

// BoardOf returns the board an instance is played on.
func BoardOf(spec Spec) Board {
	switch s := spec.(type) {
	case Queens:
		return s.Board()
	case Pieces:
		return s.Board
	case Tour:
		return s.Board
	case Swap:
		return s.Board
	}
	return Board{}
}
