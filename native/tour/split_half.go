package tour

// The half tables of the split counter (split.go): a frontier DP over one
// half of the board, rows 0..a-1 of a board w wide, in row-major order, that
// ends with the state of the last two rows instead of a closed cycle.
//
// The window holds the 2w+1 squares before the square being processed and
// that square (so up to 18 squares on an 8-wide board, which does not fit
// the 64-bit word of the whole-board frontier DP): a state key is two words,
// four bits a square (hKey). Codes are those of the frontier DP: 0 done (or
// off the board), 1 no edge yet (needs two), 3 and up one edge and the
// label of its path fragment, numbered in window order. A square's needs are
// checked against its forward knight moves on the whole board, crossing
// moves into the other half included, so a half state can always be
// completed by the other half as far as degrees go; a cycle closed inside
// the half is pruned (a tour crosses the cut).
//
// After the last square of the half, the state of its last two rows (2w
// squares, 64 bits for w <= 8) is the half's interface: which squares still
// need one or two edges (from crossing moves) and how the ends of the path
// fragments pair up.
//
// For open tours (Hamiltonian paths) a square may be one of the path's two
// ends: it then takes one edge. As in the whole-board frontier DP, a square
// is made an end when its last move is decided: a square of the half that
// is left with one edge when its forward moves are over becomes an end,
// and its fragment's other end takes code fcSingle (needs one edge, its
// fragment leads to a path end). The ends chosen so far (at most two) are
// counted in the key. The boundary squares, whose last moves are crossing
// moves, are made ends (or not) when the interface is written: a square
// without an edge becomes fcSingle (it is an end taking one crossing
// move), one with an edge becomes done and its partner fcSingle. A
// fragment whose two ends both lead to path ends would be the whole path
// inside the half and is pruned, as a cycle is.

import (
	"context"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/native/limbs"
)

// hKey is a window of up to 32 squares, four bits a square: square p in
// word p/16, bits 4(p%16)...
type hKey struct{ lo, hi uint64 }

func (k hKey) get(p int) uint8 {
	if p < 16 {
		return uint8(k.lo >> (4 * uint(p)) & 15)
	}
	return uint8(k.hi >> (4 * uint(p-16)) & 15)
}

func (k *hKey) set(p int, c uint8) {
	if p < 16 {
		k.lo = k.lo&^(15<<(4*uint(p))) | uint64(c)<<(4*uint(p))
		return
	}
	k.hi = k.hi&^(15<<(4*uint(p-16))) | uint64(c)<<(4*uint(p-16))
}

// hEndsShift is the place of the count of path ends chosen so far (open
// tours, 0 to 2) in the key's high word, above the window.
const hEndsShift = 60

func (k hKey) ends() int { return int(k.hi >> hEndsShift & 3) }

func (k hKey) hash() uint64 { return fHash(k.lo ^ fHash(k.hi+0x9e3779b97f4a7c15)) }

// halfPlan is the fixed part of a half DP: the board (w wide, h tall, in
// processing coordinates), the cut a (the half is rows 0..a-1), each
// square's backward knight edges as window positions and the forward moves
// each window square has left after it.
type halfPlan struct {
	w, h, a, win int
	open         bool // open tours: path ends are chosen (see above)
	// back[v] lists v's backward neighbours as window positions (before v
	// is processed, position p holds square v-win+p; v is at win).
	back [][]int
	// rem[v][p] is how many forward moves the square at window position p
	// has to squares after v, on the whole board (2 off the board).
	rem [][]uint8
}

func newHalfPlan(w, h, a int, open bool) *halfPlan {
	p := &halfPlan{w: w, h: h, a: a, win: 2*w + 1, open: open}
	on := func(c, r int) bool { return c >= 0 && c < w && r >= 0 && r < h }
	remOf := func(u, v int) uint8 {
		if u < 0 {
			return 2
		}
		n := uint8(0)
		c, r := u%w, u/w
		for _, d := range [][2]int{{-2, 1}, {2, 1}, {-1, 2}, {1, 2}} {
			if on(c+d[0], r+d[1]) && u+d[1]*w+d[0] > v {
				n++
			}
		}
		return n
	}
	n := w * a
	p.back = make([][]int, n)
	p.rem = make([][]uint8, n)
	for v := range n {
		p.rem[v] = make([]uint8, p.win+1)
		for pos := range p.win + 1 {
			p.rem[v][pos] = remOf(v-p.win+pos, v)
		}
		c, r := v%w, v/w
		for _, d := range [][2]int{{1, -2}, {-1, -2}, {2, -1}, {-2, -1}} {
			if on(c+d[0], r+d[1]) {
				p.back[v] = append(p.back[v], v+d[1]*w+d[0]-(v-p.win))
			}
		}
	}
	return p
}

