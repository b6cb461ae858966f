package tour

// Knight's tours: the divide-and-conquer construction (block tours joined by
// edge exchanges), linear time.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/boardsat/boardsat/puzzle"
)

// ---------------------------------------------------------------------------
// Divide and conquer.

// tourBlockCache holds block tours by shape, start and alternative:
// relative square lists in tour order, or nil when none was found.
var tourBlockCache sync.Map

type tourBlockKey struct {
	w, h, start, alt int // start -1: a closed tour
}

// tourBlockAlts is the number of alternative tours tourBlock tries per
// block: the tie-breaking rules, then random ties with several seeds.
const tourBlockAlts = 8

// tourBlock returns a tour of a w x h block: a closed tour when start < 0,
// else an open tour from start (block-relative square index). Alternative
// alt (0 to tourBlockAlts-1) uses another tie-breaking rule; nil means that
// alternative found none within its budget.
func tourBlock(w, h, start, alt int) []int32 {
	key := tourBlockKey{w, h, start, alt}
	if v, ok := tourBlockCache.Load(key); ok {
		return v.([]int32)
	}
	g := newTourGraph(puzzle.Board{W: w, H: h})
	s := int32(start)
	if start < 0 {
		s = 0
	}
	ties := []tourTie{tourTieRoth, tourTiePohl, tourTieFirst}
	tie := tourTieRandom
	if alt < len(ties) {
		tie = ties[alt]
	}
	f := newTourFinder(g, tie, start < 0, true)
	f.budget = 100000
	var out []int32
	if tie == tourTieRandom {
		f.reset(s)
		f.rng = rand.New(rand.NewPCG(uint64(alt), uint64(s)))
		if f.dfs() {
			out = slices.Clone(f.path)
		}
	} else if f.run(s) {
		out = slices.Clone(f.path)
	}
	tourBlockCache.Store(key, out)
	return out
}

// tourParts splits a side of length n into parts for blocks: all even
// (6, 8 or 10) when even is set, else sizes 5 to 9.
func tourParts(n int, even bool) []int {
	var parts []int
	if even {
		for n > 0 {
			switch {
			case n == 10 || n == 6 || n == 8:
				parts = append(parts, n)
				n = 0
			case n == 12:
				parts = append(parts, 6, 6)
				n = 0
			default:
				parts = append(parts, 8)
				n -= 8
			}
		}
		return parts
	}
	for n > 0 {
		switch {
		case n <= 9:
			parts = append(parts, n)
			n = 0
		case n < 14:
			parts = append(parts, 5)
			n -= 5
		default:
			parts = append(parts, 8)
			n -= 8
		}
	}
	return parts
}

// tourOddParts splits an odd side of length n into even parts (6, 8, 10)
// and one odd part, of 5 to 13, that covers coordinate c. It returns the
// parts and the index of the odd one.
func tourOddParts(n, c int) ([]int, int, bool) {
	for odd := 5; odd <= 13 && odd <= n; odd += 2 {
		for p := max(0, c-odd+1); p <= c; p++ {
			rest := n - p - odd
			if p%2 != 0 || (p != 0 && p < 6) || rest < 0 || (rest != 0 && rest < 6) {
				continue
			}
			var parts []int
			if p > 0 {
				parts = tourParts(p, true)
			}
			idx := len(parts)
			parts = append(parts, odd)
			if rest > 0 {
				parts = append(parts, tourParts(rest, true)...)
			}
			return parts, idx, true
		}
	}
	return nil, 0, false
}

// tourDivide builds a tour of t by the divide-and-conquer construction. It
// returns the path, or an explanation of why it found none.
func tourDivide(ctx context.Context, t puzzle.Tour) ([]int32, string) {
	d, msg := newTourDivider(t)
	if d == nil {
		return nil, msg
	}
	if msg := d.layAll(ctx); msg != "" {
		return nil, msg
	}
	if !d.joinAll() {
		return nil, "divide could not join the block tours"
	}
	return d.walk()
}

// tourDivider holds one divide-and-conquer construction: the board cut into
// a grid of blocks, each block's laid tour as every square's two tour
// neighbours, and the union-find of the blocks joined so far.
type tourDivider struct {
	b                  puzzle.Board
	W, H               int
	start, sf, sr      int     // the start square and its file and rank
	cols, rows         []int   // block widths and heights
	oddCol, oddRow     int     // the block holding the open tour (-1: none)
	colStart, rowStart []int   // first file (rank) of each block column (row)
	colOf, rowOf       []int32 // block column (row) of each file (rank)
	nc, nr             int     // blocks across and down
	// nb holds every square's two tour neighbours (-1: a path end).
	nb      []int32
	variant []int  // the variant each block is laid with
	parent  []int  // union-find over blocks
	joined  []bool // blocks joined to another
}

