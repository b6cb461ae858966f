package solverproc

import (
	"testing"

	"github.com/boardsat/boardsat/internal/registrytest"
)

// TestRegisterRefusesRepeat: a second external solver of one name panics
// at registration, naming it (the list took both).
func TestRegisterRefusesRepeat(t *testing.T) {
	registrytest.RefusesTwice(t, `external solver "test-twice" registered twice`,
		func() { Register(External{Name: "test-twice"}) })
}
