package queens

// N-Queens: symmetric, the full-symmetry counter (one representative per
// class weighted 2/4/8, subproblems on all cores).

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// queensSymResult is what the symmetric counter finds: the number of
// symmetry classes of each size (2, 4, 8) and the nodes it visited.
type queensSymResult struct {
	c2, c4, c8 uint64
	nodes      int64
}

// queensTask is one subproblem of the symmetric counter: a partial board of
// rows 0..row-1 (one bit per row) and the attack masks for row.
type queensTask struct {
	corner            bool
	b1                int
	row               int
	left, down, right uint64
	prefix            [queensSplitRow]uint64
}

// queensSym is one worker's state of the symmetric counter.
//
// Corner classes: a queen in a corner can be turned to stand at row 0,
// column 0; transposing then keeps it there, so of each such solution and
// its transpose the one whose row-1 queen (column b1) is left of the row of
// the column-1 queen is kept: column 1 is barred in rows 2..b1-1. No such
// solution is its own transpose, so every class has 8 members.
//
// Edge classes (no corner queen): each of the four edge queens has a
// distance to its nearest corner; the board is turned so that the top row
// (row 0) holds a queen at the least distance b1, in column b1 (left half).
// Then the side columns are barred in rows < b1 and > m-b1, and the last
// row's queen must lie in columns b1..m-b1. A solution found this way can
// still have images that also pass (other edge queens at distance b1); it
// is counted if it is the lexicographically least of those, with class size
// 8 divided by the number of symmetries that fix it.
type queensSym struct {
	n, m       int
	mask, side uint64
	b1         int
	lastOK     uint64 // columns the last row's queen may take (edge classes)
	cols, inv  [queensMaxBits]int
	res        queensSymResult
	ctx        context.Context
	stop       *atomic.Bool
	halted     bool
	split      int // row at which the generator records subproblems, or -1
	tasks      []queensTask
	bs         [queensMaxBits]uint64 // bs[r]: row r's queen bit (edgeRec)
	rowOK      [queensMaxBits]uint64 // rowOK[r]: columns row r may take before attacks
	ticks      uint64                // recursive calls, for polling
}

func newQueensSym(ctx context.Context, n int, stop *atomic.Bool) *queensSym {
	return &queensSym{n: n, m: n - 1, mask: queensMask(n), side: 1 | 1<<uint(n-1), ctx: ctx, stop: stop, split: -1}
}

// setB1 prepares the masks for edge classes with top queen in column b1.
func (s *queensSym) setB1(b1 int) {
	s.b1 = b1
	s.lastOK = 0
	for c := b1; c <= s.m-b1; c++ {
		s.lastOK |= 1 << uint(c)
	}
}

// poll reports whether the search must stop (context done or another
// worker stopped); once it reports true it keeps doing so.
func (s *queensSym) poll() bool {
	if !s.halted && (s.stop.Load() || s.ctx.Err() != nil) {
		s.stop.Store(true)
		s.halted = true
	}
	return s.halted
}

// rowMasks returns the columns each row may take before attacks: every
// column, but none of bar in the rows above b1 (bar: column 1 for corner
// classes, the two side columns for edge classes).
func (s *queensSym) rowMasks(bar uint64) [queensMaxBits]uint64 {
	var rowOK [queensMaxBits]uint64
	for r := range rowOK {
		rowOK[r] = s.mask
		if r < s.b1 {
			rowOK[r] = s.mask &^ bar
		}
	}
	return rowOK
}

// stopRow returns the row at which corner and edge leave their loop: the
// generator's split row, or else the second-last row (the last two rows
// are resolved without the loop).
func (s *queensSym) stopRow() int {
	if s.split >= 0 && s.split < s.m-1 {
		return s.split
	}
	return s.m - 1
}

// queensRowMask keeps row indexes inside the fixed-size stacks (n <= 64),
// which lets the compiler drop bounds checks.
const queensRowMask = queensMaxBits - 1

