package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/harness/compare"
	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/internal/progress"
	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/proof/certify"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	commands["solve"] = command{"solve one instance (" + taskNames() + ")", runSolve}
	helps["solve"] = help{
		usage: []string{"solve SPEC [flags]"},
		about: `Solves one instance, named by its SPEC (the forms below; see docs/specs.md),
with the native search (default) or a SAT encoding, and prints the answer as
text or one JSON object. Exit status: 0 answered (ok, unsat), 1 error, 2 bad
input, refused or stdout not written, 3 timeout, 4 memout, 130 interrupted
(SIGINT or SIGTERM: the answer so far); the same with --format json, which
prints its answer in every case (docs/contract.md, "Exit statuses").`,
		specs: true,
		examples: []string{
			"solve pieces:7x8:K3Q1B2R2N3",
			"solve queens:8 --task unique",
			"solve queens:12 --backend sat --encoding totalizer",
			"solve tour:6x6:a1:closed --task count",
			"solve swap:4x3 --format json",
			"solve mnk:3x3:3 --task value",
			"solve intervals:examples/gattaca.txt --task count",
			"solve queens:17 --shard 1/3 > shard-1.json",
			"solve queens:16 --checkpoint q16.ckpt",
		},
	}
}

// solveFlags are the options of one solve request, shared by solve and the
// child runs of bench.
type solveFlags struct {
	backend, task, heuristic, encoding, solver, format string
	threads                                            int
	timeout                                            time.Duration
	seed                                               int64
}

func (f *solveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.backend, "backend", "native", "backend: "+strings.Join(puzzle.Backends.Names(), ", "))
	fs.StringVar(&f.task, "task", "", "task: "+taskNames()+" (default: the puzzle's own: "+defaultTasks()+")")
	fs.StringVar(&f.heuristic, "heuristic", "", "native strategy (see boardsat list)")
	fs.StringVar(&f.encoding, "encoding", "", "SAT encoding (see boardsat list)")
	fs.StringVar(&f.solver, "solver", "", "SAT solver (see boardsat list)")
	registerSolvers(fs)
	fs.StringVar(&f.format, "format", "text", "output: text or json")
	fs.IntVar(&f.threads, "threads", 0, "goroutines to use; 0 means one per core")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up after this long (status timeout); 0 means never")
	fs.Int64Var(&f.seed, "seed", 0, "the {seed} of an external solver's command (bench gives each run its repetition number)")
}

// request validates the flags against a spec and builds the request.
func (f *solveFlags) request(spec puzzle.Spec) (puzzle.Backend, puzzle.Request, error) {
	b, err := puzzle.Backends.Lookup(f.backend)
	if err != nil {
		return nil, puzzle.Request{}, badInput(err)
	}
	task := puzzle.DefaultTask(spec)
	if f.task != "" {
		if task, err = puzzle.ParseTask(f.task); err != nil {
			return nil, puzzle.Request{}, badInput(err)
		}
	}
	if f.format != "text" && f.format != "json" {
		return nil, puzzle.Request{}, badInputf("unknown format %q: want text or json", f.format)
	}
	if f.threads < 0 {
		return nil, puzzle.Request{}, badInputf("--threads must be 0 or more, not %d", f.threads)
	}
	if f.seed < 0 {
		return nil, puzzle.Request{}, badInputf("--seed must be 0 or more, not %d", f.seed)
	}
	return b, puzzle.Request{Spec: spec, Task: task, Heuristic: f.heuristic, Encoding: f.encoding,
		Solver: f.solver, Threads: f.threads}, nil
}

func runSolve(args []string, stdout io.Writer) error {
	var f solveFlags
	var specArg string
	err := runSolveFlags(args, &f, &specArg, stdout)
	if ue := (usageError{}); errors.As(err, &ue) && f.format == "json" {
		// The explicit refusal, for a reader of the JSON (bench's child
		// runs): the request was not taken, nothing ran. Its message is
		// the line on stderr.
		task := f.task
		if spec, perr := puzzle.Parse(specArg); perr == nil && task == "" {
			task = string(puzzle.DefaultTask(spec))
		}
		if werr := answer.Refusal(oneLine(specArg), f.backend, task, errors.New(oneLine(ue.Error()))).Write(stdout); werr != nil {
			return werr
		}
	}
	return err
}

