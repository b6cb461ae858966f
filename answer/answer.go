// Package answer is the JSON answer of "boardsat solve --format json": the
// one type in which a solve reports how it ended and what it found. The
// command writes it, bench reads it back from its child runs, and the tests
// of both use it, so the three can never drift apart.
//
// # The contract
//
// An answer is one JSON object on one line. Every key of Answer is always
// present; a key that does not apply to the run (no heuristic for a SAT
// run, no count for a first solution, no solution for a count) is null, so
// a reader never has to tell a missing key from an empty one. A task "all"
// prints one Item line per solution before its answer, so a reader takes
// the last line that is an answer (Last).
//
// A request the command refuses (it does not do this puzzle or task, an
// unknown encoding, a spec it cannot read) is answered with status Refused
// and the reason in message, besides the one line on stderr and exit status
// 2 of every bad input: nothing ran, and that is no failure of a backend.
//
// To add a field: add it to Answer with its json tag and a comment saying
// what it holds and when it is null, fill it in New, and read it where the
// harness needs it. Old readers ignore a key they do not know.
package answer

import (
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

// Status is how a run ended, as the answer's "status" says.
type Status string

// The statuses of an answer. A backend reports the first five itself
// (puzzle.Status, under the same names; Memout also when the command's
// --mem watchdog ended the run); Refused is the command's, for a request
// it does not take; Interrupted the command's too, for a run a signal
// stopped; Wrong the command's, for an answer that contradicts a published
// value. harness/results.StatusTable maps each to a backend's and a
// results row's status (docs/contract.md has the table).
const (
	OK      Status = "ok"      // answered, and the search finished
	Unsat   Status = "unsat"   // proven to have no solution (an answer, not an error)
	Timeout Status = "timeout" // the time limit passed first
	Memout  Status = "memout"  // the memory limit was reached
	Error   Status = "error"   // the backend failed (a crashed external solver, say)
	Refused Status = "refused" // the request was not taken: nothing ran (Message says why)
	// Interrupted: SIGINT or SIGTERM stopped the run; the answer is what
	// it had so far (Partial for a count split into subproblems).
	Interrupted Status = "interrupted"
	// Wrong: the backend answered, and its answer contradicts boardsat's
	// table of published values (Message names both): nothing to trust.
	Wrong Status = "wrong"
)

// Statuses lists every status of an answer, in documentation order.
var Statuses = []Status{OK, Unsat, Timeout, Memout, Error, Refused, Interrupted, Wrong}

// Answered reports whether s carries an answer (ok or unsat).
func (s Status) Answered() bool { return s == OK || s == Unsat }

// The exit statuses of boardsat, one table for every command and every
// --format (docs/contract.md, "Exit statuses"):
const (
	// ExitAnswered: the command did what was asked (solve: ok or unsat).
	ExitAnswered = 0
	// ExitFailed: a disagreement or a wrong answer (compare, a proof
	// check that does not verify), or a backend that failed (status
	// error): nothing to trust.
	ExitFailed = 1
	// ExitBadInput: bad input or a refused request (status refused), and
	// every error writing a file; one line on stderr names it.
	ExitBadInput = 2
	// ExitTimeout: the time limit passed first (status timeout).
	ExitTimeout = 3
	// ExitMemout: the memory limit or budget was reached (status memout).
	ExitMemout = 4
	// ExitInterrupted: stopped by SIGINT or SIGTERM (128 + 2).
	ExitInterrupted = 130
)

// Exit returns the exit status of a solve whose answer has status s; the
// JSON answer is printed in every case.
func (s Status) Exit() int {
	switch s {
	case OK, Unsat:
		return ExitAnswered
	case Refused:
		return ExitBadInput
	case Timeout:
		return ExitTimeout
	case Memout:
		return ExitMemout
	case Interrupted:
		return ExitInterrupted
	}
	return ExitFailed
}

// Answer is the JSON answer of one solve. Pointer and slice fields are null
// when they do not apply.
type Answer struct {
	// Instance is the canonical spec of the instance (puzzle.Spec.String);
	// for a refused request whose spec cannot be read, the spec as given.
	Instance string `json:"instance"`
	// Puzzle is the puzzle family ("queens", "dominate", ...); "" when the
	// spec could not be read.
	Puzzle string `json:"puzzle"`
	// Backend is the backend that answered ("native", "sat", ...).
	Backend string `json:"backend"`
	// Heuristic, Encoding and Solver name what the backend actually used
	// (after its defaults); null where the backend has no such choice.
	Heuristic *string `json:"heuristic"`
	Encoding  *string `json:"encoding"`
	Solver    *string `json:"solver"`
	// Task is the task asked for (puzzle.Task: count, first, optimum, ...).
	Task string `json:"task"`
	// Status is how the run ended.
	Status Status `json:"status"`
	// Count is the number of solutions (tasks count, unique, all) with every
	// digit, also beyond 2^64; null unless the status is ok or unsat.
	Count *json.Number `json:"count"`
	// Solution is the solution found (tasks first, shortest, optimum...) in
	// the form puzzle.DecodeSolution reads; null when there is none.
	Solution json.RawMessage `json:"solution"`
	// Length is the length of a shortest plan or path; null otherwise.
	Length *int `json:"length"`
	// Objective is the best value found (task optimum), Bound the proven
	// bound on it; null when not known.
	Objective *json.Number `json:"objective"`
	Bound     *json.Number `json:"bound"`
	// Value is the game value (task value): win, draw or loss.
	Value *string `json:"value"`
	// Seconds is the command's own wall time of the solve.
	Seconds float64 `json:"seconds"`
	// EncodeSeconds and SolveSeconds split Seconds of a SAT run into
	// building the formula and solving it; null for other backends.
	EncodeSeconds *float64 `json:"encode_seconds"`
	SolveSeconds  *float64 `json:"solve_seconds"`
	// Stats are the backend's counters (nodes, conflicts, ...); null when
	// there are none.
	Stats map[string]int64 `json:"stats"`
	// Method is the method that actually ran, Fallbacks the methods tried
	// before it that gave up, Theorem the published result that answered
	// instead of a search (puzzle.Answer).
	Method    *string  `json:"method"`
	Fallbacks []string `json:"fallbacks"`
	Theorem   *string  `json:"theorem"`
	// Unchecked says what of the answer rests on an external solver's
	// claim that no proof and no second method confirmed (puzzle.Answer's
	// Unchecked); null when nothing does.
	Unchecked *string `json:"unchecked"`
	// Message explains a status other than ok (the reason of a refusal, the
	// error, what timed out); null when there is nothing to say.
	Message *string `json:"message"`
	// Partial is, for an interrupted count split into subproblems, what
	// it had finished; null otherwise.
	Partial *Partial `json:"partial"`
	// Certified is, for a certified run (solve --certify), true when the
	// answer is ok or unsat and every refutation it rests on was proved
	// and the proof checked; false otherwise. Null for a run not certified.
	Certified *bool `json:"certified"`
	// Certificate sums up a certified run's proofs; null for a run not
	// certified.
	Certificate *Certificate `json:"certificate"`
}

// Certificate sums up the proofs of a certified run (package certify
// makes it): every refutation the answer rests on, proved by the solver
// and checked by boardsat's checkers.
type Certificate struct {
	// Format is the proofs' format: "DRAT" (gophersat's RUP lines are DRAT
	// without deletions).
	Format string `json:"format"`
	// Refutations counts the refutations the answer rests on.
	Refutations int `json:"refutations"`
	// Lemmas and Bytes sum the proofs' lemmas and sizes (ASCII DRAT).
	Lemmas int64 `json:"lemmas"`
	Bytes  int64 `json:"bytes"`
	// CheckSeconds sums the checks' wall time; the checks run in the
	// solving process, so their CPU is inside the run's.
	CheckSeconds float64 `json:"check_seconds"`
	// CheckCPUSeconds is the CPU the solving process spent while checking
	// (the checks' own CPU when no other search runs beside them; on a
	// loaded machine the measure to compare with the solve's CPU).
	CheckCPUSeconds float64 `json:"check_cpu_seconds"`
	// Checker names the checkers that verified the proofs.
	Checker string `json:"checker"`
	// Claims says in words what each refutation whose proof was verified
	// proves, in order.
	Claims []string `json:"claims"`
	// Failed lists the refutations whose proof was not verified, each as
	// its claim and the reason: they prove nothing (the answer is then not
	// certified). Omitted when every proof checked.
	Failed []string `json:"failed,omitempty"`
	// Arguments lists the steps of the answer outside the refuted
	// formulas, which no proof covers (lex-leader symmetry breaking, the
	// orbit arithmetic of a count); empty when there are none.
	Arguments []string `json:"arguments"`
}

// Partial is what an interrupted count split into subproblems had
// finished (puzzle.SplitReport): its subproblems done, and the sum of
// their counts, a lower bound on the count and never the count itself.
type Partial struct {
	// Count is the sum of the finished subproblems' counts, with every
	// digit.
	Count json.Number `json:"count"`
	// Done counts the finished subproblems of the shard (those resumed
	// from a checkpoint included), of Subproblems in the shard.
	Done        int `json:"subproblems_done"`
	Subproblems int `json:"subproblems"`
	// Checkpoint is the checkpoint file written with them (solve
	// --checkpoint), from which the same command resumes; null without.
	Checkpoint *string `json:"checkpoint"`
}

// Item is the line a task "all" prints for each solution, before its
// Answer: the instance, the solution's number counting from 1, and the
// solution.
type Item struct {
	Index    int             `json:"index"`
	Instance string          `json:"instance"`
	Solution puzzle.Solution `json:"solution"`
}

// New returns the answer of backend to req: ans as the backend returned it,
// secs the wall time of the solve.
func New(backend string, req puzzle.Request, ans puzzle.Answer, secs float64) Answer {
	a := Answer{
		Instance: req.Spec.String(), Puzzle: req.Spec.Puzzle(), Backend: backend,
		Heuristic: orNull(ans.Heuristic), Encoding: orNull(ans.Encoding), Solver: orNull(ans.Solver),
		Task: string(req.Task), Status: Status(ans.Status),
		Seconds: secs, Stats: ans.Stats, Message: orNull(ans.Message),
		Method: orNull(ans.Method), Fallbacks: ans.Fallbacks, Theorem: orNull(ans.Theorem),
		Unchecked: orNull(ans.Unchecked),
	}
	if ans.Solution != nil {
		// A solution always marshals (Solution.MarshalJSON has no error path
		// for a solution a backend built); an error leaves it null.
		a.Solution, _ = json.Marshal(ans.Solution)
	}
	if len(a.Stats) == 0 {
		a.Stats = nil
	}
	if ans.EncodeSeconds > 0 || ans.SolveSeconds > 0 {
		e, s := ans.EncodeSeconds, ans.SolveSeconds
		a.EncodeSeconds, a.SolveSeconds = &e, &s
	}
	if HasCount(req, ans) {
		n := json.Number(ans.CountString())
		a.Count = &n
	}
	if HasLength(req, ans) {
		n := ans.Length
		a.Length = &n
	}
	a.Objective, a.Bound = bigNumber(ans.Objective), bigNumber(ans.Bound)
	a.Value = orNull(ans.GameValue)
	if r := ranSplit(req); r != nil && a.Status == Interrupted && r.Partial != nil {
		a.Partial = &Partial{Count: json.Number(r.Partial.String()), Done: r.Done, Subproblems: r.InShard,
			Checkpoint: orNull(req.Split.Checkpoint)}
	} else if a.Status == Interrupted && ans.Found != nil {
		// A count not split into subproblems: what it had counted.
		a.Partial = &Partial{Count: json.Number(ans.Found.String())}
	}
	return a
}

// Refusal returns the answer to a request that was not taken: instance as
// given, status Refused, the reason as message.
func Refusal(instance, backend, task string, reason error) Answer {
	a := Answer{Instance: instance, Backend: backend, Task: task, Status: Refused}
	if spec, err := puzzle.Parse(instance); err == nil {
		a.Instance, a.Puzzle = spec.String(), spec.Puzzle()
	}
	if reason != nil {
		a.Message = orNull(reason.Error())
	}
	return a
}

// ranSplit returns the report of the split count that answered req, or
// nil when none ran.
func ranSplit(req puzzle.Request) *puzzle.SplitReport {
	if req.Split == nil {
		return nil
	}
	return req.Split.Ran
}

// HasCount reports whether an answer to req carries a count: an ok or unsat
// answer to a counting task.
func HasCount(req puzzle.Request, ans puzzle.Answer) bool {
	if ans.Status != puzzle.OK && ans.Status != puzzle.Unsat {
		return false
	}
	switch req.Task {
	case puzzle.Count, puzzle.Unique, puzzle.All:
		return true
	}
	return false
}

// HasLength reports whether an answer to req carries a length: an ok
// answer to a task whose solution is a plan or path of chosen length.
func HasLength(req puzzle.Request, ans puzzle.Answer) bool {
	return ans.Status == puzzle.OK && puzzle.HasLength(req.Spec, req.Task)
}

// Write writes a as one JSON line.
func (a Answer) Write(w io.Writer) error { return json.NewEncoder(w).Encode(a) }

// ErrNoAnswer is returned by Last when the output holds no answer line.
var ErrNoAnswer = errors.New("no JSON answer in the output")

// Last returns the last answer in out, the output of a solve: Item lines
// and anything that is not an answer (no status) are passed over.
func Last(out string) (Answer, error) {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		var a Answer
		if json.Unmarshal([]byte(lines[i]), &a) == nil && a.Status != "" {
			return a, nil
		}
	}
	return Answer{}, ErrNoAnswer
}

// Str returns *p, or "" for nil: the text of a nullable field.
func Str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Float returns *p, or 0 for nil.
func Float(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// orNull returns nil for the empty string, else a pointer to s.
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// bigNumber returns nil for nil, else x as a JSON number with every digit.
func bigNumber(x *big.Int) *json.Number {
	if x == nil {
		return nil
	}
	n := json.Number(x.String())
	return &n
}
