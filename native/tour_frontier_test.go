package native

import (
	"context"
	"fmt"
	"strings"
	"testing"

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

// TestFrontierKnown: published counts (puzzle/known.go).
func TestFrontierKnown(t *testing.T) {
	for _, spec := range []string{"tour:5x5:*", "tour:5x5:a1", "tour:5x5:e5", "tour:6x6:*:closed", "tour:6x6:a1:closed"} {
		want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
		if !ok {
			t.Fatalf("no published count for %s", spec)
		}
		a := tourRun(t, "frontier", spec, puzzle.Count)
		if a.Status != puzzle.OK || a.Count != want {
			t.Errorf("%s: %s %s, want %d", spec, a.Status, a.CountString(), want)
		}
		if a.Stats[puzzle.StatStates] <= 0 {
			t.Errorf("%s: no states reported", spec)
		}
	}
}

// a175881 holds OEIS A175881(n), n = 5..7: closed tours on a 6 x n board.
var a175881 = map[int]uint64{5: 8, 6: 9862, 7: 1067638}

// TestFrontier6xN: the 6 x n closed tours of OEIS A175881, both
// orientations.
func TestFrontier6xN(t *testing.T) {
	for n, want := range a175881 {
		for _, spec := range []string{fmt.Sprintf("tour:6x%d:a1:closed", n), fmt.Sprintf("tour:%dx6:a1:closed", n)} {
			a := tourRun(t, "frontier", spec, puzzle.Count)
			if a.Status != puzzle.OK || a.CountString() != fmt.Sprint(want) {
				t.Errorf("%s: %s %s, want %d", spec, a.Status, a.CountString(), want)
			}
		}
	}
}

// TestFrontierRefused: boards whose state space does not fit are refused
// up front with the estimate; other tasks are not offered.
func TestFrontierRefused(t *testing.T) {
	for _, spec := range []string{"tour:8x8:a1:closed", "tour:8x8:*", "tour:11x11:a1:closed"} {
		_, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count, Heuristic: "frontier"})
		if err == nil || !strings.Contains(err.Error(), "refuses") {
			t.Errorf("%s: err %v, want a refusal", spec, err)
		}
	}
	_, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("tour:5x5:a1"), Task: puzzle.First, Heuristic: "frontier"})
	if err == nil {
		t.Error("frontier first: want an error (count only)")
	}
}

// TestFrontierStopped: a cancelled context stops the DP with status timeout.
func TestFrontierStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := Backend{}.Solve(ctx, puzzle.Request{Spec: puzzle.MustParse("tour:6x6:a1:closed"), Task: puzzle.Count, Heuristic: "frontier"})
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
		one := p.run(context.Background(), 2, 1, FrontierMemBudget)
		three := p.run(context.Background(), 1, 3, FrontierMemBudget)
		a, b := limbsBig(one.total), limbsBig(three.total)
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

func BenchmarkFrontier6x6Closed(b *testing.B) { benchmarkFrontier(b, "tour:6x6:a1:closed", 9862) }
func BenchmarkFrontier6x6All(b *testing.B)    { benchmarkFrontier(b, "tour:6x6:*", 6637920) }
