package tour

// The join of the split counter (see split.go).
//
// Boundary squares are numbered per half: index i < w is the square of the
// half's outer boundary row (bottom half: row a-2; top half: row a+1) in
// file i, index w+i the square of its inner row (a-1, or a) in file i. A
// crossing move joins the inner squares w+c and w+c+-2, an inner bottom
// square w+c and the outer top square c+-1, and the outer bottom square c
// and the inner top square w+c+-1; the rule is the same seen from the top,
// so splitAdj serves both sides.
//
// Open tours (Hamiltonian paths, counted once each whatever their
// direction) are joined the same way. A half's interface may have squares
// of code fcSingle, whose fragment leads to a path end inside the half;
// their partner in a pairing is the square itself. Following the bottom
// fragments from a top end then ends either at another top end or at a
// path end of the bottom half, and the two pairings must together make
// one single path instead of one single cycle (splitOnePath).

import (
	"math"
	"math/bits"
	"slices"

	"github.com/boardsat/boardsat/native/limbs"
)

// splitAdj returns, for each boundary index of one half, the boundary
// indices of the other half a crossing move reaches.
func splitAdj(w int) [][]int {
	adj := make([][]int, 2*w)
	for c := range w {
		for _, d := range []int{-2, 2} {
			if c+d >= 0 && c+d < w {
				adj[w+c] = append(adj[w+c], w+c+d)
			}
		}
		for _, d := range []int{-1, 1} {
			if c+d >= 0 && c+d < w {
				adj[w+c] = append(adj[w+c], c+d)
				adj[c] = append(adj[c], w+c+d)
			}
		}
	}
	return adj
}

// splitNeeds is the need vector of an interface key: two bits a boundary
// square, 0, 1 or 2 crossing moves still needed.
func splitNeeds(k uint64, w int) uint32 {
	var d uint32
	for i := range 2 * w {
		switch c := k >> (4 * uint(i)) & 15; {
		case c == fcEmpty:
			d |= 2 << (2 * uint(i))
		case c >= fcSingle:
			d |= 1 << (2 * uint(i))
		}
	}
	return d
}

// splitPartners returns, for each boundary square of an interface key, the
// other end of its fragment, the square itself for a fragment leading to a
// path end (open tours), -1 for squares that are no fragment end.
func splitPartners(k uint64, w int) [16]int8 {
	var p [16]int8
	var first [16]int8
	for i := range p {
		p[i], first[i] = -1, -1
	}
	for i := range 2 * w {
		c := k >> (4 * uint(i)) & 15
		if c == fcSingle {
			p[i] = int8(i)
		}
		if c < fcLabel {
			continue
		}
		if f := first[c]; f >= 0 {
			p[i], p[f] = f, int8(i)
		} else {
			first[c] = int8(i)
		}
	}
	return p
}

// splitPairs packs splitPartners: four bits a boundary square, the other
// end of its fragment (0 for squares that are no fragment end; whether a
// square is one is in the need vector).
func splitPairs(k uint64, w int) uint64 {
	var x uint64
	for i, p := range splitPartners(k, w) {
		if p >= 0 {
			x |= uint64(p) << (4 * uint(i))
		}
	}
	return x
}

// splitIface is an interface of a side as the join reads it: its fragment
// ends' pairing (splitPairs) and its count, side by side for the walks
// over a need vector's interfaces.
type splitIface struct{ pairs, count uint64 }

// splitSide is one half's table grouped by need vector: keys sorted by
// (need vector, key), with their pairings and counts.
type splitSide struct {
	keys   []uint64
	ifaces []splitIface
	needs  []uint32 // the distinct need vectors, sorted
	starts []int32  // needs[i]'s keys are starts[i]..starts[i+1]-1
	index  *u32Set  // need vector -> its place in needs
}

