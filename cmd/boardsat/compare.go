package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/boardsat/boardsat/harness/compare"
	"github.com/boardsat/boardsat/internal/progress"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	commands["compare"] = command{"cross-validate backends on instances (exit 1 on any disagreement)", runCompare}
	helps["compare"] = help{
		usage: []string{"compare SPEC... [--backends LIST] [--task T] [flags]", "compare --sweep [--puzzles LIST] [--max-side N] [--max-pieces N] [flags]"},
		about: `Runs every variant (default: every reliable one) on each instance SPEC, with
the published value and the independent checker, and exits 1 naming the
variants that disagree. --sweep generates small instances instead and shrinks
the first disagreement to the smallest spec that still disagrees.`,
		specs: true,
		examples: []string{
			"compare queens:8 pieces:4x4:R2N4 tour:5x5:a1 swap:4x3",
			"compare queens:10 --backends native/*,sat/pairwise/gophersat",
			"compare --sweep --puzzles pieces --max-side 4 --max-pieces 3",
		},
	}
}

// compareUsage documents the variant syntax for compare -h and errors.
const compareUsage = `variants: BACKEND[/VALUE...], one value per field the backend takes, in the order
heuristic, encoding, solver: native/HEURISTIC, sat/ENCODING/SOLVER (ENCODING may be MODEL+CARD),
gophersat-count/ENCODING; a value * is every choice; "all" (the default) is every reliable
backend with each heuristic and each encoding on the default solver. Backends known to be
wrong (gophersat-count) take part only when named, and their disagreement counts.`

func runCompare(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	backends := fs.String("backends", "all", "comma-separated variants or patterns; "+compareUsage)
	task := fs.String("task", "", "task: "+taskNames()+" (default: the puzzle's default task)")
	timeout := fs.Duration("timeout", time.Minute, "time limit per variant run (0: none)")
	threads := fs.Int("threads", 0, "goroutines per run; 0 means one per core")
	sweep := fs.Bool("sweep", false, "generate small instances and compare on each; shrink the first disagreement")
	puzzles := fs.String("puzzles", "queens,pieces", "with --sweep: puzzles to sweep ("+strings.Join(compare.Generators.Names(), ", ")+")")
	maxSide := fs.Int("max-side", 4, "with --sweep: largest board side (pieces, tours)")
	maxPieces := fs.Int("max-pieces", 3, "with --sweep: most pieces on a board")
	maxQueens := fs.Int("max-queens", 8, "with --sweep: largest n for queens:n")
	quiet := fs.Bool("quiet", false, "print no progress on stderr (on a terminal a bar naming the variant under way; elsewhere a line at least every 5 s while a run lasts longer)")
	registerSolvers(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	patterns, err := compare.ParseList(*backends)
	if err != nil {
		return badInput(err)
	}
	opt := compare.Options{Timeout: *timeout, Threads: *threads}
	if *threads < 0 {
		return badInputf("--threads must not be negative")
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	if *sweep {
		if len(pos) > 0 {
			return badInputf("--sweep generates its own instances: give no SPEC")
		}
		if *maxSide < 1 || *maxPieces < 1 || *maxQueens < 1 {
			return badInputf("--max-side, --max-pieces and --max-queens must be at least 1")
		}
		var names []string
		for _, p := range strings.Split(*puzzles, ",") {
			if _, err := compare.Generators.Lookup(p); err != nil {
				return badInput(err)
			}
			names = append(names, p)
		}
		return compareSweep(ctx, names, compare.Limits{MaxSide: *maxSide, MaxPieces: *maxPieces, MaxQueens: *maxQueens}, patterns, opt, stdout)
	}
	if len(pos) == 0 {
		return badInputf("want at least one SPEC (or --sweep), like boardsat compare queens:8")
	}
	var label string // the instance under comparison, for the meter
	if !*quiet {
		defer compareMeter(&opt, &label)()
	}
	var specs []puzzle.Spec
	for _, s := range pos {
		spec, err := puzzle.Parse(s)
		if err != nil {
			return badInput(err)
		}
		specs = append(specs, spec)
	}
	var bad []string
	for i, spec := range specs {
		t := puzzle.DefaultTask(spec)
		if *task != "" {
			if t, err = puzzle.ParseTask(*task); err != nil {
				return badInput(err)
			}
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		variants := compare.Expand(patterns, spec.Puzzle())
		if len(variants) == 0 {
			fmt.Fprintf(stdout, "%s  task %s\n  no variant of %q applies to %s: skipped\n", spec, t, *backends, spec.Puzzle())
			continue
		}
		label = spec.String()
		r := compare.Run(ctx, spec, t, variants, opt)
		r.Print(stdout)
		if d := r.Disagreeing(); len(d) > 0 {
			bad = append(bad, fmt.Sprintf("%s (%s)", spec, strings.Join(d, ", ")))
		}
		if ctx.Err() != nil {
			return exitError{130, "interrupted"}
		}
	}
	if len(bad) > 0 {
		return exitError{1, "disagreement on " + strings.Join(bad, "; ")}
	}
	return nil
}

// compareMeter sets opt.Started to show progress, label naming the
// instance under comparison, and returns the function that ends it. On a
// terminal a bar names the variant under way; in a log a run that takes
// long is reported at least every 5 s, naming its variant (progress
// package), and quick runs print nothing: no line per variant.
func compareMeter(opt *compare.Options, label *string) (finish func()) {
	var meter *progress.Meter
	opt.Started = func(ctx context.Context, i, n int, v compare.Variant) context.Context {
		if meter == nil || i == 1 {
			meter.Finish()
			meter = &progress.Meter{W: progressOut, Terminal: progressTerminal, Label: "compare " + *label, Unit: "variants", Every: progressEvery}
			meter.Start()
		}
		meter.Update(i-1, n, v.String())
		return progress.WithNote(ctx, meter)
	}
	return func() { meter.Finish() }
}

func compareSweep(ctx context.Context, names []string, lim compare.Limits, patterns []compare.Pattern, opt compare.Options, stdout io.Writer) error {
	res, err := compare.Sweep(ctx, names, lim, patterns, opt, stdout)
	if err != nil {
		if ctx.Err() != nil {
			return exitError{130, "interrupted"}
		}
		return badInput(err)
	}
	fmt.Fprintf(stdout, "sweep: %d instances, %d runs, %d with a disagreement (%d runs without an answer: timeout or error; %d refused)\n",
		res.Instances, res.Runs, len(res.Failures), res.Unanswered, res.Skipped)
	if res.Minimal == nil {
		return nil
	}
	fmt.Fprintf(stdout, "\nsmallest disagreeing instance (shrunk from %s):\n", res.Failures[0].Spec)
	res.Minimal.Print(stdout)
	fmt.Fprintf(stdout, "minimal: %s\n", res.Minimal.Spec)
	return exitError{1, fmt.Sprintf("disagreement; minimal instance %s (%s)", res.Minimal.Spec, strings.Join(res.Minimal.Disagreeing(), ", "))}
}
