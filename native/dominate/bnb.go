package dominate

import (
	"context"
	"math/bits"
	"slices"

	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/native/symmetry"
	"github.com/boardsat/boardsat/puzzle"
)

// geom is one instance's geometry as bitsets over the squares (bit s of
// word s/64): what a piece on each square dominates and attacks.
type geom struct {
	board puzzle.Board
	n     int
	words int
	// cover[s] holds s and every square a piece on s attacks: the squares
	// it dominates, and (attacks being symmetric) the squares from which a
	// piece dominates s.
	cover [][]uint64
	// attack[s] is cover[s] without s.
	attack [][]uint64
	// full has every square of the board.
	full []uint64
	// maxCover is the largest cover.
	maxCover int
	// cover4 is cover padded to four words, on boards of at most 256
	// squares (nil on larger ones): the coverage bound's inner loop, most
	// of the search's time, then runs unrolled.
	cover4 [][4]uint64
	// cover8 is the same padded to eight words, on boards of 257 to 512
	// squares (queens n = 17..22; nil elsewhere).
	cover8 [][8]uint64
	// packing says whether lowerBound computes the packing bound: only
	// where it is at least half the coverage bound on the empty board
	// (short-range pieces: kings, knights). For queens, rooks and bishops
	// nearly every two squares share a candidate, the packing bound stays
	// at 1 or 2, and it never pruned a node the coverage bound kept
	// (queens n=12 count, n=13 optimum: the same nodes without it, a fifth
	// of the time saved).
	packing bool
}

func newGeom(d puzzle.Dominate) *geom {
	b := d.Board
	n := b.Size()
	g := &geom{board: b, n: n, words: (n + 63) / 64}
	g.full = make([]uint64, g.words)
	for s := range n {
		setBit(g.full, s)
	}
	g.cover = make([][]uint64, n)
	g.attack = make([][]uint64, n)
	for s := range n {
		a := make([]uint64, g.words)
		for _, t := range b.Attacks(d.Piece, puzzle.Square(s)) {
			setBit(a, int(t))
		}
		c := slices.Clone(a)
		setBit(c, s)
		g.cover[s], g.attack[s] = c, a
		g.maxCover = max(g.maxCover, popcount(c))
	}
	switch {
	case g.words <= 4:
		g.cover4 = make([][4]uint64, n)
		for s := range n {
			copy(g.cover4[s][:], g.cover[s])
		}
	case g.words <= 8:
		g.cover8 = make([][8]uint64, n)
		for s := range n {
			copy(g.cover8[s][:], g.cover[s])
		}
	}
	e := newEngine(context.Background(), g, false, g.n)
	full := slices.Clone(g.full)
	g.packing = 2*e.packing(full, full) >= e.coverage(full, full)
	return g
}

func setBit(b []uint64, s int)      { b[s>>6] |= 1 << (s & 63) }
func clearBit(b []uint64, s int)    { b[s>>6] &^= 1 << (s & 63) }
func hasBit(b []uint64, s int) bool { return b[s>>6]>>(s&63)&1 != 0 }

func popcount(b []uint64) int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// andCount is popcount(a & b).
func andCount(a, b []uint64) int {
	n := 0
	for i, w := range a {
		n += bits.OnesCount64(w & b[i])
	}
	return n
}

// state is a node of the search: the pieces placed, and the squares still
// allowed for a further piece (not placed on, not excluded by an earlier
// sibling branch, and for independence not attacked).
type state struct {
	chosen []int32
	allow  []uint64
	// weight is how many sets each set below the node stands for in a
	// count (split nodes folded by a symmetry; 1 otherwise).
	weight uint64
}