func newSplitSide(t halfTable, w int) *splitSide {
	type kv struct {
		d    uint32
		k, c uint64
	}
	all := make([]kv, 0, len(t))
	for k, c := range t {
		all = append(all, kv{splitNeeds(k, w), k, c})
	}
	slices.SortFunc(all, func(x, y kv) int {
		if x.d != y.d {
			if x.d < y.d {
				return -1
			}
			return 1
		}
		if x.k < y.k {
			return -1
		}
		if x.k > y.k {
			return 1
		}
		return 0
	})
	s := &splitSide{keys: make([]uint64, len(all)), ifaces: make([]splitIface, len(all))}
	index := map[uint32]int32{}
	for i, e := range all {
		s.keys[i], s.ifaces[i] = e.k, splitIface{splitPairs(e.k, w), e.c}
		if i == 0 || all[i-1].d != e.d {
			index[e.d] = int32(len(s.needs))
			s.needs = append(s.needs, e.d)
			s.starts = append(s.starts, int32(i))
		}
	}
	s.starts = append(s.starts, int32(len(all)))
	s.index = newU32Set(index)
	return s
}

// splitJoin holds what the workers of a join share.
type splitJoin struct {
	w           int
	open        bool // open tours: the halves' pairings make one path
	bottom, top *splitSide
	adj         [][]int
	order       []int // top squares in enumeration order (file by file)
	// The enumeration cuts off a bottom need vector that no bottom
	// interface has as soon as its squares are decided, by an automaton
	// over the decided parts of the bottom need vectors: fin[s] lists the
	// bottom squares all of whose crossing moves are decided after
	// order[0..s] and not before; the state after step s is the place of
	// the need vectors' restriction to the squares decided so far among
	// those of the table's vectors, and trans[s][state*3^len(fin[s]) +
	// the needs of fin[s] as base-3 digits, first square most significant]
	// is the next state, or -1. A step that decides no square (but the
	// last) keeps the states, and the enumeration skips its table. After
	// the last step every square is decided and the state is the bottom
	// need vector's place in bottom.needs.
	fin   [][]int
	trans [][]int32
	// fewest[s][state] is the fewest interfaces of a bottom need vector
	// whose restriction is the state after step s: with one table for
	// both halves, a class d does not join the pairs (d, dB) with more
	// bottom interfaces than d has (splitOrbit), so it cuts off a state
	// all of whose need vectors have more.
	fewest [][]int32
	// mirror[i] is splitMirror(bottom.needs[i]).
	mirror []uint32
}

// group returns the range of the keys of need vector d.
func (s *splitSide) group(d uint32) ([2]int32, bool) {
	i, ok := s.index.get(d)
	if !ok {
		return [2]int32{}, false
	}
	return [2]int32{s.starts[i], s.starts[i+1]}, true
}

// u32Set is an open-addressing map of 32-bit values to an int32 (values
// stored plus one, so that zero marks a free slot), for the need vectors'
// groups. The slot is the top bits of a multiplicative hash (cheap, and
// enough for need vectors).
type u32Set struct {
	slots []uint32
	vals  []int32
	shift uint
}

func newU32Set(vals map[uint32]int32) *u32Set {
	n, shift := 16, uint(64-4)
	for n < 4*len(vals) {
		n <<= 1
		shift--
	}
	s := &u32Set{slots: make([]uint32, n), vals: make([]int32, n), shift: shift}
	for v, x := range vals {
		i := s.slot(v)
		for s.slots[i] != 0 {
			i = (i + 1) & uint64(n-1)
		}
		s.slots[i], s.vals[i] = v+1, x
	}
	return s
}

func (s *u32Set) slot(v uint32) uint64 { return (uint64(v) + 1) * 0x9e3779b97f4a7c15 >> s.shift }

// get returns v's value.
func (s *u32Set) get(v uint32) (int32, bool) {
	i, mask := s.slot(v), uint64(len(s.slots)-1)
	for {
		switch s.slots[i] {
		case 0:
			return 0, false
		case v + 1:
			return s.vals[i], true
		}
		i = (i + 1) & mask
	}
}

// aggTable sums counts by 64-bit key (open addressing; the slots used are
// listed, so that emptying it costs what it holds). A slot holds its key
// complemented, zero marking a free slot: the all-ones key, which is no
// pairing, is the one key it cannot hold (an open tour's pairing can be
// zero: square 0 alone, leading to a path end).
type aggTable struct {
	keys, vals []uint64
	used       []int32
	mask       uint64
}

func newAggTable() *aggTable {
	t := &aggTable{}
	t.alloc(1 << 10)
	return t
}

