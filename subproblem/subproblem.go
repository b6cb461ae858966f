// Package subproblem is the one worker pool of every counter that splits
// its work into subproblems (queens symmetric, pieces fast, tour exhaustive,
// the SAT projected enumerator's cubes). A counter describes its split as a
// deterministic list of subproblems 0..n-1 and a Key naming it; Run solves
// them on N goroutines, each with its own state, and sums their partial
// counts exactly. The same pool gives every such counter, for free:
// progress (done/total to a callback), checkpoints (finished subproblems and
// their counts recorded atomically, skipped when the count is started
// again) and shards (a deterministic 1/N of the subproblems, whose partial
// counts add up to the whole count).
//
// It imports nothing of boardsat, so native and encode both use it without
// importing each other.
package subproblem

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Key names one split count. A checkpoint or a shard's answer is valid only
// for the key it was made with: same spec, task, strategy, partition and
// boardsat version (the version guards against a partition that changed
// between builds while keeping its description).
type Key struct {
	Spec      string `json:"spec"`
	Task      string `json:"task"`
	Strategy  string `json:"strategy"`
	Partition string `json:"partition"`
	Version   string `json:"version"`
}

// String describes the key in one line, for error messages.
func (k Key) String() string {
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
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
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

// Options say how a split count runs beyond its subproblems; the caller of
// a backend sets them (puzzle.Request.Split) and a counter passes them to
// Run. The zero value (or nil) runs the whole count, silently, without a
// checkpoint.
type Options struct {
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

	// Ran is filled by Run: the key and the size of the split count that
	// ran, so the caller can report what a shard or checkpoint covered. It
	// stays nil when the strategy that ran did not split its work.
	Ran *Report
}

// Report says what a split count covered.
type Report struct {
	Key Key
	// Shard is the shard that ran.
	Shard Shard
	// Subproblems is the size of the whole split; InShard how many of them
	// belong to the shard; Resumed how many came from the checkpoint.
	Subproblems, InShard, Resumed int
}

// Job is one split count: its key, its number of subproblems and the
// goroutines to run them on (0: one per core).
type Job struct {
	Key     Key
	Total   int
	Threads int
}

// Solver solves one subproblem with one worker's state: it returns the
// subproblem's partial count, and ok false if it was cut short (context
// done), in which case the count is discarded and no further subproblems
// are started.
type Solver func(id int) (count uint64, ok bool)

// Result is the outcome of Run.
type Result struct {
	// Count is the exact sum of the partial counts of the finished
	// subproblems of the shard (checkpointed ones included).
	Count *big.Int
	// Done and InShard count the shard's finished subproblems and all of
	// them; Complete is Done == InShard.
	Done, InShard int
	Complete      bool
}

// ErrForeign marks a checkpoint written for another key.
var ErrForeign = errors.New("foreign checkpoint")

// Run solves the subproblems of job that belong to opts.Shard and are not
// recorded in opts.Checkpoint, on job.Threads goroutines; newWorker is
// called once per goroutine and returns that worker's Solver (per-worker
// state: nothing shared in the inner loops). Subproblems are handed out in
// id order. The error is for a checkpoint that cannot be read, belongs to
// another key, or cannot be written; a count cut short by its Solver is not
// an error (Result.Complete is false).
func Run(ctx context.Context, job Job, opts *Options, newWorker func() Solver) (Result, error) {
	if opts == nil {
		opts = &Options{}
	}
	threads := job.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	var ids []int
	for id := range job.Total {
		if opts.Shard.Has(id) {
			ids = append(ids, id)
		}
	}
	rep := &Report{Key: job.Key, Shard: opts.Shard, Subproblems: job.Total, InShard: len(ids)}
	opts.Ran = rep
	var ck *checkpoint
	if opts.Checkpoint != "" {
		var err error
		if ck, err = openCheckpoint(opts.Checkpoint, job.Key, opts.Shard, job.Total); err != nil {
			return Result{}, err
		}
		ck.every = opts.CheckpointEvery
		rep.Resumed = len(ck.done)
	}
	// todo: the shard's subproblems still to solve, in id order.
	todo := ids
	if ck != nil {
		todo = todo[:0:0]
		for _, id := range ids {
			if _, ok := ck.done[id]; !ok {
				todo = append(todo, id)
			}
		}
	}
	var (
		mu      sync.Mutex
		counts  = make([]uint64, 0, len(todo)) // finished this run, any order
		done    = len(ids) - len(todo)
		next    atomic.Int64
		stopped atomic.Bool
		wErr    error
		wg      sync.WaitGroup
	)
	if opts.Progress != nil {
		opts.Progress(done, len(ids))
	}
	for range min(threads, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			solve := newWorker()
			for !stopped.Load() {
				i := int(next.Add(1)) - 1
				if i >= len(todo) {
					return
				}
				if ctx.Err() != nil {
					stopped.Store(true)
					return
				}
				c, ok := solve(todo[i])
				if !ok {
					stopped.Store(true)
					return
				}
				mu.Lock()
				counts = append(counts, c)
				done++
				if ck != nil && wErr == nil {
					ck.done[todo[i]] = c
					if err := ck.maybeSave(false); err != nil {
						wErr = err
						stopped.Store(true)
					}
				}
				if opts.Progress != nil {
					opts.Progress(done, len(ids))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ck != nil && wErr == nil {
		wErr = ck.maybeSave(true)
	}
	if wErr != nil {
		return Result{}, wErr
	}
	var sum Sum
	if ck != nil {
		for _, c := range ck.done {
			sum.Add(c)
		}
	} else {
		for _, c := range counts {
			sum.Add(c)
		}
	}
	return Result{Count: sum.Big(), Done: done, InShard: len(ids), Complete: done == len(ids)}, nil
}

// Sum adds uint64 counts exactly: a 128-bit accumulator, which no count of
// fewer than 2^64 subproblems can overflow. The zero Sum is 0.
type Sum struct{ hi, lo uint64 }

// Add adds c.
func (s *Sum) Add(c uint64) {
	var carry uint64
	s.lo, carry = bits.Add64(s.lo, c, 0)
	s.hi += carry
}

// Big returns the sum.
func (s Sum) Big() *big.Int {
	b := new(big.Int).SetUint64(s.hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(s.lo))
}
