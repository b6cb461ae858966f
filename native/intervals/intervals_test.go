package intervals

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/boardsat/boardsat/puzzle"
)

// TestCountOverflow: 70 pairwise apart intervals of value 0 have 2^70
// optimal selections (every subset, value 0): the DP's count leaves uint64
// exactly.
func TestCountOverflow(t *testing.T) {
	var items []puzzle.Interval
	for i := range int64(70) {
		items = append(items, puzzle.Interval{Start: 10 * i, End: 10 * i, Value: 0})
	}
	r := DP(items)
	want := new(big.Int).Lsh(big.NewInt(1), 70)
	if r.Best != 0 || r.Count.Cmp(want) != 0 {
		t.Errorf("70 apart zero-value intervals: best %d, count %s; want 0, %s", r.Best, r.Count, want)
	}
	// Each block: two overlapping intervals of value 1 (either one, not
	// both): 2^70 optimal selections of value 70, crossing 2^64 midway.
	items = items[:0]
	for i := range int64(70) {
		items = append(items, puzzle.Interval{Start: 10 * i, End: 10*i + 2, Value: 1}, puzzle.Interval{Start: 10*i + 2, End: 10*i + 4, Value: 1})
	}
	r = DP(items)
	if r.Best != 70 || r.Count.Cmp(want) != 0 || len(r.Picks) != 70 {
		t.Errorf("70 blocks of two: best %d, count %s, %d picks; want 70, %s, 70", r.Best, r.Count, len(r.Picks), want)
	}
	ans, err := dpSolve(context.Background(), puzzle.Request{Spec: puzzle.Intervals{Items: items}, Task: puzzle.Count})
	if err != nil || ans.Big == nil || ans.CountString() != want.String() {
		t.Errorf("answer count %s (%v), want %s", ans.CountString(), err, want)
	}
}

// TestSeedRefusesAndStops: the seed's search refuses big instances and
// answers a time limit with status timeout, its best selection found and
// the trivial bound, never ok.
func TestSeedRefusesAndStops(t *testing.T) {
	big := puzzle.MustParse("intervals:random:100:seed=1")
	if _, err := seedSolve(context.Background(), puzzle.Request{Spec: big, Task: puzzle.Optimum}); err == nil {
		t.Error("seed search accepted 100 intervals")
	}
	// 24 pairwise apart intervals: 24! orders, far beyond a millisecond.
	var items []puzzle.Interval
	for i := range int64(SeedMaxIntervals) {
		items = append(items, puzzle.Interval{Start: 2 * i, End: 2 * i, Value: 1})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	ans, err := seedSolve(ctx, puzzle.Request{Spec: puzzle.Intervals{Items: items}, Task: puzzle.Optimum})
	if err != nil || ans.Status != puzzle.Timeout {
		t.Fatalf("status %s, %v; want timeout", ans.Status, err)
	}
	if ans.Bound == nil || ans.Bound.Int64() != SeedMaxIntervals {
		t.Errorf("bound %v, want %d", ans.Bound, SeedMaxIntervals)
	}
	if ans.Objective != nil {
		v, err := puzzle.IntervalsValue(puzzle.Intervals{Items: items}, ans.Solution.Picks)
		if err != nil || v != ans.Objective.Int64() {
			t.Errorf("best found %v: value %d, %v", ans.Objective, v, err)
		}
	}
}

// TestDPLarge: the DP answers N = 10^5 and its selection passes the checker.
func TestDPLarge(t *testing.T) {
	s := puzzle.MustParse("intervals:random:100000:seed=1").(puzzle.Intervals)
	r := DP(s.Items)
	v, err := puzzle.IntervalsValue(s, r.Picks)
	if err != nil || v != r.Best || r.Count.Sign() <= 0 {
		t.Errorf("value %d (%v), best %d, count %s", v, err, r.Best, r.Count)
	}
}

// BenchmarkDP measures the DP (optimum and count together) for N = 10^2..10^5.
func BenchmarkDP(b *testing.B) {
	for _, n := range []string{"100", "1000", "10000", "100000"} {
		s := puzzle.MustParse("intervals:random:" + n + ":seed=1").(puzzle.Intervals)
		b.Run("N="+n, func(b *testing.B) {
			for range b.N {
				DP(s.Items)
			}
		})
	}
}
