package tour

import (
	"context"
	"fmt"
	"github.com/boardsat/boardsat/internal/membudget"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// TestFrontierSweep: on every board with sides 1..5 (and a few taller ones),
// the frontier DP agrees with the exhaustive counter for closed tours, open
// tours from all starts and open tours from every start.
func TestFrontierSweep(t *testing.T) {
	var boards []puzzle.Board
	for w := 1; w <= 5; w++ {
		for h := 1; h <= 6; h++ {
			if w*h <= 30 {
				boards = append(boards, puzzle.Board{W: w, H: h})
			}
		}
	}
	boards = append(boards, puzzle.Board{W: 3, H: 10}, puzzle.Board{W: 6, H: 3}, puzzle.Board{W: 6, H: 5}, puzzle.Board{W: 3, H: 12})
	for _, b := range boards {
		specs := []puzzle.Tour{{Board: b, AllStarts: true, Closed: true}, {Board: b, AllStarts: true}}
		for s := range b.Size() {
			if b.Size() <= 25 {
				specs = append(specs, puzzle.Tour{Board: b, Start: puzzle.Square(s)})
			}
		}
		for _, tour := range specs {
			if !tour.Closed && b.Size() > TourCountMaxOpen {
				continue
			}
			want := tourRun(t, "exhaustive", tour.String(), puzzle.Count)
			got := tourRun(t, "frontier", tour.String(), puzzle.Count)
			if got.CountString() != want.CountString() || got.Status != want.Status {
				t.Errorf("%s: frontier %s (%s), exhaustive %s (%s)", tour, got.CountString(), got.Status, want.CountString(), want.Status)
			}
		}
	}
}

// TestFrontierKnown: published counts (puzzle/known tour table): open
// tours of 5x5, closed tours of 6x6, and the closed-tour tables of 3 x n
// (A070030, n = 10..30), 5 x n (A175855, n = 6..14) and 6 x n (A175881,
// n = 5..7), each closed board in both orientations; open tours from all
// starts of 3 x n (A169696, n = 3..29, both orientations) and 5 x n
// (A083386, n = 5..8).
func TestFrontierKnown(t *testing.T) {
	specs := []string{"tour:5x5:*", "tour:5x5:a1", "tour:5x5:e5", "tour:6x6:*:closed", "tour:6x6:a1:closed",
		"tour:5x6:*", "tour:7x5:*", "tour:5x8:*"}
	for _, wn := range [][3]int{{3, 10, 30}, {5, 6, 14}, {6, 5, 7}} {
		for n := wn[1]; n <= wn[2]; n++ {
			specs = append(specs, fmt.Sprintf("tour:%dx%d:a1:closed", wn[0], n), fmt.Sprintf("tour:%dx%d:b1:closed", n, wn[0]))
		}
	}
	for n := 3; n <= 29; n++ {
		specs = append(specs, fmt.Sprintf("tour:3x%d:*", n), fmt.Sprintf("tour:%dx3:*", n))
	}
	for _, spec := range specs {
		a := tourRunKnown(t, "frontier", spec)
		if a.Stats[puzzle.StatStates] <= 0 {
			t.Errorf("%s: no states reported", spec)
		}
	}
}

// TestFrontierRefused: boards whose state space does not fit are refused
// up front with the estimate; other tasks are not offered.
func TestFrontierRefused(t *testing.T) {
	for _, spec := range []string{"tour:8x8:a1:closed", "tour:8x8:*", "tour:11x11:a1:closed", "tour:7x7:*", "tour:500x500:*"} {
		_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count, Heuristic: "frontier"})
		if err == nil || !strings.Contains(err.Error(), "refuses") || !strings.Contains(err.Error(), "states") {
			t.Errorf("%s: err %v, want a refusal with the estimated states", spec, err)
		}
	}
	_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("tour:5x5:a1"), Task: puzzle.First, Heuristic: "frontier"})
	if err == nil {
		t.Error("frontier first: want an error (count only)")
	}
}

// TestFrontierStopped: a cancelled context stops the DP with status timeout.
func TestFrontierStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := search.Solve(ctx, puzzle.Request{Spec: puzzle.MustParse("tour:6x6:a1:closed"), Task: puzzle.Count, Heuristic: "frontier"})
	if err != nil || a.Status != puzzle.Timeout {
		t.Errorf("cancelled: %v %s", err, a.Status)
	}
}

// TestFrontierLimbs: counts of several limbs (forced from the start) give
// the same answers as one limb.
func TestFrontierLimbs(t *testing.T) {
	for _, spec := range []string{"tour:5x5:*", "tour:6x5:a1:closed", "tour:3x10:*"} {
		tour := puzzle.MustParse(spec).(puzzle.Tour)
		p := newFrontierPlan(tour)
		one := p.run(context.Background(), 2, 1, membudget.Budget())
		three := p.run(context.Background(), 1, 3, membudget.Budget())
		a, b := limbs.Big(one.total), limbs.Big(three.total)
		if a.Cmp(b) != 0 || a.Sign() == 0 || three.total[1] != 0 {
			t.Errorf("%s: one limb %s, three limbs %s", spec, a, b)
		}
	}
}

func benchmarkFrontier(b *testing.B, spec string, want uint64) {
	for b.Loop() {
		a := tourRun(b, "frontier", spec, puzzle.Count)
		if a.Status != puzzle.OK || a.CountString() != (puzzle.Answer{Count: want}).CountString() {
			b.Fatalf("%s: %s %s, want %d", spec, a.Status, a.CountString(), want)
		}
		b.ReportMetric(float64(a.Stats[puzzle.StatStates]), "states")
	}
}

// benchmarkFrontierKnown benchmarks the frontier count of a spec with a
// published count.
func benchmarkFrontierKnown(b *testing.B, spec string) {
	want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
	if !ok {
		b.Fatalf("no published count for %s", spec)
	}
	benchmarkFrontier(b, spec, want)
}

func BenchmarkFrontier6x6Closed(b *testing.B)  { benchmarkFrontierKnown(b, "tour:6x6:a1:closed") }
func BenchmarkFrontier6x6All(b *testing.B)     { benchmarkFrontierKnown(b, "tour:6x6:*") }
func BenchmarkFrontier6x8Closed(b *testing.B)  { benchmarkFrontierKnown(b, "tour:6x8:a1:closed") }
func BenchmarkFrontier6x12Closed(b *testing.B) { benchmarkFrontierKnown(b, "tour:6x12:a1:closed") }
func BenchmarkFrontier7x8Closed(b *testing.B)  { benchmarkFrontierKnown(b, "tour:7x8:a1:closed") }

// BenchmarkFrontier6x15Closed: a count over 2^64, A175881(15), so the
// one-limb run overflows and the count is redone with more limbs.
func BenchmarkFrontier6x15Closed(b *testing.B) {
	for b.Loop() {
		a := tourRun(b, "frontier", "tour:6x15:a1:closed", puzzle.Count)
		if a.Status != puzzle.OK || a.CountString() != "255967892553030600920" {
			b.Fatalf("6x15 closed: %s %s, want 255967892553030600920 (A175881)", a.Status, a.CountString())
		}
		b.ReportMetric(float64(a.Stats[puzzle.StatStates]), "states")
	}
}
