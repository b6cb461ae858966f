package tour

// Knight's tours counted by a frontier (broken-profile) dynamic programme,
// strategy "frontier". It shares nothing with the searches: it never builds
// a tour, it counts edge sets.
//
// The board is processed square by square in row-major order along its
// shorter side (a wider board is transposed first; the knight graph does not
// change). A knight move reaches at most two rows back, so when square v is
// processed every square that can still gain an edge lies in the window of
// the 2W+1 squares before it (W the shorter side). A state records, for each
// window square, how many more tour edges it needs (0, 1 or 2) and, for the
// squares that need one (ends of path fragments), which other square is the
// fragment's other end, relabelled canonically in window order. Processing v
// chooses which of its (at most four) backward knight edges enter the tour,
// at most two, and updates the fragments; the oldest square leaves the
// window. A choice is pruned when a square needs more edges than it has
// knight moves left to later squares, or when it would close a cycle (or
// finish a path) before the last square.
// Open tours also prune when more squares than the path ends left are short
// of forward moves.
//
// Closed tours are Hamiltonian cycles, counted undirected as the project's
// convention says. Open tours are Hamiltonian paths: a square left with one
// edge when it has no forward move left becomes a path end, as if it had a
// virtual edge to the outside (at most two ends; for a given start, the
// start must be one of them and never gets a second edge). Each undirected path with the start as an end is one directed tour
// from the start; over all starts, every undirected path is two directed
// tours.
//
// Counts are exact: each state's count is a number of 64-bit limbs; the run
// starts with one limb and, if any addition overflows, runs again with twice
// as many, up to as many as a bound on the count needs (11^squares: every
// square picks at most two of its four backward edges).
//
// A state is one 64-bit word (four bits a window square, see fcDone and
// the codes after it), and a step works on that word directly with nibble
// arithmetic (see step), never decoding it.
//
// The layers use both cores: a layer is split into many hash tables
// (buckets) by the high bits of the key's hash; the workers expand rounds
// of the current layer's slots (taking units from a shared counter) into
// per-bucket buffers, and then each worker merges the buffers of the
// buckets it owns. Emptied tables are reused by the next layer.

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// FrontierMaxSide is the largest shorter side the frontier counter accepts
// at all: the window of 2W+1 squares, four bits each, and two bits of path
// ends must fit in a 64-bit key. (Wider boards would also need far more
// memory than this machine has: see frontierPeak.)
const FrontierMaxSide = 7

// frontierPeak holds the estimated peak layer sizes (states) by shorter
// side W, for closed tours and for open tours, on boards W+1 tall; a
// taller board's estimate grows in proportion to its height. Measured
// (peak layers): closed 5x8 28,545, 6x8 938,849, 6x10 1,425,748, 7x8
// 22,538,221; open, all starts, 5x8 714,380, 6x7 15,988,144, 6x8
// 22,139,418. One more unit of W multiplied the peak by 24 to 36, so W = 8
// (and open W = 7) is extrapolated by frontierGrowth = 25: closed 8x8
// about 560 million states, open 7x7 about 560 million.
var frontierPeak = map[bool][]int64{
	true:  {0, 1, 1, 200, 2_000, 30_000, 950_000, 22_500_000, 560_000_000},
	false: {0, 1, 1, 500, 20_000, 720_000, 22_000_000, 560_000_000, 14_000_000_000},
}

// frontierGrowth is the assumed growth of the peak layer per unit of the
// shorter side beyond the table.
const frontierGrowth = 25

func init() {
	search.Register(search.Strategy{Puzzle: "tour", Name: "frontier", Tasks: []puzzle.Task{puzzle.Count},
		Doc:   "count by frontier DP over the board (degrees and path-end pairing of a 2W+1-square window), exact, both cores",
		Solve: tourSolveFrontier})
}

