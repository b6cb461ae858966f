package puzzle

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Task is what a request asks of an instance.
type Task string

// The tasks. Not every puzzle supports every task; a backend answers an
// unsupported one with an error.
const (
	// Count: the exact number of solutions (for swaps, of shortest plans).
	Count Task = "count"
	// First: one solution, or status unsat.
	First Task = "first"
	// All: every solution, streamed to Request.Emit; Answer.Count is how many.
	All Task = "all"
	// Shortest: a shortest plan and its length (swaps).
	Shortest Task = "shortest"
	// Unique: the number of solutions up to rotation and reflection of the board.
	Unique Task = "unique"
	// Optimum: the optimal objective value with a proof of optimality, and
	// one optimal solution (optimisation puzzles: Answer.Objective,
	// Answer.Bound).
	Optimum Task = "optimum"
	// Value: the game-theoretic value for the side to move, and a best move
	// (games: Answer.GameValue).
	Value Task = "value"
)

// Tasks lists every task, in documentation order.
var Tasks = []Task{Count, First, All, Shortest, Unique, Optimum, Value}

// ParseTask returns the task with the given name.
func ParseTask(name string) (Task, error) {
	if slices.Contains(Tasks, Task(name)) {
		return Task(name), nil
	}
	return "", fmt.Errorf("unknown task %q: want one of %s", name, joinTasks())
}

