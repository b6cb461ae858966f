// Package brute is the backend "check": a brute-force solver that knows no
// geometry at all. It proposes candidates blindly (any kind on any square,
// any next square of a path, any move of a knight to an empty square) and
// keeps or prunes them only through the independent checker of package
// puzzle (puzzle.CheckExtension for partial solutions, puzzle.Check for
// complete ones). It shares no code with native or encode beyond spec
// parsing, so it is the third opinion compare and bench judge by on small
// instances. It refuses instances past the limits below with a clear error:
// brute force is exponential.
package brute

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// Limits of the instances the backend takes (docs/cli.md, "Backends").
const (
	// MaxPlacementSquares bounds the board of queens and pieces instances.
	MaxPlacementSquares = 36
	// MaxTourSquares bounds the board of tour instances from one start.
	MaxTourSquares = 20
	// MaxTourAllSquares bounds the board of open tour instances from every
	// start ("*"), which repeat the search once per square.
	MaxTourAllSquares = 16
	// MaxKingPathSquares bounds the board of king-path instances.
	MaxKingPathSquares = 16
	// MaxSwapSquares bounds the board of swap instances.
	MaxSwapSquares = 16
	// MaxSwapStates bounds the positions a swap's breadth-first search stores.
	MaxSwapStates = 200000
)

// Name is the backend's registered name.
const Name = "check"

// solver answers one puzzle's requests; each puzzle's file registers one.
type solver struct {
	tasks []puzzle.Task
	solve func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error)
}

// solvers maps a puzzle name to its solver; each puzzle's file adds its
// own from init (a second one for a puzzle panics).
var solvers = puzzle.NewRegistry[solver]("brute-force solver for puzzle")

// Register adds the brute force of a puzzle whose code lies outside this
// package (the recipe test's toy family): the tasks it does and its
// solver, which must propose through the checker alone. The package's own
// puzzles fill solvers from their files' init. A second registration of
// one puzzle panics.
func Register(puzzleName string, tasks []puzzle.Task, solve func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error)) {
	solvers.Add(puzzleName, solver{tasks: tasks, solve: solve})
}

// Backend is the brute-force backend, registered as "check".
type Backend struct{}

func init() { puzzle.Backends.Add(Name, Backend{}) }

// Name returns "check".
func (Backend) Name() string { return Name }

// Doc describes the backend.
func (Backend) Doc() string {
	return "brute force through the independent checker alone (no geometry of its own); small instances only"
}

// Choices: the backend has no heuristics, encodings or solvers.
func (Backend) Choices() []puzzle.Choice { return nil }

// Solve answers the request by brute force, or refuses it: an unknown
// puzzle, an unsupported task, or an instance past the size limits.
func (Backend) Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	p := req.Spec.Puzzle()
	s, err := solvers.Lookup(p)
	if err != nil {
		return puzzle.Answer{}, fmt.Errorf("the check backend has no brute force for %s", p)
	}
	if !hasTask(s.tasks, req.Task) {
		return puzzle.Answer{}, fmt.Errorf("the check backend does not do task %s for %s", req.Task, p)
	}
	if req.Heuristic != "" || req.Encoding != "" || req.Solver != "" {
		return puzzle.Answer{}, fmt.Errorf("the check backend takes no heuristic, encoding or solver")
	}
	if ctx.Err() != nil {
		// Before any size check, so that compare.Supports (a cancelled
		// probe) learns that the puzzle and task are accepted.
		return puzzle.Answer{Status: puzzle.Timeout, Message: "time limit reached before starting", Method: "brute force through puzzle.Check"}, nil
	}
	ans, err := s.solve(ctx, req)
	if err == nil {
		ans.Method = "brute force through puzzle.Check"
	}
	return ans, err
}

// TooLarge is the error of an instance past the backend's limits.
type TooLarge struct {
	Spec  puzzle.Spec
	What  string
	Limit int
}

func (e TooLarge) Error() string {
	return fmt.Sprintf("the check backend refuses %s: %s (limit %d); brute force is for small instances", e.Spec, e.What, e.Limit)
}

func hasTask(ts []puzzle.Task, t puzzle.Task) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// stopEvery is how many candidates pass between context checks.
const stopEvery = 1 << 12

// finish builds the answer of a finished or stopped enumeration.
func finish(task puzzle.Task, count uint64, nodes int64, stopped bool, first *puzzle.Solution) puzzle.Answer {
	ans := puzzle.Answer{Status: puzzle.OK, Count: count, Stats: map[string]int64{puzzle.StatNodes: nodes}}
	switch {
	case stopped:
		ans.Status, ans.Count = puzzle.Timeout, 0
		ans.Message = fmt.Sprintf("stopped after %d candidates", nodes)
	case count == 0:
		ans.Status = puzzle.Unsat
	case task == puzzle.First:
		ans.Solution = first
	}
	return ans
}
