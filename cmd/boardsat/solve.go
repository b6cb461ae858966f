package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	commands["solve"] = command{"solve one instance (count, first, all, shortest, unique, optimum, value)", runSolve}
	helps["solve"] = help{
		usage: []string{"solve SPEC [flags]"},
		about: `Solves one instance, named by its SPEC (the forms below; see the README),
with the native search (default) or a SAT encoding, and prints the answer as
text or one JSON object. Exit status 2 on bad input, a timeout or an error.`,
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
}

func (f *solveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.backend, "backend", "native", "backend: "+strings.Join(puzzle.Backends.Names(), ", "))
	fs.StringVar(&f.task, "task", "", "task: "+taskNames()+" (default: the puzzle's own: count; first for tours; shortest for swaps)")
	fs.StringVar(&f.heuristic, "heuristic", "", "native strategy (see boardsat list)")
	fs.StringVar(&f.encoding, "encoding", "", "SAT encoding (see boardsat list)")
	fs.StringVar(&f.solver, "solver", "", "SAT solver (see boardsat list)")
	fs.StringVar(&f.format, "format", "text", "output: text or json")
	fs.IntVar(&f.threads, "threads", 0, "goroutines to use; 0 means one per core")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up after this long (status timeout); 0 means never")
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
	return b, puzzle.Request{Spec: spec, Task: task, Heuristic: f.heuristic, Encoding: f.encoding,
		Solver: f.solver, Threads: f.threads}, nil
}

func runSolve(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	var f solveFlags
	f.register(fs)
	var sf splitFlags
	sf.register(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInputf("want exactly one SPEC, like boardsat solve queens:8")
	}
	spec, err := puzzle.Parse(pos[0])
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
	if err := sf.limitMemory(); err != nil {
		return err
	}
	meter := sf.meter(spec.String(), "subproblems")
	req.Split.Progress = func(done, total int) { meter.Phase("subproblems"); meter.Update(done, total, "") }
	req.Split.Stage = func(done, total int, note string) {
		unit, rest, _ := strings.Cut(note, ": ")
		meter.Phase(unit)
		meter.Update(done, total, rest)
	}
	ctx := context.Background()
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	emitted := 0
	if req.Task == puzzle.All {
		req.Emit = func(s puzzle.Solution) error {
			emitted++
			if f.format == "json" {
				return json.NewEncoder(stdout).Encode(map[string]any{"instance": spec.String(), "index": emitted, "solution": s})
			}
			_, err := fmt.Fprintf(stdout, "%s\n", s.Text())
			return err
		}
	}
	start := time.Now()
	ans, err := backend.Solve(ctx, req)
	secs := time.Since(start).Seconds()
	meter.Finish()
	if err != nil {
		return badInput(err)
	}
	if err := sf.check(req, ans); err != nil {
		return err
	}
	if sf.sharded() {
		return writeShard(stdout, backend.Name(), req, ans, secs)
	}
	if f.format == "json" {
		return json.NewEncoder(stdout).Encode(answerJSON(backend.Name(), req, ans, secs))
	}
	printText(stdout, backend.Name(), req, ans, secs)
	if r := req.Split.Ran; r != nil && sf.checkpoint != "" {
		fmt.Fprintf(stdout, "%-14s %d (%d from checkpoint %s)\n", "subproblems:", r.InShard, r.Resumed, sf.checkpoint)
	}
	if ans.Status == puzzle.Error || ans.Status == puzzle.Timeout {
		return exitError{2, fmt.Sprintf("%s: %s", ans.Status, ans.Message)}
	}
	return nil
}

// jsonAnswer is the JSON form of an answer: the users' contract (DESIGN.md).
// Every key the README lists is always present, null when it does not
// apply (no heuristic for a SAT run, no count for a first solution, ...),
// so a reader never has to tell a missing key from an empty one.
type jsonAnswer struct {
	Instance      string           `json:"instance"`
	Puzzle        string           `json:"puzzle"`
	Backend       string           `json:"backend"`
	Heuristic     *string          `json:"heuristic"`
	Encoding      *string          `json:"encoding"`
	Solver        *string          `json:"solver"`
	Task          string           `json:"task"`
	Status        string           `json:"status"`
	Count         *json.Number     `json:"count"`
	Solution      *puzzle.Solution `json:"solution"`
	Length        *int             `json:"length"`
	Objective     *json.Number     `json:"objective"`
	Bound         *json.Number     `json:"bound"`
	Value         *string          `json:"value"`
	Seconds       float64          `json:"seconds"`
	EncodeSeconds *float64         `json:"encode_seconds"`
	SolveSeconds  *float64         `json:"solve_seconds"`
	Stats         map[string]int64 `json:"stats"`
	// Method, Fallbacks and Theorem say what actually ran (puzzle.Answer).
	Method    *string  `json:"method"`
	Fallbacks []string `json:"fallbacks"`
	Theorem   *string  `json:"theorem"`
	Message   *string  `json:"message"`
}

// bigNumber returns nil for nil, else x as a JSON number with every digit.
func bigNumber(x *big.Int) *json.Number {
	if x == nil {
		return nil
	}
	n := json.Number(x.String())
	return &n
}

// orNull returns nil for the empty string, else a pointer to s.
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// hasCount reports whether an answer to req carries a meaningful count.
func hasCount(req puzzle.Request, ans puzzle.Answer) bool {
	if ans.Status != puzzle.OK && ans.Status != puzzle.Unsat {
		return false
	}
	switch req.Task {
	case puzzle.Count, puzzle.Unique, puzzle.All:
		return true
	}
	return false
}

func hasLength(req puzzle.Request, ans puzzle.Answer) bool {
	return ans.Status == puzzle.OK && puzzle.HasLength(req.Spec, req.Task)
}

func answerJSON(backend string, req puzzle.Request, ans puzzle.Answer, secs float64) jsonAnswer {
	j := jsonAnswer{
		Instance: req.Spec.String(), Puzzle: req.Spec.Puzzle(), Backend: backend,
		Heuristic: orNull(ans.Heuristic), Encoding: orNull(ans.Encoding), Solver: orNull(ans.Solver),
		Task: string(req.Task), Status: string(ans.Status), Solution: ans.Solution,
		Seconds: secs, Stats: ans.Stats, Message: orNull(ans.Message),
		Method: orNull(ans.Method), Fallbacks: ans.Fallbacks, Theorem: orNull(ans.Theorem),
	}
	if len(j.Stats) == 0 {
		j.Stats = nil
	}
	if ans.EncodeSeconds > 0 || ans.SolveSeconds > 0 {
		j.EncodeSeconds, j.SolveSeconds = &ans.EncodeSeconds, &ans.SolveSeconds
	}
	if hasCount(req, ans) {
		// Every digit, also beyond 2^64 (a JSON number has no size limit).
		n := json.Number(ans.CountString())
		j.Count = &n
	}
	if hasLength(req, ans) {
		j.Length = &ans.Length
	}
	j.Objective, j.Bound = bigNumber(ans.Objective), bigNumber(ans.Bound)
	j.Value = orNull(ans.GameValue)
	return j
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
	if hasCount(req, ans) {
		row("count", ans.CountString())
	}
	if hasLength(req, ans) {
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
