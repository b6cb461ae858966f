package swap

import (
	"context"

	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/puzzle"
)

// swapBidir is bidirectional breadth-first search: it expands a whole layer
// of whichever side has the smaller frontier, and stops after the first
// layer in which the two searches meet. Every shortest plan crosses that
// layer at exactly one meeting state, so the number of shortest plans is the
// sum over meeting states of the forward times the backward path counts.
func swapBidir(ctx context.Context, g *swapGame, count bool) swapResult {
	var res swapResult
	if g.isGoal(g.start) {
		return swapResult{status: puzzle.OK, length: 0, count: 1, plan: []puzzle.Move{}, states: 1}
	}
	fw, bw := newSwapStore(g, true, g.keyMode), newSwapStore(g, true, g.keyMode)
	r, _ := fw.add(g.start, 0, 0, -1)
	fw.count[r] = 1
	for side := range uint8(g.sides) {
		r, _ := bw.add(g.goal, side, 0, -1)
		bw.count[r] = 1
	}
	sf := &bidirSide{s: fw, other: bw, lo: 0, hi: fw.len()}
	sb := &bidirSide{s: bw, other: fw, lo: 0, hi: bw.len(), back: true}
	var buf []int32
	mem := newSwapBudget(g, g.keyMode, 2)
	for {
		if sf.lo == sf.hi || sb.lo == sb.hi {
			res.status = puzzle.Unsat
			break
		}
		cur := sf
		if sb.hi-sb.lo < sf.hi-sf.lo {
			cur = sb
		}
		// Both frontiers are complete layers; the searches have covered
		// their depths together, and the smaller frontier is expanded next.
		d := int(fw.depth[sf.lo] + bw.depth[sb.lo])
		if why := mem.check(fw.len()+bw.len(), cur.hi-cur.lo, d); why != "" {
			res.refusal, res.states = why, int64(fw.len()+bw.len())
			return res
		}
		meets, stopped := g.bidirLayer(ctx, cur, count, &res, &buf)
		if stopped {
			res.status, res.states = puzzle.Timeout, int64(fw.len()+bw.len())
			return res
		}
		cur.lo, cur.hi = cur.hi, cur.s.len()
		if len(meets) == 0 {
			continue
		}
		g.bidirMeet(fw, bw, cur, meets, &res)
		break
	}
	res.states = int64(fw.len() + bw.len())
	return res
}

// bidirSide is one of the two searches of swapBidir.
type bidirSide struct {
	s, other *swapStore
	lo, hi   int // current frontier ids
	back     bool
}

// bidirLayer expands cur's frontier layer, counting paths, and returns the
// ids in cur.s of the new states also in the other search (only the first
// when not counting); stopped when ctx ended.
func (g *swapGame) bidirLayer(ctx context.Context, cur *bidirSide, count bool, res *swapResult, buf *[]int32) (meets []int32, stopped bool) {
	k := g.k
	for id := int32(cur.lo); id < int32(cur.hi); id++ {
		res.nodes++
		if res.nodes%swapPollEvery == 0 && ctx.Err() != nil {
			return nil, true
		}
		st, sd, d := cur.s.state(id), cur.s.side[id], cur.s.depth[id]
		var nside uint8
		if cur.back {
			nside = 0
			if g.alt {
				nside = sd ^ 1
			}
			*buf = g.expandBack(st, sd, (*buf)[:0])
		} else {
			nside = g.nextSide(sd)
			*buf = g.expand(st, sd, (*buf)[:0])
		}
		for off := 0; off < len(*buf); off += k {
			nx := (*buf)[off : off+k]
			j, added := cur.s.add(nx, nside, d+1, id)
			if added {
				cur.s.count[j] = cur.s.count[id]
				if cur.other.find(nx, nside) >= 0 {
					meets = append(meets, j)
				}
			} else if cur.s.depth[j] == d+1 {
				swapAddCount(&cur.s.count[j], cur.s.count[id], &res.overflow)
			}
		}
		if len(meets) > 0 && !count {
			break
		}
	}
	return meets, false
}

// bidirMeet answers from the meeting states meets (ids in cur.s): the
// shortest length through them, the plans of that length (the forward
// times the backward path counts, summed), and one plan.
func (g *swapGame) bidirMeet(fw, bw *swapStore, cur *bidirSide, meets []int32, res *swapResult) {
	best, bestID := int32(-1), int32(-1)
	for _, j := range meets {
		o := cur.other.find(cur.s.state(j), cur.s.side[j])
		l := cur.s.depth[j] + cur.other.depth[o]
		if best < 0 || l < best {
			best, bestID = l, j
		}
	}
	var total uint64
	for _, j := range meets {
		o := cur.other.find(cur.s.state(j), cur.s.side[j])
		if cur.s.depth[j]+cur.other.depth[o] != best {
			continue
		}
		n, over := limbs.Mul64(cur.s.count[j], cur.other.count[o])
		res.overflow = res.overflow || over
		swapAddCount(&total, n, &res.overflow)
	}
	o := cur.other.find(cur.s.state(bestID), cur.s.side[bestID])
	var fwID, bwID int32 = bestID, o
	if cur.back {
		fwID, bwID = o, bestID
	}
	path := fw.pathTo(fwID)
	back := bw.pathTo(bwID) // goal ... meeting state
	for i := len(back) - 2; i >= 0; i-- {
		path = append(path, back[i])
	}
	res.status, res.length, res.count = puzzle.OK, int(best), total
	res.plan = g.planOf(path)
}
