package subproblem

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardsat/boardsat/puzzle"
)

// square is a toy split count: subproblem id counts id*id.
func square(id int) (uint64, bool) { return uint64(id) * uint64(id), true }

// sumSquares is 0^2 + ... + (n-1)^2.
func sumSquares(n int) uint64 { return uint64(n-1) * uint64(n) * uint64(2*n-1) / 6 }

var testKey = puzzle.SplitKey{Spec: "toy:1", Task: "count", Strategy: "squares", Partition: "ids", Version: "test"}

func TestRunSumsEveryShardExactly(t *testing.T) {
	for _, total := range []int{0, 1, 7, 100, 1001} {
		for _, n := range []int{1, 2, 3, 7, 16} {
			var parts big.Int
			for k := 1; k <= n; k++ {
				opts := &puzzle.SplitOptions{Shard: puzzle.Shard{K: k, N: n}}
				res, err := Run(context.Background(), Job{Key: testKey, Total: total, Threads: 3}, opts, func() Solver { return square })
				if err != nil || !res.Complete {
					t.Fatalf("total %d shard %d/%d: %v complete=%v", total, k, n, err, res.Complete)
				}
				if opts.Ran == nil || opts.Ran.InShard != res.InShard || opts.Ran.Subproblems != total ||
					opts.Ran.Done != res.InShard || opts.Ran.Partial.Cmp(res.Count) != 0 {
					t.Fatalf("report %+v, result %+v", opts.Ran, res)
				}
				parts.Add(&parts, res.Count)
			}
			if want := sumSquares(total); total > 0 && parts.Uint64() != want {
				t.Errorf("total %d in %d shards: %s, want %d", total, n, &parts, want)
			}
		}
	}
}

func TestSumBeyondUint64(t *testing.T) {
	res, err := Run(context.Background(), Job{Key: testKey, Total: 5, Threads: 2}, nil,
		func() Solver { return func(int) (uint64, bool) { return math.MaxUint64, true } })
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Mul(new(big.Int).SetUint64(math.MaxUint64), big.NewInt(5))
	if res.Count.Cmp(want) != 0 {
		t.Errorf("sum %s, want %s", res.Count, want)
	}
}

// TestCheckpointResume stops a run part way (its solver reports a cut),
// then resumes it from the checkpoint: the resumed run solves only the
// rest, and the total is that of an uninterrupted run.
func TestCheckpointResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck.json")
	const total = 200
	for _, shard := range []puzzle.Shard{{}, {K: 2, N: 3}} {
		os.Remove(path)
		var calls atomic.Int64
		cut := func() Solver {
			return func(id int) (uint64, bool) {
				if calls.Add(1) > 50 {
					return 0, false
				}
				return square(id)
			}
		}
		opts := &puzzle.SplitOptions{Shard: shard, Checkpoint: path}
		res, err := Run(context.Background(), Job{Key: testKey, Total: total, Threads: 2}, opts, cut)
		if err != nil || res.Complete || res.Done == 0 {
			t.Fatalf("cut run: %+v %v", res, err)
		}
		if r := opts.Ran; r.Done != res.Done || r.Partial == nil || r.Partial.Cmp(res.Count) != 0 {
			t.Fatalf("report of the cut run: done %d partial %v, want %d and %s", r.Done, r.Partial, res.Done, res.Count)
		}
		firstDone := res.Done
		calls.Store(0)
		count := func() Solver {
			return func(id int) (uint64, bool) { calls.Add(1); return square(id) }
		}
		opts = &puzzle.SplitOptions{Shard: shard, Checkpoint: path}
		res, err = Run(context.Background(), Job{Key: testKey, Total: total, Threads: 2}, opts, count)
		if err != nil || !res.Complete {
			t.Fatalf("resumed run: %+v %v", res, err)
		}
		if int(calls.Load()) != res.InShard-firstDone || opts.Ran.Resumed != firstDone {
			t.Errorf("resumed run solved %d, want %d (resumed %d)", calls.Load(), res.InShard-firstDone, opts.Ran.Resumed)
		}
		whole, _ := Run(context.Background(), Job{Key: testKey, Total: total, Threads: 2}, &puzzle.SplitOptions{Shard: shard}, func() Solver { return square })
		if res.Count.Cmp(whole.Count) != 0 {
			t.Errorf("shard %s: resumed %s, uninterrupted %s", shard, res.Count, whole.Count)
		}
	}
}

func TestForeignCheckpointRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck.json")
	if _, err := Run(context.Background(), Job{Key: testKey, Total: 10}, &puzzle.SplitOptions{Checkpoint: path}, func() Solver { return square }); err != nil {
		t.Fatal(err)
	}
	other := func(f func(*puzzle.SplitKey)) puzzle.SplitKey { k := testKey; f(&k); return k }
	cases := []struct {
		name  string
		key   puzzle.SplitKey
		total int
		shard puzzle.Shard
	}{
		{"spec", other(func(k *puzzle.SplitKey) { k.Spec = "toy:2" }), 10, puzzle.Shard{}},
		{"task", other(func(k *puzzle.SplitKey) { k.Task = "unique" }), 10, puzzle.Shard{}},
		{"strategy", other(func(k *puzzle.SplitKey) { k.Strategy = "cubes" }), 10, puzzle.Shard{}},
		{"partition", other(func(k *puzzle.SplitKey) { k.Partition = "other" }), 10, puzzle.Shard{}},
		{"version", other(func(k *puzzle.SplitKey) { k.Version = "v2" }), 10, puzzle.Shard{}},
		{"size", testKey, 11, puzzle.Shard{}},
		{"shard", testKey, 10, puzzle.Shard{K: 1, N: 2}},
	}
	for _, c := range cases {
		_, err := Run(context.Background(), Job{Key: c.key, Total: c.total}, &puzzle.SplitOptions{Checkpoint: path, Shard: c.shard}, func() Solver { return square })
		if !errors.Is(err, ErrForeign) {
			t.Errorf("%s: err = %v, want a foreign checkpoint", c.name, err)
		}
	}
	os.WriteFile(path, []byte("not json"), 0o644)
	if _, err := Run(context.Background(), Job{Key: testKey, Total: 10}, &puzzle.SplitOptions{Checkpoint: path}, func() Solver { return square }); err == nil {
		t.Error("a corrupt checkpoint was accepted")
	}
}

