package report

import (
	"testing"

	"github.com/boardsat/boardsat/harness/results"

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
