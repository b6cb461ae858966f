package encode

// m,n,k games (spec mnk:...) as SAT planning, model "play": the formula
// "a legal play of the game from the start position", of exactly L moves
// for :moves=L, else of any length up to the E empty squares.
//
// Variables, for turns t = 1..T (T = L, or E when the length is free):
//
//   - m[t,q], "move t puts a stone on square q", for the squares empty at
//     the start; at most one per turn (the chosen cardinality encoding;
//     exactly one when every turn must be played);
//   - a[t,q] and b[t,q], "square q holds a stone of the side to move at the
//     start (a) or of the other side (b) after t moves": the side to move
//     alternates, so move t places an a stone when t is odd and a b stone
//     when t is even; the squares the mover did not touch are the previous
//     turn's literals (frame axioms by sharing);
//   - r[t,l], "after move t, the side that made it holds every square of
//     row l" for the rows of K squares free of the other side's start
//     stones, and won[t], "move t completed a row" (both directions, so
//     won[t] is exact);
//   - p[t], "move t is played" (free length only): p[1] holds unless the
//     start is over, p[t] iff p[t-1] and not won[t-1], and m[t,.] has a
//     true literal iff p[t] (so play stops exactly at the first row, or
//     when the board is full).
//
// A move goes only to a square empty before it. With :moves=L every turn
// is played, no row before move L, and a row at move L unless the board
// is then full: the formula's models are the complete games of exactly L
// moves. With the length free, every model plays on to the first row or
// the full board: the complete games of every length.
//
// Projections: for games, the m[t,q]: each complete game sets exactly one
// assignment of them (unplayed turns all false), and that assignment
// determines the rest, so the projected count is the number of games. For
// :positions, the game need not be over (play may stop at any turn when
// the length is free; with :moves=L exactly L moves are played and no row
// before move L), and the count is projected on the final board, a[T,q]
// and b[T,q]: the number of distinct positions reachable, after exactly
// L moves, or in any number of moves (the start included). These are the
// native counts (games; positions) by construction: cross-validated by
// compare and the tests.
//
// Task value (who wins with best play) is a quantified question, not a
// satisfiability one: the sat backends refuse it (ErrValueRefused).

import (
	"errors"
	"fmt"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	register(Encoder{
		Puzzle:  "mnk",
		Name:    "play",
		Doc:     "planning: m[t,q] move t on q, board per turn, alternate sides, stop at the first row; projected on the moves (games) or the final board (:positions); value is native-only",
		Default: true, Why: whyOnly,
		Tasks: []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All},
		Build: mnkBuild,
	})
}

// mnkMaxLiterals bounds the formula: turns x (squares + rows).
const mnkMaxLiterals = 1 << 20

func mnkBuild(spec puzzle.Spec, enc card.Encoding, _ Options) (*Instance, error) {
	m, ok := spec.(puzzle.MNK)
	if !ok {
		return nil, fmt.Errorf("the m,n,k model encodes m,n,k games, not %s", spec.Puzzle())
	}
	b := m.Board
	n := b.Size()
	cells := m.Cells()
	var free []int
	for q, c := range cells {
		if c == puzzle.MNKEmpty {
			free = append(free, q)
		}
	}
	T := len(free)
	if m.Moves > 0 {
		T = m.Moves
	}
	rows := mnkRows(b, m.K)
	if T*(n+len(rows)) > mnkMaxLiterals {
		return nil, fmt.Errorf("the m,n,k model needs %d turns x (%d squares + %d rows): too many (at most %d)", T, n, len(rows), mnkMaxLiterals)
	}
	p := &mnkPlan{m: m, b: b, n: n, free: free, T: T, f: cnf.New()}
	p.top = p.f.Aux("true")
	p.f.Add(p.top)
	p.startBoards(cells)
	p.moveVars()
	p.play()
	if m.Positions && T == 0 {
		return nil, errors.New("the m,n,k model needs at least one turn")
	}
	p.wins(rows)
	if err := p.turns(enc); err != nil {
		return nil, err
	}
	return &Instance{Formula: p.f, Decode: mnkDecode(b, free, p.mv, T)}, nil
}

