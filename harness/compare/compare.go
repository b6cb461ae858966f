// Package compare cross-validates boardsat's backends: it runs several
// backend variants on one instance and demands that their answers agree with
// each other, with the published value when one is known, and that every
// solution they return passes the independent checker (puzzle.Check). Its
// sweep generates small instances for differential testing and shrinks any
// disagreement to the smallest instance that still shows it.
//
// Backends, heuristics, encodings and solvers come from the registries
// (puzzle.Backends and each backend's Choices), so new ones take part
// without any change here.
package compare

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/boardsat/boardsat/puzzle"
)

// Outcome is one variant's run on an instance.
type Outcome struct {
	Variant Variant
	// Skipped is set when the backend refused the request (it does not do
	// this puzzle or task): not a failure.
	Skipped error
	Answer  puzzle.Answer
	Seconds float64
	// Value is the answer in comparable form: a count, a plan length, "sat"
	// or "unsat" for a first solution; "" when the run gave none (timeout,
	// error, skipped).
	Value string
	// CheckErr is the checker's objection to a returned solution, or to an
	// answer inconsistent with itself (a plan whose length is not the
	// reported one, an All count that is not the number of solutions
	// emitted).
	CheckErr error
	// Disagrees is set when the judge finds the answer wrong: Value differs
	// from the reference, CheckErr is set, or the status is error.
	Disagrees bool
	// Reason explains Disagrees in one line.
	Reason string
	// Known is the reason the backend is known to be wrong, if it is.
	Known string
}

// Report is the result of comparing variants on one instance and task.
type Report struct {
	Spec puzzle.Spec
	Task puzzle.Task
	// Reference is the value every answer must equal; RefSource says where
	// it comes from: "published", "check" (the brute-force backend, through
	// the checker alone) or "majority" (the most common answer of the
	// reliable variants; ties go to the earliest). Empty if none answered.
	// See judge.go for the whole policy.
	Reference, RefSource string
	// RefTheorem names the theorem a published reference rests on, or "".
	RefTheorem string
	// Confirmations counts the independent sources agreeing with the
	// reference (Judgement.Confirmations).
	Confirmations int
	Outcomes      []Outcome
}

// Disagreeing returns the variants whose answers disagree.
func (r Report) Disagreeing() []string {
	var out []string
	for _, o := range r.Outcomes {
		if o.Disagrees {
			out = append(out, o.Variant.String())
		}
	}
	return out
}

// OK reports whether every answer agrees.
func (r Report) OK() bool { return len(r.Disagreeing()) == 0 }

// Options tune a comparison.
type Options struct {
	// Timeout bounds each variant's run; 0 means none.
	Timeout time.Duration
	// Threads is passed to every request (0: one per core).
	Threads int
	// Started, if set, hears of each variant as its run starts: the
	// variant, its place i (from 1) of n, and the context of the run,
	// which a meter may ride (progress.WithNote). It returns the context
	// to run with.
	Started func(ctx context.Context, i, n int, v Variant) context.Context
}

// Published returns the published answer for spec and task in comparable
// form, if one is known.
func Published(spec puzzle.Spec, task puzzle.Task) (string, bool) {
	switch task {
	case puzzle.Count, puzzle.All:
		n, ok := puzzle.KnownCount(spec, puzzle.Count)
		return strconv.FormatUint(n, 10), ok
	case puzzle.Unique:
		n, ok := puzzle.KnownCount(spec, puzzle.Unique)
		return strconv.FormatUint(n, 10), ok
	case puzzle.First:
		if n, ok := puzzle.KnownCount(spec, puzzle.Count); ok {
			if n == 0 {
				return "unsat", true
			}
			return "sat", true
		}
		if _, ok := puzzle.KnownShortest(spec); ok {
			return "sat", true
		}
	case puzzle.Shortest:
		if n, ok := puzzle.KnownShortest(spec); ok {
			return strconv.Itoa(n), true
		}
	case puzzle.Value:
		return puzzle.KnownGameValue(spec)
	case puzzle.Optimum:
		if n, ok := puzzle.KnownOptimum(spec); ok {
			return strconv.Itoa(n), true
		}
	}
	return "", false
}

