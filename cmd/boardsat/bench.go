package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/boardsat/boardsat/harness/suites"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/harness/bench"
	"github.com/boardsat/boardsat/internal/progress"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	commands["bench"] = command{"run a benchmark suite (built-in: " + strings.Join(suites.Builtin.Names(), ", ") + "; or a suite file) into a results CSV", runBench}
	about := `Runs every run of SUITE, a built-in suite or a suite file (one group per line:
SPEC... [backends=LIST] [task=T] [repeat=N] [timeout=D] [cpu-limit=D] [mem=M]
[ladder=true] [certify=true]; a group that sets no limit runs with timeout=` + suites.DefaultTimeout.String() + `,
mem=` + strconv.Itoa(suites.DefaultMemMB) + `M and no CPU-time limit; the flags below replace a group's values),
each in a child process with its wall-clock, CPU-time and memory
limits enforced on its whole process tree (measured through a cgroup of its own
where the machine allows, else through rusage), and writes one CSV row
per run (to -o FILE.csv, with a FILE.csv.meta.json sidecar, or to stdout).
benchstat needs at least ` + strconv.Itoa(benchstatMinRuns) + ` runs of a group for a 95% confidence interval
(and at least 4 a side to call a difference significant): use --repeat 6 or more
before "boardsat results benchfmt".

built-in suites:`
	for _, name := range suites.Builtin.Names() {
		text, _ := suites.Builtin.Lookup(name)
		about += "\n  " + name + ": " + suiteDescription(text)
	}
	helps["bench"] = help{
		usage: []string{"bench SUITE [-o FILE.csv] [--repeat N] [--timeout D] [--cpu-limit D] [--mem M] [--certify] [--jobs N] [--cpus LIST] [--shard K/N] [--resume|--force] [--dry-run] [--quiet] [--solvers PATH]"},
		about: about,
		examples: []string{
			"bench quick -o r.csv",
			"bench quick --dry-run",
			"bench paper -o paper.csv --repeat 6 --resume",
			"bench my.suite -o r.csv --timeout 30s --mem 2G",
			"bench my.suite -o r.csv --cpu-limit 20s --timeout 1m",
			"bench my.suite -o r.csv --jobs 2 --cpus 0-1",
		},
	}
}

// benchExe is the binary bench starts for each run: this one.
var benchExe = os.Executable

