package encode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
)

// useExampleMaxSAT loads examples/solvers/clasp-maxsat.json, a maxsat
// definition whose program is the adaptor script beside it (clasp under
// the MaxSAT Evaluation 2022 format), with that directory on PATH.
func useExampleMaxSAT(t *testing.T) string {
	t.Helper()
	cnftest.NeedSolver(t, "clasp")
	dir, err := filepath.Abs("../examples/solvers")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Cleanup(solverdef.Forget)
	if err := solverdef.Load(filepath.Join(dir, "clasp-maxsat.json")); err != nil {
		t.Fatal(err)
	}
	return "clasp-maxsat"
}

// TestOneRunOptimisers: a maxsat solver (clasp-maxsat) and a pb solver
// (minisat+) optimise the one-formula models (dominate's pbmin and
// pbmin-lex, intervals' pairwise-pbmin and clique-pbmin) in one run of
// their own, and answer the published minimum of queen domination (OEIS
// A075458) and the same best value of intervals as gophersat. The
// intervals objective is over negative literals (the values left out):
// a MaxSAT solver given it died in a panic before.
func TestOneRunOptimisers(t *testing.T) {
	cnftest.NeedSolver(t, "minisat+")
	solvers := []string{useExampleMaxSAT(t), "minisat+"}
	ctx := context.Background()
	for _, solver := range solvers {
		for _, enc := range []string{"pbmin", "pbmin-lex"} {
			for n := 4; n <= 6; n++ {
				spec := puzzle.MustParse(fmt.Sprintf("dominate:%dx%d:Q", n, n))
				want, ok := puzzle.KnownOptimum(spec)
				ans, err := (Backend{}).Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.Optimum, Encoding: enc, Solver: solver})
				if err != nil || !ok || ans.Status != puzzle.OK || ans.Bound == nil || ans.Bound.Int64() != int64(want) {
					t.Errorf("%s %s on %s: %+v, %v; want optimum %d", spec, enc, solver, ans, err, want)
				}
			}
		}
		for seed := 1; seed <= 3; seed++ {
			spec := puzzle.MustParse(fmt.Sprintf("intervals:random:12:seed=%d", seed))
			ref, err := (Backend{}).Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.Optimum})
			if err != nil || ref.Status != puzzle.OK {
				t.Fatalf("%s on gophersat: %+v, %v", spec, ref, err)
			}
			encs := []string{"pairwise-pbmin", "clique-pbmin"}
			if solver == "clasp-maxsat" {
				// The default model too: a MaxSAT solver optimises every
				// model with an objective in one run.
				encs = append(encs, "")
			}
			for _, enc := range encs {
				ans, err := (Backend{}).Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.Optimum, Encoding: enc, Solver: solver})
				if err != nil || ans.Status != puzzle.OK || ans.Bound == nil || ans.Bound.Cmp(ref.Bound) != 0 {
					t.Errorf("%s %s on %s: %+v, %v; want the value %v of gophersat", spec, enc, solver, ans, err, ref.Bound)
				}
			}
		}
	}
}

// TestOneRunOptimiserRefusesSAT: a model that one solver run optimises
// refuses a plain sat solver by name, in one line, before any run.
func TestOneRunOptimiserRefusesSAT(t *testing.T) {
	spec := puzzle.MustParse("dominate:5x5:Q")
	_, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Optimum, Encoding: "pbmin", Solver: "cadical"})
	if err == nil || !strings.Contains(err.Error(), "cadical is of kind sat") {
		t.Errorf("pbmin on cadical: %v; want a refusal naming its kind", err)
	}
}