// corner counts corner classes from row r0 (below the split row, if any),
// iteratively: fr[r] holds the columns of row r still to try. The
// generator uses it to cut the search into subproblems; workers solve
// those with cornerRec and edgeRec, which are faster.
func (s *queensSym) corner(r0 int, left, down, right uint64) {
	var fr, ls, ds, rs [queensMaxBits]uint64
	m, mask, b1 := s.m, s.mask, s.b1
	rowOK := s.rowMasks(2)
	stopAt := s.stopRow()
	nodes, c8 := s.res.nodes, s.res.c8
	ticks := 0 // loop iterations, for polling (nodes also grows in the tail)
	r := r0
	ls[r&queensRowMask], ds[r&queensRowMask], rs[r&queensRowMask] = left, down, right
	fr[r&queensRowMask] = mask &^ (left | down | right)
	if r < b1 {
		fr[r&queensRowMask] &^= 2
	}
	for r >= r0 {
		i := r & queensRowMask
		free := fr[i]
		if free == 0 {
			r--
			continue
		}
		bit := free & -free
		fr[i] = free ^ bit
		nodes++
		ticks++
		if ticks&queensPollMask == 0 && s.poll() {
			s.res.nodes, s.res.c8 = nodes, c8
			return
		}
		l, d, rt := (ls[i]|bit)<<1, ds[i]|bit, (rs[i]|bit)>>1
		if r+1 >= stopAt {
			f := mask &^ (l | d | rt)
			switch {
			case r+1 < m-1: // the split row
				s.tasks = append(s.tasks, queensTask{corner: true, b1: b1, row: r + 1, left: l, down: d, right: rt})
			case r+1 == m:
				if f != 0 {
					c8++
				}
			default:
				// The last two rows, without the loop: row m-1 has at
				// most two free columns, row m at most one.
				for f != 0 {
					b := f & -f
					f ^= b
					nodes++
					if mask&^((l|b)<<1|d|b|(rt|b)>>1) != 0 {
						c8++
					}
				}
			}
			continue
		}
		j := (r + 1) & queensRowMask
		f := rowOK[j] &^ (l | d | rt)
		if f == 0 {
			continue
		}
		r++
		ls[j], ds[j], rs[j] = l, d, rt
		fr[j] = f
	}
	s.res.nodes, s.res.c8 = nodes, c8
}

// edge counts edge classes from row r0 (below the split row, if any),
// iteratively like corner; bs[r] is the bit of row r's queen, and prefix
// holds those of the rows above r0. Its loop has corner's skeleton (take
// the next column of a row, poll, go down a row) but not corner's logic:
// it records each row's queen, has the side columns' rule at row m-b1,
// and classifies complete boards where corner only counts them, so the
// two loops stay two.
func (s *queensSym) edge(r0 int, left, down, right uint64, prefix []uint64) {
	var fr, ls, ds, rs, bs [queensMaxBits]uint64
	copy(bs[:], prefix)
	m, mask, b1, side, lastOK := s.m, s.mask, s.b1, s.side, s.lastOK
	// rowOK[r]: the columns row r may take before attacks; rows from
	// stopAt on are the generator's split row or the last two rows.
	rowOK := s.rowMasks(side)
	mb1 := m - b1
	stopAt := s.stopRow()
	nodes := s.res.nodes
	ticks := 0 // loop iterations, for polling (nodes also grows in the tail)
	r := r0
	ls[r&queensRowMask], ds[r&queensRowMask], rs[r&queensRowMask] = left, down, right
	fr[r&queensRowMask] = s.edgeFree(r, left, down, right)
	for r >= r0 {
		i := r & queensRowMask
		free := fr[i]
		if free == 0 {
			r--
			continue
		}
		bit := free & -free
		fr[i] = free ^ bit
		bs[i] = bit
		nodes++
		ticks++
		if ticks&queensPollMask == 0 && s.poll() {
			s.res.nodes = nodes
			return
		}
		l, d, rt := (ls[i]|bit)<<1, ds[i]|bit, (rs[i]|bit)>>1
		if r+1 >= stopAt {
			switch {
			case r+1 < m-1: // the split row
				t := queensTask{b1: b1, row: r + 1, left: l, down: d, right: rt}
				copy(t.prefix[:], bs[:r+1])
				s.tasks = append(s.tasks, t)
			case r+1 == m:
				if last := mask &^ (l | d | rt) & lastOK; last != 0 {
					bs[m&queensRowMask] = last
					s.classify(&bs)
				}
			default:
				// The last two rows, without the loop.
				f := s.edgeFree(m-1, l, d, rt)
				for f != 0 {
					b := f & -f
					f ^= b
					nodes++
					if last := mask &^ ((l|b)<<1 | d | b | (rt|b)>>1) & lastOK; last != 0 {
						bs[(m-1)&queensRowMask] = b
						bs[m&queensRowMask] = last
						s.classify(&bs)
					}
				}
			}
			continue
		}
		j := (r + 1) & queensRowMask
		f := rowOK[j] &^ (l | d | rt)
		if r+1 == mb1 {
			// The last row where a side queen may stand: both side
			// columns must be taken by now or here.
			if taken := d & side; taken == 0 {
				f = 0
			} else if taken != side {
				f &= side
			}
		}
		if f == 0 {
			continue
		}
		r++
		ls[j], ds[j], rs[j] = l, d, rt
		fr[j] = f
	}
	s.res.nodes = nodes
}