// mnkPlan is the planning model of one m,n,k game under construction.
type mnkPlan struct {
	m    puzzle.MNK
	b    puzzle.Board
	n    int
	free []int // the empty squares at the start
	T    int   // turns
	f    *cnf.Formula
	top  cnf.Lit // true
	// board[s][t][q]: side s holds q after t moves; side 0 is the mover at
	// the start, side 1 the other.
	board [2][][]cnf.Lit
	mv    [][]cnf.Lit // mv[t][q]: move t is on q (t = 1..T, q free)
	won   []cnf.Lit   // won[t]: move t completed a row of its side
}

// startBoards sets the board literals before the first move.
func (p *mnkPlan) startBoards(cells []byte) {
	mover := p.m.ToMove()
	for s := range 2 {
		p.board[s] = make([][]cnf.Lit, p.T+1)
		p.board[s][0] = make([]cnf.Lit, p.n)
		own := mover
		if s == 1 {
			own = puzzle.MNKX + puzzle.MNKO - mover
		}
		for q := range p.n {
			p.board[s][0][q] = p.top.Not()
			if cells[q] == own {
				p.board[s][0][q] = p.top
			}
		}
	}
}

// moveVars makes the move variables: the projection unless it is on the
// final board (:positions).
func (p *mnkPlan) moveVars() {
	p.mv = make([][]cnf.Lit, p.T+1)
	for t := 1; t <= p.T; t++ {
		p.mv[t] = make([]cnf.Lit, p.n)
		for _, q := range p.free {
			name := fmt.Sprintf("m_%d_%s", t, p.b.Name(puzzle.Square(q)))
			if p.m.Positions {
				p.mv[t][q] = p.f.Aux(name)
			} else {
				p.mv[t][q] = p.f.Var(name)
			}
		}
	}
}

// play makes the boards after each move: a move on an empty square adds it
// to the side that makes it.
func (p *mnkPlan) play() {
	f, board, mv := p.f, &p.board, p.mv
	primaryBoard := func(t int) bool { return p.m.Positions && t == p.T }
	for t := 1; t <= p.T; t++ {
		s := (t - 1) % 2 // the side making move t
		for o := range 2 {
			board[o][t] = make([]cnf.Lit, p.n)
			copy(board[o][t], board[o][t-1])
		}
		for _, q := range p.free {
			// A move needs an empty square.
			f.Add(mv[t][q].Not(), board[0][t-1][q].Not())
			f.Add(mv[t][q].Not(), board[1][t-1][q].Not())
			prev := board[s][t-1][q]
			x := newBoardVar(f, fmt.Sprintf("%c_%d_%s", "ab"[s], t, p.b.Name(puzzle.Square(q))), primaryBoard(t))
			// x <-> prev or m[t,q]
			f.Add(x.Not(), prev, mv[t][q])
			f.Add(x, prev.Not())
			f.Add(x, mv[t][q].Not())
			board[s][t][q] = x
		}
		if primaryBoard(t) {
			// The other side's squares are unchanged literals: give the
			// projection variables of its own for them.
			o := 1 - s
			for _, q := range p.free {
				y := f.Var(fmt.Sprintf("%c_%d_%s", "ab"[o], t, p.b.Name(puzzle.Square(q))))
				f.Add(y.Not(), board[o][t][q])
				f.Add(y, board[o][t][q].Not())
				board[o][t][q] = y
			}
		}
	}
}

// wins defines won[t]: move t completed one of rows for its side.
func (p *mnkPlan) wins(rows [][]int) {
	f := p.f
	p.won = make([]cnf.Lit, p.T+1)
	for t := 1; t <= p.T; t++ {
		s := (t - 1) % 2
		p.won[t] = f.Aux(fmt.Sprintf("won_%d", t))
		var any []cnf.Lit
		for _, row := range rows {
			lits := make([]cnf.Lit, 0, len(row))
			blocked := false
			for _, q := range row {
				l := p.board[s][t][q]
				if l == p.top.Not() {
					blocked = true
				}
				lits = append(lits, l)
			}
			if blocked {
				continue
			}
			r := f.Aux(fmt.Sprintf("row_%d_%d", t, len(any)))
			long := []cnf.Lit{r}
			for _, l := range lits {
				f.Add(r.Not(), l)
				long = append(long, l.Not())
			}
			f.Add(long...)
			any = append(any, r)
		}
		// won[t] <-> some row.
		f.Add(append([]cnf.Lit{p.won[t].Not()}, any...)...)
		for _, r := range any {
			f.Add(p.won[t], r.Not())
		}
	}
}