// tourSolveFrontier answers a count request with the frontier DP.
func tourSolveFrontier(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t, ok := req.Spec.(puzzle.Tour)
	if !ok {
		return puzzle.Answer{}, fmt.Errorf("not a tour instance: %s", req.Spec)
	}
	// The memory budget (package membudget) bounds the hash tables
	// (current and next layer and buffers): a board whose estimated peak
	// passes it is refused up front; a run that outgrows it stops with
	// status memout.
	return frontierCount(ctx, t, search.Threads(req.Threads), membudget.Budget())
}

// frontierEstimate returns the estimated peak number of states of a board
// with shorter side w and longer side h.
func frontierEstimate(w, h int, closed bool) int64 {
	tab := frontierPeak[closed]
	var e int64
	if w < len(tab) {
		e = tab[w]
	} else {
		e = tab[len(tab)-1]
		for i := len(tab); i <= w && e < 1<<50; i++ {
			e *= frontierGrowth
		}
	}
	if h > w+1 && e < 1<<50 {
		e = e * int64(min(h, 1<<10)) / int64(w+1)
	}
	return e
}

// frontierBytesPerState is the memory one state of the peak layer costs
// with k limbs, measured (100 to 120 bytes with one limb): its key and
// count in a table 35% to 70% full, the other layer's table, and the
// buffers.
func frontierBytesPerState(k int) int64 { return int64(1+k) * 60 }

// frontierCount counts the tours of t with the frontier DP.
func frontierCount(ctx context.Context, t puzzle.Tour, threads int, budget int64) (puzzle.Answer, error) {
	b := t.Board
	n := b.Size()
	if n == 1 {
		if t.Closed {
			return tourUnsat("no closed tour on a 1x1 board (convention)"), nil
		}
		return puzzle.Answer{Status: puzzle.OK, Count: 1, Stats: map[string]int64{puzzle.StatStates: 1}}, nil
	}
	w, h := min(b.W, b.H), max(b.W, b.H)
	est := frontierEstimate(w, h, t.Closed)
	need := est * frontierBytesPerState(1)
	if w > FrontierMaxSide {
		return puzzle.Answer{}, fmt.Errorf("the frontier counter refuses %s: its shorter side %d is over %d (the window of 2W+1 squares must fit a 64-bit key), and its peak layer would hold about %d states, about %d GiB",
			b, w, FrontierMaxSide, est, need>>30)
	}
	if need > budget {
		return puzzle.Answer{}, fmt.Errorf("the frontier counter refuses %s: about %d states at the peak layer, about %s, over its memory budget of %s (solve --mem sets it)",
			b, est, membudget.Bytes(need), membudget.Bytes(budget))
	}
	if threads < 1 {
		threads = 1
	}
	p := newFrontierPlan(t)
	// One limb first; after an overflow, twice as many, up to the bound
	// (which cannot overflow).
	bound := p.boundLimbs()
	for limbs := 1; ; {
		r := p.run(ctx, threads, limbs, budget)
		if r.overflow && limbs < bound {
			limbs = min(2*limbs, bound)
			continue
		}
		return r.answer(ctx, p, limbs, budget), nil
	}
}

// frontierPlan is the fixed part of a frontier run: the board in processing
// coordinates (W the shorter side), each square's backward knight edges, and
// how many forward moves each of those squares has left after it.
type frontierPlan struct {
	w, n, win int
	closed    bool
	start     int // the fixed start in processing order, or -1 for all starts
	maxEnds   int // path ends other than the fixed start (open tours)
	// back[v] lists v's backward neighbours as window positions (before v is
	// processed, position p holds square v-win+p).
	back [][]int
	// choices[v] lists the subsets of v's backward edges a tour may take
	// (at most two), as bit masks over back[v].
	choices [][]int
	// startBit[v] is the bit of the fixed start in v's choice masks (0 if
	// the start is not a backward neighbour of v); spos[v] is the start's
	// window position while v is processed, or -1.
	startBit []int
	spos     []int
	// rem[v] holds, in nibble pos, how many forward moves the square at
	// window position pos (before the shift) has to squares after v
	// (2 for positions off the board, which need nothing).
	rem []uint64
	// fin[v] marks (bit 4*pos) the window squares whose last forward move
	// is v, or v itself without one: for open tours they are decided
	// (a square left with one edge is a path end) when v is processed.
	fin []uint64
}