// newTourDivider partitions t's board into blocks. It returns nil and an
// explanation when the board cannot be divided.
func newTourDivider(t puzzle.Tour) (*tourDivider, string) {
	b := t.Board
	W, H := b.W, b.H
	if W < 5 || H < 5 {
		return nil, fmt.Sprintf("divide needs both sides at least 5 (board %s)", b)
	}
	start := int(t.Start)
	if t.AllStarts {
		start = 0
	}
	d := &tourDivider{b: b, W: W, H: H, start: start, sf: start % W, sr: start / W, oddCol: -1, oddRow: -1}
	switch {
	case W%2 == 0:
		d.cols, d.rows = tourParts(W, true), tourParts(H, false)
	case H%2 == 0:
		d.cols, d.rows = tourParts(W, false), tourParts(H, true)
	default:
		var ok1, ok2 bool
		d.cols, d.oddCol, ok1 = tourOddParts(W, d.sf)
		d.rows, d.oddRow, ok2 = tourOddParts(H, d.sr)
		if !ok1 || !ok2 {
			return nil, "divide found no block partition for this start"
		}
	}
	d.colStart, d.colOf = tourBlockSpans(d.cols, W)
	d.rowStart, d.rowOf = tourBlockSpans(d.rows, H)
	d.nc, d.nr = len(d.cols), len(d.rows)
	d.nb = make([]int32, 2*W*H)
	d.variant = make([]int, d.nc*d.nr)
	d.parent = make([]int, d.nc*d.nr)
	for i := range d.parent {
		d.parent[i] = i
	}
	d.joined = make([]bool, d.nc*d.nr)
	return d, ""
}

// tourBlockSpans returns, for parts that cover a side of length n, the first
// coordinate of each part (plus n at the end) and the part of each
// coordinate.
func tourBlockSpans(parts []int, n int) ([]int, []int32) {
	first := make([]int, len(parts)+1)
	for i, p := range parts {
		first[i+1] = first[i] + p
	}
	of := make([]int32, n)
	for i := range parts {
		for x := first[i]; x < first[i+1]; x++ {
			of[x] = int32(i)
		}
	}
	return first, of
}

// blockOf returns the index of the block that holds square s.
func (d *tourDivider) blockOf(s int32) int {
	return int(d.rowOf[int(s)/d.W])*d.nc + int(d.colOf[int(s)%d.W])
}

// lay gives block (i, j) its tour: variant v picks alternative v/4
// reflected by v%4 (closed blocks only; the open block keeps its start).
func (d *tourDivider) lay(i, j, v int) bool {
	w, h := d.cols[i], d.rows[j]
	open := i == d.oddCol && j == d.oddRow
	var rel []int32
	if open {
		rs := (d.sr-d.rowStart[j])*w + (d.sf - d.colStart[i])
		if v%4 != 0 {
			return false
		}
		rel = tourBlock(w, h, rs, v/4)
	} else {
		rel = tourBlock(w, h, -1, v/4)
	}
	if rel == nil {
		return false
	}
	abs := func(k int) int32 {
		q := int(rel[k])
		f, r := q%w, q/w
		if v&1 != 0 {
			f = w - 1 - f
		}
		if v&2 != 0 {
			r = h - 1 - r
		}
		return int32((d.rowStart[j]+r)*d.W + d.colStart[i] + f)
	}
	m := len(rel)
	for k := range m {
		s := abs(k)
		prev, next := int32(-1), int32(-1)
		if k > 0 {
			prev = abs(k - 1)
		} else if !open {
			prev = abs(m - 1)
		}
		if k < m-1 {
			next = abs(k + 1)
		} else if !open {
			next = abs(0)
		}
		d.nb[2*s], d.nb[2*s+1] = prev, next
	}
	return true
}

// layAll lays every block with its first variant that has a tour. It
// returns an explanation when a block has none or ctx ends.
func (d *tourDivider) layAll(ctx context.Context) string {
	for j := range d.nr {
		for i := range d.nc {
			if ctx.Err() != nil {
				return ctx.Err().Error()
			}
			v := 0
			for v < 4*tourBlockAlts && !d.lay(i, j, v) {
				v += 4
			}
			if v >= 4*tourBlockAlts {
				return fmt.Sprintf("divide found no tour of a %dx%d block", d.cols[i], d.rows[j])
			}
			d.variant[j*d.nc+i] = v
		}
	}
	return ""
}

// find returns the representative of block x's joined component.
func (d *tourDivider) find(x int) int {
	for d.parent[x] != x {
		d.parent[x] = d.parent[d.parent[x]]
		x = d.parent[x]
	}
	return x
}

// knight reports whether squares a and c are a knight's move apart.
func (d *tourDivider) knight(a, c int32) bool {
	W := d.W
	df, dr := int(a)%W-int(c)%W, int(a)/W-int(c)/W
	return df*dr == 2 || df*dr == -2
}