// engine is one worker's branch-and-bound over sets of at most limit
// pieces. Every dominating set of at most limit pieces is reached by
// exactly one path: a node branches on one undominated square t, child i
// places t's i-th allowed candidate and excludes the earlier ones, and a
// set is followed into the child of its first candidate of t. A leaf is a
// node where everything is dominated; the sets it stands for are its pieces
// plus any allowed squares up to limit (none for independent sets, which
// a dominated board leaves no room in).
type engine struct {
	g     *geom
	ctx   context.Context
	indep bool
	// limit is the most pieces a set may have.
	limit int
	// supersets, when set, counts at each leaf every extension by allowed
	// squares up to limit (sets of at most K, not only minimal ones).
	supersets bool
	// leaf, if set, is called at every leaf with its pieces and allowed
	// squares instead of counting its sets: it returns what to add to the
	// count, and false to stop the search.
	leaf func(chosen []int32, allow []uint64) (uint64, bool)
	// abort, if set, is polled with the context: true stops the search.
	abort func() bool

	dom, allow [][]uint64 // per depth
	rest       [][]uint64 // per depth: allow less the candidates tried
	cands      [][]int32  // per depth: the branch square's candidates
	candGain   [][]int32  // per depth: their gains
	undom      []uint64
	gains      []int      // the coverage bound's histogram: allowed squares by gain
	gain       []int32    // the coverage bound's gain of each allowed square
	viable     [][]uint64 // per depth: the squares a set below the node may hold
	// minimal says that no set of fewer than limit pieces dominates (the
	// limit is a proven minimum, or one more than a refuted size): then a
	// leaf stands for its pieces only (no smaller set to extend), and a
	// node drops the squares too weak to be in any set below it.
	minimal  bool
	chosen   []int32
	nodes    int64
	stopped  bool
	count    uint64
	overflow bool
}

func newEngine(ctx context.Context, g *geom, indep bool, limit int) *engine {
	e := &engine{g: g, ctx: ctx, indep: indep, limit: limit}
	e.dom = make([][]uint64, limit+2)
	e.allow = make([][]uint64, limit+2)
	for i := range e.dom {
		e.dom[i] = make([]uint64, g.words)
		e.allow[i] = make([]uint64, g.words)
	}
	e.undom = make([]uint64, g.words)
	e.cands = make([][]int32, limit+2)
	e.candGain = make([][]int32, limit+2)
	e.rest = make([][]uint64, limit+2)
	for i := range e.rest {
		e.rest[i] = make([]uint64, g.words)
	}
	e.gains = make([]int, g.maxCover+1)
	e.gain = make([]int32, g.n)
	e.viable = make([][]uint64, limit+2)
	for i := range e.viable {
		e.viable[i] = make([]uint64, g.words)
	}
	return e
}

// run searches below the node st (a root or a subproblem's prefix).
func (e *engine) run(st state) {
	e.chosen = append(e.chosen[:0], st.chosen...)
	d := len(st.chosen)
	if d > e.limit {
		return
	}
	clear(e.dom[d])
	for _, c := range st.chosen {
		orInto(e.dom[d], e.g.cover[c])
	}
	copy(e.allow[d], st.allow)
	e.search(d)
}

func orInto(dst, src []uint64) {
	for i, w := range src {
		dst[i] |= w
	}
}

// rootState is the search's root: nothing placed, every square allowed.
func (e *engine) rootState() state {
	return state{allow: slices.Clone(e.g.full), weight: 1}
}

// poll checks the context and the abort hook every 1024 nodes.
func (e *engine) poll() bool {
	e.nodes++
	if e.nodes&1023 == 0 && (e.ctx.Err() != nil || (e.abort != nil && e.abort())) {
		e.stopped = true
	}
	return e.stopped
}

