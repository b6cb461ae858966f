package brute

import (
	"context"
	"testing"

	"github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/native"
	"github.com/boardsat/boardsat/puzzle"
)

// TestIntervalsAgree sweeps small instances, generated ones and ones with
// values 0..2 (many ties and zero values, so counts well above 1): the
// native DP, the seed's search (optimum only: the seed computes no count),
// both SAT models (pairwise, clique; optimum also through the kept-solver
// descent pairwise-inc and gophersat's own optimisation clique-pbmin) and
// this brute force agree on the
// optimum and on the number of optimal selections, and every selection
// passes the checker with the claimed value.
func TestIntervalsAgree(t *testing.T) {
	var specs []puzzle.Intervals
	for n := 1; n <= 9; n++ {
		for seed := uint64(1); seed <= 8; seed++ {
			specs = append(specs, puzzle.MustParse(puzzle.Intervals{N: n, Seed: seed}.String()).(puzzle.Intervals))
			// Short dense instances with values 0..2: derived from the
			// generator's draws, ranges squeezed.
			items := puzzle.RandomIntervals(n, seed+100)
			for i := range items {
				items[i].Start %= 12
				items[i].End = items[i].Start + (items[i].End-items[i].Start)%4
				items[i].Value %= 3
			}
			specs = append(specs, puzzle.Intervals{N: n, Seed: seed + 100, Items: items})
		}
	}
	type variant struct {
		name    string
		backend puzzle.Backend
		req     puzzle.Request
		counts  bool
	}
	variants := []variant{
		{"dp", native.Backend{}, puzzle.Request{Heuristic: "dp"}, true},
		{"seed", native.Backend{}, puzzle.Request{Heuristic: "seed"}, false},
		{"pairwise", encode.Backend{}, puzzle.Request{Encoding: "pairwise"}, true},
		{"clique", encode.Backend{}, puzzle.Request{Encoding: "clique+seqcounter"}, true},
		{"clique-native", encode.Backend{}, puzzle.Request{Encoding: "clique+native"}, true},
		{"pairwise-inc", encode.Backend{}, puzzle.Request{Encoding: "pairwise-inc+seqcounter"}, false},
		{"clique-pbmin", encode.Backend{}, puzzle.Request{Encoding: "clique-pbmin+totalizer"}, false},
		{"check", Backend{}, puzzle.Request{}, true},
	}
	maxCount := uint64(0)
	for _, s := range specs {
		var wantOpt int64 = -1
		var wantCount uint64
		for _, v := range variants {
			for _, task := range []puzzle.Task{puzzle.Optimum, puzzle.Count} {
				if task == puzzle.Count && !v.counts {
					continue
				}
				req := v.req
				req.Spec, req.Task, req.Threads = s, task, 1
				ans, err := v.backend.Solve(context.Background(), req)
				if err != nil || ans.Status != puzzle.OK || ans.Objective == nil {
					t.Fatalf("%s %v %s %s: %v %s %s", s, s.Items, v.name, task, err, ans.Status, ans.Message)
				}
				opt := ans.Objective.Int64()
				if wantOpt < 0 {
					wantOpt = opt
				} else if opt != wantOpt {
					t.Fatalf("%v: %s %s says optimum %d, others %d", s.Items, v.name, task, opt, wantOpt)
				}
				if ans.Bound == nil || ans.Bound.Int64() != opt {
					t.Errorf("%v: %s bound %v, optimum %d", s.Items, v.name, ans.Bound, opt)
				}
				switch task {
				case puzzle.Optimum:
					val, err := puzzle.IntervalsValue(s, ans.Solution.Picks)
					if err != nil || val != opt {
						t.Fatalf("%v: %s selection %v: value %d, %v; optimum %d", s.Items, v.name, ans.Solution.Picks, val, err, opt)
					}
				case puzzle.Count:
					if wantCount == 0 {
						wantCount = ans.Count
					} else if ans.Count != wantCount {
						t.Fatalf("%v: %s counts %d optimal selections, others %d", s.Items, v.name, ans.Count, wantCount)
					}
				}
			}
		}
		maxCount = max(maxCount, wantCount)
	}
	if maxCount < 8 {
		t.Errorf("the sweep's largest count is %d: it does not exercise counting", maxCount)
	}
}