func (t *aggTable) alloc(n int) {
	t.keys, t.vals, t.used, t.mask = make([]uint64, n), make([]uint64, n), t.used[:0], uint64(n-1)
}

// key returns the key of slot i.
func (t *aggTable) key(i int32) uint64 { return ^t.keys[i] }

// add adds v to k's sum; it reports an overflow.
func (t *aggTable) add(k, v uint64) bool { return t.put(^k, v) }

// put adds v to the sum of the slot value s (a complemented key).
func (t *aggTable) put(s, v uint64) bool {
	if 2*(len(t.used)+1) > len(t.keys) {
		oldK, oldV, oldU := t.keys, t.vals, t.used
		t.used = nil
		t.alloc(2 * len(oldK))
		for _, i := range oldU {
			t.put(oldK[i], oldV[i])
		}
	}
	i := fHash(s) & t.mask
	for {
		switch t.keys[i] {
		case 0:
			t.keys[i], t.vals[i] = s, v
			t.used = append(t.used, int32(i))
			return false
		case s:
			var over bool
			t.vals[i], over = limbs.Add64(t.vals[i], v)
			return over
		}
		i = (i + 1) & t.mask
	}
}

// reset empties the table (a grown one is shrunk back).
func (t *aggTable) reset() {
	if len(t.keys) > 1<<16 {
		t.alloc(1 << 10)
		return
	}
	for _, i := range t.used {
		t.keys[i] = 0
	}
	t.used = t.used[:0]
}

func newSplitJoin(w int, bottom, top *splitSide, open bool) *splitJoin {
	j := &splitJoin{w: w, bottom: bottom, top: top, adj: splitAdj(w), open: open}
	for c := range w {
		j.order = append(j.order, w+c, c)
	}
	seen := make([]bool, 2*w)
	decided := make([]bool, 2*w)
	var mask uint32 // the squares decided so far, two bits each
	state := make([]int32, len(bottom.needs))
	states := 1
	for s, t := range j.order {
		seen[t] = true
		var fin []int
		for b := range 2 * w {
			all := true
			for _, x := range j.adj[b] {
				all = all && seen[x]
			}
			if all && !decided[b] {
				decided[b] = true
				fin = append(fin, b)
			}
		}
		for _, b := range fin {
			mask |= 3 << (2 * uint(b))
		}
		pow := 1
		for range fin {
			pow *= 3
		}
		trans := make([]int32, states*pow)
		for i := range trans {
			trans[i] = -1
		}
		next := map[uint32]int32{}
		for i, d := range bottom.needs {
			code := 0
			for _, b := range fin {
				code = 3*code + int(d>>(2*uint(b))&3)
			}
			id, ok := next[d&mask]
			if !ok {
				id = int32(len(next))
				switch {
				case s == len(j.order)-1:
					id = int32(i) // every square is decided: d's place
				case len(fin) == 0:
					id = state[i] // nothing decided: the same states
				}
				next[d&mask] = id
			}
			trans[int(state[i])*pow+code] = id
			state[i] = id
		}
		fewest := make([]int32, len(next))
		for i := range fewest {
			fewest[i] = math.MaxInt32
		}
		for i, id := range state {
			fewest[id] = min(fewest[id], bottom.starts[i+1]-bottom.starts[i])
		}
		j.fewest = append(j.fewest, fewest)
		j.fin = append(j.fin, fin)
		j.trans = append(j.trans, trans)
		states = len(next)
	}
	for _, d := range bottom.needs {
		j.mirror = append(j.mirror, splitMirror(d, w))
	}
	return j
}

// splitWorker joins need classes; its buffers are reused.
type splitWorker struct {
	j    *splitJoin
	tdeg []int // top needs of the class
	bdeg []int
	tAdj [][2]int8 // crossing moves chosen at each top square (bottom ends)
	tN   []int
	agg  *aggTable // induced pairing of the top ends (packed as by splitPairs) -> count
	// closed sums the bottom counts whose fragments and crossing moves
	// close one loop through every crossing move, or make one path for
	// open tours (no top fragment ends).
	closed   uint64
	overflow bool
	d        uint32 // the class
	nd       int32  // its interfaces in the bottom table (when one table serves both)
	most     int32  // the most interfaces of a bottom need vector joined with d
	md       uint32 // its mirror image (splitMirror)
	ends     []int8 // the class's top squares taking one crossing move
	open     []int8 // those whose path of crossing moves ends at the bottom (leaf)
	// bySingles[k] holds the class's top interfaces with k squares leading
	// to a path end (open tours, joinOpen).
	bySingles [3][]splitIface
	// other[e], for a square e with one chosen crossing move (top square
	// t as t, bottom square b as 16+b), is the square at the other end of
	// the path of crossing moves from e (through squares taking two).
	other [32]int8
}

