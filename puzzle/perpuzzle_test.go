package puzzle

import (
	"slices"
	"testing"

	"github.com/boardsat/boardsat/internal/registrytest"
)

// TestRegistriesRefuseRepeats: a Registry and a PerPuzzle refuse a second
// value under one name (of one puzzle), naming it; PerPuzzle keeps each
// puzzle's values apart and in order.
func TestRegistriesRefuseRepeats(t *testing.T) {
	r := NewRegistry[int]("toy")
	registrytest.RefusesTwice(t, `toy "a" registered twice`, func() { r.Add("a", 1) })
	p := NewPerPuzzle[int]("heuristic")
	registrytest.RefusesTwice(t, `queens heuristic "a" registered twice`, func() { p.Add("queens", "a", 1) })
	p.Add("queens", "b", 2)
	p.Add("tour", "a", 3) // the same name for another puzzle is another value
	if got := p.Values("queens"); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("queens values %v", got)
	}
	if got := p.Puzzles(); !slices.Equal(got, []string{"queens", "tour"}) {
		t.Errorf("puzzles %v", got)
	}
	if p.Of("pieces") != nil || p.Values("pieces") != nil {
		t.Error("a puzzle without values has a registry")
	}
	registrytest.RefusesTwice(t, `backend "test-twice" registered twice`, func() { Backends.Add("test-twice", plainBackend{}) })
}
