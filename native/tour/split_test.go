package tour

import (
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestSplitAgreesWithFrontier: the split counter and the frontier DP agree
// on closed tours of small boards, both orientations.
func TestSplitAgreesWithFrontier(t *testing.T) {
	var specs []string
	for w := 3; w <= 6; w++ {
		for h := w; h <= 8 && w*h <= 48; h++ {
			specs = append(specs, puzzle.Tour{Board: puzzle.Board{W: w, H: h}, Closed: true}.String(),
				puzzle.Tour{Board: puzzle.Board{W: h, H: w}, Closed: true}.String())
		}
	}
	specs = append(specs, "tour:3x10:a1:closed", "tour:3x12:a1:closed", "tour:12x3:a1:closed")
	for _, spec := range specs {
		want := tourRun(t, "frontier", spec, puzzle.Count)
		got := tourRun(t, "split", spec, puzzle.Count)
		if got.CountString() != want.CountString() || got.Status != want.Status {
			t.Errorf("%s: split %s (%s) %s, frontier %s (%s)", spec, got.CountString(), got.Status, got.Message, want.CountString(), want.Status)
		} else {
			t.Logf("%s: %s", spec, got.CountString())
		}
	}
}