// freeMoves returns the move variables of move t.
func (p *mnkPlan) freeMoves(t int) []cnf.Lit {
	out := make([]cnf.Lit, 0, len(p.free))
	for _, q := range p.free {
		out = append(out, p.mv[t][q])
	}
	return out
}

// turns says when a move is made: every turn of a fixed number of moves,
// else one after another while the game goes on.
func (p *mnkPlan) turns(enc card.Encoding) error {
	f, T, won := p.f, p.T, p.won
	if p.m.Moves > 0 {
		for t := 1; t <= T; t++ {
			if err := enc.Encode(f, p.freeMoves(t), cnf.Exactly, 1); err != nil {
				return err
			}
			if t < T {
				f.Add(won[t].Not())
			}
		}
		if !p.m.Positions && T < len(p.free) {
			f.Add(won[T])
		}
		return nil
	}
	played := make([]cnf.Lit, T+1)
	for t := 1; t <= T; t++ {
		played[t] = f.Aux(fmt.Sprintf("played_%d", t))
		ms := p.freeMoves(t)
		if err := enc.Encode(f, ms, cnf.AtMost, 1); err != nil {
			return err
		}
		// played[t] <-> some m[t,q].
		f.Add(append([]cnf.Lit{played[t].Not()}, ms...)...)
		for _, l := range ms {
			f.Add(played[t], l.Not())
		}
		// A move only while the game goes on.
		if t > 1 {
			f.Add(played[t].Not(), played[t-1])
			f.Add(played[t].Not(), won[t-1].Not())
		}
		if !p.m.Positions {
			// Games: play on until a row or the full board.
			if t == 1 {
				f.Add(played[1])
			} else {
				f.Add(played[t], played[t-1].Not(), won[t-1])
			}
		}
	}
	return nil
}

// newBoardVar adds a board variable, primary when it is in the projection.
func newBoardVar(f *cnf.Formula, name string, primary bool) cnf.Lit {
	if primary {
		return f.Var(name)
	}
	return f.Aux(name)
}

// mnkDecode reads a game record from the move variables: the turns with a
// move, in order.
func mnkDecode(b puzzle.Board, free []int, mv [][]cnf.Lit, T int) func([]bool) (puzzle.Solution, error) {
	return func(model []bool) (puzzle.Solution, error) {
		sol := puzzle.Solution{Board: b, Game: []puzzle.Square{}}
		for t := 1; t <= T; t++ {
			found := -1
			for _, q := range free {
				if v := mv[t][q].Var(); v < len(model) && model[v] {
					if found >= 0 {
						return sol, fmt.Errorf("turn %d has two moves", t)
					}
					found = q
				}
			}
			if found >= 0 {
				sol.Game = append(sol.Game, puzzle.Square(found))
			}
		}
		return sol, nil
	}
}

// mnkRows returns every row of k squares on b (along ranks, files and both
// diagonals): the encoder's own geometry (see TestOwnGeometry).
func mnkRows(b puzzle.Board, k int) [][]int {
	var out [][]int
	dirs := [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	if k == 1 {
		dirs = dirs[:1]
	}
	for r := range b.H {
		for f := range b.W {
			for _, d := range dirs {
				ef, er := f+(k-1)*d[0], r+(k-1)*d[1]
				if ef < 0 || ef >= b.W || er < 0 || er >= b.H {
					continue
				}
				row := make([]int, k)
				for i := range k {
					row[i] = (r+i*d[1])*b.W + f + i*d[0]
				}
				out = append(out, row)
			}
		}
	}
	return out
}
