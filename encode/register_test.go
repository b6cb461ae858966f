package encode

import (
	"testing"

	"github.com/boardsat/boardsat/internal/registrytest"
)

// TestRegisterRefusesRepeat: a second model of one name for one puzzle
// panics at registration, naming it.
func TestRegisterRefusesRepeat(t *testing.T) {
	registrytest.RefusesTwice(t, `test-twice model "plain" registered twice`,
		func() { register(Encoder{Puzzle: "test-twice", Name: "plain"}) })
}