func newFrontierPlan(t puzzle.Tour) *frontierPlan {
	b := t.Board
	w, h := b.W, b.H
	start := int(t.Start)
	if w > h {
		// Transpose: file f, rank r becomes file r, rank f.
		w, h = h, w
		start = (start%b.W)*w + start/b.W
	}
	p := &frontierPlan{w: w, n: w * h, win: 2*w + 1, closed: t.Closed, start: start, maxEnds: 1}
	if t.AllStarts || t.Closed {
		p.start = -1
		p.maxEnds = 2
	}
	on := func(c, r int) bool { return c >= 0 && c < w && r >= 0 && r < h }
	fwdOf := func(u int) []int {
		c, r := u%w, u/w
		var out []int
		for _, d := range [][2]int{{-2, 1}, {2, 1}, {-1, 2}, {1, 2}} {
			if on(c+d[0], r+d[1]) {
				out = append(out, u+d[1]*w+d[0])
			}
		}
		return out
	}
	remOf := func(u, v int) uint64 { // u's forward moves to squares after v
		if u < 0 {
			return 2
		}
		n := uint64(0)
		for _, x := range fwdOf(u) {
			if x > v {
				n++
			}
		}
		return n
	}
	p.back = make([][]int, p.n)
	p.choices = make([][]int, p.n)
	p.startBit = make([]int, p.n)
	p.spos = make([]int, p.n)
	p.rem = make([]uint64, p.n)
	p.fin = make([]uint64, p.n)
	for v := range p.n {
		for pos := range p.win + 1 {
			p.rem[v] |= remOf(v-p.win+pos, v) << (4 * pos)
		}
		c, r := v%w, v/w
		for _, d := range [][2]int{{1, -2}, {-1, -2}, {2, -1}, {-2, -1}} {
			if !on(c+d[0], r+d[1]) {
				continue
			}
			u := v + d[1]*w + d[0]
			if u == p.start {
				p.startBit[v] = 1 << len(p.back[v])
			}
			pos := u - (v - p.win)
			if remOf(u, v) == 0 {
				p.fin[v] |= 1 << (4 * pos)
			}
			p.back[v] = append(p.back[v], pos)
		}
		if len(fwdOf(v)) == 0 {
			p.fin[v] |= 1 << (4 * p.win)
		}
		for m := range 1 << len(p.back[v]) {
			if bits.OnesCount(uint(m)) <= 2 {
				p.choices[v] = append(p.choices[v], m)
			}
		}
		p.spos[v] = -1
		if p.start >= 0 && p.start <= v && p.start >= v-p.win {
			p.spos[v] = p.start - v + p.win
		}
	}
	return p
}

// boundLimbs is the number of 64-bit limbs that hold any count of the run:
// at most 11 edge choices per square, twice (directed) for every start.
func (p *frontierPlan) boundLimbs() int {
	bound := new(big.Int).Exp(big.NewInt(11), big.NewInt(int64(p.n)), nil)
	bound.Mul(bound, big.NewInt(int64(2*p.n)))
	return bound.BitLen()/64 + 1
}

// The state key, one 64-bit word: the window's 2W+1 squares, four bits each
// (position p in bits 4p..4p+3), and the number of path ends used in bits
// 60-61. Square codes: 0 needs no edge (or is off the board), 1 needs two
// (no edge yet), 2 needs one and its fragment's other end is virtual (a path
// end chosen earlier), 3 and up need one and name the fragment, numbered in
// window order.
const (
	fcDone   = 0
	fcEmpty  = 1
	fcSingle = 2
	fcLabel  = 3
	fEndBit  = 60
	fEmpty   = ^uint64(0) // marks a free hash slot (bits 62-63 of a key are zero)
)

// frontierResult is what one run of the DP found.
type frontierResult struct {
	total     []uint64
	overflow  bool
	stopped   bool
	overMem   bool
	peak      int64 // states in the largest layer
	states    int64 // states stored over all layers
	peakBytes int64 // table and buffer bytes at the largest layer
}

