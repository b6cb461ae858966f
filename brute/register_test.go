package brute

import (
	"testing"

	"github.com/boardsat/boardsat/internal/registrytest"
)

// TestSolversRefuseRepeat: a second brute force for one puzzle panics at
// registration, naming it (the plain map overwrote the first silently).
func TestSolversRefuseRepeat(t *testing.T) {
	registrytest.RefusesTwice(t, `brute-force solver for puzzle "test-twice" registered twice`,
		func() { solvers.Add("test-twice", solver{}) })
}
