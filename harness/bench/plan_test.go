package bench

import (
	"context"
	"github.com/boardsat/boardsat/harness/suites"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestPlanLadderIndex: the constant-time spec index of a ladder group finds
// each spec's first place and the task it runs.
func TestPlanLadderIndex(t *testing.T) {
	s := mustSuite(t, "queens:{4..6} queens:5 ladder=true backends=native/plain\nswap:4x3 tour:5x5:a1 backends=native")
	x := newSpecIndex(s)
	for _, c := range []struct {
		group int
		spec  string
		want  int
		ok    bool
	}{{0, "queens:4", 0, true}, {0, "queens:5", 1, true}, {0, "queens:6", 2, true}, {0, "queens:7", 4, false}, {1, "tour:5x5:a1", 1, true}} {
		if i, ok := x.of(c.group, c.spec); ok != c.ok || (ok && i != c.want) || x.index(c.group, c.spec) != c.want {
			t.Errorf("of(%d, %s) = %d, %v; index %d; want %d, %v", c.group, c.spec, i, ok, x.index(c.group, c.spec), c.want, c.ok)
		}
	}
	if x.task(0, 1) != puzzle.Count || x.task(1, 0) != puzzle.Shortest || x.task(1, 1) != puzzle.First {
		t.Errorf("tasks %s %s %s", x.task(0, 1), x.task(1, 0), x.task(1, 1))
	}
}

// BenchmarkPlan plans a suite of 50,847 runs (the dry run that took 12 s
// when every run looked for the solvers' binaries again).
func BenchmarkPlan(b *testing.B) {
	s, err := suites.Parse("big", "queens:{4..1000} backends=all repeat=3 task=first")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Plan(context.Background(), s, Overrides{})
	}
}
