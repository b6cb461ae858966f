package compare

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

// Limits bound the instances a sweep generates.
type Limits struct {
	// MaxSide bounds both sides of generated boards (pieces, tours).
	MaxSide int
	// MaxPieces bounds the number of pieces of a pieces instance.
	MaxPieces int
	// MaxQueens bounds n of queens:n.
	MaxQueens int
}

// Generator makes the small instances of one puzzle for a sweep and the
// one-step-smaller neighbours of an instance for shrinking.
type Generator struct {
	Puzzle string
	// Task is the task swept.
	Task puzzle.Task
	// Generate lists instances within limits, smallest first.
	Generate func(lim Limits) []puzzle.Spec
	// Shrink lists instances one step smaller than spec (a smaller board,
	// one piece fewer), most promising first.
	Shrink func(spec puzzle.Spec) []puzzle.Spec
}

// Generators holds the sweepable puzzles, in documentation order. Swaps are
// not swept: their instances are not a simple ladder of sizes.
var Generators = puzzle.NewRegistry[Generator]("sweep puzzle")

func init() {
	Generators.Add("queens", Generator{Puzzle: "queens", Task: puzzle.Count, Generate: genQueens, Shrink: shrinkQueens})
	Generators.Add("pieces", Generator{Puzzle: "pieces", Task: puzzle.Count, Generate: genPieces, Shrink: shrinkPieces})
	Generators.Add("tour", Generator{Puzzle: "tour", Task: puzzle.Count, Generate: genTours, Shrink: shrinkTour})
}

func genQueens(lim Limits) []puzzle.Spec {
	var out []puzzle.Spec
	for n := 1; n <= lim.MaxQueens; n++ {
		out = append(out, puzzle.Queens{N: n})
	}
	return out
}

func shrinkQueens(s puzzle.Spec) []puzzle.Spec {
	q := s.(puzzle.Queens)
	if q.N <= 1 {
		return nil
	}
	return []puzzle.Spec{puzzle.Queens{N: q.N - 1}}
}

// boards lists every board with sides 1..maxSide, fewest squares first.
func boards(maxSide int) []puzzle.Board {
	var out []puzzle.Board
	for w := 1; w <= maxSide; w++ {
		for h := 1; h <= maxSide; h++ {
			out = append(out, puzzle.Board{W: w, H: h})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Size() < out[j].Size() })
	return out
}

// multisets lists every piece multiset of 1..maxPieces pieces, fewest first.
func multisets(maxPieces int) [][puzzle.NumKinds]int {
	var out [][puzzle.NumKinds]int
	var rec func(k, left int, cur [puzzle.NumKinds]int)
	rec = func(k, left int, cur [puzzle.NumKinds]int) {
		if k == puzzle.NumKinds {
			out = append(out, cur)
			return
		}
		for n := 0; n <= left; n++ {
			cur[k] = n
			rec(k+1, left-n, cur)
		}
	}
	rec(0, maxPieces, [puzzle.NumKinds]int{})
	total := func(c [puzzle.NumKinds]int) int {
		t := 0
		for _, n := range c {
			t += n
		}
		return t
	}
	out = slices.DeleteFunc(out, func(c [puzzle.NumKinds]int) bool { return total(c) == 0 })
	sort.SliceStable(out, func(i, j int) bool { return total(out[i]) < total(out[j]) })
	return out
}

func genPieces(lim Limits) []puzzle.Spec {
	var out []puzzle.Spec
	for _, b := range boards(lim.MaxSide) {
		for _, c := range multisets(lim.MaxPieces) {
			p := puzzle.Pieces{Board: b, Count: c}
			if p.Total() <= b.Size() {
				out = append(out, p)
			}
		}
	}
	return out
}

func shrinkPieces(s puzzle.Spec) []puzzle.Spec {
	p := s.(puzzle.Pieces)
	var out []puzzle.Spec
	for _, b := range []puzzle.Board{{W: p.Board.W - 1, H: p.Board.H}, {W: p.Board.W, H: p.Board.H - 1}} {
		if b.W >= 1 && b.H >= 1 && p.Total() <= b.Size() {
			out = append(out, puzzle.Pieces{Board: b, Count: p.Count})
		}
	}
	if p.Total() > 1 {
		for k := range p.Count {
			if p.Count[k] > 0 {
				q := p
				q.Count[k]--
				out = append(out, q)
			}
		}
	}
	return out
}

func genTours(lim Limits) []puzzle.Spec {
	var out []puzzle.Spec
	for _, b := range boards(lim.MaxSide) {
		out = append(out, puzzle.Tour{Board: b, Start: 0})
	}
	return out
}

func shrinkTour(s puzzle.Spec) []puzzle.Spec {
	t := s.(puzzle.Tour)
	var out []puzzle.Spec
	f, r := t.Board.FileRank(t.Start)
	for _, b := range []puzzle.Board{{W: t.Board.W - 1, H: t.Board.H}, {W: t.Board.W, H: t.Board.H - 1}} {
		if b.W < 1 || b.H < 1 {
			continue
		}
		n := t
		n.Board = b
		if b.On(f, r) {
			n.Start = b.Sq(f, r)
		} else {
			n.Start = 0
		}
		out = append(out, n)
	}
	return out
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
