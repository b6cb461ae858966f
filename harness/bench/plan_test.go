package bench

import (
	"context"
	"github.com/boardsat/boardsat/harness/suites"
	"runtime"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestBraceBombRefused: a suite whose brace groups expand past
// suites.MaxPlannedRuns is refused by their count, before anything is expanded
// (the heap barely grows), with the count in the message; so is one whose
// groups add up past it with their repetitions.
func TestBraceBombRefused(t *testing.T) {
	bomb := "queens:8" + strings.Repeat("{1..3}", 16) + " backends=native"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := suites.Parse("bomb", bomb)
	runtime.ReadMemStats(&after)
	want := `suite bomb line 1: "queens:8{1..3}{1..3}{1..3}{1..3}{1..3}{1..3}{1..3}{1..3}..." expands to 43046721 specs, which with repeat 1 take the suite past the 1000000 runs (specs x repeat) a suite may plan`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("brace bomb: %v\nwant %s", err, want)
	}
	// A few KiB of messages and regular expressions, not the gigabyte
	// of an expansion.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing the bomb allocated %d bytes", grew)
	}
	_, err = suites.Parse("sum", "queens:{1..1000} repeat=600 backends=native\nqueens:{1..1000} repeat=600 backends=native")
	if err == nil || !strings.HasPrefix(err.Error(), `suite sum line 2: "queens:{1..1000}" expands to 1000 specs, which with repeat 600 take the suite past the 1000000 runs`) {
		t.Errorf("two groups past the limit: %v", err)
	}
	// Nested groups are counted again as they are expanded.
	_, err = suites.Parse("nested", "queens:{1{0..9}{0..9}{0..9},{1..3}}"+strings.Repeat("{1..9}", 6)+" backends=native")
	if err == nil || !strings.Contains(err.Error(), "a suite may plan") {
		t.Errorf("nested bomb: %v", err)
	}
	// Up to the limit, a suite plans as before.
	s, err := suites.Parse("fine", "queens:{4..5}{0,1} repeat=2 backends=native/plain")
	if err != nil || len(s.Groups[0].Specs) != 4 {
		t.Fatalf("fine suite: %v %v", s, err)
	}
}

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
