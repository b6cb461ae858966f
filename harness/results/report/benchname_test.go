package report

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/puzzle"

	_ "github.com/boardsat/boardsat/encode"            // the sat backends, for their choices
	_ "github.com/boardsat/boardsat/native"            // the native backend, for its heuristics
	_ "github.com/boardsat/boardsat/paradigm/cpsolve"  // the cp backend, for its solvers
	_ "github.com/boardsat/boardsat/paradigm/mipsolve" // the mip backend, for its solvers
)

// TestBenchNameFieldsFromBackends: a variant's values are named by its
// backend's choices, the way compare reads them, for every backend (a
// fixed table knew only native, sat and gophersat-count, and named
// cp/gecode's solver field1); a solver named alone (sat/cadical) is the
// solver, not the encoding; a backend this build does not know keeps
// positional names.
func TestBenchNameFieldsFromBackends(t *testing.T) {
	cases := []struct{ variant, want string }{
		{"cp/gecode", "BenchmarkBoardsat/instance=dominate:8x8:Q/backend=cp/solver=gecode/task=count"},
		{"mip/cbc", "BenchmarkBoardsat/instance=dominate:8x8:Q/backend=mip/solver=cbc/task=count"},
		{"sat/cadical", "BenchmarkBoardsat/instance=dominate:8x8:Q/backend=sat/solver=cadical/task=count"},
		{"sat/seqcounter/cadical", "BenchmarkBoardsat/instance=dominate:8x8:Q/backend=sat/encoding=seqcounter/solver=cadical/task=count"},
		{"oracle/x", "BenchmarkBoardsat/instance=dominate:8x8:Q/backend=oracle/field1=x/task=count"},
	}
	for _, c := range cases {
		r := row("dominate:8x8:Q", c.variant, "count", 1, results.StatusOK, 1)
		if got := BenchName(r); got != c.want {
			t.Errorf("%s: %s, want %s", c.variant, got, c.want)
		}
	}
}

// familyBackend is a toy backend this package has never heard of that
// declares itself a native search.
type familyBackend struct{}

func (familyBackend) Name() string             { return "test-search" }
func (familyBackend) Doc() string              { return "a toy search" }
func (familyBackend) Choices() []puzzle.Choice { return nil }
func (familyBackend) Solve(context.Context, puzzle.Request) (puzzle.Answer, error) {
	return puzzle.Answer{Status: puzzle.Error}, nil
}
func (familyBackend) Family() puzzle.Family { return puzzle.FamilySearch }

func init() { puzzle.Backends.Add("test-search", familyBackend{}) }

// TestStyleFamilyFromRegistry: a figure draws a variant by the family its
// backend declares (a search filled and solid, SAT open and dashed), not
// by a list of backend names the figures knew (test-search came out as
// "other", dotted).
func TestStyleFamilyFromRegistry(t *testing.T) {
	st := newStyles([]Summary{{Variant: "test-search/x", Puzzle: "queens", Task: "count"},
		{Variant: "sat/totalizer", Puzzle: "queens", Task: "count"}, {Variant: "cp/gecode", Puzzle: "queens", Task: "count"}})
	looks := map[string][]vg.Length{"test-search/x": solid, "sat/totalizer": dashed, "cp/gecode": dotted}
	for v, dashes := range looks {
		if got := st.byVariant[v].dashes; !slices.Equal(got, dashes) {
			t.Errorf("%s drawn with dashes %v, want %v", v, got, dashes)
		}
	}
	if !slices.Equal(st.order, []string{"test-search/x", "sat/totalizer", "cp/gecode"}) {
		t.Errorf("legend order %v: want the search, then SAT, then the rest", st.order)
	}
}