// replace makes new the tour neighbour of s that old was.
func (d *tourDivider) replace(s, old, new int32) {
	if d.nb[2*s] == old {
		d.nb[2*s] = new
	} else {
		d.nb[2*s+1] = new
	}
}

// join looks for tour edges a-b in block x and c-d in block y with a-c
// and b-d knight moves, and exchanges them for a-c and b-d.
func (d *tourDivider) join(x, y int) bool {
	xi, xj := x%d.nc, x/d.nc
	f0, f1 := d.colStart[xi], d.colStart[xi+1]
	r0, r1 := d.rowStart[xj], d.rowStart[xj+1]
	yi, yj := y%d.nc, y/d.nc
	// Only squares within two files or ranks of the shared border.
	if yi > xi {
		f0 = max(f0, f1-2)
	} else if yi < xi {
		f1 = min(f1, f0+2)
	} else if yj > xj {
		r0 = max(r0, r1-2)
	} else {
		r1 = min(r1, r0+2)
	}
	for r := r0; r < r1; r++ {
		for f := f0; f < f1; f++ {
			a := int32(r*d.W + f)
			for _, dl := range tourDeltas {
				cf, cr := f+dl[0], r+dl[1]
				if !d.b.On(cf, cr) {
					continue
				}
				c := int32(cr*d.W + cf)
				if d.blockOf(c) != y {
					continue
				}
				if d.exchange(a, c) {
					return true
				}
			}
		}
	}
	return false
}

// exchange looks for tour neighbours bb of a and dd of c a knight's move
// apart, and exchanges edges a-bb and c-dd for a-c and bb-dd.
func (d *tourDivider) exchange(a, c int32) bool {
	nb := d.nb
	for ka := range 2 {
		bb := nb[2*a+int32(ka)]
		if bb < 0 {
			continue
		}
		for kc := range 2 {
			dd := nb[2*c+int32(kc)]
			if dd < 0 || !d.knight(bb, dd) {
				continue
			}
			d.replace(a, bb, c)
			d.replace(bb, a, dd)
			d.replace(c, dd, a)
			d.replace(dd, c, bb)
			return true
		}
	}
	return false
}

// relay lays a block of x and y not yet joined to any other again with
// another variant, and retries the join; it restores a block's first
// variant with a tour when none joins.
func (d *tourDivider) relay(x, y int) bool {
	for _, z := range []int{y, x} {
		if d.joined[z] {
			continue
		}
		for v := d.variant[z] + 1; v < 4*tourBlockAlts; v++ {
			if !d.lay(z%d.nc, z/d.nc, v) {
				continue
			}
			d.variant[z] = v
			if d.join(x, y) {
				return true
			}
		}
		for v := 0; v < 4*tourBlockAlts; v++ {
			if d.lay(z%d.nc, z/d.nc, v) {
				d.variant[z] = v
				break
			}
		}
	}
	return false
}

// joinAll joins the block tours along a spanning tree of the block grid.
// It reports whether they all became one tour.
func (d *tourDivider) joinAll() bool {
	nc, nr := d.nc, d.nr
	comps := nc * nr
	for progress := true; progress && comps > 1; {
		progress = false
		for x := range nc * nr {
			for dir, y := range []int{x + 1, x + nc} {
				if (dir == 0 && x%nc == nc-1) || y >= nc*nr {
					continue
				}
				if d.find(x) == d.find(y) {
					continue
				}
				if d.join(x, y) || d.relay(x, y) {
					d.parent[d.find(x)] = d.find(y)
					d.joined[x], d.joined[y] = true, true
					comps--
					progress = true
				}
			}
		}
	}
	return comps == 1
}

// walk follows the joined tour from the start square.
func (d *tourDivider) walk() ([]int32, string) {
	n := d.W * d.H
	path := make([]int32, 0, n)
	prev, cur := int32(-1), int32(d.start)
	for range n {
		path = append(path, cur)
		next := d.nb[2*cur]
		if next == prev || next < 0 {
			next = d.nb[2*cur+1]
		}
		prev, cur = cur, next
		if cur < 0 {
			break
		}
	}
	if len(path) != n {
		return nil, "divide built a broken tour (internal error)"
	}
	return path, ""
}

func tourSolveDivide(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t := req.Spec.(puzzle.Tour)
	if r := tourImpossible(t); r != "" {
		return tourUnsat(r), nil
	}
	path, msg := tourDivide(ctx, t)
	if ctx.Err() != nil {
		return puzzle.Answer{Status: puzzle.Timeout, Message: ctx.Err().Error(), Stats: tourStats(0, 0)}, nil
	}
	if path == nil {
		return puzzle.Answer{Status: puzzle.Error, Message: puzzle.NotFound + msg, Stats: tourStats(0, 0)}, nil
	}
	return puzzle.Answer{Status: puzzle.OK, Solution: tourSolution(t.Board, path), Stats: tourStats(int64(len(path)), 0)}, nil
}