func (r frontierResult) answer(ctx context.Context, p *frontierPlan, nLimbs int, budget int64) puzzle.Answer {
	stats := map[string]int64{puzzle.StatStates: r.peak}
	mem := fmt.Sprintf("peak layer %d states, %d states in all, peak table memory %d MiB, %d-limb counts",
		r.peak, r.states, r.peakBytes>>20, nLimbs)
	switch {
	case r.stopped:
		msg := "stopped"
		if err := ctx.Err(); err != nil {
			msg = err.Error()
		}
		return puzzle.Answer{Status: puzzle.Timeout, Message: msg + "; " + mem, Stats: stats}
	case r.overMem:
		return puzzle.Answer{Status: puzzle.Memout, Stats: stats,
			Message: fmt.Sprintf("the frontier tables outgrew the memory budget of %s; %s", membudget.Bytes(budget), mem)}
	case r.overflow:
		return puzzle.Answer{Status: puzzle.Error, Stats: stats, Message: "count overflow beyond the bound; " + mem}
	}
	n := limbs.Big(r.total)
	if p.start < 0 && !p.closed {
		n.Lsh(n, 1) // every undirected path is two directed tours
	}
	ans := puzzle.Answer{Status: puzzle.OK, Stats: stats, Message: mem}
	if n.Sign() == 0 {
		ans.Status = puzzle.Unsat
		ans.Message = "no tour (frontier DP); " + mem
	}
	ans.SetCount(n)
	return ans
}

// Layer building: the current layer's slots are cut into units of at most
// frontierUnit slots; a round expands up to frontierRound slots' worth of
// units (the workers take units from a shared counter) into per-worker,
// per-bucket buffers, and then each worker merges the buffers of its own
// buckets (bucket b belongs to worker b mod threads) into the next layer.
const (
	frontierUnit  = 1 << 13
	frontierRound = 1 << 20
	// frontierBucket is the number of states a bucket should hold, so
	// that its table stays in the cache while a round is merged.
	frontierBucket = 1 << 14
)

// fLayer is one layer of states: buckets chosen by the key hash's high bits.
type fLayer struct {
	buckets []*fTable
	shift   uint // bucket = hash >> shift (64 for a single bucket)
}

// used is the number of states in the layer.
func (l *fLayer) used() int64 {
	var n int64
	for _, t := range l.buckets {
		n += int64(t.used)
	}
	return n
}

// fTablesBytes is the memory of the tables ts.
func fTablesBytes(ts []*fTable) int64 {
	var n int64
	for _, t := range ts {
		n += t.bytes()
	}
	return n
}

// fPool keeps emptied tables for reuse, so that memory is not reallocated
// at every layer.
type fPool struct {
	k    int
	free []*fTable
}

// layer returns an empty layer for about states states: enough buckets
// of about frontierBucket states each, at least one per worker.
func (p *fPool) layer(states int64, threads int) *fLayer {
	nb, lg := 1, 0
	for int64(nb)*frontierBucket < states || nb < threads {
		nb <<= 1
		lg++
	}
	l := &fLayer{buckets: make([]*fTable, nb), shift: uint(64 - lg)}
	for i := range l.buckets {
		if n := len(p.free); n > 0 {
			l.buckets[i] = p.free[n-1]
			p.free = p.free[:n-1]
		} else {
			l.buckets[i] = &fTable{k: p.k}
			l.buckets[i].alloc(256)
		}
	}
	return l
}

// release empties the layer's tables and keeps them for reuse.
func (p *fPool) release(l *fLayer) {
	for _, t := range l.buckets {
		t.reset()
		p.free = append(p.free, t)
	}
	l.buckets = nil
}

// fUnit is a range of slots of one table of the current layer.
type fUnit struct {
	t        *fTable
	from, to int
}