// runSolveFlags parses the command line into f and *specArg (the SPEC as
// given) and answers the request.
func runSolveFlags(args []string, f *solveFlags, specArg *string, stdout io.Writer) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	f.register(fs)
	var sf splitFlags
	sf.register(fs)
	var cf certFlags
	cf.register(fs)
	pos, err := parseFlags(fs, args)
	if len(pos) > 0 {
		*specArg = pos[0]
	}
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInputf("want exactly one SPEC, like boardsat solve queens:8")
	}
	return solve(pos[0], *f, sf, cf, args, stdout)
}

// solve answers one request: the spec as given, with the flags parsed
// (args, the command line, names a certified run's proofs).
func solve(specArg string, f solveFlags, sf splitFlags, cf certFlags, args []string, stdout io.Writer) error {
	spec, err := puzzle.Parse(specArg)
	if err != nil {
		return badInput(err)
	}
	backend, req, err := f.request(spec)
	if err != nil {
		return err
	}
	if req.Split, err = sf.options(req); err != nil {
		return err
	}
	begin := time.Now()
	// One answer is printed: the search's, or the --mem watchdog's memout
	// if it passes the limit first. Whichever claims the output first
	// prints; the search, finding it claimed, waits for the watchdog to end
	// the process.
	var claimed atomic.Bool
	claim := func() bool { return claimed.CompareAndSwap(false, true) }
	memout := func(msg string) bool {
		if !claim() {
			return false
		}
		printMemout(stdout, f.format, sf.sharded(), backend, req, msg, time.Since(begin).Seconds())
		return true
	}
	if err := sf.limitMemory(memout); err != nil {
		return err
	}
	meter := sf.meter(spec.String(), "subproblems")
	req.Split.Progress = func(done, total int) { meter.Phase("subproblems"); meter.Update(done, total, "") }
	req.Split.Stage = func(done, total int, note string) {
		unit, rest, _ := strings.Cut(note, ": ")
		meter.Phase(unit)
		meter.Update(done, total, rest)
	}
	// SIGINT and SIGTERM end the search as a time limit would (every
	// backend honours its context, external solvers and their temporary
	// files go with it), and the answer so far is printed.
	sigctx, stopSignals := interruptible(context.Background())
	defer stopSignals()
	ctx, rec, err := cf.start(sigctx, backend.Name(), req, &sf)
	if err != nil {
		return err
	}
	// The meter reports at least every 5 s until the answer (progress
	// package): a search with no subproblems to count shows as working,
	// with what it says it does (progress.Notef).
	meter.Start()
	ctx = sat.WithSeed(progress.WithNote(ctx, meter), f.seed)
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	if req.Task == puzzle.All {
		req.Emit = solutionPrinter(stdout, f.format, spec)
	}
	start := time.Now()
	ans, err := backend.Solve(ctx, req)
	secs := time.Since(start).Seconds()
	meter.Finish()
	ans, err = settle(sigctx, req, sf.mem, ans, err)
	// own claims the output for the search's answer; when the --mem
	// watchdog has claimed it first, it prints its memout and ends the
	// process, and the search waits for that.
	own := func() {
		if !claim() {
			select {}
		}
	}
	if err != nil {
		own()
		return refusedAfter(stdout, f, sf, backend.Name(), req, err, secs)
	}
	if answer.Status(ans.Status) != answer.Interrupted {
		if err := sf.check(req, ans); err != nil {
			return err
		}
	}
	if err := cf.finish(rec, args, req, &ans); err != nil {
		return err
	}
	if !sf.sharded() {
		// A shard's count is a part of the count: nothing to hold to
		// the published value (combine and collect do, on the whole).
		ans = judgePublished(req, ans)
	}
	own()
	return printSolved(stdout, f, sf, backend.Name(), req, ans, secs, rec)
}