// splitMirror turns a need vector left to right: file i becomes file
// w-1-i in both boundary rows.
func splitMirror(d uint32, w int) uint32 {
	var m uint32
	for i := range w {
		m |= (d >> (2 * uint(i)) & 3) << (2 * uint(w-1-i))
		m |= (d >> (2 * uint(w+i)) & 3) << (2 * uint(w+w-1-i))
	}
	return m
}

// splitOrbit returns how many pairs (top need vector, bottom need vector)
// the tours of the pair (d, dB) stand for, or 0 when another pair of its
// orbit stands for them. Turning the board left to right maps the tours
// of (d, dB) one to one onto those of (md, mdB), the mirror images; when
// one table serves both halves, turning it upside down maps them onto
// those of (dB, d). So every pair of an orbit has as many tours, and the
// join counts only one pair of each orbit, once for each distinct pair of
// the orbit. The join walks the bottom interfaces of a pair's bottom need
// vector (leaf), so the pair counted is one whose bottom need vector has
// the fewest interfaces (nd and ndB are the interfaces of d and dB; a
// mirror image has as many), the least in the order of d, then dB, among
// those.
func splitOrbit(d, dB, md, mdB uint32, nd, ndB int32, flip bool) uint64 {
	type pair struct {
		t, b uint32
		n    int32 // interfaces of b
	}
	less := func(p, q pair) bool {
		if p.n != q.n {
			return p.n < q.n
		}
		return p.t < q.t || (p.t == q.t && p.b < q.b)
	}
	orbit := [4]pair{{d, dB, ndB}, {md, mdB, ndB}, {dB, d, nd}, {mdB, md, nd}}
	k := 2
	if flip {
		k = 4
	}
	n := uint64(0)
	for i, p := range orbit[:k] {
		if less(p, orbit[0]) {
			return 0
		}
		dup := false
		for _, q := range orbit[:i] {
			dup = dup || q == p
		}
		if !dup {
			n++
		}
	}
	return n
}

func (j *splitJoin) newWorker() *splitWorker {
	n := 2 * j.w
	return &splitWorker{j: j, tdeg: make([]int, n), bdeg: make([]int, n), tAdj: make([][2]int8, n),
		tN: make([]int, n), agg: newAggTable()}
}

// class adds to sum (two limbs, little-endian: package limbs) the closed tours whose top half
// has need vector d; it reports false on an overflow.
func (wk *splitWorker) class(d uint32, sum *[2]uint64) bool {
	j := wk.j
	n := 2 * j.w
	wk.md = splitMirror(d, j.w)
	if wk.md < d {
		return true // counted as its mirror image (splitOrbit)
	}
	for i := range n {
		wk.tdeg[i] = int(d >> (2 * uint(i)) & 3)
		wk.bdeg[i], wk.tN[i] = 0, 0
	}
	wk.agg.reset()
	wk.closed, wk.overflow, wk.d = 0, false, d
	wk.nd, wk.most = 0, math.MaxInt32
	if g, ok := j.bottom.group(d); ok && j.bottom == j.top {
		wk.nd, wk.most = g[1]-g[0], g[1]-g[0]
	}
	wk.ends = wk.ends[:0]
	for t := range n {
		if wk.tdeg[t] == 1 {
			wk.ends = append(wk.ends, int8(t))
		}
	}
	wk.enumerate(0, 0)
	if wk.overflow {
		return false
	}
	g, _ := j.top.group(d)
	top := j.top.ifaces[g[0]:g[1]]
	if j.open {
		return wk.joinOpen(g, sum)
	}
	for _, i := range wk.agg.used {
		// The induced pairings pair the class's top ends, wk.ends.
		p, c := wk.agg.key(i), wk.agg.vals[i]
		for _, q := range top {
			if splitOneCycle(p, q.pairs, uint(wk.ends[0]), len(wk.ends)) {
				if limbs.AddProduct(sum[:], c, q.count) {
					return false
				}
			}
		}
	}
	if wk.closed != 0 {
		for x := g[0]; x < g[1]; x++ {
			if j.top.keys[x]&^splitEmptyMask(j.top.keys[x]) == 0 {
				// A top half without fragment ends (only squares that
				// take two crossing moves).
				if limbs.AddProduct(sum[:], wk.closed, j.top.ifaces[x].count) {
					return false
				}
			}
		}
	}
	return true
}

