package encode

import (
	"context"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/puzzle"
)

// TestIntervalsModelsForbidExactlyOverlaps: for both models, the
// projected models of the constraints are exactly the selections the
// checker accepts (counted by brute force over every subset here).
func TestIntervalsModelsForbidExactlyOverlaps(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		s := puzzle.MustParse(puzzle.Intervals{N: 10, Seed: seed}.String()).(puzzle.Intervals)
		for i := range s.Items { // squeeze: many overlaps, shared ends
			s.Items[i].Start %= 15
			s.Items[i].End = s.Items[i].Start + (s.Items[i].End-s.Items[i].Start)%5
		}
		var want uint64
		for a := range 1 << len(s.Items) {
			var picks []int
			for i := range s.Items {
				if a>>i&1 == 1 {
					picks = append(picks, i)
				}
			}
			if _, err := puzzle.IntervalsValue(s, picks); err == nil {
				want++
			}
		}
		for _, model := range []string{"pairwise", "clique+seqcounter", "clique+native", "clique+totalizer"} {
			e, c, err := Resolve("intervals", model)
			if err != nil {
				t.Fatal(err)
			}
			inst, err := e.Build(s, c, Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := sat.Count(context.Background(), inst.Formula, sat.CountOptions{Threads: 1})
			if err != nil || r.Status != puzzle.OK || r.Count != want {
				t.Errorf("seed %d %s: %d selections (%s, %v), want %d", seed, model, r.Count, r.Status, err, want)
			}
		}
	}
}

// TestIntervalsCliqueSmaller: on a generated instance the clique model
// has fewer constraints than the pairwise one (interval graphs have at
// most n maximal cliques).
func TestIntervalsCliqueSmaller(t *testing.T) {
	s := puzzle.MustParse("intervals:random:1000:seed=1")
	nat, _ := card.Lookup("native")
	p, _ := intervalsBuild(s, nat, false)
	c, _ := intervalsBuild(s, nat, true)
	ps, cs := p.Formula.Stats(), c.Formula.Stats()
	if cs.Clauses+cs.PBConstraints >= ps.Clauses+ps.PBConstraints || cs.PBConstraints == 0 {
		t.Errorf("clique %+v, pairwise %+v", cs, ps)
	}
}

// TestIntervalsTimeout: an optimisation stopped by its limit answers
// status timeout with its best selection (checked) and bound, never ok.
func TestIntervalsTimeout(t *testing.T) {
	s := puzzle.MustParse("intervals:random:300:seed=1")
	for _, model := range []string{"pairwise", "pairwise-inc+seqcounter", "pairwise-pbmin+seqcounter"} {
		ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
		ans, err := Backend{}.Solve(ctx, puzzle.Request{Spec: s, Task: puzzle.Optimum, Encoding: model})
		cancel()
		if err != nil || ans.Status != puzzle.Timeout {
			t.Fatalf("%s: status %s (%v), want timeout", model, ans.Status, err)
		}
		if ans.Bound == nil {
			t.Fatalf("%s: no bound", model)
		}
		if ans.Objective != nil {
			v, err := puzzle.IntervalsValue(s.(puzzle.Intervals), ans.Solution.Picks)
			if err != nil || v != ans.Objective.Int64() || ans.Bound.Cmp(ans.Objective) < 0 {
				t.Errorf("%s: best %v (value %d, %v), bound %v", model, ans.Objective, v, err, ans.Bound)
			}
		}
	}
}
