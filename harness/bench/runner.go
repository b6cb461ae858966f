// Package bench runs benchmark suites: instances x backend variants x task x
// repetitions, each run a child process of the boardsat binary ("boardsat
// solve ... --format json --timeout D") under a wall-clock and a memory
// limit, each finished run appended at once as a whole row of a results CSV
// (see package results for the schema), with a metadata sidecar describing
// the machine.
//
// # Limits and measurements
//
// Each run is measured as a whole process tree by package measure (the
// child, the gophersat worker it starts for timed searches, external
// solvers): CPU seconds (user + sys), peak memory, and wall seconds from
// start to exit, process start-up included; the child's own timing of the
// solve is kept too (solver_seconds). The child is told the run's timeout
// (--timeout) and answers status timeout itself; if it has not exited
// KillGrace after the limit, the tree is killed. The CPU-time and memory
// limits hold for the whole tree; the memory limit as a hard cap of the
// run's cgroup where measure makes one (the row's limited_by says how). The row's limit column says which limit
// ended the run, and every row records its limits and how it was measured.
// Runs may go several at once (Options.Jobs), each pinned to its own cores.
//
// # Statuses
//
// ok and unsat when answered and the answer agrees with the reference (the
// published value if known, else the first ok answer of the same instance
// and task in the file); wrong when it disagrees or the returned solution
// fails the independent checker; timeout, memout; error when the child
// failed (crashed, or refused the request: the variant does not do this
// puzzle or task); skipped when a ladder stopped before the run.
package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/harness/compare"
	"github.com/boardsat/boardsat/harness/measure"
	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/puzzle"
)

// KillGrace is how long past its timeout a child may run before it is killed.
const KillGrace = 2 * time.Second

// Runner starts child runs.
type Runner struct {
	// Exe is the boardsat binary; Args go before the solve arguments (for
	// the real binary: just "solve").
	Exe  string
	Args []string
	// Env, if set, is added to the child's environment.
	Env []string
	// Measure is the measurement method (measure.Cgroup2, Cgroup1,
	// Rusage), "" for the best the machine allows (measure.New).
	Measure string
	// CPUs, if set, are the cores the child (and so its whole tree) is
	// pinned to.
	CPUs []int
}

// Args returns the solve arguments of a run.
func (r Run) Args() []string {
	a := []string{r.Spec.String(), "--backend", r.Variant.Backend, "--task", string(r.Task), "--format", "json",
		"--timeout", r.Timeout.String(), "--quiet", "--seed", strconv.Itoa(r.Rep)}
	for _, f := range compare.FieldOrder {
		if v := r.Variant.Value(f); v != "" {
			a = append(a, "--"+f, v)
		}
	}
	if r.Certify {
		a = append(a, "--certify")
	}
	return a
}

// tail keeps the last max bytes written to it.
type tail struct {
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	b := t.buf
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	return string(b)
}

// newRow returns the row of run r before it runs: what it is and the
// limits it runs under.
func newRow(r Run) results.Row {
	return results.Row{Time: time.Now().UTC(), Instance: r.Spec.String(), Puzzle: r.Spec.Puzzle(),
		Squares: puzzle.BoardOf(r.Spec).Size(), Variant: r.VariantName(), Backend: r.Variant.Backend, Certify: r.Certify,
		Heuristic: r.Variant.Value("heuristic"), Encoding: r.Variant.Value("encoding"), Solver: r.Variant.Value("solver"),
		Task: string(r.Task), Rep: r.Rep,
		WallLimit: r.Timeout.Seconds(), CPULimit: r.CPULimit.Seconds(), MemLimitMB: r.MemMB}
}