// edgeFree returns the columns row r (< m) may take in an edge class.
func (s *queensSym) edgeFree(r int, left, down, right uint64) uint64 {
	f := s.mask &^ (left | down | right)
	if r < s.b1 {
		f &^= s.side
	} else if r == s.m-s.b1 {
		if taken := down & s.side; taken == 0 {
			f = 0
		} else if taken != s.side {
			f &= s.side
		}
	}
	return f
}

// classify counts a complete edge-class board (bs[r] is row r's queen bit)
// if it is its class's representative, by the size of its class.
func (s *queensSym) classify(bs *[queensMaxBits]uint64) {
	m, b1 := s.m, s.b1
	cols, inv := s.cols[:s.n], s.inv[:s.n]
	for r := range cols {
		c := bits.TrailingZeros64(bs[r])
		cols[r] = c
		inv[c] = r
	}
	// The images whose top queen also stands in column b1 (see queensImage).
	last, rowLeft, rowRight := cols[m], inv[0], inv[m]
	var cand [8]bool
	cand[1] = rowLeft == m-b1
	cand[2] = last == m-b1
	cand[3] = rowRight == b1
	cand[5] = last == b1
	cand[6] = rowLeft == b1
	cand[7] = rowRight == m-b1
	fixed := 1
	for g := 1; g < 8; g++ {
		if !cand[g] {
			continue
		}
		same := true
		for x := 0; x <= m; x++ {
			v := queensImage(g, cols, inv, x)
			if v < cols[x] {
				return
			}
			if v > cols[x] {
				same = false
				break
			}
		}
		if same {
			fixed++
		}
	}
	switch 8 / fixed {
	case 8:
		s.res.c8++
	case 4:
		s.res.c4++
	default:
		s.res.c2++
	}
}

// run solves one subproblem.
func (s *queensSym) run(t *queensTask) {
	if s.halted {
		return
	}
	s.setB1(t.b1)
	defer func() {
		if e := recover(); e != nil {
			if _, ok := e.(queensHalt); !ok {
				panic(e)
			}
		}
	}()
	r := t.row
	if t.corner {
		s.rowOK = s.rowMasks(2)
		if f := s.rowOK[r&queensRowMask] &^ (t.left | t.down | t.right); f != 0 {
			s.cornerRec(r, f, t.left, t.down, t.right)
		}
		return
	}
	s.rowOK = s.rowMasks(s.side)
	copy(s.bs[:], t.prefix[:r])
	if f := s.edgeFree(r, t.left, t.down, t.right); f != 0 {
		s.edgeRec(r, f, t.left, t.down, t.right)
	}
}

// queensSymCount counts (task count) or counts the classes of (task
// unique) the n-queens solutions, n >= 5: a generator cuts the search at
// the split row into subproblems, which the shared pool runs. The classes
// the generator completes itself (small n) are one more subproblem.
func queensSymCount(ctx context.Context, req puzzle.Request, n int) (puzzle.Answer, error) {
	var stop atomic.Bool
	gen := newQueensSym(ctx, n, &stop)
	gen.split = min(queensSplitRow, n-1)
	m := n - 1
	// Corner classes: row 0 column 0, row 1 column b1 in 2..m-1.
	for b1 := 2; b1 < m; b1++ {
		gen.setB1(b1)
		bit := uint64(1) << uint(b1)
		gen.corner(2, (2|bit)<<1, 1|bit, bit>>1)
	}
	// Edge classes: top queen in column b1 < m-b1.
	for b1 := 1; b1 < m-b1; b1++ {
		gen.setB1(b1)
		bit := uint64(1) << uint(b1)
		gen.edge(1, bit<<1, bit, bit>>1, []uint64{bit})
	}
	if gen.halted {
		return puzzle.Answer{Status: puzzle.Timeout, Message: "stopped while splitting", Stats: map[string]int64{puzzle.StatNodes: gen.res.nodes}}, nil
	}
	tasks := gen.tasks
	weigh := func(r queensSymResult) uint64 {
		if req.Task == puzzle.Unique {
			return r.c2 + r.c4 + r.c8
		}
		return 2*r.c2 + 4*r.c4 + 8*r.c8
	}
	var mu sync.Mutex
	nodes := gen.res.nodes
	partition := fmt.Sprintf("queens-sym rows 0-%d: %d subproblems", gen.split-1, len(tasks)+1)
	res, err := search.RunSplit(ctx, req, "symmetric", partition, len(tasks)+1, func() subproblem.Solver {
		w := newQueensSym(ctx, n, &stop)
		return func(id int) (uint64, bool) {
			if id == len(tasks) {
				return weigh(gen.res), true
			}
			before := w.res
			w.run(&tasks[id])
			mu.Lock()
			nodes += w.res.nodes - before.nodes
			mu.Unlock()
			if w.halted {
				return 0, false
			}
			after := w.res
			return weigh(queensSymResult{c2: after.c2 - before.c2, c4: after.c4 - before.c4, c8: after.c8 - before.c8}), true
		}
	})
	if err != nil {
		return puzzle.Answer{}, err
	}
	return search.SplitAnswer(res, map[string]int64{puzzle.StatNodes: nodes}), nil
}