// halfRelabel renumbers the fragment labels of the window positions
// [from, to) canonically (3, 4, ... in order of first square), in place.
func halfRelabel(win []uint8) {
	var m [16]uint8
	next := uint8(fcLabel)
	for i, c := range win {
		if c >= fcLabel {
			if m[c] == 0 {
				m[c] = next
				next++
			}
			win[i] = m[c]
		}
	}
}

// halfStep makes the choice mask of v's backward edges on the decoded window
// win (v at position p.win, needing two edges); it reports false when the
// choice is invalid or pruned (a square short of forward moves, a cycle
// closed, a whole path inside the half). ends is the number of path ends
// chosen so far (open tours); squares whose moves are over with one edge
// become path ends and are added to it.
func (p *halfPlan) halfStep(v int, win []uint8, mask int, ends *int) bool {
	x := p.win
	for i, u := range p.back[v] {
		if mask>>i&1 == 0 {
			continue
		}
		cu, cx := win[u], win[x]
		if cu == fcDone {
			return false
		}
		win[u], win[x] = fcDone, fcDone
		switch {
		case cu == fcEmpty && cx == fcEmpty:
			win[u], win[x] = fFresh, fFresh
		case cx == fcEmpty:
			win[x] = cu
		case cu == fcEmpty:
			win[u] = cx
		case cu == cx:
			return false // a cycle, or two fragments leading to path ends: a whole path
		default: // two fragments become one: the other end of one takes the other's code
			if cx == fcSingle {
				cu, cx = cx, cu // u's partner now leads to a path end
			}
			for j := range win {
				if win[j] == cx {
					win[j] = cu
				}
			}
		}
	}
	rem := p.rem[v]
	for pos, c := range win {
		r := rem[pos]
		switch {
		case c == fcDone:
		case c == fcEmpty:
			// Two more edges, or one as a path end.
			if r < 2 && (!p.open || r == 0 || *ends == 2) {
				return false
			}
		case r == 0:
			// One edge and no move left: a path end, unless its
			// fragment already leads to one (a whole path) or both
			// ends are taken.
			if !p.open || c == fcSingle || *ends == 2 {
				return false
			}
			*ends++
			win[pos] = fcDone
			for j := range win {
				if win[j] == c {
					win[j] = fcSingle
				}
			}
		}
	}
	return true
}

// ifaceEnds calls emit with every interface the boundary key k (2w
// squares) gives when its squares are made path ends or not, with at most
// two path ends in all (ends are chosen already), labels renumbered.
func (p *halfPlan) ifaceEnds(k uint64, ends int, emit func(uint64)) {
	n := 2 * p.w
	sq, out := make([]uint8, n), make([]uint8, n)
	for i := range n {
		sq[i] = uint8(k >> (4 * uint(i)) & 15)
	}
	var walk func(i, ends int)
	walk = func(i, ends int) {
		if i == n {
			copy(out, sq)
			halfRelabel(out)
			var key uint64
			for j, c := range out {
				key |= uint64(c) << (4 * uint(j))
			}
			emit(key)
			return
		}
		walk(i+1, ends)
		c := sq[i]
		if ends == 2 || c == fcDone || c == fcSingle {
			return
		}
		if c == fcEmpty { // an end taking one crossing move
			sq[i] = fcSingle
			walk(i+1, ends+1)
			sq[i] = c
			return
		}
		// An end with its edge in the half: its partner leads to it.
		j := slices.Index(sq, c)
		if j == i {
			j = i + 1 + slices.Index(sq[i+1:], c)
		}
		sq[i], sq[j] = fcDone, fcSingle
		walk(i+1, ends+1)
		sq[i], sq[j] = c, c
	}
	walk(0, ends)
}

// halfTable is the interface table of one half: boundary key (the 2w
// squares of the half's last two rows, four bits each, square (a-2)w+i in
// bits 4i..) to the number of partial path covers of the half with that
// interface.
type halfTable map[uint64]uint64

// halfResult is what a half DP found.
type halfResult struct {
	table    halfTable
	peak     int64 // states of the largest layer
	states   int64 // states over all layers
	overflow bool
	stopped  bool
}

// halfShards is the number of hash shards a layer is cut into (a power of
// two), so that the workers merge into disjoint maps.
const halfShards = 64