// TestTamperedCheckpointRefused: adding 1 to one partial count of a
// checkpoint, or changing its key, shard or size, without the checksum
// makes Run refuse it (ErrDamaged) in one line; the untouched file resumes.
func TestTamperedCheckpointRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck.json")
	cut := func() Solver { return square }
	if _, err := Run(context.Background(), Job{Key: testKey, Total: 10}, &puzzle.SplitOptions{Checkpoint: path}, cut); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f checkpointFile
	if err := json.Unmarshal(orig, &f); err != nil || len(f.Done) != 10 || f.Checksum != f.sum() || len(f.Checksum) != 64 {
		t.Fatalf("checkpoint %s: %v", orig, err)
	}
	for i, tamper := range []func(*checkpointFile){
		func(f *checkpointFile) { f.Done[3][1]++ },
		func(f *checkpointFile) { f.Done[9][1]++ },
		func(f *checkpointFile) { f.Done = f.Done[:9] },
		func(f *checkpointFile) { f.Checksum = "" },
	} {
		var g checkpointFile
		json.Unmarshal(orig, &g)
		tamper(&g)
		data, _ := json.Marshal(g)
		os.WriteFile(path, data, 0o644)
		_, err := Run(context.Background(), Job{Key: testKey, Total: 10}, &puzzle.SplitOptions{Checkpoint: path}, cut)
		if !errors.Is(err, ErrDamaged) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "checksum") {
			t.Errorf("tampering %d: err %v, want a damaged checkpoint in one line", i, err)
		}
	}
	os.WriteFile(path, orig, 0o644)
	res, err := Run(context.Background(), Job{Key: testKey, Total: 10}, &puzzle.SplitOptions{Checkpoint: path}, cut)
	if err != nil || res.Count.Uint64() != sumSquares(10) {
		t.Errorf("untouched checkpoint: %v %v, want %d", err, res.Count, sumSquares(10))
	}
}

func TestProgressReachesTotal(t *testing.T) {
	var last, calls int
	opts := &puzzle.SplitOptions{Shard: puzzle.Shard{K: 1, N: 4}, Progress: func(done, total int) {
		if total != 25 || done < last {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
		calls++
	}}
	if _, err := Run(context.Background(), Job{Key: testKey, Total: 100, Threads: 4}, opts, func() Solver { return square }); err != nil {
		t.Fatal(err)
	}
	if last != 25 || calls != 26 {
		t.Errorf("progress ended at %d after %d calls, want 25 after 26", last, calls)
	}
}

func TestContextStopsRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	res, err := Run(ctx, Job{Key: testKey, Total: 1000, Threads: 2}, nil, func() Solver {
		return func(id int) (uint64, bool) {
			if n.Add(1) == 10 {
				cancel()
			}
			return 1, true
		}
	})
	if err != nil || res.Complete || res.Done >= 1000 {
		t.Errorf("cancelled run: %+v %v", res, err)
	}
}

// TestVersionNamesTheBuild: the version is stable within a process and
// names this build (a test binary has no VCS revision: its hash).
func TestVersionNamesTheBuild(t *testing.T) {
	v := Version()
	if v != Version() || len(v) < 12 || v == "build-unknown" {
		t.Errorf("Version() = %q", v)
	}
}

// TestCheckpointWriteFailures: a checkpoint path that cannot take a file is
// refused before the count starts (not ErrNotWritten, nothing solved); one
// whose directory goes away during the count ends it with ErrNotWritten,
// saying how far it got.
func TestCheckpointWriteFailures(t *testing.T) {
	var calls atomic.Int64
	counting := func() Solver {
		return func(id int) (uint64, bool) { calls.Add(1); return square(id) }
	}
	bad := filepath.Join(t.TempDir(), "missing", "ck.json")
	_, err := Run(context.Background(), Job{Key: testKey, Total: 10, Threads: 1}, &puzzle.SplitOptions{Checkpoint: bad}, counting)
	if err == nil || errors.Is(err, ErrNotWritten) || !strings.Contains(err.Error(), "cannot write "+bad) || calls.Load() != 0 {
		t.Errorf("unwritable path: %v after %d subproblems", err, calls.Load())
	}
	dir := filepath.Join(t.TempDir(), "d")
	os.Mkdir(dir, 0o755)
	path := filepath.Join(dir, "ck.json")
	vanishing := func() Solver {
		return func(id int) (uint64, bool) {
			if id == 3 {
				if _, err := os.Stat(path); err != nil {
					t.Errorf("no checkpoint written at the start: %v", err)
				}
				os.RemoveAll(dir)
			}
			return square(id)
		}
	}
	_, err = Run(context.Background(), Job{Key: testKey, Total: 10, Threads: 1}, &puzzle.SplitOptions{Checkpoint: path, CheckpointEvery: time.Nanosecond}, vanishing)
	if !errors.Is(err, ErrNotWritten) || !strings.HasPrefix(err.Error(), "checkpoint not written after 4 of 10 subproblems: cannot write "+path) {
		t.Errorf("directory removed mid-count: %v", err)
	}
}
