package search

import (
	"testing"

	"github.com/boardsat/boardsat/internal/registrytest"
)

// TestRegisterRefusesRepeat: a second strategy of one name for one puzzle
// panics at registration, naming it.
func TestRegisterRefusesRepeat(t *testing.T) {
	registrytest.RefusesTwice(t, `test-twice heuristic "plain" registered twice`,
		func() { Register(Strategy{Puzzle: "test-twice", Name: "plain"}) })
}