// run performs the half DP on threads workers; progress, if set, is called
// after each square with the square and the layer's states.
func (p *halfPlan) run(ctx context.Context, threads int, progress func(v, n int, states int64)) halfResult {
	var res halfResult
	cur := make([]map[hKey]uint64, halfShards)
	for i := range cur {
		cur[i] = map[hKey]uint64{}
	}
	cur[0][hKey{}] = 1
	n := p.w * p.a
	// A layer can hold millions of states: the workers look at stop every
	// few thousand, so that a time limit or a signal ends a layer within
	// milliseconds, not when it is done.
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	for v := range n {
		if stop.Load() || ctx.Err() != nil {
			res.stopped = true
			return res
		}
		// Expand: worker t takes the shards t, t+threads, ... of the
		// current layer and writes into per-(worker, shard) buffers.
		out := make([][][]halfEntry, threads)
		var wg sync.WaitGroup
		for t := range threads {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[t] = p.expandShards(v, cur, t, threads, &stop)
			}()
		}
		wg.Wait()
		next, overflow := halfMerge(out, threads, &stop)
		if stop.Load() {
			res.stopped = true
			return res
		}
		if overflow {
			res.overflow = true
			return res
		}
		cur = next
		var layer int64
		for _, m := range cur {
			layer += int64(len(m))
		}
		res.states += layer
		res.peak = max(res.peak, layer)
		if progress != nil {
			progress(v, n, layer)
		}
	}
	res.table, res.overflow = p.iface(cur)
	return res
}

// halfEntry is a state of the next layer and its count, as a worker
// expands it.
type halfEntry struct {
	k hKey
	c uint64
}

// expandShards expands the states of shards t, t+threads, ... of layer cur
// over square v, and returns them per shard of the next layer; it returns
// early, its buffers incomplete, once stop is set.
func (p *halfPlan) expandShards(v int, cur []map[hKey]uint64, t, threads int, stop *atomic.Bool) [][]halfEntry {
	out := make([][]halfEntry, halfShards)
	win := make([]uint8, p.win+1)
	tmp := make([]uint8, p.win+1)
	nb := len(p.back[v])
	seen := 0
	for s := t; s < halfShards; s += threads {
		for k, c := range cur[s] {
			if seen++; seen&1023 == 0 && stop.Load() {
				return out
			}
			for i := range p.win {
				win[i] = k.get(i)
			}
			win[p.win] = fcEmpty
			for mask := range 1 << nb {
				if bits.OnesCount(uint(mask)) > 2 {
					continue
				}
				copy(tmp, win)
				ends := k.ends()
				if !p.halfStep(v, tmp, mask, &ends) {
					continue
				}
				// tmp[0] is done (its forward moves are over).
				halfRelabel(tmp[1:])
				nk := hKey{hi: uint64(ends) << hEndsShift}
				for i := 1; i <= p.win; i++ {
					nk.set(i-1, tmp[i])
				}
				sh := nk.hash() >> (64 - 6)
				out[sh] = append(out[sh], halfEntry{nk, c})
			}
		}
	}
	return out
}

// halfMerge sums the workers' buffers into the next layer's shards, on
// threads goroutines, and empties them; it reports a count overflow. Once
// stop is set it returns early, the layer incomplete.
func halfMerge(out [][][]halfEntry, threads int, stop *atomic.Bool) ([]map[hKey]uint64, bool) {
	next := make([]map[hKey]uint64, halfShards)
	var overflow sync.Map
	var wg sync.WaitGroup
	for t := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := t; s < halfShards; s += threads {
				size := 0
				for _, o := range out {
					size += len(o[s])
				}
				m := make(map[hKey]uint64, size/2)
				for _, o := range out {
					if stop.Load() {
						return
					}
					for i, e := range o[s] {
						if i&4095 == 4095 && stop.Load() {
							return
						}
						sum, over := limbs.Add64(m[e.k], e.c)
						if over {
							overflow.Store(true, true)
						}
						m[e.k] = sum
					}
					o[s] = nil
				}
				next[s] = m
			}
		}()
	}
	wg.Wait()
	_, over := overflow.Load(true)
	return next, over
}

// iface returns the interface table of the last layer cur: window
// positions 1..win after the last square are squares (a-2)w-1 .. aw-1; the
// first is done. It reports a count overflow.
func (p *halfPlan) iface(cur []map[hKey]uint64) (halfTable, bool) {
	table := halfTable{}
	overflow := false
	add := func(key, c uint64) {
		sum, over := limbs.Add64(table[key], c)
		overflow = overflow || over
		table[key] = sum
	}
	for _, m := range cur {
		for k, c := range m {
			var key uint64
			for i := 1; i < p.win; i++ {
				key |= uint64(k.get(i)) << (4 * uint(i-1))
			}
			if !p.open {
				add(key, c)
				continue
			}
			p.ifaceEnds(key, k.ends(), func(key uint64) { add(key, c) })
		}
	}
	return table, overflow
}

// sortedKeys returns the table's keys in increasing order (for a
// deterministic split into subproblems).
func (t halfTable) sortedKeys() []uint64 {
	ks := make([]uint64, 0, len(t))
	for k := range t {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