// run performs the whole DP with counts of k limbs.
func (p *frontierPlan) run(ctx context.Context, threads, k int, budget int64) frontierResult {
	res := frontierResult{total: make([]uint64, k)}
	pool := &fPool{k: k}
	cur := pool.layer(1, 1)
	// The empty window before square 0: every position off the board.
	one := make([]uint64, k)
	one[0] = 1
	cur.buckets[0].add(0, fHash(0), one)
	workers := make([]*frontierWorker, threads)
	for i := range workers {
		workers[i] = &frontierWorker{p: p, k: k, total: make([]uint64, k)}
	}
	for v := 0; v < p.n; v++ {
		if ctx.Err() != nil {
			res.stopped = true
			return res
		}
		// The next layer is sized for twice the current one (it rarely
		// grows faster; buckets grow on their own if it does).
		next := pool.layer(2*cur.used(), threads)
		units := fUnits(cur)
		fWorkersInto(workers, cur, next)
		var bufBytes int64
		for r := 0; r < len(units); {
			if ctx.Err() != nil {
				res.stopped = true
				return res
			}
			end, slots := r, 0
			for end < len(units) && slots < frontierRound {
				slots += units[end].to - units[end].from
				end++
			}
			round := units[r:end]
			r = end
			fExpandRound(workers, v, round)
			fMergeRound(workers, next)
			bufBytes = 0
			for _, wk := range workers {
				for _, o := range wk.out {
					bufBytes += int64(cap(o)) * 8
				}
			}
			if fTablesBytes(cur.buckets)+fTablesBytes(next.buckets)+fTablesBytes(pool.free)+bufBytes > budget {
				res.overMem = true
				res.peakBytes = max(res.peakBytes, fTablesBytes(cur.buckets)+fTablesBytes(next.buckets)+fTablesBytes(pool.free)+bufBytes)
				return res
			}
		}
		layer := next.used()
		res.peakBytes = max(res.peakBytes, fTablesBytes(cur.buckets)+fTablesBytes(next.buckets)+fTablesBytes(pool.free)+bufBytes)
		res.states += layer
		res.peak = max(res.peak, layer)
		for _, wk := range workers {
			if wk.overflow {
				res.overflow = true
			}
		}
		if res.overflow {
			return res
		}
		pool.release(cur)
		cur = next
	}
	for _, wk := range workers {
		if limbs.Add(res.total, wk.total) {
			res.overflow = true
		}
	}
	return res
}

// fUnits cuts the tables of layer cur into units of work.
func fUnits(cur *fLayer) []fUnit {
	var units []fUnit
	for _, t := range cur.buckets {
		for from := 0; from < t.slots; from += frontierUnit {
			units = append(units, fUnit{t, from, min(t.slots, from+frontierUnit)})
		}
	}
	return units
}

// fWorkersInto points the workers at layer next, which layer cur expands
// into, with a buffer per bucket of next.
func fWorkersInto(workers []*frontierWorker, cur, next *fLayer) {
	threads := len(workers)
	for _, wk := range workers {
		wk.next = next
		if nb := len(next.buckets); len(wk.out) != nb {
			// Room for a round's share (about two states out for one
			// in), so that buffers rarely grow.
			per := (1 + wk.k) * 2 * int(min(cur.used(), frontierRound)) / nb / threads
			wk.out = make([][]uint64, nb)
			for b := range wk.out {
				wk.out[b] = make([]uint64, 0, per)
			}
		}
	}
}

// fExpandRound has the workers expand the units of round at square v,
// each taking the next unit left.
func fExpandRound(workers []*frontierWorker, v int, round []fUnit) {
	var wg sync.WaitGroup
	var cursor atomic.Int64
	for _, wk := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(cursor.Add(1)) - 1
				if i >= len(round) {
					return
				}
				wk.expand(v, round[i].t, round[i].from, round[i].to)
			}
		}()
	}
	wg.Wait()
}

// fMergeRound adds the workers' buffers into the tables of layer next,
// each goroutine merging its own share of the buckets, and empties them.
func fMergeRound(workers []*frontierWorker, next *fLayer) {
	var wg sync.WaitGroup
	threads := len(workers)
	for wi := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := wi; b < len(next.buckets); b += threads {
				t := next.buckets[b]
				for _, wk := range workers {
					if t.merge(wk.out[b], wk.k) {
						wk.overflow = true
					}
					wk.out[b] = wk.out[b][:0]
				}
			}
		}()
	}
	wg.Wait()
}