// search explores the node at depth d (its pieces in e.chosen[:d]).
func (e *engine) search(d int) {
	if e.poll() {
		return
	}
	dom, allow := e.dom[d], e.allow[d]
	und := e.undom
	empty := true
	for i, w := range e.g.full {
		und[i] = w &^ dom[i]
		if und[i] != 0 {
			empty = false
		}
	}
	if empty {
		e.atLeaf(d, allow)
		return
	}
	if d == e.limit-1 {
		e.lastPiece(d, und, allow)
		return
	}
	if d >= e.limit || d+e.lowerBound(und, allow) > e.limit {
		return
	}
	// A child placing c leaves |und| - gain(c) squares to the other
	// limit-d-1 pieces, which dominate at most the sum of the limit-d-1
	// largest gains (the coverage bound just computed; a child's gains
	// are at most its parent's): a child beyond it is pruned unsearched.
	left := popcount(und)
	reach := e.topGains(e.limit - d - 1)
	// Where the search is minimal (no smaller set, so no leaf stands for
	// extra squares), no set below this node holds a square of gain below
	// left-reach at all: the node branches over the viable squares only,
	// on the undominated square with the fewest viable candidates, and its
	// children allow only viable squares.
	cset := allow
	if e.minimal {
		cset = e.viableSquares(d, allow, int32(left-reach))
	}
	t := e.branchSquare(und, cset)
	if t < 0 {
		return
	}
	cands, cg := e.candidates(d, t, cset)
	rest := e.rest[d]
	copy(rest, cset)
	for ci, c := range cands {
		if left-int(cg[ci]) > reach {
			// Every later candidate gains no more: all are pruned.
			return
		}
		nd, na := e.dom[d+1], e.allow[d+1]
		cv := e.g.cover[c]
		clearBit(rest, int(c))
		for i := range nd {
			nd[i] = dom[i] | cv[i]
		}
		if e.indep {
			at := e.g.attack[c]
			for i := range na {
				na[i] = rest[i] &^ at[i]
			}
		} else {
			copy(na, rest)
		}
		e.chosen = append(e.chosen[:d], c)
		e.search(d + 1)
		if e.stopped {
			return
		}
	}
}

// viableSquares returns, in e.viable[d], the squares of allow whose gain
// is at least thr.
func (e *engine) viableSquares(d int, allow []uint64, thr int32) []uint64 {
	cset := e.viable[d]
	for i, w := range allow {
		v := uint64(0)
		for ; w != 0; w &= w - 1 {
			b := bits.TrailingZeros64(w)
			if e.gain[i*64+b] >= thr {
				v |= 1 << b
			}
		}
		cset[i] = v
	}
	return cset
}

// candidates returns the candidates of t in cset, largest gain first (then
// square order), and their gains, in e.cands[d] and e.candGain[d]: each
// child excludes the candidates before it (rest is cset less the
// candidates tried), so the weak candidates come last with the strong
// ones excluded, where the bound prunes most.
func (e *engine) candidates(d, t int, cset []uint64) ([]int32, []int32) {
	cands := e.cands[d][:0]
	for i, w := range e.g.cover[t] {
		w &= cset[i]
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			c := int32(i*64 + b)
			j := len(cands)
			cands = append(cands, c)
			for ; j > 0 && e.gain[cands[j-1]] < e.gain[c]; j-- {
				cands[j] = cands[j-1]
			}
			cands[j] = c
		}
	}
	e.cands[d] = cands
	// The children overwrite e.gain: keep the candidates' gains.
	cg := e.candGain[d][:0]
	for _, c := range cands {
		cg = append(cg, e.gain[c])
	}
	e.candGain[d] = cg
	return cands, cg
}

// lastPiece finishes a node at depth limit-1, where one piece is left:
// the sets below it are its pieces plus one allowed candidate of the first
// undominated square that dominates every undominated square. Each is a
// leaf with no room for a further piece, so the candidates need no
// exclusions and the node no bound: a direct test of each candidate, in
// place of the coverage bound, the branch square and a child per
// candidate.
func (e *engine) lastPiece(d int, und, allow []uint64) {
	u := -1
	for i, w := range und {
		if w != 0 {
			u = i*64 + bits.TrailingZeros64(w)
			break
		}
	}
	for i, w := range e.g.cover[u] {
		for w &= allow[i]; w != 0; w &= w - 1 {
			c := i*64 + bits.TrailingZeros64(w)
			if !covers(e.g.cover[c], und) {
				continue
			}
			e.chosen = append(e.chosen[:d], int32(c))
			e.atLeaf(d+1, nil)
			if e.stopped {
				return
			}
		}
	}
}

// covers reports whether a holds every square of b.
func covers(a, b []uint64) bool {
	for i, w := range b {
		if w&^a[i] != 0 {
			return false
		}
	}
	return true
}

// atLeaf counts (or visits) the sets a leaf stands for.
func (e *engine) atLeaf(d int, allow []uint64) {
	if e.leaf != nil {
		c, ok := e.leaf(e.chosen[:d], allow)
		e.add(c)
		if !ok {
			e.stopped = true
		}
		return
	}
	if !e.supersets || e.indep {
		e.add(1)
		return
	}
	m := popcount(allow)
	// Every extension by j allowed squares, j from 0 to limit-d.
	c := uint64(1)
	for j := 0; j <= e.limit-d && j <= m; j++ {
		if j > 0 {
			p, over := limbs.Mul64(c, uint64(m-j+1))
			if over {
				e.overflow, e.stopped = true, true
				return
			}
			c = p / uint64(j)
		}
		e.add(c)
	}
}

