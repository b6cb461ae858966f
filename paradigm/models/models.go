// Package models holds what boardsat's two model writers, paradigm/mip
// (integer programs) and paradigm/mzn (MiniZinc), share: the registry of a
// paradigm's model builders, one per puzzle, which also knows the puzzles
// whose model is a plan of a fixed horizon; the data a knight swap's plan
// model is written from (swap.go); and the upward search over the horizon
// that the backends solving them (paradigm/cpsolve, paradigm/mipsolve)
// answer a plan's tasks with. One copy keeps the two paradigms' lists,
// errors and readings of a swap alike.
package models

import (
	"fmt"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

// Set is one paradigm's model builders by puzzle name, in the order added:
// O is the paradigm's options, M its model.
type Set[O, M any] struct {
	paradigm string
	builders *puzzle.Registry[func(puzzle.Spec, O) (*M, error)]
	// horizons marks the puzzles whose model is a plan of a given
	// horizon (AddPlan).
	horizons map[string]bool
}

// NewSet returns an empty set; paradigm names its models in errors ("no
// MiniZinc model for ...").
func NewSet[O, M any](paradigm string) *Set[O, M] {
	return &Set[O, M]{
		paradigm: paradigm,
		builders: puzzle.NewRegistry[func(puzzle.Spec, O) (*M, error)](paradigm + " model"),
		horizons: map[string]bool{},
	}
}

// Add registers the builder of puzzleName's model; each puzzle's file adds
// its own from init. A repeated name panics (a programming error).
func (s *Set[O, M]) Add(puzzleName string, build func(puzzle.Spec, O) (*M, error)) {
	s.builders.Add(puzzleName, build)
}

// AddPlan registers, like Add, the builder of a puzzle whose model is a
// plan of a horizon given in the options (swap).
func (s *Set[O, M]) AddPlan(puzzleName string, build func(puzzle.Spec, O) (*M, error)) {
	s.Add(puzzleName, build)
	s.horizons[puzzleName] = true
}

// NeedsHorizon reports whether the puzzle's model is a plan of a given
// number of moves (swap): its tasks are answered by searching the horizon
// upward.
func (s *Set[O, M]) NeedsHorizon(puzzleName string) bool { return s.horizons[puzzleName] }

// Has reports whether the puzzle has a model in the set.
func (s *Set[O, M]) Has(puzzleName string) bool {
	_, err := s.builders.Lookup(puzzleName)
	return err == nil
}

// Puzzles lists the puzzles with a model, in the order they were added.
func (s *Set[O, M]) Puzzles() []string { return s.builders.Names() }

// Build returns spec's model, or an error naming why there is none: a
// puzzle without a model in the set (the error lists the puzzles with
// one), or the builder's own error (an instance too large, a missing
// horizon).
func (s *Set[O, M]) Build(spec puzzle.Spec, opt O) (*M, error) {
	b, err := s.builders.Lookup(spec.Puzzle())
	if err != nil {
		return nil, fmt.Errorf("no %s model for %s (models for: %s)", s.paradigm, spec.Puzzle(), strings.Join(s.Puzzles(), ", "))
	}
	return b(spec, opt)
}

// MaxSteps bounds the horizon SearchHorizon tries: past it a backend gives
// up (status error, "not found"), since an unsolvable swap has no plan at
// any horizon and this search alone cannot tell.
const MaxSteps = 200

// SearchHorizon answers a task on a plan model the one way the cp and mip
// backends do: solve(T) solves the model of horizon T and records its
// outcome in ans, for T = 1, 2, ... while the outcome is Unsat; the first
// other outcome (a plan, of the shortest length, or a failure) is the
// answer. Past MaxSteps, ans is an error: no plan found. An error of solve
// (a request it refuses, a model it cannot build) ends the search and is
// returned.
func SearchHorizon(ans *puzzle.Answer, solve func(T int) error) error {
	ans.Method = "horizon T searched upward"
	for T := 1; T <= MaxSteps; T++ {
		if err := solve(T); err != nil {
			return err
		}
		if ans.Status != puzzle.Unsat {
			return nil
		}
	}
	ans.Status, ans.Message = puzzle.Error, fmt.Sprintf("%sno plan of at most %d moves", puzzle.NotFound, MaxSteps)
	return nil
}
