package native

import (
	"context"
	"math/big"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestShardsAddUpToTheCount runs each splitting counter whole and in N
// shards: the shards' partial counts add up to the whole count, which is
// the published one where there is one, and each shard reports the same
// key and split.
func TestShardsAddUpToTheCount(t *testing.T) {
	cases := []struct {
		spec, heuristic string
		task            puzzle.Task
		shards          int
	}{
		{"queens:14", "symmetric", puzzle.Count, 7},
		{"queens:11", "symmetric", puzzle.Unique, 4},
		{"queens:5", "symmetric", puzzle.Count, 3},
		{"queens:13", "constellations", puzzle.Count, 5},
		{"queens:12", "constellations", puzzle.Unique, 3},
		{"pieces:7x8:K3Q1B2R2N3", "fast", puzzle.Count, 5},
		{"pieces:7x7:K2Q2B2N1", "fast", puzzle.Count, 3},
		{"pieces:4x4:R2N4", "fast", puzzle.Count, 2},
		{"tour:6x6:a1:closed", "exhaustive", puzzle.Count, 3},
		{"tour:5x5:a1", "exhaustive", puzzle.Count, 4},
		{"dominate:12x12:Q:independent", "bnb", puzzle.Count, 4},
		{"dominate:11x11:Q:independent", "bnb", puzzle.Unique, 3},
	}
	for _, c := range cases {
		spec := puzzle.MustParse(c.spec)
		req := puzzle.Request{Spec: spec, Task: c.task, Heuristic: c.heuristic, Threads: 2}
		whole, err := Backend{}.Solve(context.Background(), req)
		if err != nil || whole.Status != puzzle.OK {
			t.Fatalf("%s: %v %+v", c.spec, err, whole)
		}
		if known, ok := puzzle.KnownCount(spec, c.task); ok && whole.CountString() != new(big.Int).SetUint64(known).String() {
			t.Errorf("%s: whole count %s, published %d", c.spec, whole.CountString(), known)
		}
		sum := new(big.Int)
		var key puzzle.SplitKey
		covered := 0
		for k := 1; k <= c.shards; k++ {
			req.Split = &puzzle.SplitOptions{Shard: puzzle.Shard{K: k, N: c.shards}}
			part, err := Backend{}.Solve(context.Background(), req)
			if err != nil || part.Status != puzzle.OK || req.Split.Ran == nil {
				t.Fatalf("%s shard %d/%d: %v %+v ran=%v", c.spec, k, c.shards, err, part, req.Split.Ran)
			}
			ran := req.Split.Ran
			if k == 1 {
				key = ran.Key
			} else if ran.Key != key {
				t.Errorf("%s shard %d: key %+v, shard 1 had %+v", c.spec, k, ran.Key, key)
			}
			covered += ran.InShard
			sum.Add(sum, part.CountBig())
		}
		if sum.String() != whole.CountString() {
			t.Errorf("%s in %d shards: %s, whole %s", c.spec, c.shards, sum, whole.CountString())
		}
		if covered != req.Split.Ran.Subproblems {
			t.Errorf("%s: shards cover %d of %d subproblems", c.spec, covered, req.Split.Ran.Subproblems)
		}
	}
}

// TestSplitIndependentOfThreads: the split (the key's partition) and the
// count do not depend on the number of threads, so shards run on machines
// of any size combine.
func TestSplitIndependentOfThreads(t *testing.T) {
	for _, s := range []string{"queens:12", "pieces:6x6:Q2N3", "tour:6x6:a1:closed"} {
		var keys []puzzle.SplitKey
		var counts []string
		for _, threads := range []int{1, 3} {
			opts := &puzzle.SplitOptions{}
			ans, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(s), Task: puzzle.Count, Threads: threads, Split: opts})
			if err != nil || ans.Status != puzzle.OK || opts.Ran == nil {
				t.Fatalf("%s: %v %+v", s, err, ans)
			}
			keys = append(keys, opts.Ran.Key)
			counts = append(counts, ans.CountString())
		}
		if keys[0] != keys[1] || counts[0] != counts[1] {
			t.Errorf("%s: threads change the split or count: %+v %v", s, keys, counts)
		}
	}
}