func (e *engine) add(c uint64) {
	var over bool
	if e.count, over = limbs.Add64(e.count, c); over {
		e.overflow, e.stopped = true, true
	}
}

// branchSquare returns the undominated square with the fewest allowed
// candidates (-1 if one has none: a dead end).
func (e *engine) branchSquare(und, allow []uint64) int {
	best, bestN := -1, 1<<30
	for i, w := range und {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			s := i*64 + b
			n := andCount(e.g.cover[s], allow)
			if n < bestN {
				best, bestN = s, n
				if n <= 1 {
					if n == 0 {
						return -1
					}
					return best
				}
			}
		}
	}
	return best
}

// lowerBound returns a lower bound on the pieces still needed to dominate
// the undominated squares und from allowed squares: the larger of
//   - the coverage bound: the fewest allowed squares whose gains (how many
//     undominated squares each dominates) add up to |und|;
//   - the packing bound: undominated squares, picked greedily, no two of
//     which any one allowed square dominates: each needs its own piece.
func (e *engine) lowerBound(und, allow []uint64) int {
	cov := e.coverage(und, allow)
	if !e.g.packing || cov > e.limit {
		return cov
	}
	return max(cov, e.packing(und, allow))
}

// coverage is the coverage bound of lowerBound (limit+1 when the allowed
// squares cannot dominate und at all).
func (e *engine) coverage(und, allow []uint64) int {
	left := popcount(und)
	gains := e.gains
	clear(gains)
	if c4 := e.g.cover4; c4 != nil {
		var u [4]uint64
		copy(u[:], und)
		for i, w := range allow {
			for ; w != 0; w &= w - 1 {
				sq := i*64 + bits.TrailingZeros64(w)
				c := &c4[sq]
				g := bits.OnesCount64(c[0]&u[0]) + bits.OnesCount64(c[1]&u[1]) +
					bits.OnesCount64(c[2]&u[2]) + bits.OnesCount64(c[3]&u[3])
				gains[g]++
				e.gain[sq] = int32(g)
			}
		}
		gains[0] = 0
	} else if c8 := e.g.cover8; c8 != nil {
		// The four-word loop above, eight words wide: a loop over the
		// words, or one function for both widths, would not unroll.
		var u [8]uint64
		copy(u[:], und)
		for i, w := range allow {
			for ; w != 0; w &= w - 1 {
				sq := i*64 + bits.TrailingZeros64(w)
				c := &c8[sq]
				g := bits.OnesCount64(c[0]&u[0]) + bits.OnesCount64(c[1]&u[1]) +
					bits.OnesCount64(c[2]&u[2]) + bits.OnesCount64(c[3]&u[3]) +
					bits.OnesCount64(c[4]&u[4]) + bits.OnesCount64(c[5]&u[5]) +
					bits.OnesCount64(c[6]&u[6]) + bits.OnesCount64(c[7]&u[7])
				gains[g]++
				e.gain[sq] = int32(g)
			}
		}
		gains[0] = 0
	} else {
		for i, w := range allow {
			for ; w != 0; w &= w - 1 {
				sq := i*64 + bits.TrailingZeros64(w)
				g := andCount(e.g.cover[sq], und)
				e.gain[sq] = int32(g)
				if g > 0 {
					gains[g]++
				}
			}
		}
	}
	cov := 0
	for g := len(gains) - 1; g > 0 && left > 0; g-- {
		for k := gains[g]; k > 0 && left > 0; k-- {
			left -= g
			cov++
		}
	}
	if left > 0 {
		return e.limit + 1 // the allowed squares cannot dominate und at all
	}
	return cov
}

// topGains returns the sum of the k largest gains of the last coverage
// bound's histogram.
func (e *engine) topGains(k int) int {
	sum := 0
	for g := len(e.gains) - 1; g > 0 && k > 0; g-- {
		take := min(k, e.gains[g])
		sum += take * g
		k -= take
	}
	return sum
}

