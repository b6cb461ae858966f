package models

import (
	"errors"
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

// TestNewSwap checks a swap's plan data against the board by hand: the
// start and goal cells, every knight move once, in square order, and the
// refusal of a horizon below 1.
func TestNewSwap(t *testing.T) {
	spec := puzzle.MustParse("swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free")
	sw, err := NewSwap(spec, 4, "the test model")
	if err != nil {
		t.Fatal(err)
	}
	// a1 b1 c1 a2 b2 c2 a3 b3 c3
	if want := []int{2, 0, 2, 0, 0, 0, 1, 0, 1}; !slices.Equal(sw.Start, want) {
		t.Errorf("Start = %v, want %v", sw.Start, want)
	}
	if want := []int{1, 0, 1, 0, 0, 0, 2, 0, 2}; !slices.Equal(sw.Goal, want) {
		t.Errorf("Goal = %v, want %v", sw.Goal, want)
	}
	if sw.Steps != 4 || sw.Rule != puzzle.RuleNone || sw.Turns != puzzle.Free {
		t.Errorf("Steps %d, rule %v, turns %v", sw.Steps, sw.Rule, sw.Turns)
	}
	// On 3x3 every square but b2 has two knight moves: 16 arcs.
	var moves []string
	for _, a := range sw.Arcs {
		moves = append(moves, sw.Board.Name(a.From)+"-"+sw.Board.Name(a.To))
	}
	if len(moves) != 16 || moves[0][:2] != "a1" || moves[15][:2] != "c3" || !slices.Contains(moves, "a1-b3") || !slices.Contains(moves, "b3-a1") || slices.Contains(moves, "a1-b2") {
		t.Errorf("Arcs = %v", moves)
	}
	if !slices.IsSortedFunc(sw.Arcs, func(a, b puzzle.Move) int { return int(a.From) - int(b.From) }) {
		t.Errorf("Arcs not in square order: %v", moves)
	}
	_, err = NewSwap(spec, 0, "the test model")
	if want := "the test model is a plan of a fixed number of moves: give the horizon with --steps T (T >= 1)"; err == nil || err.Error() != want {
		t.Errorf("NewSwap with 0 steps: %v, want %q", err, want)
	}
}

// TestSearchHorizon checks the upward search: it stops at the first
// horizon whose outcome is not Unsat, gives up past MaxSteps with a "not
// found" error, and passes on an error of solve.
func TestSearchHorizon(t *testing.T) {
	var tried []int
	ans := puzzle.Answer{}
	err := SearchHorizon(&ans, func(T int) error {
		tried = append(tried, T)
		ans.Status = puzzle.Unsat
		if T == 3 {
			ans.Status, ans.Length = puzzle.OK, T
		}
		return nil
	})
	if err != nil || !slices.Equal(tried, []int{1, 2, 3}) || ans.Status != puzzle.OK || ans.Length != 3 || ans.Method != "horizon T searched upward" {
		t.Errorf("plan at 3: tried %v, %+v, %v", tried, ans, err)
	}
	calls := 0
	ans = puzzle.Answer{}
	err = SearchHorizon(&ans, func(T int) error { calls++; ans.Status = puzzle.Unsat; return nil })
	if err != nil || calls != MaxSteps || ans.Status != puzzle.Error || ans.Message != puzzle.NotFound+"no plan of at most 200 moves" {
		t.Errorf("no plan: %d calls, %+v, %v", calls, ans, err)
	}
	ans = puzzle.Answer{}
	err = SearchHorizon(&ans, func(T int) error {
		if T == 2 {
			return errors.New("no model")
		}
		ans.Status = puzzle.Unsat
		return nil
	})
	if err == nil || err.Error() != "no model" {
		t.Errorf("an error of solve: %v", err)
	}
}
