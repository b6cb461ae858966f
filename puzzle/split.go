package puzzle

// How a count splits into subproblems, described on the problem side: the
// key that names one split count (checkpoints and shard answers are valid
// only for their key), the shards that divide it, and the options a caller
// gives a splitting counter. The executor that runs the subproblems
// (package subproblem) imports these; the problem layer never imports it.

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"
)

// SplitKey names one split count. A checkpoint or a shard's answer is valid only
// for the key it was made with: same spec, task, strategy, partition and
// boardsat version (the version guards against a partition that changed
// between builds while keeping its description).
type SplitKey struct {
	Spec      string `json:"spec"`
	Task      string `json:"task"`
	Strategy  string `json:"strategy"`
	Partition string `json:"partition"`
	Version   string `json:"version"`
}

// String describes the key in one line, for error messages.
func (k SplitKey) String() string {
	return fmt.Sprintf("%s task %s strategy %s partition %q version %s", k.Spec, k.Task, k.Strategy, k.Partition, k.Version)
}

// Shard selects subproblems K-1, K-1+N, K-1+2N, ... of a split count (K of
// N, 1-based): deterministic, and balanced because neighbouring
// subproblems, which tend to cost alike, go to different shards. The zero
// Shard is the whole count.
type Shard struct{ K, N int }

// ParseShard parses "K/N" with 1 <= K <= N.
func ParseShard(s string) (Shard, error) {
	ks, ns, ok := strings.Cut(s, "/")
	n, err1 := parseInt(ns, 1, math.MaxInt32)
	k, err2 := parseInt(ks, 1, n)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("bad shard %q: want K/N with 1 <= K <= N, like 2/7", s)
	}
	return Shard{k, n}, nil
}

// Whole reports whether the shard is the whole count.
func (s Shard) Whole() bool { return s.N <= 1 }

// Has reports whether subproblem id belongs to the shard.
func (s Shard) Has(id int) bool { return s.Whole() || id%s.N == s.K-1 }

// String returns "K/N", or "1/1" for the whole count.
func (s Shard) String() string {
	if s.Whole() {
		return "1/1"
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// SplitOptions say how a split count runs beyond its subproblems; the caller
// of a backend sets them (Request.Split) and a counter passes them to the
// executor (package subproblem). The zero value (or nil) runs the whole count, silently, without a
// checkpoint.
type SplitOptions struct {
	// Shard, if not whole, restricts the count to one shard.
	Shard Shard
	// Checkpoint, if set, is the file recording finished subproblems: read
	// (and checked against the key) at the start, rewritten atomically as
	// subproblems finish.
	Checkpoint string
	// CheckpointEvery is the least time between two checkpoint writes
	// (default one second); the last state is always written at the end.
	CheckpointEvery time.Duration
	// Progress, if set, is called with the subproblems of the shard finished
	// so far (checkpointed ones included) and their total, once at the
	// start and after each subproblem. Calls are serialised; keep it cheap.
	Progress func(done, total int)
	// Stage, if set, hears about work a counter does before its
	// subproblems (building tables: done of total steps, and a note
	// "STEPS: DETAIL" naming the steps counted and saying how big the work
	// is), so that a long first phase shows progress too, with its own
	// unit and ETA.
	Stage func(done, total int, note string)
	// Cubes, if > 0, splits a certified SAT count into the 2^Cubes cubes
	// over Cubes variables its model chooses, each counted and proved on
	// its own as one subproblem (cube-and-conquer; solve --cubes).
	Cubes int

	// Ran is filled by the executor: the key and the size of the split count that
	// ran, so the caller can report what a shard or checkpoint covered. It
	// stays nil when the strategy that ran did not split its work.
	Ran *SplitReport
}

// SplitReport says what a split count covered.
type SplitReport struct {
	Key SplitKey
	// Shard is the shard that ran.
	Shard Shard
	// Subproblems is the size of the whole split; InShard how many of them
	// belong to the shard; Resumed how many came from the checkpoint.
	Subproblems, InShard, Resumed int
	// Done is how many of the shard's subproblems had finished when the
	// count ended (checkpointed ones included), and Partial the sum of
	// their counts: the count itself once Done == InShard, before that a
	// lower bound on it, which an interrupted solve reports as its answer
	// so far. Both are filled when the count ends; Partial is nil until
	// then.
	Done    int
	Partial *big.Int
}
