package swap

import (
	"context"
	"math/bits"

	"github.com/boardsat/boardsat/puzzle"
)

// swapInf is the heuristic value of a state from which the targets cannot
// be reached (a knight cut off from every target square).
const swapInf = int32(1 << 30)

// swapHeur is the A* heuristic: per colour, the minimum over assignments of
// knights to that colour's targets of the sum of knight distances on the
// empty board (a knight needs at least that many moves whatever stands in
// its way), raised to the parity the square colours force on that colour's
// number of moves, and combined by the turn order. Each move changes one
// colour's bound by at most one and flips its parity, so the heuristic is
// consistent, not merely admissible.
type swapHeur struct {
	g      *swapGame
	distW  [][]int32 // distW[j][sq]: knight distance from sq to white target j
	distB  [][]int32
	parity []int8 // square colour
	goalPW int    // sum of target colours, white
	goalPB int
}

// swapMatchExact is the largest colour for which the heuristic solves the
// assignment exactly; larger colours use the sum of nearest-target distances.
const swapMatchExact = 10

func newSwapHeur(g *swapGame) *swapHeur {
	h := &swapHeur{g: g, parity: make([]int8, g.n)}
	for sq := range g.n {
		f, r := g.b.FileRank(puzzle.Square(sq))
		h.parity[sq] = int8((f + r) & 1)
	}
	bfs := func(t int32) []int32 {
		d := make([]int32, g.n)
		for i := range d {
			d[i] = swapInf
		}
		d[t] = 0
		q := []int32{t}
		for len(q) > 0 {
			x := q[0]
			q = q[1:]
			for _, y := range g.mlist[g.mstart[x]:g.mstart[x+1]] {
				if d[y] == swapInf {
					d[y] = d[x] + 1
					q = append(q, y)
				}
			}
		}
		return d
	}
	for _, t := range g.goal[:g.kw] {
		h.distW = append(h.distW, bfs(t))
		h.goalPW += int(h.parity[t])
	}
	for _, t := range g.goal[g.kw:] {
		h.distB = append(h.distB, bfs(t))
		h.goalPB += int(h.parity[t])
	}
	return h
}

// match returns a lower bound on the moves knights need to reach dist's
// targets: the exact min-cost assignment for up to swapMatchExact knights.
func swapMatch(knights []int32, dist [][]int32, dp []int32) int32 {
	k := len(knights)
	if k > swapMatchExact {
		var sum int32
		for _, q := range knights {
			best := swapInf
			for _, d := range dist {
				best = min(best, d[q])
			}
			if best == swapInf {
				return swapInf
			}
			sum += best
		}
		return sum
	}
	// dp[mask]: cheapest way to send the first popcount(mask) knights to the targets in mask.
	full := 1<<k - 1
	dp = dp[:full+1]
	for i := range dp {
		dp[i] = swapInf
	}
	dp[0] = 0
	for mask := 0; mask < full; mask++ {
		if dp[mask] == swapInf {
			continue
		}
		q := knights[bits.OnesCount(uint(mask))]
		for j := range k {
			if mask&(1<<j) != 0 {
				continue
			}
			if d := dist[j][q]; d != swapInf && dp[mask]+d < dp[mask|1<<j] {
				dp[mask|1<<j] = dp[mask] + d
			}
		}
	}
	return dp[full]
}

// value returns the heuristic of a state, or swapInf.
func (h *swapHeur) value(st []int32, side uint8, dp []int32) int32 {
	g := h.g
	hw := swapMatch(st[:g.kw], h.distW, dp)
	hb := swapMatch(st[g.kw:], h.distB, dp)
	if hw == swapInf || hb == swapInf {
		return swapInf
	}
	pw, pb := h.goalPW, h.goalPB
	for _, q := range st[:g.kw] {
		pw += int(h.parity[q])
	}
	for _, q := range st[g.kw:] {
		pb += int(h.parity[q])
	}
	// The number of moves each colour makes from here is at least its bound
	// and has the parity of its square-colour change.
	w := hw + (hw+int32(pw))&1
	b := hb + (hb+int32(pb))&1
	if !g.alt {
		return w + b
	}
	// Alternating: the side to move makes ceil(L/2) of the next L moves.
	first, second := w, b
	pf, ps := int32(pw&1), int32(pb&1)
	if side == 1 {
		first, second, pf, ps = b, w, ps, pf
	}
	for l := max(2*first-1, 2*second, 0); ; l++ {
		c, f := (l+1)/2, l/2
		if c >= first && f >= second && c&1 == pf && f&1 == ps {
			return l
		}
	}
}

// swapAStar is A* with swapHeur. The heuristic is consistent, so the first
// time the goal leaves the queue its depth is the shortest plan length and
// a closed state never needs reopening. The open list is a bucket queue by
// f = g + h, last in first out within a bucket (deeper states first).
func swapAStar(ctx context.Context, g *swapGame, _ bool) swapResult {
	var res swapResult
	if g.k > 0 && g.n*g.k > 1<<24 {
		// Per-target distance tables would be too large; BFS needs none.
		return swapBFS(ctx, g, false)
	}
	h := newSwapHeur(g)
	dp := make([]int32, 1<<min(max(g.kw, g.kb), swapMatchExact))
	s := newSwapStore(g, false, g.keyModeAStar)
	closed := []bool{}
	type entry struct{ id, g int32 }
	var buckets [][]entry
	push := func(id, gv, f int32) {
		for int(f) >= len(buckets) {
			buckets = append(buckets, nil)
		}
		buckets[f] = append(buckets[f], entry{id, gv})
	}
	h0 := h.value(g.start, 0, dp)
	root, _ := s.add(g.start, 0, 0, -1)
	closed = append(closed, false)
	if h0 == swapInf {
		res.status, res.states = puzzle.Unsat, 1
		return res
	}
	push(root, 0, h0)
	var buf []int32
	k := g.k
	for f := 0; f < len(buckets); {
		if len(buckets[f]) == 0 {
			buckets[f] = nil
			f++
			continue
		}
		e := buckets[f][len(buckets[f])-1]
		buckets[f] = buckets[f][:len(buckets[f])-1]
		if closed[e.id] || s.depth[e.id] != e.g {
			continue
		}
		st, sd := s.state(e.id), s.side[e.id]
		if g.isGoal(st) {
			res.status, res.length = puzzle.OK, int(e.g)
			res.plan = g.planOf(s.pathTo(e.id))
			res.states = int64(s.len())
			return res
		}
		closed[e.id] = true
		res.nodes++
		if res.nodes%swapPollEvery == 0 && ctx.Err() != nil {
			res.status, res.states = puzzle.Timeout, int64(s.len())
			return res
		}
		nside := g.nextSide(sd)
		buf = g.expand(st, sd, buf[:0])
		for off := 0; off < len(buf); off += k {
			nx := buf[off : off+k]
			j, added := s.add(nx, nside, e.g+1, e.id)
			if added {
				closed = append(closed, false)
			} else if closed[j] || s.depth[j] <= e.g+1 {
				continue
			} else {
				s.depth[j], s.parent[j] = e.g+1, e.id
			}
			hv := h.value(nx, nside, dp)
			if hv == swapInf {
				closed[j] = true // dead end: no plan continues from here
				continue
			}
			push(j, e.g+1, e.g+1+hv)
		}
	}
	res.status, res.states = puzzle.Unsat, int64(s.len())
	return res
}