// frontierWorker expands states of one layer into per-bucket buffers.
type frontierWorker struct {
	p        *frontierPlan
	k        int
	next     *fLayer
	out      [][]uint64 // per bucket of next: key, k limbs, ...
	total    []uint64   // counts of finished tours (at the last square)
	overflow bool
}

// Nibble arithmetic on a window word (16 nibbles, position p in bits
// 4p..4p+3): nibOnes has a 1 in every nibble, nibHigh the top bit of every
// nibble.
const (
	nibOnes = 0x1111111111111111
	nibHigh = 0x8888888888888888
)

// nibNonzero marks (bit 4p) the nonzero nibbles of s.
func nibNonzero(s uint64) uint64 {
	s |= s >> 1
	s |= s >> 2
	return s & nibOnes
}

// nibEq marks (bit 4p) the nibbles of s equal to c (c > 0 leaves the
// zero nibbles beyond the window out).
func nibEq(s, c uint64) uint64 { return ^nibNonzero(s^c*nibOnes) & nibOnes }

// nibSet sets the nibbles marked in m (bit 4p) to c.
func nibSet(s, m, c uint64) uint64 { return s&^(m*15) | m*c }

// nibNeed gives, in each nibble, how many edges the window square still
// needs: 0 for code 0, 2 for code 1 (empty), 1 for the others.
func nibNeed(s uint64) uint64 { return nibNonzero(s) + nibEq(s, fcEmpty) }

// nibShort marks (bit 4p+3) the nibbles where need is over rem (both
// nibble vectors of values below 8).
func nibShort(need, rem uint64) uint64 { return ^((rem | nibHigh) - need) & nibHigh }

// fRelabel renumbers the fragment labels of a window word canonically: 3,
// 4, ... in the order of their first square.
func fRelabel(s uint64) uint64 {
	lm := nibNonzero(s) &^ (nibEq(s, fcEmpty) | nibEq(s, fcSingle))
	out := s &^ (lm * 15)
	for next := uint64(fcLabel); lm != 0; next++ {
		e := nibEq(s, s>>uint(bits.TrailingZeros64(lm))&15)
		out |= e * next
		lm &^= e
	}
	return out
}

// fFresh is the label a new fragment gets until the window is relabelled:
// canonical labels stay below it (at most 8 fragments in 16 squares).
const fFresh = 15

// expand processes square v for the states in slots [from, to) of t.
func (wk *frontierWorker) expand(v int, t *fTable, from, to int) {
	p, k := wk.p, wk.k
	winMask := uint64(1)<<(4*uint(p.win)) - 1
	newSq := uint64(fcEmpty) << (4 * uint(p.win))
	for s := from; s < to; s++ {
		key := t.data[s*(1+k)]
		if key == fEmpty {
			continue
		}
		val := t.data[s*(1+k)+1 : s*(1+k)+1+k]
		ends := int(key >> fEndBit & 3)
		w := key&winMask | newSq
		// A choice is a subset of at most two backward edges to squares
		// that still need one.
		avail := 0
		for i, u := range p.back[v] {
			if w>>(4*uint(u))&15 != 0 {
				avail |= 1 << i
			}
		}
		for _, mask := range p.choices[v] {
			if mask&^avail != 0 {
				continue
			}
			if nw, e, ok := p.step(v, w, mask, ends); ok {
				wk.emit(v, nw, e, val)
			}
		}
	}
}

