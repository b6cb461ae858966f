package mnk

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// counter counts complete games by depth-first search memoised over
// positions. The games that follow a position depend only on its stones,
// and not on the way it was reached, so each position's numbers are
// computed once: for a position with e empty squares, wins[r] (r = 1..e)
// games that end with a row at their r-th move from it, and draws games
// that fill the board. Positions are stored up to the board symmetries
// that fix the start position (the symmetric images of a position have the
// same numbers, and the reachable positions are closed under them).
type counter struct {
	ctx     context.Context
	g       *game
	sym     []int // the symmetries that fix the start position
	memo    map[[2]uint64]int
	slab    []uint64 // the memo's vectors: draws, then wins[1..e]
	nodes   int64
	stopped bool
	over    bool // a count overflowed 64 bits
	full    bool // the memo reached MaxMemo
}

func newCounter(ctx context.Context, m puzzle.MNK) *counter {
	g := newGame(m)
	c := &counter{ctx: ctx, g: g, memo: map[[2]uint64]int{}}
	x, o, _ := start(m)
	for i := range g.syms {
		if g.image(i, x) == x && g.image(i, o) == o {
			c.sym = append(c.sym, i)
		}
	}
	return c
}

// canon returns the least image of the position (a, b) under c.sym, and
// how many distinct images it has.
func (c *counter) canon(a, b uint64) (key [2]uint64, orbit int) {
	key = [2]uint64{a, b}
	fixed := 0
	for _, i := range c.sym {
		ia, ib := c.g.image(i, a), c.g.image(i, b)
		if ia == a && ib == b {
			fixed++
		}
		if ia < key[0] || ia == key[0] && ib < key[1] {
			key = [2]uint64{ia, ib}
		}
	}
	return key, len(c.sym) / fixed
}

// games returns the numbers of the games that follow (own, opp), own to
// move, as an offset into c.slab (draws first, then wins[1..e]).
func (c *counter) games(own, opp uint64) int {
	key, _ := c.canon(own, opp)
	if at, ok := c.memo[key]; ok {
		return at
	}
	c.nodes++
	if c.nodes&1023 == 0 && c.ctx.Err() != nil {
		c.stopped = true
	}
	if len(c.memo) >= memoLimit {
		c.stopped, c.full = true, true
	}
	empty := c.g.full &^ (own | opp)
	e := bits.OnesCount64(empty)
	vec := make([]uint64, e+1)
	for s := empty; s != 0 && !c.stopped; s &= s - 1 {
		q := bits.TrailingZeros64(s)
		switch {
		case c.g.wins(own|1<<q, q):
			vec[1]++
		case e == 1:
			vec[0]++
		default:
			at := c.games(opp, own|1<<q)
			child := c.slab[at : at+e]
			c.add(&vec[0], child[0])
			for r := 1; r < e; r++ {
				c.add(&vec[r+1], child[r])
			}
		}
	}
	if c.stopped {
		return c.zero(e)
	}
	at := len(c.slab)
	c.slab = append(c.slab, vec...)
	c.memo[key] = at
	return at
}

// zero returns an all-zero vector for a stopped search (never memoised).
func (c *counter) zero(e int) int {
	at := len(c.slab)
	c.slab = append(c.slab, make([]uint64, e+1)...)
	return at
}

func (c *counter) add(to *uint64, n uint64) {
	s, over := limbs.Add64(*to, n)
	c.over = c.over || over
	*to = s
}

// positions returns the number of distinct positions reachable from
// (own, opp) in play (the start included), or with moves > 0 those reached
// after exactly moves moves.
func (c *counter) positions(own, opp uint64, moves int) int64 {
	seen := map[[2]uint64]bool{}
	var n int64
	var visit func(own, opp uint64, ply int)
	visit = func(own, opp uint64, ply int) {
		// Colour matters for positions: key X's stones first.
		x, o := own, opp
		if ply%2 == 1 {
			x, o = opp, own
		}
		key, orbit := c.canon(x, o)
		if seen[key] {
			return
		}
		seen[key] = true
		c.nodes++
		if c.nodes&1023 == 0 && c.ctx.Err() != nil {
			c.stopped = true
		}
		if len(seen) >= memoLimit {
			c.stopped, c.full = true, true
		}
		if moves == 0 || ply == moves {
			n += int64(orbit)
		}
		if moves > 0 && ply == moves || c.stopped {
			return
		}
		for s := c.g.full &^ (own | opp); s != 0; s &= s - 1 {
			q := bits.TrailingZeros64(s)
			if c.g.wins(own|1<<q, q) {
				// A won position ends play: count it, go no further.
				wx, wo := own|1<<q, opp
				if ply%2 == 1 {
					wx, wo = opp, own|1<<q
				}
				k, orb := c.canon(wx, wo)
				if !seen[k] {
					seen[k] = true
					if moves == 0 || ply+1 == moves {
						n += int64(orb)
					}
				}
				continue
			}
			visit(opp, own|1<<q, ply+1)
		}
	}
	visit(own, opp, 0)
	return n
}

