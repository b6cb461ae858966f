package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/internal/progress"
	"github.com/boardsat/boardsat/proof/certify"
	"github.com/boardsat/boardsat/puzzle"
)

// Where progress reports go, and whether that is a terminal (tests swap
// them for a buffer).
var (
	progressOut      io.Writer = os.Stderr
	progressTerminal           = isTerminal(os.Stderr)
	progressEvery              = 5 * time.Second
)

// splitFlags are solve's options for long counts: shard, checkpoint,
// progress and memory.
type splitFlags struct {
	checkpoint, shard, mem string
	checkpointEvery        time.Duration
	quiet                  bool
}

func (f *splitFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.checkpoint, "checkpoint", "", "record finished subproblems of a count in `FILE` and resume from it (same command after a kill)")
	fs.DurationVar(&f.checkpointEvery, "checkpoint-every", time.Second, "least time between two checkpoint writes")
	fs.StringVar(&f.shard, "shard", "", "count only shard `K/N` of the subproblems and print its partial count as JSON (add the shards with boardsat combine)")
	fs.StringVar(&f.mem, "mem", "", "memory limit, like 512M or 2G: native searches plan for nine tenths of it and stop with status memout past that (default: the machine's memory less an eighth, at most what is available less 1 GiB)")
	fs.BoolVar(&f.quiet, "quiet", false, "print no progress on stderr")
}

// sharded reports whether a shard was asked for.
func (f *splitFlags) sharded() bool { return f.shard != "" }

// options checks the flags against the request and returns its split
// options.
func (f *splitFlags) options(req puzzle.Request) (*puzzle.SplitOptions, error) {
	opts := &puzzle.SplitOptions{Checkpoint: f.checkpoint, CheckpointEvery: f.checkpointEvery}
	if f.shard != "" {
		sh, err := puzzle.ParseShard(f.shard)
		if err != nil {
			return nil, badInput(err)
		}
		opts.Shard = sh
	}
	if (f.shard != "" || f.checkpoint != "") && req.Task != puzzle.Count && req.Task != puzzle.Unique {
		return nil, badInputf("--shard and --checkpoint are for counts (--task count or unique), not task %s", req.Task)
	}
	return opts, nil
}

// check refuses an answer that ignored the shard or checkpoint asked for:
// the strategy that ran does not split its count.
func (f *splitFlags) check(req puzzle.Request, ans puzzle.Answer) error {
	if (f.shard != "" || f.checkpoint != "") && req.Split.Ran == nil {
		what := ans.Heuristic
		if what == "" {
			what = strings.Trim(ans.Encoding+" "+ans.Solver, " ")
		}
		return badInputf("%s does not split its count of %s into subproblems, so it has no shards or checkpoints; "+
			"use native symmetric (queens), fast (pieces), exhaustive (tours) or the sat backend's gophersat enumerator", what, req.Spec)
	}
	return nil
}

// meter returns the progress meter of a job (nil with --quiet).
func (f *splitFlags) meter(label, unit string) *progress.Meter {
	if f.quiet {
		return nil
	}
	return &progress.Meter{W: progressOut, Terminal: progressTerminal, Label: label, Unit: unit, Every: progressEvery}
}

// limitMemory applies --mem: the searches' budget (package membudget), a
// hard cap on the memory of the whole process tree (boardsat, the
// gophersat worker, external solvers) in a cgroup of its own where one can
// be made (membudget.Confine), and a watchdog that ends the process once
// the tree's memory passes the limit, after memout has printed the answer
// with status memout, and the status and message as one line on stderr;
// exit status 4 (memout). Without --mem, in a memory cgroup (a container,
// a batch job), the same watchdog holds the tree to the default budget
// (membudget.TreeDefault), so that the kernel does not kill the process
// with nothing printed. memout returns false when the search's own answer
// is already being printed: then the watchdog leaves the process to end
// with it, so that a solve prints one answer, never two.
func (f *splitFlags) limitMemory(memout func(msg string) bool) error {
	if f.mem == "" {
		watchTreeDefault("solve", memout)
		return nil
	}
	mb, err := membudget.ParseMem(f.mem)
	if err != nil {
		return badInput(err)
	}
	limit := mb << 20
	// The searches' budget (package membudget) is nine tenths of the
	// limit: a native search stops there with status memout and its
	// answer; the tree's watchdog ends anything else a sixteenth below the
	// limit, before the cgroup's cap (the limit itself) would have the
	// kernel kill a process of the tree.
	// A limit the tree already holds more than (--mem 1M: boardsat
	// alone is over ten) is not made a cap: the kernel would kill
	// boardsat at its next page, with nothing printed; the watchdog ends
	// it at its first sample, with its answer.
	membudget.Set(limit * 9 / 10)
	mark := limit - limit/16
	if membudget.TreeResident() < mark {
		membudget.Confine(limit)
	}
	watchTree("solve", membudget.TreeResident, mark, "a sixteenth below --mem "+f.mem, memout)
	return nil
}