// printSolved prints the answer of a search that ran (a shard's result
// file, JSON or text, with its certificate) and returns the exit status
// the answer's status calls for.
func printSolved(stdout io.Writer, f solveFlags, sf splitFlags, backend string, req puzzle.Request, ans puzzle.Answer, secs float64, rec *certify.Recorder) error {
	if sf.sharded() {
		return writeShard(stdout, backend, req, ans, secs, rec)
	}
	if f.format == "json" {
		a := answer.New(backend, req, ans, secs)
		if rec != nil {
			ok, c := certified(rec, ans), rec.Certificate()
			a.Certified, a.Certificate = &ok, &c
		}
		if err := a.Write(stdout); err != nil {
			return err
		}
		return statusExit(ans)
	}
	printText(stdout, backend, req, ans, secs)
	if rec != nil {
		printCertificate(stdout, certified(rec, ans), rec.Certificate())
	}
	if r := req.Split.Ran; r != nil && sf.checkpoint != "" {
		fmt.Fprintf(stdout, "%-14s %d (%d from checkpoint %s)\n", "subproblems:", r.InShard, r.Resumed, sf.checkpoint)
	}
	return statusExit(ans)
}

// solutionPrinter returns the Emit of task all: each solution printed as
// it is found, a JSON item (numbered from 1) or its text.
func solutionPrinter(stdout io.Writer, format string, spec puzzle.Spec) func(puzzle.Solution) error {
	emitted := 0
	return func(s puzzle.Solution) error {
		emitted++
		if format == "json" {
			return json.NewEncoder(stdout).Encode(answer.Item{Index: emitted, Instance: spec.String(), Solution: s})
		}
		_, err := fmt.Fprintf(stdout, "%s\n", s.Text())
		return err
	}
}

// interruptedAnswer is the answer of a search a signal stopped (why says
// which): what the backend had, with status interrupted. Its message is
// the signal and, for a count split into subproblems, how far it got; the
// backend's own message goes, since it takes any end of its context for a
// time limit.
func interruptedAnswer(req puzzle.Request, ans puzzle.Answer, why error) puzzle.Answer {
	ans.Status, ans.Message = puzzle.Status(answer.Interrupted), why.Error()
	if r := req.Split.Ran; r != nil && r.Partial != nil {
		ans.Message += fmt.Sprintf(": %d of %d subproblems done, partial count %s", r.Done, r.InShard, r.Partial)
		if req.Split.Checkpoint != "" {
			ans.Message += " in checkpoint " + req.Split.Checkpoint
		}
	} else if ans.Found != nil {
		ans.Message += fmt.Sprintf(": %s counted so far (a lower bound)", ans.Found)
	}
	return ans
}

// refusedAfter answers a request the backend refused after secs of work
// (a search that stops at its memory budget's projection, say): with
// --format json, the refusal with those seconds; the reason as the one
// line on stderr, exit status 2 (runSolve writes the refusals of requests
// that did not start).
func refusedAfter(stdout io.Writer, f solveFlags, sf splitFlags, backend string, req puzzle.Request, reason error, secs float64) error {
	if f.format != "json" || sf.sharded() {
		return badInput(reason)
	}
	a := answer.Refusal(req.Spec.String(), backend, string(req.Task), errors.New(oneLine(reason.Error())))
	a.Seconds = secs
	if err := a.Write(stdout); err != nil {
		return err
	}
	return exitError{answer.ExitBadInput, oneLine(reason.Error())}
}

// statusExit returns the exit of a printed answer: nil for ok and unsat,
// else the status's exit (answer.Status.Exit) with the status and message
// as the one line on stderr, the same with every --format.
func statusExit(ans puzzle.Answer) error {
	code := answer.Status(ans.Status).Exit()
	if code == answer.ExitAnswered {
		return nil
	}
	return exitError{code, fmt.Sprintf("%s: %s", ans.Status, ans.Message)}
}

