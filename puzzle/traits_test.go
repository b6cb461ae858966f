package puzzle

import (
	"context"
	"slices"
	"testing"
)

// traitBackend is a toy backend that declares every trait.
type traitBackend struct{ fam Family }

func (traitBackend) Name() string      { return "test-traits" }
func (traitBackend) Doc() string       { return "declares every trait" }
func (traitBackend) Choices() []Choice { return nil }
func (traitBackend) Solve(context.Context, Request) (Answer, error) {
	return Answer{Status: Error}, nil
}
func (b traitBackend) Family() Family        { return b.fam }
func (traitBackend) WritesProofs() bool      { return true }
func (traitBackend) SolverDefinitions() bool { return true }

// plainBackend declares no trait but WritesProofs, false.
type plainBackend struct{}

func (plainBackend) Name() string      { return "test-plain" }
func (plainBackend) Doc() string       { return "declares nothing" }
func (plainBackend) Choices() []Choice { return nil }
func (plainBackend) Solve(context.Context, Request) (Answer, error) {
	return Answer{Status: Error}, nil
}
func (plainBackend) WritesProofs() bool { return false }

// TestBackendTraits: what a backend declares is what the harness reads,
// for a backend the harness has never heard of; one that declares nothing
// is of the other family, writes no proofs and takes no definitions.
func TestBackendTraits(t *testing.T) {
	Backends.Add("test-traits", traitBackend{fam: FamilySearch})
	Backends.Add("test-plain", plainBackend{})
	if FamilyOf("test-traits") != FamilySearch || FamilyOf("test-plain") != FamilyOther || FamilyOf("no-such") != FamilyOther {
		t.Errorf("families: %v %v %v", FamilyOf("test-traits"), FamilyOf("test-plain"), FamilyOf("no-such"))
	}
	if !WritesProofs("test-traits") || WritesProofs("test-plain") || WritesProofs("no-such") {
		t.Error("WritesProofs does not follow the declarations")
	}
	if !TakesSolverDefinitions("test-traits") || TakesSolverDefinitions("test-plain") {
		t.Error("TakesSolverDefinitions does not follow the declarations")
	}
	if got := BackendsWhere(WritesProofs); !slices.Equal(got, []string{"test-traits"}) {
		t.Errorf("BackendsWhere(WritesProofs) = %v", got)
	}
}
