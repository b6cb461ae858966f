package search

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/puzzle"
)

// RunSplit runs a native counter's subproblems 0..total-1 through the
// shared pool (package subproblem) with the request's shard, checkpoint and
// progress options; partition describes the split (it goes into the key
// that checkpoints and shard answers are checked against).
func RunSplit(ctx context.Context, req puzzle.Request, strategy, partition string, total int, newWorker func() subproblem.Solver) (subproblem.Result, error) {
	return subproblem.Run(ctx, subproblem.Job{Key: splitKey(req, strategy, partition), Total: total, Threads: req.Threads}, req.Split, newWorker)
}

func splitKey(req puzzle.Request, strategy, partition string) puzzle.SplitKey {
	return puzzle.SplitKey{Spec: req.Spec.String(), Task: string(req.Task), Strategy: "native/" + strategy,
		Partition: partition, Version: subproblem.Version()}
}

// CheckpointPartition returns the partition of the checkpoint the request
// resumes from, if it has one written by this build for the same
// instance, task and strategy: a counter whose partition records the
// outcome of a first phase (the minimum it proved) can resume without
// repeating it.
func CheckpointPartition(req puzzle.Request, strategy string) (string, bool) {
	if req.Split == nil || req.Split.Checkpoint == "" {
		return "", false
	}
	k, ok := subproblem.StoredKey(req.Split.Checkpoint)
	if !ok {
		return "", false
	}
	want := splitKey(req, strategy, k.Partition)
	return k.Partition, k == want
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
