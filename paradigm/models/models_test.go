package models

import (
	"slices"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestSet checks the registry a paradigm's builders live in: the puzzles
// in the order added, the plans marked, Build calling the puzzle's builder
// with the options, and the error for a puzzle without a model.
func TestSet(t *testing.T) {
	type model struct{ spec string }
	s := NewSet[int, model]("widget")
	s.Add("queens", func(spec puzzle.Spec, opt int) (*model, error) {
		return &model{spec: spec.String()}, nil
	})
	s.AddPlan("swap", func(spec puzzle.Spec, opt int) (*model, error) {
		if opt != 7 {
			t.Errorf("swap builder got options %d, want 7", opt)
		}
		return &model{spec: "plan"}, nil
	})
	if got := s.Puzzles(); !slices.Equal(got, []string{"queens", "swap"}) {
		t.Errorf("Puzzles() = %v", got)
	}
	if !s.Has("queens") || !s.Has("swap") || s.Has("tour") {
		t.Error("Has: want queens and swap only")
	}
	if s.NeedsHorizon("queens") || !s.NeedsHorizon("swap") || s.NeedsHorizon("tour") {
		t.Error("NeedsHorizon: want swap only")
	}
	if m, err := s.Build(puzzle.MustParse("queens:5"), 0); err != nil || m.spec != "queens:5" {
		t.Errorf("Build(queens:5) = %v, %v", m, err)
	}
	if m, err := s.Build(puzzle.MustParse("swap:3x3:w=a3:b=a1:rule=none:turns=free"), 7); err != nil || m.spec != "plan" {
		t.Errorf("Build(swap) = %v, %v", m, err)
	}
	_, err := s.Build(puzzle.MustParse("tour:5x5:a1"), 0)
	if want := "no widget model for tour (models for: queens, swap)"; err == nil || err.Error() != want {
		t.Errorf("Build(tour) error %v, want %q", err, want)
	}
}
