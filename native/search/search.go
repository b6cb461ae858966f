// Package search is what every native search shares: the registry of named
// strategies (each puzzle family's package registers its own from init), the
// dispatch of a request to the named or default strategy, and the answers of
// finished, stopped and split searches. It imports nothing of the SAT side.
package search

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/puzzle"
)

// Strategy is one named search for one puzzle.
type Strategy struct {
	// Puzzle is the registered name of the puzzle it solves ("queens").
	Puzzle string
	// Name selects it with --heuristic.
	Name string
	// Doc says in one line what it does.
	Doc string
	// Default marks the strategy used when no heuristic is named.
	Default bool
	// Tasks lists the tasks it answers.
	Tasks []puzzle.Task
	// Solve answers a request whose spec is of Puzzle's type and whose task
	// is in Tasks. It polls ctx and answers status Timeout when it is done.
	Solve func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error)
}

// strategies holds each puzzle's strategies, in registration order.
var strategies = puzzle.NewPerPuzzle[Strategy]("heuristic")

// Register adds a strategy; each puzzle family's package calls it from
// init. A second strategy of one name for one puzzle panics.
func Register(s Strategy) { strategies.Add(s.Puzzle, s.Name, s) }

// Strategies returns the strategies for a puzzle, in registration order.
func Strategies(puzzleName string) []Strategy { return strategies.Values(puzzleName) }

// Solve runs the named (or default) native strategy for the request's puzzle.
func Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	p := req.Spec.Puzzle()
	r := strategies.Of(p)
	if r == nil {
		return puzzle.Answer{}, fmt.Errorf("the native backend has no strategy for %s yet", p)
	}
	var s Strategy
	if req.Heuristic == "" {
		for _, c := range Strategies(p) {
			if c.Default {
				s = c
			}
		}
		if s.Name == "" {
			return puzzle.Answer{}, fmt.Errorf("no default native heuristic for %s: name one with --heuristic", p)
		}
	} else {
		var err error
		if s, err = r.Lookup(req.Heuristic); err != nil {
			return puzzle.Answer{}, err
		}
	}
	if !slices.Contains(s.Tasks, req.Task) {
		tasks := make([]string, len(s.Tasks))
		for i, t := range s.Tasks {
			tasks[i] = string(t)
		}
		return puzzle.Answer{}, fmt.Errorf("native heuristic %s does not do task %s for %s (it does %s)",
			s.Name, req.Task, p, strings.Join(tasks, ", "))
	}
	// Every native search runs under the memory budget: past it, its
	// context ends as if by a deadline, and its answer says memout.
	wctx, stop := membudget.Watch(ctx, membudget.Budget())
	defer stop()
	ans, err := s.Solve(wctx, req)
	if e := membudget.Over(wctx); e != nil && ans.Status != puzzle.OK && ans.Status != puzzle.Unsat {
		ans.Status, ans.Message = puzzle.Memout, memoutMessage(e, ans.Message)
	}
	if ans.Heuristic == "" {
		// A strategy that hands a request to another names that one
		// itself, so results record what actually ran.
		ans.Heuristic = s.Name
	}
	return ans, err
}

// memoutMessage says why a search was ended by the memory budget, with
// what the search said of where it stopped, less the words of a stop by
// the clock (the watchdog stops it through its context, as a deadline
// would).
func memoutMessage(e *membudget.Exceeded, stopped string) string {
	for _, clock := range []string{"deadline passed before the search finished", "context deadline exceeded", "context canceled"} {
		stopped = strings.ReplaceAll(stopped, clock, "")
	}
	stopped = strings.Trim(stopped, "; ")
	if stopped == "" {
		return e.Error()
	}
	return e.Error() + "; " + stopped
}

// Answer builds the answer of a finished or stopped enumeration: the
// count and nodes always; status Timeout if it was stopped; for task First,
// the solution found, or status Unsat when the finished search found none.
// An error from Emit stopped the enumeration part way: the answer is then
// status Error (never OK with the partial count), and the error is returned
// as is.
func Answer(task puzzle.Task, count uint64, nodes int64, stopped bool, first *puzzle.Solution, emitErr error) (puzzle.Answer, error) {
	ans := puzzle.Answer{Status: puzzle.OK, Count: count, Stats: map[string]int64{puzzle.StatNodes: nodes}}
	if emitErr != nil {
		ans.Status = puzzle.Error
		ans.Message = fmt.Sprintf("stopped after %d solutions: %v", count, emitErr)
		return ans, emitErr
	}
	switch {
	case stopped:
		ans.Status = puzzle.Timeout
		ans.Message = fmt.Sprintf("stopped after %d nodes", nodes)
	case task == puzzle.First && first == nil:
		ans.Status = puzzle.Unsat
	case task == puzzle.First:
		ans.Solution = first
	}
	return ans, nil
}

// Threads is the number of workers a search runs for a requested number
// (0 or less: one per core).
func Threads(n int) int {
	if n <= 0 {
		return runtime.NumCPU()
	}
	return n
}
