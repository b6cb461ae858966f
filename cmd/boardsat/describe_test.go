package main

import (
	"context"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestDescribeNamesWhatRuns: what a backend says it will run (the names a
// memout answer of the --mem watchdog carries, which were null) is what
// its answer names when it runs: native's default strategy, the sat
// backend's model+card and solver, named or defaulted.
func TestDescribeNamesWhatRuns(t *testing.T) {
	for _, c := range []struct {
		backend string
		req     puzzle.Request
	}{
		{"native", puzzle.Request{Spec: puzzle.MustParse("queens:6"), Task: puzzle.Count}},
		{"native", puzzle.Request{Spec: puzzle.MustParse("queens:6"), Task: puzzle.Count, Heuristic: "plain"}},
		{"sat", puzzle.Request{Spec: puzzle.MustParse("queens:6"), Task: puzzle.Count}},
		{"sat", puzzle.Request{Spec: puzzle.MustParse("pieces:3x3:K1R2"), Task: puzzle.First, Encoding: "totalizer"}},
		{"sat", puzzle.Request{Spec: puzzle.MustParse("dominate:4x4:Q"), Task: puzzle.Optimum}},
	} {
		b, err := puzzle.Backends.Lookup(c.backend)
		if err != nil {
			t.Fatal(err)
		}
		d, ok := b.(puzzle.Describer)
		if !ok {
			t.Fatalf("%s does not describe its requests", c.backend)
		}
		h, e, s := d.Describe(c.req)
		ans, err := b.Solve(context.Background(), c.req)
		if err != nil || ans.Status != puzzle.OK {
			t.Fatalf("%s %v: %+v, %v", c.backend, c.req.Spec, ans, err)
		}
		if h != ans.Heuristic || e != ans.Encoding || s != ans.Solver {
			t.Errorf("%s %v: described (%q, %q, %q), answered (%q, %q, %q)", c.backend, c.req.Spec, h, e, s, ans.Heuristic, ans.Encoding, ans.Solver)
		}
	}
}