// edgeRec places row r's queen on each column of f (the free columns of
// row r in an edge class, not empty) and searches the rows below
// recursively; the last two rows are handled inline. A placement is pruned
// when every column the last row's queen may take (lastOK) is attacked
// already, along a column or along a diagonal that reaches the last row.
func (s *queensSym) edgeRec(r int, f, l, d, rt uint64) {
	s.ticks++
	if s.ticks&queensPollMask == 0 && s.poll() {
		panic(queensHalt{})
	}
	m, lastOK := s.m, s.lastOK
	nr := r + 1
	if nr >= m-1 {
		// Rows m-1 (at most two free columns) and m (at most one),
		// without branches but for the rare complete board.
		mask := s.mask
		for f != 0 {
			bit := f & -f
			f ^= bit
			s.bs[r&queensRowMask] = bit
			nl, nd, nrt := (l|bit)<<1, d|bit, (rt|bit)>>1
			g := s.edgeFree(m-1, nl, nd, nrt)
			b := g & -g
			c := g ^ b
			x := mask &^ ((nl|b)<<1 | nd | b | (nrt|b)>>1) & lastOK & queensAll(b)
			y := mask &^ ((nl|c)<<1 | nd | c | (nrt|c)>>1) & lastOK & queensAll(c)
			s.res.nodes += int64(1 + (b|-b)>>63 + (c|-c)>>63)
			if x|y != 0 {
				if x != 0 {
					s.bs[(m-1)&queensRowMask] = b
					s.bs[m&queensRowMask] = x
					s.classify(&s.bs)
				}
				if y != 0 {
					s.bs[(m-1)&queensRowMask] = c
					s.bs[m&queensRowMask] = y
					s.classify(&s.bs)
				}
			}
		}
		return
	}
	ok := s.rowOK[nr&queensRowMask]
	k := uint(m-nr) & 63
	side, special := s.side, nr == m-s.b1
	nodes := int64(0)
	for f != 0 {
		bit := f & -f
		f ^= bit
		nodes++
		s.bs[r&queensRowMask] = bit
		nl, nd, nrt := (l|bit)<<1, d|bit, (rt|bit)>>1
		// One branch for both tests: g is cleared when the last row
		// has no column left.
		g := ok &^ (nl | nd | nrt) & queensAll(lastOK&^(nd|nl<<k|nrt>>k))
		if special {
			if taken := nd & side; taken == 0 {
				continue
			} else if taken != side {
				g &= side
			}
		}
		if g != 0 {
			s.edgeRec(nr, g, nl, nd, nrt)
		}
	}
	s.res.nodes += nodes
}

// queensHalt unwinds the recursive searches (edgeRec, cornerRec) at once
// when a worker must stop; run recovers it. This keeps the test for a stop
// out of every call: only the periodic poll can raise it.
type queensHalt struct{}

// queensAll returns all ones if x is not zero, and zero if it is.
func queensAll(x uint64) uint64 {
	return uint64(int64(x|-x) >> 63)
}

// cornerRec is edgeRec for corner classes: every column of the last row
// is allowed, and column 1 is barred above row b1.
func (s *queensSym) cornerRec(r int, f, l, d, rt uint64) {
	s.ticks++
	if s.ticks&queensPollMask == 0 && s.poll() {
		panic(queensHalt{})
	}
	m, mask := s.m, s.mask
	nr := r + 1
	if nr >= m-1 {
		for f != 0 {
			bit := f & -f
			f ^= bit
			nl, nd, nrt := (l|bit)<<1, d|bit, (rt|bit)>>1
			g := mask &^ (nl | nd | nrt)
			b := g & -g
			c := g ^ b
			x := mask &^ ((nl|b)<<1 | nd | b | (nrt|b)>>1) & queensAll(b)
			y := mask &^ ((nl|c)<<1 | nd | c | (nrt|c)>>1) & queensAll(c)
			s.res.nodes += int64(1 + (b|-b)>>63 + (c|-c)>>63)
			s.res.c8 += (x|-x)>>63 + (y|-y)>>63
		}
		return
	}
	ok := s.rowOK[nr&queensRowMask]
	k := uint(m-nr) & 63
	nodes := int64(0)
	for f != 0 {
		bit := f & -f
		f ^= bit
		nodes++
		nl, nd, nrt := (l|bit)<<1, d|bit, (rt|bit)>>1
		if g := ok &^ (nl | nd | nrt) & queensAll(mask&^(nd|nl<<k|nrt>>k)); g != 0 {
			s.cornerRec(nr, g, nl, nd, nrt)
		}
	}
	s.res.nodes += nodes
}
