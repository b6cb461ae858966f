package tour

import (
	"sync/atomic"
	"testing"
)

// TestHalfDPStopsWithinALayer: the half DP's workers look at stop while
// they expand and merge a layer, not only between layers (a layer of
// tour:8x8 holds millions of states, and a time limit or SIGINT waited
// for it: 15 s late at 25 s, 9.7 s after SIGINT). On a layer of
// thousands of states, an expansion or a merge with stop set returns
// with at most a few thousand entries handled, where without it handles
// them all.
func TestHalfDPStopsWithinALayer(t *testing.T) {
	p := newHalfPlan(8, 8, 4, false)
	var never, stopped atomic.Bool
	stopped.Store(true)
	cur := []map[hKey]uint64{{hKey{}: 1}}
	for len(cur) < halfShards {
		cur = append(cur, map[hKey]uint64{})
	}
	v := 0
	for ; v < 8*4; v++ {
		n := 0
		for _, m := range cur {
			n += len(m)
		}
		if n > 20000 {
			break
		}
		next, _ := halfMerge([][][]halfEntry{p.expandShards(v, cur, 0, 1, &never)}, 1, &never)
		cur = next
	}
	states := 0
	for _, m := range cur {
		states += len(m)
	}
	if states <= 20000 {
		t.Fatalf("the layers of 8x8 stayed at %d states: no layer to stop in", states)
	}
	count := func(out [][]halfEntry) (n int) {
		for _, o := range out {
			n += len(o)
		}
		return n
	}
	full := count(p.expandShards(v, cur, 0, 1, &never))
	cut := count(p.expandShards(v, cur, 0, 1, &stopped))
	if cut >= full || cut > 1024*8 {
		t.Errorf("expanding %d states with stop set gave %d entries of %d", states, cut, full)
	}
	next, _ := halfMerge([][][]halfEntry{p.expandShards(v, cur, 0, 1, &never)}, 1, &stopped)
	merged := 0
	for _, m := range next {
		merged += len(m)
	}
	if merged != 0 {
		t.Errorf("a merge with stop set merged %d states", merged)
	}
}