func joinTasks() string {
	names := make([]string, len(Tasks))
	for i, t := range Tasks {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// Status is how a request ended.
type Status string

// The statuses an answer can have.
const (
	OK      Status = "ok"      // answered
	Unsat   Status = "unsat"   // proven to have no solution (an answer, not an error)
	Timeout Status = "timeout" // the context's deadline passed first
	Memout  Status = "memout"  // the memory budget ran out first (package membudget)
	Error   Status = "error"   // the backend failed (a crashed external solver, say)
)

// Statuses lists every status a backend can return, in documentation
// order (harness/results.StatusTable maps each to the JSON answer's and
// a results row's).
var Statuses = []Status{OK, Unsat, Timeout, Memout, Error}

// Request is one question put to a backend.
type Request struct {
	Spec Spec
	Task Task
	// Heuristic names a native strategy; "" picks the backend's default.
	Heuristic string
	// Encoding names a SAT encoding; "" picks the default.
	Encoding string
	// Solver names a SAT solver; "" picks the default.
	Solver string
	// Threads caps the goroutines a backend may use; 0 means one per core.
	Threads int
	// Emit receives every solution of an All task, as it is found. An error
	// from Emit stops the search and is returned.
	Emit func(Solution) error
	// Split, if set, says how a counter that splits its work into
	// subproblems runs them: one shard, a checkpoint file, progress
	// reports (package subproblem). Run fills Split.Ran when a splitting
	// counter ran; other strategies ignore it.
	Split *SplitOptions
}

// Answer is a backend's reply to a request.
type Answer struct {
	Status Status
	// Count is the number of solutions (Count, Unique, All tasks; for swaps
	// the number of shortest plans). When the exact count does not fit in a
	// uint64, Big holds it and Count is 0; read counts with CountBig or
	// CountString, which handle both.
	Count uint64
	// Big is the exact count when it exceeds math.MaxUint64, else nil.
	Big *big.Int
	// Solution is set for First and Shortest answers with status OK.
	Solution *Solution
	// Length is a plan's number of moves (Shortest, and Count for swaps).
	Length int
	// Objective is, for Optimum, the objective value of Solution: the
	// proven optimum with status OK; with status Timeout the best value
	// found before the limit (nil if none was found), never claimed optimal.
	Objective *big.Int
	// Bound is, for Optimum, the best proven bound on the optimum (a lower
	// bound when minimising, an upper bound when maximising): equal to
	// Objective with status OK, the bound reached when stopped.
	Bound *big.Int
	// GameValue is, for Value, the game's value for the side to move:
	// GameWin, GameDraw or GameLoss.
	GameValue string
	// Stats holds the backend's counters by name; see the Stat* constants.
	Stats map[string]int64
	// EncodeSeconds and SolveSeconds split a SAT backend's time.
	EncodeSeconds, SolveSeconds float64
	// Message explains an Error or Timeout status.
	Message string
	// Heuristic, Encoding and Solver name what the backend actually used,
	// defaults resolved, so every result row records it.
	Heuristic, Encoding, Solver string
	// Method names the method that produced the answer where a backend
	// picks among several for one request (tour auto: the method that
	// answered; SAT counting: the counting method, e.g. clasp's enumeration
	// mode); "" when the heuristic or encoding says it all.
	Method string
	// Fallbacks lists, in order, the methods tried before Method and why
	// each gave up ("divide: error: ..."): nothing that ran is hidden.
	Fallbacks []string
	// Theorem names the theorem the answer rests on when it comes from one
	// instead of a search (no closed tour when both sides are odd, ...);
	// such an answer confirms nothing that the same theorem decided.
	Theorem string
	// Found is, for a count that did not finish (a time limit, a signal)
	// and is not split into subproblems, the solutions it had counted: a
	// lower bound of the count; nil when none or unknown.
	Found *big.Int
	// Unchecked says what of the answer rests on an external solver's
	// claim that no proof and no second method confirmed (an UNSAT, a
	// count, an optimum: "cadical's UNSAT"), "" when nothing does. A
	// model is never such a claim: every model is checked.
	Unchecked string
}

// The values of a game for the side to move (Answer.GameValue).
const (
	GameWin  = "win"
	GameDraw = "draw"
	GameLoss = "loss"
)

// GamePoints returns a game value as the points the side to move scores
// (2 win, 1 draw, 0 loss): the number results CSV records for task value.
func GamePoints(v string) (uint64, bool) {
	switch v {
	case GameWin:
		return 2, true
	case GameDraw:
		return 1, true
	case GameLoss:
		return 0, true
	}
	return 0, false
}

// GameValueOf returns the game value a results row's points stand for,
// the inverse of GamePoints.
func GameValueOf(points uint64) (string, bool) {
	for _, v := range []string{GameWin, GameDraw, GameLoss} {
		if p, _ := GamePoints(v); p == points {
			return v, true
		}
	}
	return "", false
}

// NotFound starts the Message of a status Error answer from an incomplete
// method (a heuristic tour finder) that found nothing: it proves nothing
// either way, so the judge (compare/judge.go) takes it as no answer, like a
// timeout, and not as a failure. Use GaveUp to test for it.
const NotFound = "not found: "

// GaveUp reports whether a is an incomplete method's NotFound answer.
func (a Answer) GaveUp() bool {
	return a.Status == Error && strings.HasPrefix(a.Message, NotFound)
}

// CountBig returns the answer's exact count, whichever field holds it.
func (a Answer) CountBig() *big.Int {
	if a.Big != nil {
		return new(big.Int).Set(a.Big)
	}
	return new(big.Int).SetUint64(a.Count)
}

// CountString returns the answer's exact count in decimal, whichever field
// holds it; compare counts of two answers by this string or by CountBig.
func (a Answer) CountString() string {
	if a.Big != nil {
		return a.Big.String()
	}
	return strconv.FormatUint(a.Count, 10)
}

// SetCount stores an exact count: in Count when it fits in a uint64, else in
// Big (and Count becomes 0).
func (a *Answer) SetCount(n *big.Int) {
	if n.IsUint64() {
		a.Count, a.Big = n.Uint64(), nil
		return
	}
	a.Count, a.Big = 0, new(big.Int).Set(n)
}

// Names of the counters backends report in Answer.Stats. A backend reports
// those it has; results CSV gives each its own column.
const (
	StatNodes        = "nodes"        // search nodes visited (native)
	StatBacktracks   = "backtracks"   // dead ends left (native)
	StatStates       = "states"       // states stored (swap searches)
	StatConflicts    = "conflicts"    // SAT solver conflicts
	StatDecisions    = "decisions"    // SAT solver decisions
	StatPropagations = "propagations" // SAT solver propagations
	StatRestarts     = "restarts"     // SAT solver restarts
	StatVariables    = "variables"    // variables in the formula
	StatClauses      = "clauses"      // clauses (and native constraints) in the formula
	StatSolverCalls  = "solver_calls" // SAT solver invocations (counting, T-search)
)

// Choice is one named value a backend accepts in a request field.
type Choice struct {
	// Field is "heuristic", "encoding" or "solver".
	Field string
	// Puzzle is the puzzle the choice applies to, or "" for all.
	Puzzle string
	// Name selects the choice.
	Name string
	// Doc says in one line what it is.
	Doc string
	// Default marks the value used when the field is empty.
	Default bool
	// Why says why a default is the default (the measurement that made it
	// so); "" when there is nothing to choose between.
	Why string
}

// Backend is one independent way of solving puzzles. Solve returns an error
// only for a request it cannot accept (an unknown heuristic, an unsupported
// task): the command line reports those and exits with status 2. Failures of
// the solving itself are answers with status Error or Timeout.
type Backend interface {
	Name() string
	Doc() string
	Choices() []Choice
	Solve(ctx context.Context, req Request) (Answer, error)
}

// Backends is the registry of backends; each backend package adds itself
// from an init function, and the command line imports them all.
var Backends = NewRegistry[Backend]("backend")

// Registry maps names to values of one kind (backends, heuristics,
// encodings, solvers, suites), keeps them in the order added, and answers
// unknown names with an error that lists the known ones.
type Registry[T any] struct {
	kind  string
	names []string
	items map[string]T
}

// NewRegistry returns an empty registry; kind names its values in errors.
func NewRegistry[T any](kind string) *Registry[T] {
	return &Registry[T]{kind: kind, items: map[string]T{}}
}

// Add registers v under name. It panics on a repeated name: registration
// happens at start-up, and a clash is a programming error.
func (r *Registry[T]) Add(name string, v T) {
	if _, dup := r.items[name]; dup {
		panic(fmt.Sprintf("%s %q registered twice", r.kind, name))
	}
	r.names = append(r.names, name)
	r.items[name] = v
}

// Lookup returns the value registered under name.
func (r *Registry[T]) Lookup(name string) (T, error) {
	v, ok := r.items[name]
	if !ok {
		return v, fmt.Errorf("unknown %s %q: want one of %s", r.kind, name, strings.Join(r.names, ", "))
	}
	return v, nil
}

// Names returns the registered names in the order added.
func (r *Registry[T]) Names() []string { return slices.Clone(r.names) }

// UncheckedClaim names what answer ans of task rests on when an external
// solver that writes no checked proof produced it (Answer.Unchecked): its
// UNSAT, its count, its optimum or its shortest length; "" for what is
// checked anyway (a model, which the checker tests) or no answer at all.
func UncheckedClaim(solver string, task Task, ans Answer) string {
	switch {
	case ans.Status == Unsat:
		return solver + "'s UNSAT"
	case ans.Status != OK:
		return ""
	case task == Count || task == Unique || task == All:
		return solver + "'s count"
	case task == Optimum:
		return solver + "'s optimum"
	case task == Shortest:
		return solver + "'s shortest length"
	}
	return ""
}

// Describer is a backend that can say, before it solves, what a request
// runs: the heuristic, encoding and solver its answer would name (the
// defaults resolved), "" where it has no such choice. An answer made
// without the backend (the --mem watchdog's memout) names them from it.
type Describer interface {
	Describe(req Request) (heuristic, encoding, solver string)
}