// joinOpen adds to sum the open tours of the class: the induced pairings
// summed in wk.agg against the top interfaces of the class (keys g[0] to
// g[1]-1), and wk.closed against those without ends. A path has two ends,
// so an induced pairing with k ends leading to the bottom's path ends is
// matched only against the top interfaces with 2-k squares leading to the
// top's (fcSingle).
func (wk *splitWorker) joinOpen(g [2]int32, sum *[2]uint64) bool {
	j := wk.j
	for k := range wk.bySingles {
		wk.bySingles[k] = wk.bySingles[k][:0]
	}
	for x := g[0]; x < g[1]; x++ {
		if k := bits.OnesCount64(nibEq(j.top.keys[x], fcSingle)); k <= 2 {
			wk.bySingles[k] = append(wk.bySingles[k], j.top.ifaces[x])
		}
	}
	for _, i := range wk.agg.used {
		p, c := wk.agg.key(i), wk.agg.vals[i]
		k := 0
		for _, e := range wk.ends {
			if p>>(4*uint(e))&15 == uint64(e) {
				k++
			}
		}
		if k > 2 {
			continue
		}
		for _, q := range wk.bySingles[2-k] {
			if splitOnePath(p, q.pairs, wk.ends) && limbs.AddProduct(sum[:], c, q.count) {
				return false
			}
		}
	}
	// wk.closed is only summed for a class without top ends, whose top
	// interfaces all have none.
	if wk.closed != 0 {
		for _, q := range wk.bySingles[0] {
			if limbs.AddProduct(sum[:], wk.closed, q.count) {
				return false
			}
		}
	}
	return true
}

// splitEmptyMask marks the nibbles of k holding code fcEmpty.
func splitEmptyMask(k uint64) uint64 { return nibEq(k, fcEmpty) * fcEmpty }

// addClosed adds count*weight to the worker's closed count, noting an
// overflow of 64 bits.
func (wk *splitWorker) addClosed(count, weight uint64) {
	var over bool
	wk.closed, over = limbs.MulAdd64(wk.closed, count, weight)
	wk.overflow = wk.overflow || over
}

// splitOneCycle reports whether two pairings of the same n squares
// (packed as by splitPairs), one of them s, close one single cycle
// together.
func splitOneCycle(p, q uint64, s uint, n int) bool {
	x, steps := s, 0
	for {
		x = uint(q >> (4 * (p >> (4 * x) & 15)) & 15)
		steps += 2
		if x == s {
			return steps == n
		}
	}
}

// splitOnePath reports whether two pairings of the same squares ends
// (packed as by splitPairs, a square paired with itself leading to a path
// end) make one single path together: followed from a square paired with
// itself in one of them, alternately, they reach every square.
func splitOnePath(p, q uint64, ends []int8) bool {
	for _, e := range ends {
		s := uint64(e)
		ps, qs := p>>(4*s)&15 == s, q>>(4*s)&15 == s
		if !ps && !qs {
			continue
		}
		if ps && qs {
			return len(ends) == 1
		}
		x, visited, byP := s, 1, qs
		for {
			r := q
			if byP {
				r = p
			}
			y := r >> (4 * x) & 15
			if y == x {
				return visited == len(ends)
			}
			x, visited, byP = y, visited+1, !byP
		}
	}
	return false // no path end: a cycle or more
}

