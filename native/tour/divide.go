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
	b := t.Board
	W, H := b.W, b.H
	if W < 5 || H < 5 {
		return nil, fmt.Sprintf("divide needs both sides at least 5 (board %s)", b)
	}
	start := int(t.Start)
	if t.AllStarts {
		start = 0
	}
	sf, sr := start%W, start/W
	var cols, rows []int
	oddCol, oddRow := -1, -1
	switch {
	case W%2 == 0:
		cols, rows = tourParts(W, true), tourParts(H, false)
	case H%2 == 0:
		cols, rows = tourParts(W, false), tourParts(H, true)
	default:
		var ok1, ok2 bool
		cols, oddCol, ok1 = tourOddParts(W, sf)
		rows, oddRow, ok2 = tourOddParts(H, sr)
		if !ok1 || !ok2 {
			return nil, "divide found no block partition for this start"
		}
	}
	// Block geometry.
	colStart := make([]int, len(cols)+1)
	for i, c := range cols {
		colStart[i+1] = colStart[i] + c
	}
	rowStart := make([]int, len(rows)+1)
	for i, r := range rows {
		rowStart[i+1] = rowStart[i] + r
	}
	colOf := make([]int32, W)
	for i := range cols {
		for f := colStart[i]; f < colStart[i+1]; f++ {
			colOf[f] = int32(i)
		}
	}
	rowOf := make([]int32, H)
	for j := range rows {
		for r := rowStart[j]; r < rowStart[j+1]; r++ {
			rowOf[r] = int32(j)
		}
	}
	nc, nr := len(cols), len(rows)
	blockOf := func(s int32) int { return int(rowOf[int(s)/W])*nc + int(colOf[int(s)%W]) }

	// Every square's two tour neighbours (-1: a path end). lay gives block
	// (i, j) its tour: variant v picks alternative v/4 reflected by v%4
	// (closed blocks only; the open block keeps its start).
	n := W * H
	nb := make([]int32, 2*n)
	lay := func(i, j, v int) bool {
		w, h := cols[i], rows[j]
		open := i == oddCol && j == oddRow
		var rel []int32
		if open {
			rs := (sr-rowStart[j])*w + (sf - colStart[i])
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
			return int32((rowStart[j]+r)*W + colStart[i] + f)
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
			nb[2*s], nb[2*s+1] = prev, next
		}
		return true
	}
	variant := make([]int, nc*nr)
	for j := range nr {
		for i := range nc {
			if ctx.Err() != nil {
				return nil, ctx.Err().Error()
			}
			v := 0
			for v < 4*tourBlockAlts && !lay(i, j, v) {
				v += 4
			}
			if v >= 4*tourBlockAlts {
				return nil, fmt.Sprintf("divide found no tour of a %dx%d block", cols[i], rows[j])
			}
			variant[j*nc+i] = v
		}
	}

	// Join the block tours along a spanning tree of the block grid.
	parent := make([]int, nc*nr)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	knight := func(a, c int32) bool {
		df, dr := int(a)%W-int(c)%W, int(a)/W-int(c)/W
		return df*dr == 2 || df*dr == -2
	}
	replace := func(s, old, new int32) {
		if nb[2*s] == old {
			nb[2*s] = new
		} else {
			nb[2*s+1] = new
		}
	}
	// join looks for tour edges a-b in block x and c-d in block y with a-c
	// and b-d knight moves, and exchanges them for a-c and b-d.
	join := func(x, y int) bool {
		xi, xj := x%nc, x/nc
		f0, f1 := colStart[xi], colStart[xi+1]
		r0, r1 := rowStart[xj], rowStart[xj+1]
		yi, yj := y%nc, y/nc
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
				a := int32(r*W + f)
				for _, d := range tourDeltas {
					cf, cr := f+d[0], r+d[1]
					if !b.On(cf, cr) {
						continue
					}
					c := int32(cr*W + cf)
					if blockOf(c) != y {
						continue
					}
					for ka := range 2 {
						bb := nb[2*a+int32(ka)]
						if bb < 0 {
							continue
						}
						for kc := range 2 {
							dd := nb[2*c+int32(kc)]
							if dd < 0 || !knight(bb, dd) {
								continue
							}
							replace(a, bb, c)
							replace(bb, a, dd)
							replace(c, dd, a)
							replace(dd, c, bb)
							return true
						}
					}
				}
			}
		}
		return false
	}
	// A block not yet joined to any other may be laid again with another
	// variant when a join fails.
	comps := nc * nr
	joined := make([]bool, nc*nr)
	relay := func(x, y int) bool {
		for _, z := range []int{y, x} {
			if joined[z] {
				continue
			}
			for v := variant[z] + 1; v < 4*tourBlockAlts; v++ {
				if !lay(z%nc, z/nc, v) {
					continue
				}
				variant[z] = v
				if join(x, y) {
					return true
				}
			}
			for v := 0; v < 4*tourBlockAlts; v++ {
				if lay(z%nc, z/nc, v) {
					variant[z] = v
					break
				}
			}
		}
		return false
	}
	for progress := true; progress && comps > 1; {
		progress = false
		for x := range nc * nr {
			for dir, y := range []int{x + 1, x + nc} {
				if (dir == 0 && x%nc == nc-1) || y >= nc*nr {
					continue
				}
				if find(x) == find(y) {
					continue
				}
				if join(x, y) || relay(x, y) {
					parent[find(x)] = find(y)
					joined[x], joined[y] = true, true
					comps--
					progress = true
				}
			}
		}
	}
	if comps > 1 {
		return nil, "divide could not join the block tours"
	}

	// Walk from the start.
	path := make([]int32, 0, n)
	prev, cur := int32(-1), int32(start)
	for range n {
		path = append(path, cur)
		next := nb[2*cur]
		if next == prev || next < 0 {
			next = nb[2*cur+1]
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
