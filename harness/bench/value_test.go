package bench

import (
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// TestRowValueGame: a task value row's points read back as the game value
// the judge compares (so a wrong value is caught like a wrong count).
func TestRowValueGame(t *testing.T) {
	for points, want := range map[uint64]string{2: "win", 1: "draw", 0: "loss"} {
		r := results.Row{Task: "value", Status: results.StatusOK, Answer: points, HasAnswer: true}
		if got := rowValue(r); got != want {
			t.Errorf("%d points: %q, want %q", points, got, want)
		}
	}
}
