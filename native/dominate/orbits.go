package dominate

import (
	"cmp"
	"context"
	"slices"

	"github.com/boardsat/boardsat/native/symmetry"
	"github.com/boardsat/boardsat/puzzle"
)

// orbitSplit is how a count searches one set per class of sets under the
// board's symmetries. The squares are put in an order (rank: the ring, the
// distance to the board's edge, from the edge inward, then the square's
// number); a set's least square in that order is its leader. The least
// image of a set (its class's canonical set, compared as sorted lists of
// ranks) has a leader that is the least square of its own orbit, and no
// square of the set lies in an orbit with a smaller least square (else an
// image would have a smaller leader). So every class has a set below
// exactly one root: the root of leader m places m and allows only the
// squares whose orbit's least square is m or comes after m. Each root
// holds few sets besides its canonical ones (images of a set that keep
// its leader), and a leaf keeps a set only if it is canonical, weighted by
// its class size: the count is the sum of the weights, the unique count
// the number of canonical sets, both from one search.
type orbitSplit struct {
	// rank[s] is square s's place in the order; syms are the board's
	// symmetries written on ranks (symsRank[g][rank[s]] = rank[g(s)]).
	rank     []int32
	symsRank [][]int32
	// least[s] is the rank of the least square of s's orbit.
	least []int32
}

func newOrbitSplit(g *geom) *orbitSplit {
	b := g.board
	order := make([]int32, g.n)
	for s := range order {
		order[s] = int32(s)
	}
	ring := func(s int32) int {
		f, r := b.FileRank(puzzle.Square(s))
		return min(f, r, b.W-1-f, b.H-1-r)
	}
	slices.SortStableFunc(order, func(a, c int32) int { return cmp.Compare(ring(a), ring(c)) })
	o := &orbitSplit{rank: make([]int32, g.n), least: make([]int32, g.n)}
	for i, s := range order {
		o.rank[s] = int32(i)
	}
	perms := symmetry.Perms[int32](b)
	for _, p := range perms {
		pr := make([]int32, g.n)
		for s := range g.n {
			pr[o.rank[s]] = o.rank[p[s]]
		}
		o.symsRank = append(o.symsRank, pr)
	}
	for s := range g.n {
		o.least[s] = o.rank[s]
		for _, p := range perms {
			o.least[s] = min(o.least[s], o.rank[p[s]])
		}
	}
	return o
}

// roots returns the search's roots in rank order: one per square m that is
// the least of its orbit, placing m and allowing the squares after it
// whose orbit's least square is not before m (for independent sets, less
// what m attacks).
func (o *orbitSplit) roots(e *engine) []state {
	var out []state
	for m := range e.g.n {
		if o.least[m] != o.rank[m] {
			continue
		}
		st := e.rootState()
		for s := range e.g.n {
			if o.least[s] < o.rank[m] || s == m {
				clearBit(st.allow, s)
			}
		}
		out = append(out, e.child(state{}, st.allow, 1, int32(m)))
	}
	slices.SortFunc(out, func(a, c state) int { return cmp.Compare(o.rank[a.chosen[0]], o.rank[c.chosen[0]]) })
	return out
}

// classCounter weighs the sets of a leaf: scratch for one worker.
type classCounter struct {
	o           *orbitSplit
	sorted, img []int32
}

// weigh returns the class size of set if it is its class's canonical set
// (the least image as a sorted list of ranks), else 0.
func (c *classCounter) weigh(set []int32) uint64 {
	c.sorted = c.sorted[:0]
	for _, s := range set {
		c.sorted = append(c.sorted, c.o.rank[s])
	}
	slices.Sort(c.sorted)
	c.img = append(c.img[:0], c.sorted...)
	return symmetry.SetClassWeight(c.o.symsRank, c.sorted, c.img)
}

// orbitTasks returns the subproblems of a count over orbits: the roots,
// expanded together level by level until there are at least want nodes
// (or the tree ends), and the depth reached below the roots. They are
// returned interleaved (every stride-th node, then the next residue, see
// interleave): the edge roots hold almost all the work, so in tree order
// the first tenth of the subproblems is a third of the work; interleaved,
// any prefix is a fair sample, and the progress meter's estimate of the
// time left is one of the whole count.
func orbitTasks(ctx context.Context, g *geom, indep bool, limit int, o *orbitSplit, want int) ([]state, int) {
	e := newEngine(ctx, g, indep, limit)
	roots := o.roots(e)
	tasks, depth := roots, 0
	for len(tasks) < want && depth < limit {
		depth++
		tasks = e.expandFrom(roots, depth)
	}
	return interleave(tasks, taskStride), depth
}

// taskStride is the stride of interleave for the subproblems of a count.
const taskStride = 64

// interleave returns xs in the order of (i mod stride, i div stride):
// xs[0], xs[stride], xs[2*stride], ..., then xs[1], xs[stride+1], ...
func interleave[T any](xs []T, stride int) []T {
	out := make([]T, 0, len(xs))
	for r := range min(stride, len(xs)) {
		for i := r; i < len(xs); i += stride {
			out = append(out, xs[i])
		}
	}
	return out
}
