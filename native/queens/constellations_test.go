package queens

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardsat/boardsat/native/symmetry"
)

// queensBorderKey returns the key of a solution's start constellation.
func queensBorderKey(cols []int) int {
	n := len(cols)
	m := n - 1
	c := queensConstellation{Top: cols[0], Bottom: cols[m]}
	for r, col := range cols {
		if col == 0 {
			c.Left = r
		}
		if col == m {
			c.Right = r
		}
	}
	return c.key(n)
}

// TestQueensConstellationsAgainstEnumeration checks the constellation
// counter piece by piece against every solution found by the bitboard
// search, for n = 5..10: each representative's completion count (fast and
// recording searches) is the number of solutions with its border queens;
// every member of its class (distinct images) has as many; the classes
// cover every solution once; and the solutions a fixing turn maps onto
// themselves are those the recording search reports.
func TestQueensConstellationsAgainstEnumeration(t *testing.T) {
	for n := 5; n <= 10; n++ {
		bucket := map[int]uint64{}
		fixedBy := map[[2]int]uint64{} // (border key, turn) -> solutions fixed
		inv := make([]int, n)
		var total uint64
		run := &queensRun{ctx: context.Background()}
		b := &queensBits{run: run, n: n, mask: queensMask(n), cols: make([]int, n)}
		b.visit = func(cols []int) bool {
			total++
			k := queensBorderKey(cols)
			bucket[k]++
			for r, c := range cols {
				inv[c] = r
			}
			for g := 1; g <= 3; g++ {
				same := true
				for x := range cols {
					same = same && queensImage(g, cols, inv, x) == cols[x]
				}
				if same {
					fixedBy[[2]int{k, g}]++
				}
			}
			return true
		}
		b.search(0, 0, 0, 0)

		var stop atomic.Bool
		q := &queensCompletion{n: n, stop: &stop}
		var covered uint64
		for _, c := range queensConstellations(n) {
			want := bucket[c.key(n)]
			q.setup(c)
			if got := q.count(); got != want {
				t.Errorf("n=%d %+v: count %d, enumeration %d", n, c, got, want)
			}
			sols, fixed := q.countFixed([]int{1, 2, 3})
			if sols != want {
				t.Errorf("n=%d %+v: recording count %d, enumeration %d", n, c, sols, want)
			}
			for g := 1; g <= 3; g++ {
				if w := fixedBy[[2]int{c.key(n), g}]; fixed[g] != w {
					t.Errorf("n=%d %+v: %d solutions fixed by turn %d, enumeration %d", n, c, fixed[g], g, w)
				}
			}
			qs, k := c.squares(n)
			images := map[int]bool{}
			var img [4][2]int
			for g := range 8 {
				for i, p := range qs[:k] {
					img[i][1], img[i][0] = symmetry.Map(g, n, n, p[1], p[0])
				}
				d, ok := queensConstellationOf(n, img[:k])
				if !ok {
					t.Fatalf("n=%d %+v: image %d is no constellation", n, c, g)
				}
				if images[d.key(n)] {
					continue
				}
				images[d.key(n)] = true
				covered += bucket[d.key(n)]
				if bucket[d.key(n)] != want {
					t.Errorf("n=%d %+v: image %+v has %d solutions, want %d", n, c, d, bucket[d.key(n)], want)
				}
			}
			if len(images) != c.Class {
				t.Errorf("n=%d %+v: %d distinct images, class %d", n, c, len(images), c.Class)
			}
		}
		if covered != total {
			t.Errorf("n=%d: classes cover %d solutions of %d", n, covered, total)
		}
	}
}

// TestQueensConstellationClassSizes: the classes' sizes add up to the
// number of all peaceful start constellations, counted by brute force over
// every choice of the four border queens.
func TestQueensConstellationClassSizes(t *testing.T) {
	for n := 4; n <= 12; n++ {
		all := 0
		for top := range n {
			for bottom := range n {
				for left := range n {
					for right := range n {
						c := queensConstellation{Top: top, Bottom: bottom, Left: left, Right: right}
						qs := c.queens(n)
						if back, ok := queensConstellationOf(n, qs); ok && back.key(n) == c.key(n) && queensPeaceful(qs) {
							all++
						}
					}
				}
			}
		}
		sum := 0
		for i, c := range queensConstellations(n) {
			if c.ID != i {
				t.Errorf("n=%d: representative %d has id %d", n, i, c.ID)
			}
			sum += c.Class
		}
		if sum != all || all == 0 {
			t.Errorf("n=%d: class sizes add up to %d, %d constellations", n, sum, all)
		}
	}
}

// TestQueensConstellationsStop: a completion search whose stop flag is up
// gives up at once and says so, on a constellation hours long to finish.
func TestQueensConstellationsStop(t *testing.T) {
	var stop atomic.Bool
	stop.Store(true)
	q := &queensCompletion{n: 24, stop: &stop}
	q.setup(queensConstellations(24)[0])
	if got := q.count(); got != 0 || !q.halted || q.nodes != 0 {
		t.Errorf("stopped search: count %d halted %v nodes %d, want 0 true 0", got, q.halted, q.nodes)
	}
}

// TestQueensConstellationsStopMidway: a stop raised while the completion
// search is deep in a constellation hours long to finish takes effect
// within the deadline, not at the next shallow node (which took minutes on
// queens:28 when the flag was polled only near the root).
func TestQueensConstellationsStopMidway(t *testing.T) {
	var stop atomic.Bool
	q := &queensCompletion{n: 26, stop: &stop}
	q.setup(queensConstellations(26)[0])
	done := make(chan uint64, 1)
	go func() { done <- q.count() }()
	time.Sleep(100 * time.Millisecond)
	stop.Store(true)
	select {
	case <-done:
		if !q.halted {
			t.Fatalf("a 26-queens constellation finished in 100 ms; this test needs a longer one")
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("search still running 10 s after its stop flag was raised")
	}
}
