package compare

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

// Limits bound the instances a sweep generates (puzzle.Limits; each
// puzzle's descriptor says which it reads).
type Limits = puzzle.Limits

// Generator is one puzzle's sweep: its name and its descriptor's Sweep.
type Generator struct {
	Puzzle string
	puzzle.Sweep
}

// Generators holds the sweepable puzzles, in documentation order: every
// registered puzzle whose descriptor has a Sweep.
var Generators = puzzle.NewRegistry[Generator]("sweep puzzle")

func init() {
	for _, name := range puzzle.Puzzles {
		if d, _ := puzzle.Lookup(name); d.Sweep != nil {
			Generators.Add(name, Generator{Puzzle: name, Sweep: *d.Sweep})
		}
	}
}

// Shrink starts from a spec on which the variants disagree and moves to a
// one-step-smaller instance that still shows a disagreement, as long as one
// exists; it returns the smallest such spec reached and its report (greedy
// shrinking: the result is minimal in the sense that no single step from it
// still disagrees).
func Shrink(ctx context.Context, g Generator, start Report, variants []Variant, opt Options) Report {
	cur := start
	for ctx.Err() == nil {
		moved := false
		for _, c := range g.Shrink(cur.Spec) {
			// Specs must stay valid: round-trip through the parser.
			if _, err := puzzle.Parse(c.String()); err != nil {
				continue
			}
			r := Run(ctx, c, cur.Task, variants, opt)
			if !r.OK() {
				cur, moved = r, true
				break
			}
		}
		if !moved {
			break
		}
	}
	return cur
}

// SweepResult is what a sweep found.
type SweepResult struct {
	// Instances and Runs count what was tried; Unanswered counts the runs
	// that ended without an answer (timeout or error), Skipped the requests
	// refused.
	Instances, Runs, Unanswered, Skipped int
	// Failures lists every instance with a disagreement, in sweep order.
	Failures []Report
	// Minimal is the first failure shrunk (nil if there was none).
	Minimal *Report
}

// Sweep runs the variants (expanded per puzzle from patterns) on every
// instance the named puzzles' generators make within lim, then shrinks the
// first disagreement. Progress lines for each disagreement go to log.
func Sweep(ctx context.Context, puzzles []string, lim Limits, patterns []Pattern, opt Options, log io.Writer) (SweepResult, error) {
	var res SweepResult
	var first *Generator
	var firstVariants []Variant
	for _, name := range puzzles {
		g, err := Generators.Lookup(name)
		if err != nil {
			return res, err
		}
		variants := Expand(patterns, g.Puzzle)
		if len(variants) == 0 {
			fmt.Fprintf(log, "sweep %s: no variant applies, skipped\n", name)
			continue
		}
		for _, spec := range g.Generate(lim) {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			r := Run(ctx, spec, g.Task, variants, opt)
			res.Instances++
			res.Runs += len(r.Outcomes)
			for _, o := range r.Outcomes {
				switch {
				case o.Skipped != nil:
					res.Skipped++
				case o.Value == "":
					res.Unanswered++
				}
			}
			if !r.OK() {
				res.Failures = append(res.Failures, r)
				fmt.Fprintf(log, "disagreement on %s: %s\n", spec, describe(r))
				if first == nil {
					gg := g
					first, firstVariants = &gg, variants
				}
			}
		}
	}
	if first != nil {
		m := Shrink(ctx, *first, res.Failures[0], firstVariants, opt)
		res.Minimal = &m
	}
	return res, nil
}

// describe summarises a failed report in one line: each disagreeing
// variant's value against the reference.
func describe(r Report) string {
	var parts []string
	for _, o := range r.Outcomes {
		if !o.Disagrees {
			continue
		}
		p := o.Variant.String() + " says " + o.Value
		if o.CheckErr != nil {
			p = o.Variant.String() + ": " + oneLine(o.CheckErr.Error())
		}
		if o.Known != "" {
			p += " (known wrong)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ") + fmt.Sprintf(" (reference %s, %s)", r.Reference, r.RefSource)
}