// ValueOf returns an answer's comparable value for a task ("" if none).
func ValueOf(task puzzle.Task, ans puzzle.Answer) string {
	if ans.Status != puzzle.OK && ans.Status != puzzle.Unsat {
		return ""
	}
	unsat := ans.Status == puzzle.Unsat
	switch task {
	case puzzle.Count, puzzle.All, puzzle.Unique:
		if unsat {
			return "0"
		}
		return ans.CountString()
	case puzzle.First:
		if unsat {
			return "unsat"
		}
		return "sat"
	case puzzle.Shortest:
		if unsat {
			return "none"
		}
		return strconv.Itoa(ans.Length)
	case puzzle.Optimum:
		if unsat {
			return "infeasible"
		}
		if ans.Objective == nil {
			return ""
		}
		return ans.Objective.String()
	case puzzle.Value:
		return ans.GameValue
	}
	return ""
}

// RunOne runs one variant on spec and task, checking every solution it
// returns or emits.
func RunOne(ctx context.Context, v Variant, spec puzzle.Spec, task puzzle.Task, opt Options) Outcome {
	o := Outcome{Variant: v, Known: UnreliableReason(v.Backend)}
	b, err := puzzle.Backends.Lookup(v.Backend)
	if err != nil {
		o.Skipped = err
		return o
	}
	req := v.Request(spec, task)
	req.Threads = opt.Threads
	var emitted uint64
	var emitErr error
	if task == puzzle.All {
		req.Emit = func(s puzzle.Solution) error {
			emitted++
			if emitErr == nil {
				if err := puzzle.Check(spec, s); err != nil {
					emitErr = fmt.Errorf("checker rejects emitted solution %d: %v", emitted, err)
				}
			}
			return nil
		}
	}
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	start := time.Now()
	ans, err := b.Solve(ctx, req)
	o.Seconds = time.Since(start).Seconds()
	if err != nil {
		o.Skipped = err
		return o
	}
	o.Answer = ans
	o.Value = ValueOf(task, ans)
	if o.Value == "" {
		return o
	}
	if ans.Solution != nil {
		if err := puzzle.Check(spec, *ans.Solution); err != nil {
			o.CheckErr = fmt.Errorf("checker rejects the solution: %v", err)
		} else if task == puzzle.Shortest && len(ans.Solution.Plan) != ans.Length {
			o.CheckErr = fmt.Errorf("plan has %d moves but length says %d", len(ans.Solution.Plan), ans.Length)
		}
	} else if ans.Status == puzzle.OK && (task == puzzle.First || task == puzzle.Shortest) {
		o.CheckErr = errors.New("answered ok without a solution")
	}
	if task == puzzle.All && o.CheckErr == nil {
		if emitErr != nil {
			o.CheckErr = emitErr
		} else if emitted != ans.Count {
			o.CheckErr = fmt.Errorf("emitted %d solutions but counted %d", emitted, ans.Count)
		}
	}
	return o
}

// Run runs every variant on spec and task, one after another, and judges
// the answers.
func Run(ctx context.Context, spec puzzle.Spec, task puzzle.Task, variants []Variant, opt Options) Report {
	r := Report{Spec: spec, Task: task}
	for i, v := range variants {
		if ctx.Err() != nil {
			break
		}
		vctx := ctx
		if opt.Started != nil {
			vctx = opt.Started(ctx, i+1, len(variants), v)
		}
		r.Outcomes = append(r.Outcomes, RunOne(vctx, v, spec, task, opt))
	}
	r.judge(ctx)
	return r
}

// judge applies the judging policy (judge.go) to the outcomes.
func (r *Report) judge(ctx context.Context) {
	ref, src, thm, _ := Reference(ctx, r.Spec, r.Task)
	votes := make([]Vote, len(r.Outcomes))
	for i, o := range r.Outcomes {
		votes[i] = o.vote()
	}
	j := Judge(votes, ref, src, thm)
	r.Reference, r.RefSource, r.RefTheorem, r.Confirmations = j.Reference, j.Source, j.Theorem, j.Confirmations
	for i := range r.Outcomes {
		r.Outcomes[i].Disagrees = j.Verdicts[i].Wrong
		r.Outcomes[i].Reason = j.Verdicts[i].Reason
	}
}

