package mnk

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/boardsat/boardsat/puzzle"
)

// plain is the seed's search: negamax over the whole game tree, every
// move of every position, no memory and no pruning.
type plain struct {
	ctx     context.Context
	g       *game
	nodes   int64
	stopped bool
}

func (p *plain) poll() {
	p.nodes++
	if p.nodes&4095 == 0 && p.ctx.Err() != nil {
		p.stopped = true
	}
}

// value returns the value of the position for the side to move, whose
// stones are own (1 win, 0 draw, -1 loss).
func (p *plain) value(own, opp uint64) int8 {
	p.poll()
	empty := p.g.full &^ (own | opp)
	if empty == 0 || p.stopped {
		return 0
	}
	best := int8(-1)
	for s := empty; s != 0; s &= s - 1 {
		q := bits.TrailingZeros64(s)
		if p.g.wins(own|1<<q, q) {
			return 1
		}
		if v := -p.value(opp, own|1<<q); v > best {
			best = v
		}
	}
	return best
}

// principal plays best moves from (own, opp), of value v for its side to
// move, to the end of the game: at each position the first move that keeps
// the value. geq(own, opp, t) reports whether a position is worth t or
// more to its side to move; order, if not nil, lists a position's moves in
// the order to try them (else square by square). It returns the squares
// played.
func principal(g *game, own, opp uint64, v int8, geq func(own, opp uint64, t int8) bool, order func(own, opp uint64) []int8) []int8 {
	var moves []int8
	for {
		empty := g.full &^ (own | opp)
		if empty == 0 {
			return moves
		}
		var moves8 []int8
		if order != nil {
			moves8 = order(own, opp)
		} else {
			for s := empty; s != 0; s &= s - 1 {
				moves8 = append(moves8, int8(bits.TrailingZeros64(s)))
			}
		}
		next, won := -1, false
		for _, q8 := range moves8 {
			if next >= 0 {
				break
			}
			q := int(q8)
			switch {
			case g.wins(own|1<<q, q):
				if v == 1 {
					next, won = q, true
				}
			case v == -1 || !geq(opp, own|1<<q, 1-v):
				// The opponent gets at most -v after q.
				next = q
			}
		}
		if next < 0 {
			// Only when a search stopped (v is the value, so some move
			// keeps it): the caller reports the timeout; the checker
			// would reject the unfinished game.
			return moves
		}
		moves = append(moves, int8(next))
		if won {
			return moves
		}
		own, opp, v = opp, own|1<<next, -v
	}
}

// tally counts complete games by length (moves from the start) and
// outcome: wins[l] games won by the player who made move l, draws the
// games that fill the board without a row.
type tally struct {
	wins  []uint64
	draws uint64
}

// walk counts every complete game below (own, opp), reached after ply
// moves, into t: the plain tree walk, no memory.
func (p *plain) walk(own, opp uint64, ply int, t *tally) {
	p.poll()
	if p.stopped {
		return
	}
	empty := p.g.full &^ (own | opp)
	for s := empty; s != 0; s &= s - 1 {
		q := bits.TrailingZeros64(s)
		switch {
		case p.g.wins(own|1<<q, q):
			t.wins[ply+1]++
		case empty&(empty-1) == 0:
			t.draws++
		default:
			p.walk(opp, own|1<<q, ply+1, t)
		}
	}
}

// negamaxSolve answers value by plain negamax and count by the plain tree
// walk.
func negamaxSolve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	m := req.Spec.(puzzle.MNK)
	g := newGame(m)
	x, o, xToMove := start(m)
	own, opp := x, o
	if !xToMove {
		own, opp = o, x
	}
	p := &plain{ctx: ctx, g: g}
	switch req.Task {
	case puzzle.Value:
		if err := refuseValue(m); err != nil {
			return puzzle.Answer{}, err
		}
		v := p.value(own, opp)
		var pv []int8
		if !p.stopped {
			pv = principal(g, own, opp, v, func(a, b uint64, t int8) bool { return p.value(a, b) >= t }, nil)
		}
		return valueAnswer(v, pv, m, p.nodes, p.stopped), nil
	default:
		if m.Positions {
			return puzzle.Answer{}, fmt.Errorf("native heuristic negamax counts games, not positions (%s): use alphabeta", m)
		}
		t := tally{wins: make([]uint64, m.EmptySquares()+1)}
		p.walk(own, opp, 0, &t)
		return countAnswer(m, t, -1, p.nodes, p.stopped), nil
	}
}

// valueAnswer builds the answer of task value: the value, and as the
// solution a game played on from the position by best moves (its first
// move is a best move).
func valueAnswer(v int8, pv []int8, m puzzle.MNK, nodes int64, stopped bool) puzzle.Answer {
	ans := puzzle.Answer{Status: puzzle.OK, Stats: map[string]int64{puzzle.StatNodes: nodes}}
	if stopped {
		ans.Status = puzzle.Timeout
		ans.Message = fmt.Sprintf("stopped after %d nodes", nodes)
		return ans
	}
	ans.GameValue = valueName(v)
	ans.Solution = gameRecord(m.Board, pv)
	return ans
}

// countAnswer builds the answer of task count from a tally: the number of
// complete games (of exactly m.Moves moves when set), or with
// m.Positions the number of positions; the splits by outcome and length,
// and the positions when known (positions >= 0), go into Stats.
func countAnswer(m puzzle.MNK, t tally, positions int64, nodes int64, stopped bool) puzzle.Answer {
	ans := puzzle.Answer{Status: puzzle.OK, Stats: map[string]int64{puzzle.StatNodes: nodes}}
	if stopped {
		ans.Status = puzzle.Timeout
		ans.Message = fmt.Sprintf("stopped after %d nodes", nodes)
		return ans
	}
	xMoves := m.ToMove() == puzzle.MNKX // X makes the odd moves
	var games, xw, ow, dr uint64
	for l, n := range t.wins {
		if m.Moves > 0 && l != m.Moves || n == 0 {
			continue
		}
		games += n
		ans.Stats[fmt.Sprintf("games_%d", l)] = int64(n)
		if (l%2 == 1) == xMoves {
			xw += n
		} else {
			ow += n
		}
	}
	if e := m.EmptySquares(); m.Moves == 0 || m.Moves == e {
		dr = t.draws
		games += dr
		ans.Stats[fmt.Sprintf("games_%d", e)] += int64(dr)
	}
	ans.Stats["x_wins"], ans.Stats["o_wins"], ans.Stats["draws"] = int64(xw), int64(ow), int64(dr)
	if positions >= 0 {
		ans.Stats["positions"] = positions
	}
	ans.Count = games
	if m.Positions {
		ans.Count = uint64(positions)
	}
	return ans
}