// watchTree starts the watchdog of the whole process tree (boardsat and
// every process it started): once read (the tree's memory) passes mark, it
// has memout print the command's answer, then writes the status and
// message as one line on stderr and ends the process with exit status 4.
// memout returns false when the command's own answer is already being
// printed.
func watchTree(command string, read func() int64, mark int64, what string, memout func(msg string) bool) {
	go membudget.SampleWith(read, mark, nil, func(used int64) {
		msg := fmt.Sprintf("the memory of boardsat and the processes it started, %s, passed %s, %s", membudget.Bytes(used), membudget.Bytes(mark), what)
		if !memout(msg) {
			return
		}
		fmt.Fprintf(os.Stderr, "boardsat %s: memout: %s\n", command, msg)
		os.Exit(answer.ExitMemout)
	})
}

// watchTreeDefault holds the whole process tree of a command without
// --mem to the default budget, inside a memory cgroup (nothing outside
// one); memout as for watchTree.
func watchTreeDefault(command string, memout func(msg string) bool) {
	if read, mark, ok := membudget.TreeDefault(); ok {
		watchTree(command, read, mark, "the memory budget (three quarters of what the memory cgroup left)", memout)
	}
}

// shardFormat names the JSON of a shard's answer. Format 1 had no
// checksum.
const shardFormat = "boardsat-shard-2"

// shardCount names the count a shard belongs to: the fields that the
// shards of one count share, which the combined answer carries on.
type shardCount struct {
	Instance  string `json:"instance"`
	Puzzle    string `json:"puzzle"`
	Backend   string `json:"backend"`
	Heuristic string `json:"heuristic,omitempty"`
	Encoding  string `json:"encoding,omitempty"`
	Solver    string `json:"solver,omitempty"`
	Task      string `json:"task"`
	Strategy  string `json:"strategy"`
	Partition string `json:"partition"`
	Version   string `json:"version"`
}

// shardAnswer is what solve --shard prints and combine reads: the partial
// count of one shard, with the count it belongs to.
type shardAnswer struct {
	Format string `json:"format"`
	shardCount
	Shard       string           `json:"shard"`
	Subproblems int              `json:"subproblems"`
	InShard     int              `json:"subproblems_in_shard"`
	Resumed     int              `json:"resumed_from_checkpoint,omitempty"`
	Status      string           `json:"status"`
	Count       *big.Int         `json:"count,omitempty"`
	Seconds     float64          `json:"seconds"`
	Stats       map[string]int64 `json:"stats,omitempty"`
	// Certified and Certificate, for a certified count split into cubes
	// (solve --certify --cubes), say whether every cube of the shard and
	// the cubes' cover were proved and checked, and sum up the proofs.
	Certified   *bool               `json:"certified,omitempty"`
	Certificate *answer.Certificate `json:"certificate,omitempty"`
	Message     string              `json:"message,omitempty"`
	// Partial is, for a shard a signal interrupted, what it had finished
	// (as in the JSON answer); never added by combine.
	Partial *answer.Partial `json:"partial,omitempty"`
	// Checksum is the SHA-256, in hex, of the answer's JSON with Checksum
	// empty, as the checkpoints carry one (package subproblem): a shard
	// whose count was edited, or whose file was damaged, is refused by
	// combine rather than added. It guards against accidents, not against
	// someone who recomputes it.
	Checksum string `json:"checksum"`
}

// sum returns the checksum of s's content (s.Checksum left out).
func (s shardAnswer) sum() string {
	s.Checksum = ""
	data, _ := json.Marshal(s) // plain data: Marshal cannot fail
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// writeShard prints a shard's answer as one JSON line.
func writeShard(w io.Writer, backend string, req puzzle.Request, ans puzzle.Answer, secs float64, rec *certify.Recorder) error {
	r := req.Split.Ran
	s := shardAnswer{Format: shardFormat, shardCount: shardCount{Instance: req.Spec.String(), Puzzle: req.Spec.Puzzle(), Backend: backend,
		Heuristic: ans.Heuristic, Encoding: ans.Encoding, Solver: ans.Solver, Task: string(req.Task),
		Strategy: r.Key.Strategy, Partition: r.Key.Partition, Version: r.Key.Version}, Shard: r.Shard.String(),
		Subproblems: r.Subproblems, InShard: r.InShard, Resumed: r.Resumed, Status: string(ans.Status),
		Seconds: secs, Stats: ans.Stats, Message: ans.Message}
	if ans.Status == puzzle.OK {
		s.Count = ans.CountBig()
	}
	s.Partial = answer.New(backend, req, ans, secs).Partial
	if rec != nil {
		ok, c := certified(rec, ans), rec.Certificate()
		s.Certified, s.Certificate = &ok, &c
	}
	s.Checksum = s.sum()
	if err := json.NewEncoder(w).Encode(s); err != nil {
		return err
	}
	if ans.Status != puzzle.OK {
		return exitError{answer.Status(ans.Status).Exit(), fmt.Sprintf("shard %s: %s: %s", s.Shard, ans.Status, ans.Message)}
	}
	return nil
}
