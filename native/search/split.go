package search

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/subproblem"
)

// RunSplit runs a native counter's subproblems 0..total-1 through the
// shared pool (package subproblem) with the request's shard, checkpoint and
// progress options; partition describes the split (it goes into the key
// that checkpoints and shard answers are checked against).
func RunSplit(ctx context.Context, req puzzle.Request, strategy, partition string, total int, newWorker func() subproblem.Solver) (subproblem.Result, error) {
	key := puzzle.SplitKey{Spec: req.Spec.String(), Task: string(req.Task), Strategy: "native/" + strategy,
		Partition: partition, Version: subproblem.Version()}
	return subproblem.Run(ctx, subproblem.Job{Key: key, Total: total, Threads: req.Threads}, req.Split, newWorker)
}

// SplitAnswer is the answer of a split count: status OK with the exact
// count when every subproblem of the shard finished, else Timeout (a count
// cut short is never reported).
func SplitAnswer(res subproblem.Result, stats map[string]int64) puzzle.Answer {
	ans := puzzle.Answer{Status: puzzle.OK, Stats: stats}
	if !res.Complete {
		ans.Status = puzzle.Timeout
		ans.Message = fmt.Sprintf("stopped after %d of %d subproblems", res.Done, res.InShard)
		return ans
	}
	ans.SetCount(res.Count)
	return ans
}

// Whole reports whether a request counts the whole instance (no
// shard), so that facts about the whole count (none found: unsat) apply.
func Whole(req puzzle.Request) bool { return req.Split == nil || req.Split.Shard.Whole() }
