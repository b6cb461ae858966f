package pieces

// Non-attacking pieces: the fast counter's bitboard engines, one-word masks
// (up to 64 squares) and four-word masks (up to 256 squares).

import (
	"context"
	"math/bits"
	"sync/atomic"

	"github.com/boardsat/boardsat/puzzle"
)

// ---------------------------------------------------------------------------
// Single-word engine: boards of up to 64 squares.

// pieces64 holds the tables of the single-word engine.
type pieces64 struct {
	pl    *piecesPlan
	all   uint64
	att   [puzzle.NumKinds][64]uint64 // att[j][q]: squares kinds[j] on q attacks
	above [64]uint64                  // squares after q
}

func newPieces64(pl *piecesPlan) *pieces64 {
	e := &pieces64{pl: pl}
	if pl.n == 64 {
		e.all = ^uint64(0)
	} else {
		e.all = 1<<uint(pl.n) - 1
	}
	for j, k := range pl.kinds {
		for q := range pl.n {
			for _, t := range pl.board.Attacks(k, puzzle.Square(q)) {
				e.att[j][q] |= 1 << uint(t)
			}
		}
	}
	for q := range pl.n {
		e.above[q] = e.all &^ (2<<uint(q) - 1)
	}
	return e
}

// pieces64State is the search state: squares no piece may take (occupied or
// attacked), per kind the squares from which it would attack a placed
// piece, and the last square taken.
type pieces64State struct {
	blocked uint64
	forb    [puzzle.NumKinds]uint64
	last    int
}

// cand returns the squares slot i may take.
func (e *pieces64) cand(i int, st *pieces64State) uint64 {
	c := e.all &^ (st.blocked | st.forb[e.pl.slot[i]])
	if !e.pl.first[i] {
		c &= e.above[st.last]
	}
	return c
}

// place puts slot i's piece on q.
func (e *pieces64) place(i, q int, st *pieces64State) {
	j := e.pl.slot[i]
	st.blocked |= 1<<uint(q) | e.att[j][q]
	for u := j + 1; u < len(e.pl.kinds); u++ {
		st.forb[u] |= e.att[u][q]
	}
	st.last = q
}

// legal reports whether prefix is a legal partial placement.
func (e *pieces64) legal(prefix []int) bool {
	var st pieces64State
	for i, q := range prefix {
		if e.cand(i, &st)&(1<<uint(q)) == 0 {
			return false
		}
		e.place(i, q, &st)
	}
	return true
}

// enumerate visits every solution, in increasing order of squares per slot.
func (e *pieces64) enumerate(run *piecesRun) {
	m := len(e.pl.slot)
	sq := make([]puzzle.Square, m)
	kinds := e.pl.slotKinds()
	var walk func(i int, st pieces64State) bool
	walk = func(i int, st pieces64State) bool {
		if i == m {
			return run.found(sq, kinds)
		}
		c := e.cand(i, &st)
		for c != 0 {
			q := bits.TrailingZeros64(c)
			c &= c - 1
			run.nodes++
			if run.poll() {
				return false
			}
			sq[i] = puzzle.Square(q)
			nst := st
			e.place(i, q, &nst)
			if !walk(i+1, nst) {
				return false
			}
		}
		return true
	}
	walk(0, pieces64State{})
}

// pieces64Worker counts subproblems on the single-word engine.
type pieces64Worker struct {
	*pieces64
	piecesStopper
	nodes int64
	ticks int64 // loop iterations, for polling
	m     int
	slot  []int
	first []bool
	// needAt[i][u]: copies of kinds[u] to place after slot i.
	needAt [][puzzle.NumKinds]int
}

func (e *pieces64) worker(ctx context.Context, stop *atomic.Bool) piecesCounter {
	return &pieces64Worker{pieces64: e, piecesStopper: piecesStopper{ctx: ctx, stop: stop}, m: len(e.pl.slot),
		slot: e.pl.slot, first: e.pl.first, needAt: e.pl.need}
}

func (w *pieces64Worker) nodeCount() int64 { return w.nodes }

func (w *pieces64Worker) countFrom(prefix []int) uint64 {
	if w.halted {
		return 0
	}
	var st pieces64State
	for i, q := range prefix {
		w.place(i, q, &st)
	}
	if len(prefix) == w.m {
		return 1
	}
	return w.count(len(prefix), st)
}

