package native

import (
	"context"
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
	for _, spec := range []string{"tour:5x5:*", "tour:5x5:a1", "tour:5x5:e5", "tour:6x6:*:closed", "tour:6x6:a1:closed", "tour:6x6:*"} {
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

var _ = context.Background

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