// MaxMemo bounds the positions the memoised count stores (about 800 MB
// at most); a count that needs more stops with status error, never a
// partial count. mnk:4x4:4 stores 2.3 million.
const MaxMemo = 1 << 22

// memoLimit is MaxMemo, lowered by the tests.
var memoLimit = MaxMemo

// errOverflow is the error of a count past 64 bits.
var errOverflow = errors.New("a game count overflowed 64 bits")

// count answers task count: games from the start (by length and outcome),
// and the positions.
func count(ctx context.Context, m puzzle.MNK) (puzzle.Answer, error) {
	c := newCounter(ctx, m)
	x, o, xToMove := start(m)
	own, opp := x, o
	if !xToMove {
		own, opp = o, x
	}
	e := m.EmptySquares()
	at := c.games(own, opp)
	t := tally{wins: make([]uint64, e+1), draws: c.slab[at]}
	copy(t.wins[1:], c.slab[at+1:at+1+e])
	var pos int64
	if !c.stopped {
		pos = c.positions(own, opp, m.Moves)
	}
	switch {
	case c.full:
		return puzzle.Answer{Status: puzzle.Error, Message: fmt.Sprintf("the memo reached %d positions: too large to count in memory", memoLimit)}, nil
	case c.over && !c.stopped:
		return puzzle.Answer{Status: puzzle.Error, Message: errOverflow.Error()}, nil
	}
	ans := countAnswer(m, t, pos, c.nodes, c.stopped)
	return ans, nil
}

// enumerate streams the complete games of the spec (of exactly m.Moves
// moves when set) in order of their squares, descending only into
// positions from which the memoised counts say such a game follows. For
// task first it stops at the first.
func enumerate(ctx context.Context, req puzzle.Request, m puzzle.MNK) (puzzle.Answer, error) {
	if m.Positions {
		return puzzle.Answer{}, fmt.Errorf("task %s lists games; %s counts positions (task count only)", req.Task, m)
	}
	c := newCounter(ctx, m)
	x, o, xToMove := start(m)
	own, opp := x, o
	if !xToMove {
		own, opp = o, x
	}
	want := m.Moves
	// has reports whether a game of the wanted length follows a position
	// reached after ply moves (own to move).
	has := func(own, opp uint64, ply int) bool {
		if want == 0 {
			return true
		}
		at := c.games(own, opp)
		e := c.g.n - bits.OnesCount64(own|opp)
		r := want - ply
		if r < 1 || r > e {
			return false
		}
		return c.slab[at+r] != 0 || r == e && c.slab[at] != 0
	}
	var moves []int8
	var found uint64
	var first *puzzle.Solution
	var emitErr error
	done := false
	var rec func(own, opp uint64, ply int)
	rec = func(own, opp uint64, ply int) {
		c.nodes++
		if c.nodes&1023 == 0 && ctx.Err() != nil {
			c.stopped, done = true, true
		}
		empty := c.g.full &^ (own | opp)
		for s := empty; s != 0 && !done; s &= s - 1 {
			q := bits.TrailingZeros64(s)
			moves = append(moves, int8(q))
			end := c.g.wins(own|1<<q, q) || empty&(empty-1) == 0
			switch {
			case end && (want == 0 || ply+1 == want):
				found++
				sol := gameRecord(m.Board, moves)
				if req.Task == puzzle.First {
					first, done = sol, true
				} else if emitErr = req.Emit(*sol); emitErr != nil {
					done = true
				}
			case !end && (want == 0 || ply+1 < want) && has(opp, own|1<<q, ply+1):
				rec(opp, own|1<<q, ply+1)
			}
			if c.stopped {
				done = true
			}
			moves = moves[:len(moves)-1]
		}
	}
	if has(own, opp, 0) {
		rec(own, opp, 0)
	}
	return search.Answer(req.Task, found, c.nodes, c.stopped && first == nil && emitErr == nil, first, emitErr)
}
