// Package subproblem is the one worker pool of every counter that splits
// its work into subproblems (queens symmetric, pieces fast, tour exhaustive,
// the SAT projected enumerator's cubes). A counter describes its split as a
// deterministic list of subproblems 0..n-1 and a puzzle.SplitKey naming it; Run solves
// them on N goroutines, each with its own state, and sums their partial
// counts exactly. The same pool gives every such counter, for free:
// progress (done/total to a callback), checkpoints (finished subproblems and
// their counts recorded atomically, skipped when the count is started
// again) and shards (a deterministic 1/N of the subproblems, whose partial
// counts add up to the whole count).
//
// It imports only the problem layer (package puzzle, for the split key,
// shards and options), so native and encode both use it without importing
// each other.
package subproblem

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/puzzle"
)

// Job is one split count: its key, its number of subproblems and the
// goroutines to run them on (0: one per core).
type Job struct {
	Key     puzzle.SplitKey
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

// ErrNotWritten marks a checkpoint that could not be written during a
// count (a full disk, a removed directory): the count failed; it was not
// refused.
var ErrNotWritten = errors.New("checkpoint not written")

// ErrDamaged marks a checkpoint whose content does not match its checksum.
var ErrDamaged = errors.New("damaged checkpoint")

// Run solves the subproblems of job that belong to opts.Shard and are not
// recorded in opts.Checkpoint, on job.Threads goroutines; newWorker is
// called once per goroutine and returns that worker's Solver (per-worker
// state: nothing shared in the inner loops). Subproblems are handed out in
// id order. The error is for a checkpoint that cannot be read, belongs to
// another key, or cannot be written; a count cut short by its Solver is not
// an error (Result.Complete is false).
func Run(ctx context.Context, job Job, opts *puzzle.SplitOptions, newWorker func() Solver) (Result, error) {
	if opts == nil {
		opts = &puzzle.SplitOptions{}
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
	rep := &puzzle.SplitReport{Key: job.Key, Shard: opts.Shard, Subproblems: job.Total, InShard: len(ids)}
	opts.Ran = rep
	ck, todo, err := resume(job, opts, ids)
	if err != nil {
		return Result{}, err
	}
	if ck != nil {
		rep.Resumed = len(ck.done)
	}
	var (
		mu      sync.Mutex
		runSum  Sum // the partial counts finished in this run
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
				runSum.Add(c)
				done++
				if ck != nil && wErr == nil {
					ck.done[todo[i]] = c
					if err := ck.maybeSave(false); err != nil {
						wErr = fmt.Errorf("%w after %d of %d subproblems: %w", ErrNotWritten, done, len(ids), err)
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
		if err := ck.maybeSave(true); err != nil {
			wErr = fmt.Errorf("%w after %d of %d subproblems: %w", ErrNotWritten, done, len(ids), err)
		}
	}
	if wErr != nil {
		return Result{}, wErr
	}
	sum := runSum
	if ck != nil {
		// ck.done holds this run's counts too.
		sum = Sum{}
		for _, c := range ck.done {
			sum.Add(c)
		}
	}
	rep.Done, rep.Partial = done, sum.Big()
	return Result{Count: sum.Big(), Done: done, InShard: len(ids), Complete: done == len(ids)}, nil
}

// resume opens opts.Checkpoint, if named, and returns it with todo, the
// subproblems of ids (the shard's, in id order) it does not record.
func resume(job Job, opts *puzzle.SplitOptions, ids []int) (ck *checkpoint, todo []int, err error) {
	if opts.Checkpoint == "" {
		return nil, ids, nil
	}
	if ck, err = openCheckpoint(opts.Checkpoint, job.Key, opts.Shard, job.Total); err != nil {
		return nil, nil, err
	}
	ck.every = opts.CheckpointEvery
	todo = ids[:0:0]
	for _, id := range ids {
		if _, ok := ck.done[id]; !ok {
			todo = append(todo, id)
		}
	}
	return ck, todo, nil
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
