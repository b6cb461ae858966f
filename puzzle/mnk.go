package puzzle

import (
	"fmt"
	"strconv"
	"strings"
)

// MNK is an m,n,k game (tic-tac-toe is mnk:3x3:3): two players, X and O,
// take turns putting a stone of their own on an empty square of a W x H
// board; the first to have K stones in a row (along a rank, a file or a
// diagonal) wins, and a full board without such a row is a draw. X moves
// first from the empty board. Pos, if set, is the position play starts
// from: W*H cells, the top rank first and each rank from file a, 'X', 'O'
// or '.'; the side to move follows from the counts (X when they are equal,
// O when X has one stone more). Moves, if not 0, restricts the games to
// those of exactly Moves moves. Positions makes the count task count
// positions instead of games (see MNK.String).
type MNK struct {
	Board Board
	K     int
	// Pos is the start position ("" for the empty board), in canonical
	// form: W*H characters from "XO.", top rank first.
	Pos string
	// Moves is the exact length of the games asked about (0: any length).
	Moves int
	// Positions: task count counts positions, not games.
	Positions bool
}

// MNKMaxSquares bounds the board of an m,n,k game: 64 squares, one bit
// each in a machine word. Larger boards are far past what any backend
// here can solve.
const MNKMaxSquares = 64

// Puzzle returns "mnk".
func (MNK) Puzzle() string { return "mnk" }

// String returns "mnk:WxH:K", then ":pos=CELLS" for a start position other
// than the empty board, ":moves=L" for games of exactly L moves, and
// ":positions" when the count is of positions.
func (m MNK) String() string {
	s := "mnk:" + m.Board.String() + ":" + strconv.Itoa(m.K)
	if m.Pos != "" {
		s += ":pos=" + m.Pos
	}
	if m.Moves > 0 {
		s += ":moves=" + strconv.Itoa(m.Moves)
	}
	if m.Positions {
		s += ":positions"
	}
	return s
}

// The stones of an m,n,k position, as Cells returns them.
const (
	MNKEmpty byte = '.'
	MNKX     byte = 'X'
	MNKO     byte = 'O'
)

// Cells returns the start position indexed by Square (a1 first), MNKEmpty,
// MNKX or MNKO in each.
func (m MNK) Cells() []byte {
	n := m.Board.Size()
	cells := make([]byte, n)
	for i := range cells {
		cells[i] = MNKEmpty
	}
	if m.Pos == "" {
		return cells
	}
	for i := range n {
		cells[m.Board.Sq(i%m.Board.W, m.Board.H-1-i/m.Board.W)] = m.Pos[i]
	}
	return cells
}

// ToMove returns the side to move in the start position, MNKX or MNKO.
func (m MNK) ToMove() byte {
	x, o := mnkCounts(m.Pos)
	if x > o {
		return MNKO
	}
	return MNKX
}

// EmptySquares returns the number of empty squares of the start position:
// the longest a game from it can last.
func (m MNK) EmptySquares() int {
	x, o := mnkCounts(m.Pos)
	return m.Board.Size() - x - o
}

func mnkCounts(pos string) (x, o int) {
	return strings.Count(pos, "X"), strings.Count(pos, "O")
}

func init() {
	Register(Descriptor{
		Name: "mnk", Order: 80, Syntax: "mnk:WxH:K[:pos=CELLS][:moves=L][:positions]",
		Size:        SizeMeasure{"board squares", boardSquares},
		Parse:       parseMNK,
		Board:       func(s Spec) Board { return s.(MNK).Board },
		DefaultTask: Count,
		Shape:       GameShape,
		Check:       func(s Spec, sol Solution) error { return checkMNK(s.(MNK), sol.Game) },
		Extend:      func(s Spec, sol Solution) error { return extendMNK(s.(MNK), sol.Game) },
		Count:       knownMNK,
		GameValue:   knownMNKValue,
		Probe:       "mnk:2x2:2",
		Sweep:       &Sweep{Task: Count, Generate: genMNK, Shrink: shrinkMNK},
	})
}

