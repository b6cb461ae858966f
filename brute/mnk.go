package brute

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// MaxMNKSequences bounds the move sequences an m,n,k instance may have:
// E x (E-1) x ... over the moves asked for (all E empty squares when the
// length is free). 9! = 362,880 for tic-tac-toe.
const MaxMNKSequences = 4_000_000

func init() {
	solvers.Add("mnk", solver{tasks: []puzzle.Task{puzzle.Count, puzzle.First, puzzle.Value}, solve: mnkGames})
}

// mnkGames enumerates game records square by square, keeping a move only
// if the checker's partial check accepts it; a record the checker accepts
// as a whole is a game (and, being over, is not extended). For positions
// specs, every accepted record of the right length stands for the position
// it reaches, and distinct positions are counted.
func mnkGames(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	m := req.Spec.(puzzle.MNK)
	b := m.Board
	e := m.EmptySquares()
	length := e
	if m.Moves > 0 {
		length = m.Moves
	}
	seqs := 1
	for i := range length {
		seqs *= e - i
		if seqs > MaxMNKSequences {
			return puzzle.Answer{}, TooLarge{req.Spec, fmt.Sprintf("over %d move sequences", MaxMNKSequences), MaxMNKSequences}
		}
	}
	if req.Task == puzzle.Value {
		return mnkValue(ctx, req, m)
	}
	if m.Positions && req.Task != puzzle.Count {
		return puzzle.Answer{}, fmt.Errorf("the check backend counts positions (task count) only")
	}
	extend, err := puzzle.Extender(req.Spec)
	if err != nil {
		return puzzle.Answer{}, err
	}
	var count uint64
	var nodes int64
	var first *puzzle.Solution
	seen := map[string]bool{}
	game := make([]puzzle.Square, 0, length)
	// position returns the cells a record reaches: the start's, then the
	// record's squares taken in turn by the side to move and the other.
	position := func() string {
		cells := m.Cells()
		side := [2]byte{m.ToMove(), puzzle.MNKX + puzzle.MNKO - m.ToMove()}
		for i, q := range game {
			cells[q] = side[i%2]
		}
		return string(cells)
	}
	var rec func() error
	rec = func() error {
		nodes++
		if nodes%stopEvery == 0 && ctx.Err() != nil {
			return errStop
		}
		sol := puzzle.Solution{Board: b, Game: game}
		if m.Positions {
			if (m.Moves == 0 || len(game) == m.Moves) && puzzle.Check(req.Spec, sol) == nil && !seen[position()] {
				seen[position()] = true
				count++
			}
		} else if len(game) > 0 && puzzle.Check(req.Spec, sol) == nil {
			count++
			if req.Task == puzzle.First {
				first = &puzzle.Solution{Board: b, Game: append([]puzzle.Square(nil), game...)}
				return errStop
			}
			return nil
		}
		for q := range b.Size() {
			game = append(game, puzzle.Square(q))
			if extend(puzzle.Solution{Board: b, Game: game}) == nil {
				if err := rec(); err != nil {
					game = game[:len(game)-1]
					return err
				}
			}
			game = game[:len(game)-1]
		}
		return nil
	}
	stop := rec()
	return finish(req.Task, count, nodes, stop == errStop && first == nil, first), nil
}

// mnkValue is minimax over every game record the checker accepts: a record
// the checker accepts as a whole is scored by its outcome (MNKOutcome);
// otherwise the side to move takes the best of the moves the partial check
// accepts. The solution is the game played on by the first best move at
// every turn, so a complete game.
func mnkValue(ctx context.Context, req puzzle.Request, m puzzle.MNK) (puzzle.Answer, error) {
	if m.Moves > 0 || m.Positions {
		return puzzle.Answer{}, fmt.Errorf("the check backend does task value only for whole games, not %s", m)
	}
	b := m.Board
	extend, err := puzzle.Extender(req.Spec)
	if err != nil {
		return puzzle.Answer{}, err
	}
	// Scores are for the side to move at the start: 1 win, 0 draw, -1 loss.
	first := map[byte]string{m.ToMove(): "x"}
	if m.ToMove() == puzzle.MNKO {
		first = map[byte]string{puzzle.MNKO: "o"}
	}
	var nodes int64
	stopped := false
	game := []puzzle.Square{}
	var best func() (int, []puzzle.Square)
	best = func() (int, []puzzle.Square) {
		nodes++
		if nodes%stopEvery == 0 && ctx.Err() != nil {
			stopped = true
		}
		if out, err := puzzle.MNKOutcome(m, game); err == nil {
			switch out {
			case "draw":
				return 0, nil
			case first[m.ToMove()]:
				return 1, nil
			}
			return -1, nil
		}
		mine := len(game)%2 == 0
		score := -2
		var line []puzzle.Square
		for q := range b.Size() {
			if stopped {
				break
			}
			game = append(game, puzzle.Square(q))
			if extend(puzzle.Solution{Board: b, Game: game}) == nil {
				v, rest := best()
				if !mine {
					v = -v
				}
				if v > score {
					score, line = v, append([]puzzle.Square{puzzle.Square(q)}, rest...)
				}
			}
			game = game[:len(game)-1]
		}
		if !mine {
			score = -score
		}
		return score, line
	}
	v, line := best()
	ans := finish(puzzle.Count, 1, nodes, stopped, nil)
	ans.Count = 0
	if ans.Status == puzzle.OK {
		ans.GameValue = map[int]string{1: puzzle.GameWin, 0: puzzle.GameDraw, -1: puzzle.GameLoss}[v]
		ans.Solution = &puzzle.Solution{Board: b, Game: line}
	}
	return ans, nil
}
