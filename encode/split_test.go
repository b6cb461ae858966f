package encode

import (
	"context"
	"math/big"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestSATShardsAddUpToTheCount: the projected enumerator's cubes, run as
// shards of the shared pool, add up to the whole count and the published
// one.
func TestSATShardsAddUpToTheCount(t *testing.T) {
	cases := []struct {
		spec   string
		task   puzzle.Task
		shards int
	}{
		{"queens:10", puzzle.Count, 4},
		{"queens:9", puzzle.Count, 3},
		{"tour:5x5:a1", puzzle.Count, 4},
	}
	for _, c := range cases {
		spec := puzzle.MustParse(c.spec)
		known, ok := puzzle.KnownCount(spec, c.task)
		if !ok {
			t.Fatalf("%s: no published count", c.spec)
		}
		req := puzzle.Request{Spec: spec, Task: c.task, Threads: 2}
		sum := new(big.Int)
		covered, total := 0, 0
		for k := 1; k <= c.shards; k++ {
			req.Split = &puzzle.SplitOptions{Shard: puzzle.Shard{K: k, N: c.shards}}
			ans, err := Backend{}.Solve(context.Background(), req)
			if err != nil || ans.Status != puzzle.OK || req.Split.Ran == nil {
				t.Fatalf("%s shard %d: %v %+v ran=%v", c.spec, k, err, ans, req.Split.Ran)
			}
			sum.Add(sum, ans.CountBig())
			covered += req.Split.Ran.InShard
			total = req.Split.Ran.Subproblems
		}
		if sum.Uint64() != known || covered != total || total < c.shards {
			t.Errorf("%s in %d shards: %s over %d of %d subproblems, published %d", c.spec, c.shards, sum, covered, total, known)
		}
	}
}
