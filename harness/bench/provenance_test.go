package bench

import (
	"context"
	"testing"

	"github.com/boardsat/boardsat/harness/compare"
	"github.com/boardsat/boardsat/puzzle"
)

// defsBackend is a toy backend, named only (never in "all"), whose solver
// field names solver definitions, as it declares.
type defsBackend struct{}

func (defsBackend) Name() string { return "test-defs" }
func (defsBackend) Doc() string  { return "a toy backend running solver definitions" }
func (defsBackend) Choices() []puzzle.Choice {
	return []puzzle.Choice{{Field: "solver", Name: "cadical"}}
}
func (defsBackend) Solve(context.Context, puzzle.Request) (puzzle.Answer, error) {
	return puzzle.Answer{Status: puzzle.Error}, nil
}
func (defsBackend) SolverDefinitions() bool { return true }
func (defsBackend) NamedOnly() string       { return "a toy of a test" }

func init() { puzzle.Backends.Add("test-defs", defsBackend{}) }

// TestDefinitionsOfDeclaringBackends: the sidecar records the definitions
// of the solvers of every backend that declares its solvers are
// definitions, not of the sat backend by name (test-defs/cadical was left
// out), and of no other backend's solver (cp/gecode is no definition's).
func TestDefinitionsOfDeclaringBackends(t *testing.T) {
	var plan []Run
	for _, s := range []string{"test-defs/cadical", "cp/gecode"} {
		v, err := compare.ParseVariant(s)
		if err != nil {
			t.Fatal(err)
		}
		plan = append(plan, Run{Variant: v})
	}
	defs := Definitions(plan)
	if len(defs) != 1 || defs[0].Name != "cadical" || defs[0].Source != "built in" {
		t.Errorf("definitions %+v, want cadical's alone", defs)
	}
}
