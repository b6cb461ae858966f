package swap

import (
	"context"

	"github.com/boardsat/boardsat/puzzle"
)

// swapBFS is breadth-first search from the start. Ids are handed out in BFS
// order, so the queue is the store itself. With count set it finishes the
// layer before the goal's so the goal's path count is complete.
func swapBFS(ctx context.Context, g *swapGame, count bool) swapResult {
	s := newSwapStore(g, true, g.keyMode)
	root, _ := s.add(g.start, 0, 0, -1)
	s.count[root] = 1
	var res swapResult
	if g.isGoal(g.start) {
		return swapResult{status: puzzle.OK, length: 0, count: 1, plan: []puzzle.Move{}, states: 1}
	}
	goal := int32(-1)
	var buf []int32
	k := g.k
	mem := newSwapBudget(g, g.keyMode, 1)
	layer := int32(-1) // the depth whose layer is being expanded
	for id := int32(0); int(id) < s.len(); id++ {
		if goal >= 0 && s.depth[id] >= s.depth[goal] {
			break // the layer before the goal's is done
		}
		if d := s.depth[id]; d != layer && goal < 0 {
			// Layer d is complete: ids id..len-1 are all of it.
			layer = d
			if why := mem.check(s.len(), s.len()-int(id), int(d)); why != "" {
				res.refusal, res.states = why, int64(s.len())
				return res
			}
		}
		res.nodes++
		if res.nodes%swapPollEvery == 0 && ctx.Err() != nil {
			res.status, res.states = puzzle.Timeout, int64(s.len())
			return res
		}
		d := s.depth[id]
		nside := g.nextSide(s.side[id])
		buf = g.expand(s.state(id), s.side[id], buf[:0])
		for off := 0; off < len(buf); off += k {
			nx := buf[off : off+k]
			j, added := s.add(nx, nside, d+1, id)
			if added {
				s.count[j] = s.count[id]
				if goal < 0 && g.isGoal(nx) {
					goal = j
					if !count {
						break
					}
				}
			} else if s.depth[j] == d+1 {
				swapAddCount(&s.count[j], s.count[id], &res.overflow)
			}
		}
		if goal >= 0 && !count {
			break
		}
	}
	res.states = int64(s.len())
	if goal < 0 {
		res.status = puzzle.Unsat
		return res
	}
	res.status, res.length, res.count = puzzle.OK, int(s.depth[goal]), s.count[goal]
	res.plan = g.planOf(s.pathTo(goal))
	return res
}