func runBench(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	repeat := fs.Int("repeat", 0, "repetitions of every run (0: as the suite says)")
	certifyAll := fs.Bool("certify", false, "run every run certified (solve --certify; rows gain certified, proof_bytes, check_seconds; variants end in /certify)")
	timeout := fs.Duration("timeout", 0, "wall-clock limit per run (0: as the suite says)")
	cpuLimit := fs.Duration("cpu-limit", 0, "CPU-time limit per run, user + sys of the run's whole process tree (0: as the suite says)")
	jobs := fs.Int("jobs", 1, "runs at once, each pinned to its own share of the cores (--cpus, default all)")
	cpus := fs.String("cpus", "", "cores to run on, like 0-3,6: cut into --jobs equal shares, one per concurrent run")
	mem := fs.String("mem", "", "memory limit per run, like 512M or 2G (default: as the suite says)")
	out := fs.String("o", "", "results CSV to write (default: CSV on stdout); a FILE.meta.json sidecar describes the machine")
	resume := fs.Bool("resume", false, "keep the rows already in -o FILE and skip their runs")
	force := fs.Bool("force", false, "replace an existing -o FILE (and its sidecar); without it or --resume an existing FILE is refused")
	dryRun := fs.Bool("dry-run", false, "list the planned runs (instance, variant, task, repetition) and run nothing")
	shardFlag := fs.String("shard", "", "run only shard `K/N` of the suite's runs (join the shards' CSVs with boardsat results merge)")
	quiet := fs.Bool("quiet", false, "print no progress on stderr")
	registerSolvers(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInputf("want exactly one SUITE: a built-in suite (%s) or a suite file", strings.Join(suites.Builtin.Names(), ", "))
	}
	if *repeat < 0 { // durations are checked by parseFlags
		return badInputf("--repeat must not be negative")
	}
	var cpuList []int
	if *cpus != "" {
		if cpuList, err = bench.ParseCPUs(*cpus); err != nil {
			return badInput(err)
		}
	}
	if _, err := bench.Slots(*jobs, cpuList); err != nil {
		return badInput(err)
	}
	var memMB int64
	if *mem != "" {
		if memMB, err = suites.ParseMem(*mem); err != nil {
			return badInput(err)
		}
	}
	var shard puzzle.Shard
	if *shardFlag != "" {
		if shard, err = puzzle.ParseShard(*shardFlag); err != nil {
			return badInput(err)
		}
	}
	suite, err := suites.Load(pos[0])
	if err != nil {
		return badInput(err)
	}
	if *dryRun {
		benchDryRun(stdout, pos[0], *quiet, suite, bench.Overrides{Repeat: *repeat, Timeout: *timeout, CPULimit: *cpuLimit, MemMB: memMB, Certify: *certifyAll}, shard)
		return nil
	}
	exe, err := benchExe()
	if err != nil {
		return fmt.Errorf("cannot find the boardsat binary to run: %v", err)
	}
	opt := bench.Options{
		Runner:      bench.Runner{Exe: exe, Args: []string{"solve"}},
		Overrides:   bench.Overrides{Repeat: *repeat, Timeout: *timeout, CPULimit: *cpuLimit, MemMB: memMB, Certify: *certifyAll},
		Jobs:        *jobs,
		CPUs:        cpuList,
		Out:         *out,
		Stdout:      stdout,
		Resume:      *resume,
		Force:       *force,
		CommandLine: os.Args,
		Shard:       shard,
	}
	if !*quiet {
		opt.Progress = &progress.Meter{W: progressOut, Terminal: progressTerminal, Label: "bench " + pos[0], Unit: "runs", Every: progressEvery}
		// A report at least every 5 s, also while one run takes minutes.
		opt.Progress.Start()
		defer opt.Progress.Finish()
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	start := time.Now()
	sum, err := bench.Bench(ctx, suite, opt)
	if err != nil {
		return badInput(err)
	}
	msg := benchSummary(sum, *out, time.Since(start))
	if sum.Interrupted {
		return exitError{130, "interrupted: " + msg + "; " + resumeHint(*out)}
	}
	if *out != "" {
		fmt.Fprintf(os.Stderr, "boardsat bench: %s\n", msg)
	}
	if note := repeatNote(suite, *repeat); note != "" {
		fmt.Fprintf(stderrOut, "boardsat bench: %s\n", note)
	}
	return nil
}

// benchDryRun lists the runs bench would make of suite (named name) and
// the combinations it leaves out, with a meter unless quiet.
func benchDryRun(stdout io.Writer, name string, quiet bool, suite suites.Suite, ov bench.Overrides, shard puzzle.Shard) {
	var meter *progress.Meter
	if !quiet {
		meter = &progress.Meter{W: progressOut, Terminal: progressTerminal, Label: "bench " + name + " --dry-run", Unit: "runs", Every: progressEvery}
		meter.Start()
	}
	runs, unsupported := bench.Plan(progress.WithNote(context.Background(), meter), suite, ov)
	meter.Finish()
	runs = bench.ShardPlan(suite, runs, shard)
	for _, r := range runs {
		cpu := "none"
		if r.CPULimit > 0 {
			cpu = r.CPULimit.String()
		}
		fmt.Fprintf(stdout, "%s\t%s\t%s\trep %d\ttimeout %s\tcpu-limit %s\tmem %dM\n", r.Spec, r.Variant, r.Task, r.Rep, r.Timeout, cpu, r.MemMB)
	}
	for _, u := range unsupported {
		fmt.Fprintf(stdout, "left out: %s\n", u)
	}
	fmt.Fprintf(stdout, "%d runs planned\n", len(runs))
}

// benchSummary is bench's closing line: the runs written to out ("":
// stdout) in elapsed, by status, and what was refused, left out or skipped.
func benchSummary(sum bench.Summary, out string, elapsed time.Duration) string {
	where := out
	if where == "" {
		where = "stdout"
	}
	msg := fmt.Sprintf("%d runs written to %s in %s (%s)", sum.Done, where, elapsed.Round(time.Millisecond), statusSummary(sum.Statuses))
	if sum.Refused > 0 {
		msg += fmt.Sprintf("; %d of the errors are refusals (the instance is beyond that backend's limits; the message column says which)", sum.Refused)
	}
	if n := len(sum.Unsupported); n > 0 {
		msg += fmt.Sprintf("; %d variant/puzzle/task combinations left out as unsupported", n)
	}
	if sum.Skipped > 0 {
		msg += fmt.Sprintf("; %d already there, skipped", sum.Skipped)
	}
	return msg
}

// resumeHint says how to finish an interrupted bench: --resume, which
// reads the rows already in the -o FILE; rows written to stdout (out "")
// leave nothing to resume from.
func resumeHint(out string) string {
	if out == "" {
		return "the rows went to stdout, so nothing can be resumed: run the suite again, with -o FILE to be able to finish an interrupted bench with --resume"
	}
	return "finish with --resume"
}

// repeatNote says, when some group of the suite runs fewer times than
// benchstat needs for a finite confidence interval, how many it needs.
func repeatNote(s suites.Suite, repeat int) string {
	least := 0
	for _, g := range s.Groups {
		r := g.Repeat
		if repeat > 0 {
			r = repeat
		}
		if least == 0 || r < least {
			least = r
		}
	}
	if least == 0 || least >= benchstatMinRuns {
		return ""
	}
	return fmt.Sprintf("some groups ran %d time(s): benchstat needs at least %d runs of a group for a 95%% confidence interval (and 4 a side to call a difference significant); rerun with --repeat %d for results benchfmt",
		least, benchstatMinRuns, benchstatMinRuns)
}

func statusSummary(m map[string]int) string {
	var parts []string
	for _, s := range []string{"ok", "unsat", "timeout", "memout", "error", "wrong"} {
		if m[s] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", s, m[s]))
		}
	}
	if len(parts) == 0 {
		return "nothing run"
	}
	return strings.Join(parts, ", ")
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// benchstatMinRuns is how many runs of one group benchstat needs before it
// prints a finite 95% confidence interval ("need >= 6 samples for
// confidence interval at level 0.95"); fewer show as "± ∞".
const benchstatMinRuns = 6

// suiteDescription returns a suite text's leading comment as one line,
// without its "NAME:" prefix.
func suiteDescription(text string) string {
	var words []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "#") {
			break
		}
		words = append(words, strings.Fields(strings.TrimPrefix(line, "#"))...)
	}
	d := strings.Join(words, " ")
	if i := strings.Index(d, ": "); i >= 0 && !strings.Contains(d[:i], " ") {
		d = d[i+2:]
	}
	return d
}