func printText(w io.Writer, backend string, req puzzle.Request, ans puzzle.Answer, secs float64) {
	if ans.Solution != nil {
		fmt.Fprint(w, ans.Solution.Text())
		if ans.Solution.Path != nil {
			fmt.Fprintln(w, strings.Join(ans.Solution.SquareNames(), " "))
		}
		fmt.Fprintln(w)
	}
	row := func(k string, v any) { fmt.Fprintf(w, "%-14s %v\n", k+":", v) }
	row("instance", req.Spec)
	row("backend", backend)
	for _, kv := range [][2]string{{"heuristic", ans.Heuristic}, {"encoding", ans.Encoding}, {"solver", ans.Solver}} {
		if kv[1] != "" {
			row(kv[0], kv[1])
		}
	}
	row("task", req.Task)
	for _, kv := range [][2]string{{"method", ans.Method}, {"theorem", ans.Theorem}} {
		if kv[1] != "" {
			row(kv[0], kv[1])
		}
	}
	for _, f := range ans.Fallbacks {
		row("fallback", f)
	}
	row("status", ans.Status)
	if ans.Unchecked != "" {
		row("unchecked", ans.Unchecked+" (no proof and no second method confirmed it: --certify, or compare)")
	}
	if answer.HasCount(req, ans) {
		row("count", ans.CountString())
	}
	if answer.HasLength(req, ans) {
		row("length", ans.Length)
	}
	for _, kv := range []struct {
		k string
		v *big.Int
	}{{"objective", ans.Objective}, {"bound", ans.Bound}} {
		if kv.v != nil {
			row(kv.k, kv.v)
		}
	}
	if ans.GameValue != "" {
		row("value", ans.GameValue)
	}
	if p := answer.New(backend, req, ans, secs).Partial; p != nil {
		if p.Subproblems > 0 {
			row("partial count", fmt.Sprintf("%s (a lower bound: %d of %d subproblems done)", p.Count, p.Done, p.Subproblems))
		} else {
			row("partial count", fmt.Sprintf("%s (a lower bound: the count stopped there)", p.Count))
		}
	}
	row("seconds", fmt.Sprintf("%.6f", secs))
	if ans.EncodeSeconds > 0 || ans.SolveSeconds > 0 {
		row("encode_seconds", fmt.Sprintf("%.6f", ans.EncodeSeconds))
		row("solve_seconds", fmt.Sprintf("%.6f", ans.SolveSeconds))
	}
	for _, k := range sortedKeys(ans.Stats) {
		row(k, ans.Stats[k])
	}
}

func sortedKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// judgePublished holds an answer to boardsat's table of published values
// (compare.Published): one that contradicts it is status wrong, whatever
// the backend said, its message naming both values; one that agrees is
// confirmed, so no external solver's claim stays unchecked.
func judgePublished(req puzzle.Request, ans puzzle.Answer) puzzle.Answer {
	want, known := compare.Published(req.Spec, req.Task)
	got := compare.ValueOf(req.Task, ans)
	if !known || got == "" {
		return ans
	}
	if got != want {
		why := fmt.Sprintf("answered %s, and boardsat's table of published values says %s", got, want)
		if ans.Message != "" {
			why += " (" + ans.Message + ")"
		}
		ans.Status, ans.Message = puzzle.Status(answer.Wrong), why
		return ans
	}
	ans.Unchecked = ""
	return ans
}

// settle turns what the search returned into the answer to print: the
// answer so far when a signal interrupted it; memout when the kernel
// killed a process of the tree (the worker, an external solver) at the
// --mem cap or the memory cgroup's limit before the watchdog saw the tree
// pass it; an error answer for a count whose
// checkpoint could not be written (after its work: not a refusal).
func settle(sigctx context.Context, req puzzle.Request, mem string, ans puzzle.Answer, err error) (puzzle.Answer, error) {
	switch why := interruption(sigctx); {
	case why != nil && (err != nil || !answer.Status(ans.Status).Answered()):
		return interruptedAnswer(req, ans, why), nil
	case (err != nil || ans.Status == puzzle.Error) && membudget.OOMKilled():
		what := "the memory cgroup's limit"
		if mem != "" {
			what = "the memory cap of --mem " + mem
		}
		return puzzle.Answer{Status: puzzle.Memout, Message: "the kernel ended a process of the run at " + what}, nil
	case errors.Is(err, subproblem.ErrNotWritten):
		return puzzle.Answer{Status: puzzle.Error, Message: err.Error()}, nil
	}
	return ans, err
}

// printMemout prints the answer of a run the memory watchdog ends, in the
// format asked for (nothing for a shard).
// The backend names what it ran (puzzle.Describer) where it can.
func printMemout(stdout io.Writer, format string, sharded bool, b puzzle.Backend, req puzzle.Request, msg string, secs float64) {
	ans := puzzle.Answer{Status: puzzle.Memout, Message: msg}
	if d, ok := b.(puzzle.Describer); ok {
		ans.Heuristic, ans.Encoding, ans.Solver = d.Describe(req)
	}
	backend := b.Name()
	switch {
	case sharded:
	case format == "json":
		answer.New(backend, req, ans, secs).Write(stdout)
	default:
		printText(stdout, backend, req, ans, secs)
	}
}