// enumerate chooses the crossing moves of the top squares order[s:], each
// taking as many as its need, bottom squares at most two; a bottom need
// vector that no bottom interface has is cut off as soon as its squares
// are decided (state is the automaton's, see splitJoin).
func (wk *splitWorker) enumerate(s int, state int32) {
	j := wk.j
	if s == len(j.order) {
		wk.leaf(state)
		return
	}
	t := j.order[s]
	adj := j.adj[t]
	fin, trans, fewest := j.fin[s], j.trans[s], j.fewest[s]
	keep := len(fin) == 0 && s+1 < len(j.order)
	check := func() {
		if keep {
			wk.enumerate(s+1, state)
			return
		}
		code := int(state)
		for _, b := range fin {
			code = 3*code + wk.bdeg[b]
		}
		if next := trans[code]; next >= 0 && fewest[next] <= wk.most {
			wk.enumerate(s+1, next)
		}
	}
	// A move that closes a loop of crossing moves is cut off unless the
	// class has no top ends and the tour is closed (the moves then make
	// the loop, splitLoop).
	cut := len(wk.ends) > 0 || j.open
	switch wk.tdeg[t] {
	case 0:
		check()
	case 1:
		for _, b := range adj {
			if wk.bdeg[b] < 2 {
				u := wk.move(t, b, 0)
				wk.bdeg[b]++
				wk.tAdj[t][0], wk.tN[t] = int8(b), 1
				check()
				wk.bdeg[b]--
				wk.undo(u)
			}
		}
	case 2:
		for x := range adj {
			for y := x + 1; y < len(adj); y++ {
				b, c := adj[x], adj[y]
				if wk.bdeg[b] < 2 && wk.bdeg[c] < 2 {
					u := wk.move(t, b, 0)
					wk.bdeg[b]++
					v := wk.move(t, c, 1)
					if !v.loop || !cut {
						wk.bdeg[c]++
						wk.tAdj[t], wk.tN[t] = [2]int8{int8(b), int8(c)}, 2
						check()
						wk.bdeg[c]--
					}
					wk.undo(v)
					wk.bdeg[b]--
					wk.undo(u)
				}
			}
		}
	}
	wk.tN[t] = 0
}

// splitUndo is what a move changed in splitWorker.other: entries a and b
// held oa and ob (a == b when nothing changed); loop reports that the move
// closed a loop of crossing moves (and changed nothing).
type splitUndo struct {
	a, b, oa, ob int8
	loop         bool
}

// move adds the crossing move between top square t, which has dt moves
// so far, and bottom square b (wk.bdeg[b] so far) to wk.other.
func (wk *splitWorker) move(t, b, dt int) splitUndo {
	et, eb := int8(t), int8(16+b)
	if dt == 1 {
		et = wk.other[t]
	}
	if wk.bdeg[b] == 1 {
		eb = wk.other[16+b]
	}
	if et == int8(16+b) {
		return splitUndo{a: et, b: et, oa: wk.other[et], ob: wk.other[et], loop: true}
	}
	u := splitUndo{a: et, b: eb, oa: wk.other[et], ob: wk.other[eb]}
	wk.other[et], wk.other[eb] = eb, et
	return u
}

func (wk *splitWorker) undo(u splitUndo) { wk.other[u.a], wk.other[u.b] = u.oa, u.ob }