func parseMNK(rest string) (Spec, error) {
	f := strings.Split(rest, ":")
	if len(f) < 2 {
		return nil, fmt.Errorf("bad mnk spec %q: want mnk:WxH:K[:pos=CELLS][:moves=L][:positions], like mnk:3x3:3", "mnk:"+rest)
	}
	b, err := parseBoard(f[0])
	if err != nil {
		return nil, err
	}
	if b.Size() > MNKMaxSquares {
		return nil, fmt.Errorf("bad mnk board %s: at most %d squares (it has %d)", b, MNKMaxSquares, b.Size())
	}
	m := MNK{Board: b}
	if m.K, err = parseInt(f[1], 1, max(b.W, b.H)); err != nil {
		return nil, fmt.Errorf("bad mnk K %q: want the stones in a row that win, from 1 to %d (the longer side of %s; %v)", f[1], max(b.W, b.H), b, err)
	}
	seen := map[string]bool{}
	for _, opt := range f[2:] {
		key, val, hasVal := strings.Cut(opt, "=")
		if seen[key] {
			return nil, fmt.Errorf("bad mnk spec: option %q given twice", key)
		}
		seen[key] = true
		switch {
		case key == "pos" && hasVal:
			if m.Pos, err = parseMNKPos(b, m.K, val); err != nil {
				return nil, err
			}
		case key == "moves" && hasVal:
			if m.Moves, err = parseInt(val, 1, MNKMaxSquares); err != nil {
				return nil, fmt.Errorf("bad mnk moves %q: want a whole number of moves from 1 (%v)", val, err)
			}
		case key == "positions" && !hasVal:
			m.Positions = true
		default:
			return nil, fmt.Errorf("bad mnk option %q: want pos=CELLS, moves=L or positions", opt)
		}
	}
	if e := m.EmptySquares(); m.Moves > e {
		return nil, fmt.Errorf("bad mnk moves %d: the position has %d empty squares, so a game lasts at most %d moves", m.Moves, e, e)
	}
	return m, nil
}

// parseMNKPos validates a start position: the right length, only X, O and
// '.', X having as many stones as O or one more, no K in a row for either
// side (play would be over) and an empty square left. The empty board is
// returned as "" (its canonical form).
func parseMNKPos(b Board, k int, pos string) (string, error) {
	if len(pos) != b.Size() {
		return "", fmt.Errorf("bad mnk pos %q: want %d cells (X, O or .), the top rank first, got %d", pos, b.Size(), len(pos))
	}
	if i := strings.IndexFunc(pos, func(r rune) bool { return r != 'X' && r != 'O' && r != '.' }); i >= 0 {
		return "", fmt.Errorf("bad mnk pos %q: cell %d is %q; want X, O or .", pos, i+1, pos[i])
	}
	x, o := mnkCounts(pos)
	if x != o && x != o+1 {
		return "", fmt.Errorf("bad mnk pos %q: %d X and %d O cannot arise (X moves first: X has as many stones as O or one more)", pos, x, o)
	}
	m := MNK{Board: b, K: k, Pos: pos}
	cells := m.Cells()
	for _, side := range []byte{MNKX, MNKO} {
		if q, ok := mnkAnyRow(b, k, cells, side); ok {
			return "", fmt.Errorf("bad mnk pos %q: %c already has %d in a row through %s, so play is over", pos, side, k, b.Name(q))
		}
	}
	if x+o == b.Size() {
		return "", fmt.Errorf("bad mnk pos %q: the board is full, so play is over", pos)
	}
	if x+o == 0 {
		return "", nil
	}
	return pos, nil
}

// mnkDirs are the four directions of a row: along a rank, along a file and
// the two diagonals.
var mnkDirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// mnkRowThrough reports whether side has k stones in a row through square
// q: the checker's own line geometry.
func mnkRowThrough(b Board, k int, cells []byte, side byte, q Square) bool {
	f0, r0 := b.FileRank(q)
	for _, d := range mnkDirs {
		run := 1
		for _, sign := range []int{1, -1} {
			f, r := f0+sign*d[0], r0+sign*d[1]
			for b.On(f, r) && cells[b.Sq(f, r)] == side {
				run++
				f, r = f+sign*d[0], r+sign*d[1]
			}
		}
		if run >= k {
			return true
		}
	}
	return false
}

// mnkAnyRow returns a square of a row of k stones of side, if there is one.
func mnkAnyRow(b Board, k int, cells []byte, side byte) (Square, bool) {
	for q := range b.Size() {
		if cells[q] == side && mnkRowThrough(b, k, cells, side, Square(q)) {
			return Square(q), true
		}
	}
	return 0, false
}

// replayMNK plays a game record from the start position, checking every
// move: on the board, on an empty square, and not after the game ended.
// It returns the final cells and whether the game is over (a win or a full
// board) and who won (0 for no one).
func replayMNK(m MNK, game []Square) (cells []byte, over bool, winner byte, err error) {
	b := m.Board
	cells = m.Cells()
	side := m.ToMove()
	empty := m.EmptySquares()
	for i, q := range game {
		switch {
		case over:
			return nil, false, 0, mnkMoveError{b, i, q, "comes after the game ended"}
		case !b.Valid(q):
			return nil, false, 0, mnkMoveError{b, i, q, "is off the board"}
		case cells[q] != MNKEmpty:
			return nil, false, 0, mnkMoveError{b, i, q, "is on an occupied square"}
		}
		cells[q] = side
		empty--
		if mnkRowThrough(b, m.K, cells, side, q) {
			over, winner = true, side
		} else if empty == 0 {
			over = true
		}
		side = MNKX + MNKO - side
	}
	return cells, over, winner, nil
}

// mnkMoveError is the checker's error for an illegal move of a game
// record, formatted only when read (brute force meets millions of them).
type mnkMoveError struct {
	b    Board
	i    int
	q    Square
	what string
}