// Exec runs one child and returns its row (status ok/unsat unjudged, or
// timeout, memout, error). ctx cancelled means interrupted: the child is
// killed and ok is false (the row must not be kept).
func (rn Runner) Exec(ctx context.Context, r Run) (row results.Row, ok bool) {
	row = newRow(r)
	cmd := exec.Command(rn.Exe, append(append([]string{}, rn.Args...), r.Args()...)...)
	// The child's temporary files (its boardsat-cp-*, boardsat-mip-* and
	// boardsat-solver-* directories, minizinc's) go in a directory of the
	// run's own, removed once the child is reaped however it ended: a
	// child killed at its limit, or by bench's interruption, cannot remove
	// its own.
	tmp, err := os.MkdirTemp("", "boardsat-run-")
	if err != nil {
		row.Status, row.Message = results.StatusError, "making the run's temporary directory: "+err.Error()
		return row, true
	}
	defer os.RemoveAll(tmp)
	cmd.Env = append(append(os.Environ(), rn.Env...), "TMPDIR="+tmp)
	stdout, stderr := &tail{max: 1 << 20}, &tail{max: 4096}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	limits := measure.Limits{Wall: r.Timeout + KillGrace, CPU: r.CPULimit, MemKB: r.MemMB * 1024}
	u, err := measure.Runner{Method: rn.Measure, CPUs: rn.CPUs}.Run(ctx, cmd, limits)
	row.MeasuredBy, row.LimitedBy = u.Method, u.LimitedBy
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return row, false // interrupted: the row must not be kept
	}
	if err != nil {
		row.Status, row.Message = results.StatusError, err.Error()
		return row, true
	}
	row.Seconds, row.User, row.Sys, row.MaxRSSKB = u.Wall.Seconds(), u.User, u.Sys, u.PeakKB
	row.Limit = string(u.Exceeded)
	switch u.Exceeded {
	case measure.LimitWall:
		row.Status, row.Message = results.StatusTimeout, fmt.Sprintf("killed after %s (limit %s + %s grace)", u.Wall.Round(time.Millisecond), r.Timeout, KillGrace)
		return row, true
	case measure.LimitCPU:
		row.Status, row.Message = results.StatusTimeout, fmt.Sprintf("CPU time %.3g s over the limit of %s (user + sys of the whole process tree)", row.User+row.Sys, r.CPULimit)
		return row, true
	case measure.LimitMem:
		row.Status, row.Message = results.StatusMemout, fmt.Sprintf("peak memory %d MiB at the limit of %d MiB (%s)", row.MaxRSSKB/1024, r.MemMB, memHeld(u.LimitedBy))
		return row, true
	}
	waitErr := u.Wait
	ans, err := answer.Last(stdout.String())
	if err != nil {
		row.Status = results.StatusError
		row.Message = strings.TrimSpace(lastLine(stderr.String()))
		if row.Message == "" {
			row.Message = "the child printed no JSON answer"
		}
		if waitErr != nil {
			row.Message = waitErr.Error() + ": " + row.Message
		}
		return row, true
	}
	row.Heuristic, row.Encoding, row.Solver = answer.Str(ans.Heuristic), answer.Str(ans.Encoding), answer.Str(ans.Solver)
	row.SolverSeconds, row.EncodeSeconds, row.SolveSeconds = ans.Seconds, answer.Float(ans.EncodeSeconds), answer.Float(ans.SolveSeconds)
	row.Stats = ans.Stats
	row.Method, row.Fallbacks, row.Theorem = answer.Str(ans.Method), ans.Fallbacks, answer.Str(ans.Theorem)
	row.Message, row.Unchecked = answer.Str(ans.Message), answer.Str(ans.Unchecked)
	if c := ans.Certificate; r.Certify && c != nil {
		row.ProofBytes, row.CheckSeconds = c.Bytes, c.CheckSeconds
	}
	// The one table of statuses (results.StatusTable): a memout is the
	// child's own memory budget (package membudget); a refusal (the variant
	// does not do this puzzle or task) no answer, and no failure of the
	// backend.
	m := results.RowStatus(ans.Status)
	row.Status, row.Limit = m.Row, m.Limit
	if ans.Status == answer.Refused {
		row.Message = results.RefusedMessage(row.Message)
	}
	if row.Solved() {
		row.Certified = r.Certify && ans.Certified != nil && *ans.Certified
		setAnswer(&row, r, ans)
	}
	if ans.Status == answer.Wrong {
		// The child found its answer contradicting the published value:
		// the row keeps what it answered, and the judge sees the same.
		setAnswer(&row, r, ans)
	}
	return row, true
}

// memHeld says how a memory limit was held, for a memout's message.
func memHeld(limitedBy string) string {
	if limitedBy == measure.Sampled {
		return "the whole process tree's memory, sampled"
	}
	return "a hard cap of the run's " + limitedBy + ", held by the kernel"
}

// setAnswer fills the answer column and checks a returned solution.
func setAnswer(row *results.Row, r Run, ans answer.Answer) {
	switch {
	case r.Task == puzzle.First:
		row.Answer, row.HasAnswer = 0, true
		if row.Status == results.StatusOK {
			row.Answer = 1
		}
	case r.Task == puzzle.Optimum:
		if ans.Objective != nil && row.Status == results.StatusOK {
			setCount(row, *ans.Objective)
		}
	case r.Task == puzzle.Value:
		if ans.Value != nil {
			row.Answer, row.HasAnswer = puzzle.GamePoints(*ans.Value)
		}
	case ans.Count != nil && r.Task != puzzle.Shortest:
		setCount(row, *ans.Count)
	case ans.Length != nil:
		row.Answer, row.HasAnswer = uint64(*ans.Length), true
	case ans.Count != nil:
		setCount(row, *ans.Count)
	}
	if len(ans.Solution) > 0 && string(ans.Solution) != "null" {
		sol, err := puzzle.DecodeSolution(r.Spec, ans.Solution)
		if err == nil {
			err = puzzle.Check(r.Spec, sol)
		}
		if err != nil {
			row.Status, row.Message = results.StatusWrong, "checker rejects the solution: "+err.Error()
		}
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// setCount sets a row's answer from the child's count; a count that is not
// a whole number marks the row as an error.
func setCount(row *results.Row, n json.Number) {
	if err := row.SetAnswerString(n.String()); err != nil {
		row.Status, row.Message = results.StatusError, fmt.Sprintf("the child's count %q: %v", n, err)
	}
}