// step makes one choice of backward edges for square v on the window word
// w (v at position win, needing two edges) and decides the squares that
// have no forward move left. It returns the new window word (before the
// shift), the new number of path ends, and false when the choice is
// invalid or pruned.
//
// An edge u-v joins two fragment ends (or starts a fragment at a square
// without edges): the ends' labels say which fragments. Closed tours: a
// square must reach degree 2; a choice is pruned when a square needs more
// edges than it has forward moves left. Open tours: a square decided with
// degree 1 is a path end (the fixed start must be one, and may never get
// degree 2); its fragment's other end then has a virtual partner (code 2),
// and when both ends of a fragment are path ends the path is complete; a
// choice is pruned when more squares than the path ends left are short of
// forward moves. Completing the cycle or the path is valid only at the
// last square, once, with every square done.
func (p *frontierPlan) step(v int, w uint64, mask, ends int) (uint64, int, bool) {
	x := 4 * uint(p.win)
	complete := 0
	for i, u := range p.back[v] {
		if mask>>i&1 == 0 {
			continue
		}
		if complete > 0 {
			return 0, 0, false
		}
		pu := 4 * uint(u)
		cu, cx := w>>pu&15, w>>x&15
		w &^= 15<<pu | 15<<x
		switch {
		case cu == fcEmpty && cx == fcEmpty: // a new fragment u-v
			w |= fFresh<<pu | fFresh<<x
		case cx == fcEmpty: // v continues u's fragment
			w |= cu << x
		case cu == fcEmpty: // u continues v's fragment
			w |= cx << pu
		case cu == cx && cu >= fcLabel: // the ends of one fragment: a cycle
			if !p.closed {
				return 0, 0, false
			}
			complete++
		case cu == fcSingle && cx == fcSingle: // two path ends meet
			complete++
		case cu == fcSingle: // v's partner becomes the path's open end
			w = nibSet(w, nibEq(w, cx), fcSingle)
		case cx == fcSingle:
			w = nibSet(w, nibEq(w, cu), fcSingle)
		default: // two fragments become one
			w = nibSet(w, nibEq(w, cx), cu)
		}
	}
	last := v == p.n-1
	if p.closed {
		if nibShort(nibNeed(w), p.rem[v]) != 0 {
			return 0, 0, false
		}
		if complete > 0 || last {
			return w, ends, complete == 1 && last && w == 0
		}
		return w, ends, true
	}
	// Open tours. The fixed start never gets a second edge.
	sp := p.spos[v]
	if sp >= 0 && w>>(4*uint(sp))&15 == 0 && (sp == p.win || mask&p.startBit[v] != 0) {
		return 0, 0, false
	}
	fin := p.fin[v]
	if last {
		fin = nibOnes
	}
	for m := fin & nibNonzero(w); m != 0; m &= m - 1 {
		pb := uint(bits.TrailingZeros64(m))
		c := w >> pb & 15
		if c == fcEmpty {
			return 0, 0, false // a square without an edge (n > 1)
		}
		if int(pb/4) != sp {
			if ends++; ends > p.maxEnds {
				return 0, 0, false
			}
		}
		w &^= 15 << pb
		if c == fcSingle {
			complete++
		} else {
			w = nibSet(w, nibEq(w, c), fcSingle)
		}
	}
	if last {
		return w, ends, complete == 1
	}
	if w&15 != 0 || complete > 0 {
		return 0, 0, false
	}
	// Every square short of forward moves for degree 2 must become a path
	// end: together with the ends so far, at most maxEnds.
	short := nibShort(nibNeed(w), p.rem[v])
	if sp >= 0 {
		short &^= 8 << (4 * uint(sp))
	}
	if ends+bits.OnesCount64(short) > p.maxEnds {
		return 0, 0, false
	}
	return w, ends, true
}

// emit shifts the window word after v (positions 1..win become
// 0..win-1), relabels it and appends it with val to its bucket's buffer;
// the last square's completed tours go to the total.
func (wk *frontierWorker) emit(v int, w uint64, ends int, val []uint64) {
	if v == wk.p.n-1 {
		// step let through only completed tours.
		if limbs.Add(wk.total, val) {
			wk.overflow = true
		}
		return
	}
	key := fRelabel(w>>4) | uint64(ends)<<fEndBit
	b := fHash(key) >> wk.next.shift
	if wk.k == 1 {
		wk.out[b] = append(wk.out[b], key, val[0])
	} else {
		wk.out[b] = append(wk.out[b], key)
		wk.out[b] = append(wk.out[b], val...)
	}
}
