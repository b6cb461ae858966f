package models

import (
	"testing"

	"github.com/boardsat/boardsat/internal/registrytest"
	"github.com/boardsat/boardsat/puzzle"
)

// TestSetRefusesRepeat: a second model builder for one puzzle panics at
// registration, naming it.
func TestSetRefusesRepeat(t *testing.T) {
	s := NewSet[int, int]("toy")
	registrytest.RefusesTwice(t, `toy model "queens" registered twice`,
		func() { s.Add("queens", func(puzzle.Spec, int) (*int, error) { return nil, nil }) })
}