// packing is the greedy packing bound: undominated squares whose allowed
// candidate sets are pairwise disjoint.
func (e *engine) packing(und, allow []uint64) int {
	used := e.dom[len(e.dom)-1] // scratch: the last level is never a node
	clear(used)
	n := 0
	for i, w := range und {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			c := e.g.cover[i*64+b]
			disjoint := true
			for j := range c {
				if c[j]&allow[j]&used[j] != 0 {
					disjoint = false
					break
				}
			}
			if disjoint {
				n++
				for j := range c {
					used[j] |= c[j] & allow[j]
				}
			}
		}
	}
	return n
}

// expand returns the nodes depth levels below the root (fewer where a
// leaf comes first: a leaf is returned as is), pruned as the search
// prunes: the subproblems of a split search. Each carries the number of
// times its sets stand in the whole count (its weight): with a symmetry
// sigma (an involution of the board fixing the root's branch square, nil
// for none), the root and every node that sigma maps to itself fold their
// candidates in pairs, see fold. Without sigma every weight is 1. With
// orbits (an existence search only; nil for none) the root branches as
// orbits says instead.
func (e *engine) expand(depth int, sigma []int32, orbits *rootOrbits) []state {
	return e.expandNodes([]state{e.rootState()}, depth, sigma, orbits)
}

// expandFrom returns the nodes depth levels below each of roots (a leaf
// first: the leaf), pruned as the search prunes, in order, unfolded.
func (e *engine) expandFrom(roots []state, depth int) []state {
	return e.expandNodes(roots, depth, nil, nil)
}

// expandNodes is expand from the given roots (sigma and orbits apply to
// each root as to the search's root).
func (e *engine) expandNodes(roots []state, depth int, sigma []int32, orbits *rootOrbits) []state {
	var out []state
	var rec func(st state, level int, symmetric bool)
	rec = func(st state, level int, symmetric bool) {
		d := len(st.chosen)
		if d > e.limit {
			return
		}
		dom := make([]uint64, e.g.words)
		for _, c := range st.chosen {
			orInto(dom, e.g.cover[c])
		}
		und := make([]uint64, e.g.words)
		empty := true
		for i, w := range e.g.full {
			und[i] = w &^ dom[i]
			if und[i] != 0 {
				empty = false
			}
		}
		if empty || level == depth {
			out = append(out, st)
			return
		}
		if d >= e.limit || d+e.lowerBound(und, st.allow) > e.limit {
			return
		}
		if level == 0 && orbits != nil {
			allow := slices.Clone(st.allow)
			for i, c := range orbits.order {
				if orbits.first[i] {
					rec(e.child(st, allow, st.weight, c), level+1, false)
				}
				clearBit(allow, int(c))
			}
			return
		}
		t := e.branchSquare(und, st.allow)
		if t < 0 {
			return
		}
		var cands []int32
		for i, w := range e.g.cover[t] {
			w &= st.allow[i]
			for ; w != 0; w &= w - 1 {
				cands = append(cands, int32(i*64+bits.TrailingZeros64(w)))
			}
		}
		if symmetric && sigma != nil && sigma[t] == int32(t) {
			for _, ch := range e.fold(st, cands, sigma) {
				rec(ch.st, level+1, ch.symmetric)
			}
			return
		}
		allow := slices.Clone(st.allow)
		for _, c := range cands {
			rec(e.child(st, allow, st.weight, c), level+1, false)
			clearBit(allow, int(c))
		}
	}
	for _, root := range roots {
		rec(root, 0, sigma != nil)
	}
	return out
}

// rootOrbits is how an existence search branches at the root: on a square
// t that the most board symmetries fix (the centre of an odd square board:
// all 8), its candidates ordered orbit by orbit under those symmetries,
// and only the first of each orbit searched. A set whose first candidate
// x is not first in its orbit has an image under a symmetry fixing t that
// holds the orbit's first, so an earlier first candidate: repeating, some
// image of the set lies below a searched child, and a set of its size
// exists. (Counts need every child and fold by one reflection instead.)
type rootOrbits struct {
	order []int32
	first []bool
}