// count counts the completions from slot i: the last slot by popcount.
func (w *pieces64Worker) count(i int, st pieces64State) uint64 {
	j := w.slot[i]
	c := w.all &^ (st.blocked | st.forb[j])
	if !w.first[i] {
		c &= w.above[st.last]
	}
	if i == w.m-1 {
		return uint64(bits.OnesCount64(c))
	}
	var total uint64
	att := &w.att[j]
	if i == w.m-2 {
		// The last two pieces: the second by popcount for each first.
		u := w.slot[i+1]
		w.nodes += int64(bits.OnesCount64(c))
		for c != 0 {
			q := bits.TrailingZeros64(c)
			c &= c - 1
			free := w.all &^ (st.blocked | 1<<uint(q) | att[q])
			if u == j {
				total += uint64(bits.OnesCount64(free &^ st.forb[j] & w.above[q]))
			} else {
				total += uint64(bits.OnesCount64(free &^ (st.forb[u] | w.att[u][q])))
			}
		}
		return total
	}
	nk := len(w.pl.kinds)
	need := &w.needAt[i]
	for c != 0 {
		q := bits.TrailingZeros64(c)
		c &= c - 1
		w.nodes++
		w.ticks++
		if w.halted || (w.ticks&piecesPollMask == 0 && w.poll()) {
			return 0
		}
		nst := st
		nst.blocked |= 1<<uint(q) | att[q]
		nst.last = q
		free := w.all &^ nst.blocked
		ok := true
		// Later copies of this kind go after q.
		if need[j] > 0 && bits.OnesCount64(free&^st.forb[j]&w.above[q]) < need[j] {
			continue
		}
		for u := j + 1; u < nk; u++ {
			nst.forb[u] |= w.att[u][q]
			if bits.OnesCount64(free&^nst.forb[u]) < need[u] {
				ok = false
				break
			}
		}
		if ok {
			total += w.count(i+1, nst)
		}
	}
	return total
}

// piecesStopper is how a counting worker of either engine stops: its
// context, the flag every worker of the count shares, and whether this
// worker has stopped.
type piecesStopper struct {
	ctx    context.Context
	stop   *atomic.Bool
	halted bool
}

// poll reports whether to stop (context done or another worker stopped);
// once it reports true it keeps doing so, and tells the other workers.
func (p *piecesStopper) poll() bool {
	if !p.halted && (p.stop.Load() || p.ctx.Err() != nil) {
		p.stop.Store(true)
		p.halted = true
	}
	return p.halted
}

// ---------------------------------------------------------------------------
// Four-word engine: boards of 65 to 256 squares.
//
// Its tables, legal, enumerate and countFrom follow the single-word
// engine's line for line, on piecesWord for uint64 (count does not: the
// single-word one also counts the last two pieces by popcount). They are
// kept as two copies on purpose: enumerate's walk is a search's inner
// loop, and one generic copy would call the set operations as methods of
// a type parameter, through Go's dictionaries, where the single-word
// engine now has them inlined as uint64 instructions. What is the same
// whatever the set type is shared: piecesStopper, slotKinds.

// piecesWord is a set of up to 256 squares.
type piecesWord [4]uint64

func (a piecesWord) or(b piecesWord) piecesWord {
	return piecesWord{a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]}
}

func (a piecesWord) andNot(b piecesWord) piecesWord {
	return piecesWord{a[0] &^ b[0], a[1] &^ b[1], a[2] &^ b[2], a[3] &^ b[3]}
}

func (a piecesWord) count() int {
	return bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) + bits.OnesCount64(a[2]) + bits.OnesCount64(a[3])
}

func (a piecesWord) has(q int) bool { return a[q>>6]&(1<<uint(q&63)) != 0 }

func (a *piecesWord) add(q int) { a[q>>6] |= 1 << uint(q&63) }