// vote is the outcome as the judge sees it.
func (o Outcome) vote() Vote {
	if o.Skipped != nil {
		return Vote{Name: o.Variant.String()}
	}
	v := Vote{Name: o.Variant.String(), Backend: o.Variant.Backend, Status: o.Answer.Status, Value: o.Value, Message: o.Answer.Message,
		Known: o.Known, Theorem: o.Answer.Theorem}
	if o.CheckErr != nil {
		v.Invalid = o.CheckErr.Error()
	}
	return v
}

// Print writes the report as a table: one row per variant (variant, status,
// answer, seconds, verdict), the published value first when known, then a
// line naming any disagreement.
func (r Report) Print(w io.Writer) {
	fmt.Fprintf(w, "%s  task %s\n", r.Spec, r.Task)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "  variant\tstatus\tanswer\tseconds\tagrees")
	switch {
	case r.RefSource == "published" && r.RefTheorem != "":
		fmt.Fprintf(tw, "  (published, by theorem)\t-\t%s\t-\treference: %s\n", r.Reference, r.RefTheorem)
	case r.RefSource == "published":
		fmt.Fprintf(tw, "  (published)\t-\t%s\t-\treference\n", r.Reference)
	case r.RefSource == BruteBackend:
		fmt.Fprintf(tw, "  (brute force, check)\t-\t%s\t-\treference\n", r.Reference)
	}
	for _, o := range r.Outcomes {
		status, secs, verdict := string(o.Answer.Status), fmt.Sprintf("%.4f", o.Seconds), ""
		switch {
		case o.Skipped != nil:
			status, secs, verdict = "skipped", "-", "- ("+oneLine(o.Skipped.Error())+")"
		case o.Disagrees && o.Value == "":
			verdict = "NO: " + oneLine(o.Reason)
		case o.Value == "":
			verdict = "- (no answer"
			if o.Answer.Message != "" {
				verdict += ": " + oneLine(o.Answer.Message)
			}
			verdict += ")"
		case o.CheckErr != nil:
			verdict = "NO: " + oneLine(o.CheckErr.Error())
		case o.Disagrees:
			verdict = "NO: want " + r.Reference
		default:
			verdict = "yes"
			if o.Answer.Theorem != "" {
				verdict += " (by theorem: " + oneLine(o.Answer.Theorem) + ")"
			}
		}
		if o.Disagrees && o.Known != "" {
			verdict += " (known wrong: " + o.Known + ")"
		}
		val := o.Value
		if val == "" {
			val = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", o.Variant, status, val, secs, verdict)
	}
	tw.Flush()
	if d := r.Disagreeing(); len(d) > 0 {
		fmt.Fprintf(w, "  DISAGREEMENT on %s: %s (reference %s, %s)\n", r.Spec, strings.Join(d, ", "), r.Reference, r.RefSource)
	} else if r.RefSource == "" {
		fmt.Fprintln(w, "  no variant answered")
	} else {
		fmt.Fprintf(w, "  all answers agree (%s, %s; %d independent confirmation%s)\n", r.Reference, r.RefSource, r.Confirmations, map[bool]string{true: "", false: "s"}[r.Confirmations == 1])
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Supports reports whether a variant accepts requests of a puzzle and task:
// it puts the puzzle's probe instance (its descriptor's Probe) to the backend with a context that
// is already cancelled (an accepted request answers at once with status
// timeout) and returns the request error if the backend refuses it (nil for
// puzzles without a probe instance). A refusal there is a refusal of the
// puzzle, task or variant itself, not of one instance.
func Supports(ctx context.Context, v Variant, puzzleName string, task puzzle.Task) error {
	d, err := puzzle.Lookup(puzzleName)
	if err != nil || d.Probe == "" {
		return nil
	}
	b, err := puzzle.Backends.Lookup(v.Backend)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	req := v.Request(puzzle.MustParse(d.Probe), task)
	if task == puzzle.All {
		req.Emit = func(puzzle.Solution) error { return nil }
	}
	_, err = b.Solve(ctx, req)
	return err
}