// existenceRoot returns the root branching of an existence search, or nil
// when no square is fixed by more than one symmetry besides the identity
// (there the reflection fold, which also folds nodes below the root, does
// as well: queens n=14, 8.0M nodes by orbits, 7.9M by the fold).
func existenceRoot(g *geom) *rootOrbits {
	perms := symmetry.Perms[int32](g.board)
	t, best := -1, 2
	for s := range g.n {
		fix := 0
		for _, p := range perms {
			if p[s] == int32(s) {
				fix++
			}
		}
		if fix > best {
			t, best = s, fix
		}
	}
	if t < 0 {
		return nil
	}
	o := &rootOrbits{}
	seen := make([]bool, g.n)
	for i, w := range g.cover[t] {
		for ; w != 0; w &= w - 1 {
			c := i*64 + bits.TrailingZeros64(w)
			if seen[c] {
				continue
			}
			first := true
			for _, p := range perms {
				if x := p[c]; p[t] == int32(t) && !seen[x] {
					seen[x] = true
					o.order = append(o.order, x)
					o.first = append(o.first, first)
					first = false
				}
			}
		}
	}
	return o
}

// child returns the node below st that places the pieces cs, with allow
// (st's allowed squares less the earlier siblings) less cs and, for
// independent sets, less what cs attack; weight is its weight.
func (e *engine) child(st state, allow []uint64, weight uint64, cs ...int32) state {
	ch := state{chosen: append(slices.Clone(st.chosen), cs...), allow: slices.Clone(allow), weight: weight}
	for _, c := range cs {
		clearBit(ch.allow, int(c))
		if e.indep {
			for i := range ch.allow {
				ch.allow[i] &^= e.g.attack[c][i]
			}
		}
	}
	return ch
}

// folded is a child of a folded node, and whether sigma maps it to itself.
type folded struct {
	st        state
	symmetric bool
}

// fold returns the children of a node st that the involution sigma maps to
// itself (its pieces and its allowed squares) and whose branch square t is
// fixed by sigma; cands are t's allowed candidates. Ordered so that each
// candidate c with c' = sigma(c) != c comes just before c', the children
// are the sets with candidate x and none of the candidates before x. The
// sets of c' are then the images under sigma of the sets with c and not
// c' (A), and the sets of c are A and the sets with both (B): the pair
// stands for 2|A| + |B| sets, so A is searched once with twice st's weight
// and c' not at all. Candidates fixed by sigma, and the B nodes, are
// children that sigma maps to themselves again. An existence search may
// skip c' alike: its sets are images of sets it searches.
func (e *engine) fold(st state, cands []int32, sigma []int32) []folded {
	var out []folded
	allow := slices.Clone(st.allow)
	for _, c := range cands {
		if !hasBit(allow, int(c)) {
			continue // the partner of an earlier candidate
		}
		cp := sigma[c]
		if cp == c {
			out = append(out, folded{e.child(st, allow, st.weight, c), true})
			clearBit(allow, int(c))
			continue
		}
		a := e.child(st, allow, 2*st.weight, c)
		clearBit(a.allow, int(cp))
		out = append(out, folded{a, false})
		if !e.indep || !hasBit(e.g.attack[c], int(cp)) {
			out = append(out, folded{e.child(st, allow, st.weight, c, cp), true})
		}
		clearBit(allow, int(c))
		clearBit(allow, int(cp))
	}
	return out
}

// greedy returns a dominating set (independent if asked) built by placing,
// again and again, a piece on the allowed square that dominates the most
// undominated squares: an upper bound to start from.
func greedy(g *geom, indep bool) []int32 {
	dom := make([]uint64, g.words)
	allow := slices.Clone(g.full)
	und := make([]uint64, g.words)
	var out []int32
	for {
		for i, w := range g.full {
			und[i] = w &^ dom[i]
		}
		if popcount(und) == 0 {
			return out
		}
		best, bestG := -1, 0
		for s := range g.n {
			if hasBit(allow, s) {
				if gn := andCount(g.cover[s], und); gn > bestG {
					best, bestG = s, gn
				}
			}
		}
		out = append(out, int32(best))
		orInto(dom, g.cover[best])
		clearBit(allow, best)
		if indep {
			for i := range allow {
				allow[i] &^= g.attack[best][i]
			}
		}
	}
}
