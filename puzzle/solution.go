package puzzle

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Move is one knight move of a swap plan.
type Move struct {
	From, To Square
}

// Solution is one answer to an instance. Exactly one of its fields is set,
// by the puzzle's Shape: Layout for placements (queens, pieces), Path for
// paths (tours, king paths), Plan for plans (swaps), Game for game records
// (m,n,k games), Picks for selections (intervals).
type Solution struct {
	// Board is the board the squares refer to.
	Board Board
	// Layout holds the piece on each square (NoPiece where empty), indexed by Square.
	Layout []Kind
	// Path lists a path's squares in visiting order.
	Path []Square
	// Plan lists a swap's moves in order.
	Plan []Move
	// Game lists the squares of a game record in the order they were
	// played, the side to move first (m,n,k games: X and O alternate).
	Game []Square
	// Picks lists the chosen items of a selection (intervals, by index in
	// input order, from 0), in increasing order; non-nil, possibly empty.
	Picks []int
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

// PickNames returns a selection's indices in decimal, in order.
func (s Solution) PickNames() []string {
	out := make([]string, len(s.Picks))
	for i, p := range s.Picks {
		out[i] = strconv.Itoa(p)
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

// Shape is one form of solution, shared by the puzzles whose solutions
// look alike: its text form, its JSON form and the way back from each. A
// puzzle's descriptor names its shape.
type Shape struct {
	// Key is the JSON object's one key: "rows", "path" or "moves".
	Key string
	// Lines returns the text form, one string per line.
	Lines func(Solution) []string
	// Words returns the JSON form, the list under Key.
	Words func(Solution) []string
	// ParseText reads the text form back (lines or fields of text).
	ParseText func(b Board, text string) (Solution, error)
	// ParseWords reads the JSON form back.
	ParseWords func(b Board, words []string) (Solution, error)
}

// The solution shapes.
var (
	// PlacementShape: pieces on squares, printed as board rows (queens, pieces).
	PlacementShape = &Shape{Key: "rows", Lines: Solution.Rows, Words: Solution.Rows,
		ParseText:  func(b Board, text string) (Solution, error) { return parseRows(b, strings.Fields(text)) },
		ParseWords: parseRows}
	// PathShape: squares in visiting order, printed as a grid of step
	// numbers (tours, king paths); JSON lists the square names.
	PathShape = &Shape{Key: "path", Lines: Solution.Grid, Words: Solution.SquareNames,
		ParseText: parseGrid, ParseWords: parseSquareNames}
	// PlanShape: moves in order, printed as "a1-b3" words (swaps).
	PlanShape = &Shape{Key: "moves", Lines: func(s Solution) []string { return []string{strings.Join(s.MoveNames(), " ")} },
		Words:      Solution.MoveNames,
		ParseText:  func(b Board, text string) (Solution, error) { return parseMoves(b, strings.Fields(text)) },
		ParseWords: parseMoves}
	// GameShape: a game record, the squares played in order, printed as
	// square names separated by spaces on one line (m,n,k games); JSON
	// lists the names under "game".
	GameShape = &Shape{Key: "game", Lines: func(s Solution) []string { return []string{strings.Join(s.GameNames(), " ")} },
		Words:      Solution.GameNames,
		ParseText:  func(b Board, text string) (Solution, error) { return parseGame(b, strings.Fields(text)) },
		ParseWords: parseGame}
	// PicksShape: chosen items by index, from 0, printed on one line
	// separated by spaces ("-" for none) (intervals, whose board is N x 1:
	// one cell per item); JSON lists the indices as strings.
	PicksShape = &Shape{Key: "picks", Lines: func(s Solution) []string {
		if len(s.Picks) == 0 {
			return []string{"-"}
		}
		return []string{strings.Join(s.PickNames(), " ")}
	},
		Words: Solution.PickNames,
		ParseText: func(b Board, text string) (Solution, error) {
			f := strings.Fields(text)
			if len(f) == 1 && f[0] == "-" {
				f = nil
			}
			return parsePicks(b, f)
		},
		ParseWords: parsePicks}
)

// GameNames returns a game record's squares by name, in the order played.
func (s Solution) GameNames() []string {
	out := make([]string, len(s.Game))
	for i, q := range s.Game {
		out[i] = s.Board.Name(q)
	}
	return out
}

// parseGame reads a game record as square names in the order played.
func parseGame(b Board, words []string) (Solution, error) {
	sol := Solution{Board: b, Game: []Square{}}
	for _, name := range words {
		q, err := b.ParseSquare(name)
		if err != nil {
			return sol, fmt.Errorf("bad game move: %w", err)
		}
		sol.Game = append(sol.Game, q)
	}
	return sol, nil
}

// shape returns the shape of a solution, by the field it holds.
func (s Solution) shape() *Shape {
	switch {
	case s.Layout != nil:
		return PlacementShape
	case s.Path != nil:
		return PathShape
	case s.Game != nil:
		return GameShape
	case s.Picks != nil:
		return PicksShape
	}
	return PlanShape
}

// Text formats the solution as the seeds print it: a placement as its board
// rows, a path as its numbered grid, a plan as its moves separated by spaces.
// Every form ends with a newline.
func (s Solution) Text() string {
	return strings.Join(s.shape().Lines(s), "\n") + "\n"
}

// MarshalJSON writes a placement as {"rows": [...]}, a path as
// {"path": ["a1", ...]} and a plan as {"moves": ["a1-b3", ...]}.
func (s Solution) MarshalJSON() ([]byte, error) {
	sh := s.shape()
	return json.Marshal(map[string][]string{sh.Key: sh.Words(s)})
}

// parseRows reads board rows, top rank first, '.' for an empty square.
func parseRows(b Board, lines []string) (Solution, error) {
	sol := Solution{Board: b}
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
	return sol, nil
}

// parseGrid reads a grid of step numbers, top rank first, '.' for a square
// the path does not visit; the numbers must run from 1 without a gap.
func parseGrid(b Board, text string) (Solution, error) {
	sol := Solution{Board: b}
	cells := strings.Fields(strings.TrimSpace(text))
	if len(cells) != b.Size() {
		return sol, fmt.Errorf("want %d cells (step numbers or .), got %d", b.Size(), len(cells))
	}
	at := make([]Square, b.Size())
	seen := make([]bool, b.Size())
	steps := 0
	for i, cell := range cells {
		if cell == "." {
			continue
		}
		n, err := strconv.Atoi(cell)
		if err != nil || n < 1 || n > b.Size() || seen[n-1] {
			return sol, fmt.Errorf("bad or repeated step number %q", cell)
		}
		seen[n-1] = true
		at[n-1] = b.Sq(i%b.W, b.H-1-i/b.W)
		steps++
	}
	if slices.Contains(seen[:steps], false) {
		return sol, fmt.Errorf("step numbers do not run from 1 to %d without a gap", steps)
	}
	sol.Path = at[:steps:steps]
	return sol, nil
}

// parseSquareNames reads a path as square names in visiting order.
func parseSquareNames(b Board, words []string) (Solution, error) {
	sol := Solution{Board: b, Path: []Square{}}
	for _, name := range words {
		q, err := b.ParseSquare(name)
		if err != nil {
			return sol, err
		}
		sol.Path = append(sol.Path, q)
	}
	return sol, nil
}

// parseMoves reads a plan as "a1-b3" moves in order.
func parseMoves(b Board, words []string) (Solution, error) {
	sol := Solution{Board: b, Plan: []Move{}}
	for _, m := range words {
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
	return sol, nil
}

// parsePicks reads a selection as item indices, each a cell of the N x 1
// board b (0..N-1).
func parsePicks(b Board, words []string) (Solution, error) {
	sol := Solution{Board: b, Picks: []int{}}
	for _, w := range words {
		p, err := strconv.Atoi(w)
		if err != nil || p < 0 || p >= b.Size() || (w[0] == '0' && w != "0") {
			return sol, fmt.Errorf("bad pick %q: want an index from 0 to %d", w, b.Size()-1)
		}
		sol.Picks = append(sol.Picks, p)
	}
	return sol, nil
}