// leaf follows every bottom interface of the chosen crossing moves' bottom
// need vector (bottom.needs[id]) through them, and sums the pairings they
// induce on the top squares.
func (wk *splitWorker) leaf(id int32) {
	j := wk.j
	n := 2 * j.w
	g0, g1 := j.bottom.starts[id], j.bottom.starts[id+1]
	weight := splitOrbit(wk.d, j.bottom.needs[id], wk.md, j.mirror[id], wk.nd, g1-g0, j.bottom == j.top)
	if weight == 0 {
		return
	}
	if len(wk.ends) == 0 && j.open {
		// No top fragment ends: the crossing moves and the bottom
		// fragments must make one path.
		dB := j.bottom.needs[id]
		for x := g0; x < g1; x++ {
			if splitPathBottom(&wk.other, j.bottom.ifaces[x].pairs, dB, n) {
				wk.addClosed(j.bottom.ifaces[x].count, weight)
			}
		}
		return
	}
	if len(wk.ends) == 0 {
		// bAdj: the top ends of the crossing moves at each bottom square.
		var bAdj [16][2]int8
		var bN [16]int8
		m := 0
		for t := range n {
			for e := range wk.tN[t] {
				b := wk.tAdj[t][e]
				bAdj[b][bN[b]] = int8(t)
				bN[b]++
				m++
			}
		}
		// No top fragment ends: the crossing moves must make one loop
		// with the bottom fragments.
		for x := g0; x < g1; x++ {
			if m > 0 && splitLoop(wk, &bAdj, j.bottom.ifaces[x].pairs) == m {
				wk.addClosed(j.bottom.ifaces[x].count, weight)
			}
		}
		return
	}
	// The bottom squares taking one move.
	dB := j.bottom.needs[id]
	bEnds := bits.OnesCount32(dB & 0x55555555 &^ (dB >> 1))
	link := &wk.other
	// The top ends joined by crossing moves alone pair up whatever the
	// bottom interface; the others (open) are followed for each.
	var fixed uint64
	wk.open = wk.open[:0]
	for _, t := range wk.ends {
		if y := link[t]; y >= 16 {
			wk.open = append(wk.open, t)
		} else {
			fixed |= uint64(y) << (4 * uint(t))
		}
	}
	for _, in := range j.bottom.ifaces[g0:g1] {
		pB := in.pairs
		key := fixed
		var done uint32
		seen := 0
		for _, t := range wk.open {
			if done>>uint(t)&1 != 0 {
				continue
			}
			// Along the crossing moves to a bottom end; through a bottom
			// fragment from each bottom end reached, until a top end.
			y := link[t]
			for y >= 16 {
				b := int8(pB >> (4 * uint(y-16)) & 15)
				if b == y-16 {
					break // a bottom end leading to a path end
				}
				seen += 2
				y = link[16+b]
			}
			if y >= 16 {
				seen++
				key |= uint64(t) << (4 * uint(t))
				continue
			}
			done |= 1 << uint(y)
			key |= uint64(y)<<(4*uint(t)) | uint64(t)<<(4*uint(y))
		}
		if seen != bEnds {
			continue // a loop closed apart from the top fragments
		}
		c, over := limbs.Mul64(in.count, weight)
		if wk.agg.add(key, c) || over {
			wk.overflow = true
		}
	}
}

// splitPathBottom reports whether, with no top fragment ends, the crossing
// moves (link, as splitWorker.other) and the bottom fragments (pairing pB
// of the bottom need vector dB, on n boundary squares) make one path: from
// a bottom end leading to a path end, it reaches every bottom end and ends
// at the other.
func splitPathBottom(link *[32]int8, pB uint64, dB uint32, n int) bool {
	ends, s := 0, -1
	for b := range n {
		if dB>>(2*uint(b))&3 == 1 {
			ends++
			if s < 0 && int(pB>>(4*uint(b))&15) == b {
				s = b
			}
		}
	}
	if s < 0 {
		return false
	}
	for b, seen := s, 1; ; {
		y := int(link[16+b]) - 16 // along crossing moves: a bottom end
		if y < 0 {
			return false
		}
		seen++
		p := int(pB >> (4 * uint(y)) & 15)
		if p == y {
			return seen == ends
		}
		b, seen = p, seen+1
	}
}

// splitLoop follows the loop through the first top square with crossing
// moves (each top square taking two) and returns its crossing moves.
func splitLoop(wk *splitWorker, bAdj *[16][2]int8, pB uint64) int {
	start := -1
	for t, x := range wk.tdeg {
		if x > 0 {
			start = t
			break
		}
	}
	t, b := int8(start), wk.tAdj[start][0]
	edges := 0
	for {
		edges++
		var next int8
		from := b
		if wk.bdeg[b] == 1 { // a fragment end: on to its other end
			p := int8(pB >> (4 * uint(b)) & 15)
			next, from = bAdj[p][0], p
		} else if bAdj[b][0] == t {
			next = bAdj[b][1]
		} else {
			next = bAdj[b][0]
		}
		edges++
		if int(next) == start {
			// Back at the start: it came in on its other move.
			return edges
		}
		nb := wk.tAdj[next][0]
		if nb == from {
			nb = wk.tAdj[next][1]
		}
		t, b = next, nb
	}
}
