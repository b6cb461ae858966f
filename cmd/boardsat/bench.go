package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/boardsat/boardsat/bench"
	"github.com/boardsat/boardsat/progress"
	"github.com/boardsat/boardsat/subproblem"
)

func init() {
	commands["bench"] = command{"run a benchmark suite (built-in: " + strings.Join(bench.Builtin.Names(), ", ") + "; or a suite file) into a results CSV", runBench}
}

// benchExe is the binary bench starts for each run: this one.
var benchExe = os.Executable

func runBench(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	repeat := fs.Int("repeat", 0, "repetitions of every run (0: as the suite says)")
	timeout := fs.Duration("timeout", 0, "wall-clock limit per run (0: as the suite says)")
	mem := fs.String("mem", "", "memory limit per run, like 512M or 2G (default: as the suite says)")
	out := fs.String("o", "", "results CSV to write (default: CSV on stdout); a FILE.meta.json sidecar describes the machine")
	resume := fs.Bool("resume", false, "keep the rows already in -o FILE and skip their runs")
	dryRun := fs.Bool("dry-run", false, "list the planned runs (instance, variant, task, repetition) and run nothing")
	shardFlag := fs.String("shard", "", "run only shard `K/N` of the suite's runs (join the shards' CSVs with boardsat results merge)")
	quiet := fs.Bool("quiet", false, "print no progress on stderr")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInputf("want exactly one SUITE: a built-in suite (%s) or a suite file", strings.Join(bench.Builtin.Names(), ", "))
	}
	if *repeat < 0 || *timeout < 0 {
		return badInputf("--repeat and --timeout must not be negative")
	}
	var memMB int64
	if *mem != "" {
		if memMB, err = bench.ParseMem(*mem); err != nil {
			return badInput(err)
		}
	}
	var shard subproblem.Shard
	if *shardFlag != "" {
		if shard, err = subproblem.ParseShard(*shardFlag); err != nil {
			return badInput(err)
		}
	}
	suite, err := bench.Load(pos[0])
	if err != nil {
		return badInput(err)
	}
	if *dryRun {
		runs, unsupported := suite.Plan(context.Background(), bench.Overrides{Repeat: *repeat, Timeout: *timeout, MemMB: memMB})
		runs = bench.ShardPlan(suite, runs, shard)
		for _, r := range runs {
			fmt.Fprintf(stdout, "%s\t%s\t%s\trep %d\ttimeout %s\tmem %dM\n", r.Spec, r.Variant, r.Task, r.Rep, r.Timeout, r.MemMB)
		}
		for _, u := range unsupported {
			fmt.Fprintf(stdout, "left out: %s\n", u)
		}
		fmt.Fprintf(stdout, "%d runs planned\n", len(runs))
		return nil
	}
	exe, err := benchExe()
	if err != nil {
		return fmt.Errorf("cannot find the boardsat binary to run: %v", err)
	}
	opt := bench.Options{
		Runner:      bench.Runner{Exe: exe, Args: []string{"solve"}},
		Overrides:   bench.Overrides{Repeat: *repeat, Timeout: *timeout, MemMB: memMB},
		Out:         *out,
		Stdout:      stdout,
		Resume:      *resume,
		CommandLine: os.Args,
		Shard:       shard,
	}
	if !*quiet {
		opt.Progress = &progress.Meter{W: progressOut, Terminal: progressTerminal, Label: "bench " + pos[0], Unit: "runs", Every: progressEvery}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	sum, err := bench.Bench(ctx, suite, opt)
	if err != nil {
		return badInput(err)
	}
	where := *out
	if where == "" {
		where = "stdout"
	}
	msg := fmt.Sprintf("%d runs written to %s in %s (%s)", sum.Done, where, time.Since(start).Round(time.Millisecond), statusSummary(sum.Statuses))
	if n := len(sum.Unsupported); n > 0 {
		msg += fmt.Sprintf("; %d variant/puzzle/task combinations left out as unsupported", n)
	}
	if sum.Skipped > 0 {
		msg += fmt.Sprintf("; %d already there, skipped", sum.Skipped)
	}
	if sum.Interrupted {
		return exitError{130, "interrupted: " + msg + "; finish with --resume"}
	}
	if *out != "" {
		fmt.Fprintf(os.Stderr, "boardsat bench: %s\n", msg)
	}
	return nil
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