func (e mnkMoveError) Error() string {
	if !e.b.Valid(e.q) {
		return fmt.Sprintf("move %d is off the %s board", e.i+1, e.b)
	}
	return fmt.Sprintf("move %d (%s) %s", e.i+1, e.b.Name(e.q), e.what)
}

// checkMNK checks a game record with the checker's own rules: every move
// legal, the game over exactly at its last move (a win or a full board),
// and of exactly m.Moves moves when that is set. For Positions specs the
// record need not end the game: it stands for the position it reaches.
func checkMNK(m MNK, game []Square) error {
	if m.Moves > 0 && len(game) != m.Moves {
		return fmt.Errorf("game has %d moves, want %d", len(game), m.Moves)
	}
	_, over, _, err := replayMNK(m, game)
	if err != nil {
		return err
	}
	if !over && !m.Positions {
		return fmt.Errorf("game of %d moves is not over: no %d in a row and the board is not full", len(game), m.K)
	}
	return nil
}

// extendMNK checks the last move of a partial game record, the moves
// before it having been checked: legal, and within m.Moves.
func extendMNK(m MNK, game []Square) error {
	if m.Moves > 0 && len(game) > m.Moves {
		return fmt.Errorf("game has %d moves, want %d", len(game), m.Moves)
	}
	_, _, _, err := replayMNK(m, game)
	return err
}

// MNKOutcome returns how a complete game record ends from spec's start
// position: "x" or "o" (who won) or "draw", and its number of moves; an
// error if the checker rejects it as a complete game.
func MNKOutcome(m MNK, game []Square) (string, error) {
	_, over, winner, err := replayMNK(m, game)
	switch {
	case err != nil:
		return "", err
	case !over:
		return "", fmt.Errorf("game of %d moves is not over", len(game))
	case winner == MNKX:
		return "x", nil
	case winner == MNKO:
		return "o", nil
	}
	return "draw", nil
}

// Published tic-tac-toe (mnk:3x3:3) counts: complete games (a game ends
// at a win or on a full board), by outcome and by length, and the
// positions reachable in play, the empty board included.
const (
	TicTacToeGames     = 255168
	TicTacToeXWins     = 131184
	TicTacToeOWins     = 77904
	TicTacToeDraws     = 46080
	TicTacToePositions = 5478
)

// TicTacToeGamesByLength holds the published numbers of complete
// tic-tac-toe games by number of moves (no game ends before move 5).
var TicTacToeGamesByLength = map[int]uint64{5: 1440, 6: 5328, 7: 47952, 8: 72576, 9: 127872}

// knownMNK returns the published counts: complete tic-tac-toe games from
// the empty board, in all and by length, and its reachable positions.
func knownMNK(spec Spec, task Task) (uint64, bool) {
	m := spec.(MNK)
	if task != Count || m.Board != (Board{3, 3}) || m.K != 3 || m.Pos != "" {
		return 0, false
	}
	switch {
	case m.Positions && m.Moves == 0:
		return TicTacToePositions, true
	case m.Positions:
		return 0, false
	case m.Moves == 0:
		return TicTacToeGames, true
	}
	n, ok := TicTacToeGamesByLength[m.Moves]
	return n, ok
}

// mnkValues holds published values of m,n,k games from the empty board,
// for the first player, keyed by "WxH:K" (W >= H; a game and its
// transpose have the same value).
var mnkValues = map[string]string{
	"3x3:3": GameDraw, // tic-tac-toe
	"4x4:4": GameDraw,
	"5x5:4": GameDraw,
	"6x5:4": GameWin,
}

// knownMNKValue returns the published value of an m,n,k game from the
// empty board for the side to move (X).
func knownMNKValue(spec Spec) (string, bool) {
	m := spec.(MNK)
	if m.Pos != "" || m.Moves != 0 || m.Positions {
		return "", false
	}
	w, h := m.Board.W, m.Board.H
	if h > w {
		w, h = h, w
	}
	v, ok := mnkValues[fmt.Sprintf("%dx%d:%d", w, h, m.K)]
	return v, ok
}

// genMNK sweeps complete games from the empty board on boards of up to 9
// squares (sides up to MaxSide), every K that fits.
func genMNK(lim Limits) []Spec {
	var out []Spec
	for _, b := range sweepBoards(lim.MaxSide) {
		if b.Size() > 9 {
			continue
		}
		for k := 1; k <= max(b.W, b.H); k++ {
			out = append(out, MNK{Board: b, K: k})
		}
	}
	return out
}

func shrinkMNK(s Spec) []Spec {
	m := s.(MNK)
	var out []Spec
	if m.Pos != "" || m.Moves != 0 {
		return out
	}
	if m.K > 1 {
		n := m
		n.K--
		out = append(out, n)
	}
	for _, b := range shrunkBoards(m.Board) {
		if m.K <= max(b.W, b.H) {
			n := m
			n.Board = b
			out = append(out, n)
		}
	}
	return out
}