// next removes and returns the lowest square of a, or -1 if it is empty.
func (a *piecesWord) next() int {
	for i, w := range a {
		if w != 0 {
			a[i] = w & (w - 1)
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// piecesWide holds the tables of the four-word engine.
type piecesWide struct {
	pl    *piecesPlan
	all   piecesWord
	att   [puzzle.NumKinds][]piecesWord
	above []piecesWord
}

func newPiecesWide(pl *piecesPlan) *piecesWide {
	e := &piecesWide{pl: pl, above: make([]piecesWord, pl.n)}
	for q := range pl.n {
		e.all.add(q)
	}
	for j, k := range pl.kinds {
		e.att[j] = make([]piecesWord, pl.n)
		for q := range pl.n {
			for _, t := range pl.board.Attacks(k, puzzle.Square(q)) {
				e.att[j][q].add(int(t))
			}
		}
	}
	for q := range pl.n {
		for t := q + 1; t < pl.n; t++ {
			e.above[q].add(t)
		}
	}
	return e
}

// piecesWideState is pieces64State on four words.
type piecesWideState struct {
	blocked piecesWord
	forb    [puzzle.NumKinds]piecesWord
	last    int
}

func (e *piecesWide) cand(i int, st *piecesWideState) piecesWord {
	c := e.all.andNot(st.blocked.or(st.forb[e.pl.slot[i]]))
	if !e.pl.first[i] {
		a := e.above[st.last]
		c = piecesWord{c[0] & a[0], c[1] & a[1], c[2] & a[2], c[3] & a[3]}
	}
	return c
}

func (e *piecesWide) place(i, q int, st *piecesWideState) {
	j := e.pl.slot[i]
	var bit piecesWord
	bit.add(q)
	st.blocked = st.blocked.or(bit).or(e.att[j][q])
	for u := j + 1; u < len(e.pl.kinds); u++ {
		st.forb[u] = st.forb[u].or(e.att[u][q])
	}
	st.last = q
}

func (e *piecesWide) legal(prefix []int) bool {
	var st piecesWideState
	for i, q := range prefix {
		if !e.cand(i, &st).has(q) {
			return false
		}
		e.place(i, q, &st)
	}
	return true
}

func (e *piecesWide) enumerate(run *piecesRun) {
	m := len(e.pl.slot)
	sq := make([]puzzle.Square, m)
	kinds := e.pl.slotKinds()
	var walk func(i int, st piecesWideState) bool
	walk = func(i int, st piecesWideState) bool {
		if i == m {
			return run.found(sq, kinds)
		}
		c := e.cand(i, &st)
		for q := c.next(); q >= 0; q = c.next() {
			run.nodes++
			if run.poll() {
				return false
			}
			sq[i] = puzzle.Square(q)
			nst := st
			e.place(i, q, &nst)
			if !walk(i+1, nst) {
				return false
			}
		}
		return true
	}
	walk(0, piecesWideState{})
}

// piecesWideWorker counts subproblems on the four-word engine.
type piecesWideWorker struct {
	*piecesWide
	piecesStopper
	nodes int64
}

func (e *piecesWide) worker(ctx context.Context, stop *atomic.Bool) piecesCounter {
	return &piecesWideWorker{piecesWide: e, piecesStopper: piecesStopper{ctx: ctx, stop: stop}}
}

func (w *piecesWideWorker) nodeCount() int64 { return w.nodes }

func (w *piecesWideWorker) countFrom(prefix []int) uint64 {
	if w.halted {
		return 0
	}
	var st piecesWideState
	for i, q := range prefix {
		w.place(i, q, &st)
	}
	if len(prefix) == len(w.pl.slot) {
		return 1
	}
	return w.count(len(prefix), st)
}

func (w *piecesWideWorker) count(i int, st piecesWideState) uint64 {
	c := w.cand(i, &st)
	if i == len(w.pl.slot)-1 {
		return uint64(c.count())
	}
	j := w.pl.slot[i]
	need := &w.pl.need[i]
	var total uint64
	for q := c.next(); q >= 0; q = c.next() {
		w.nodes++
		if w.halted || (w.nodes&piecesPollMask == 0 && w.poll()) {
			return 0
		}
		nst := st
		w.place(i, q, &nst)
		free := w.all.andNot(nst.blocked)
		ok := true
		for u := j; u < len(w.pl.kinds) && ok; u++ {
			f := free.andNot(nst.forb[u])
			if u == j {
				a := w.above[q]
				f = piecesWord{f[0] & a[0], f[1] & a[1], f[2] & a[2], f[3] & a[3]}
			}
			ok = f.count() >= need[u]
		}
		if ok {
			total += w.count(i+1, nst)
		}
	}
	return total
}
