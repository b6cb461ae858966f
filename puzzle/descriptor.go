package puzzle

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Descriptor is everything the harness knows about one puzzle, in one
// place: each puzzle fills one in its own file, named for the puzzle
// (queens.go for queens; Puzzles lists them all), and registers it with
// Register from init.
// Nothing outside a puzzle's own files switches on the puzzle's type or
// name; the parser, the checker, published values, solution formats and
// sweeps all go through the descriptor (TestNoPuzzleSwitch guards it).
type Descriptor struct {
	// Name is the spec prefix, "queens" for queens:8.
	Name string
	// Order places the puzzle in listings (boardsat list, registries):
	// smaller first.
	Order int
	// Syntax shows the spec form in help and errors, like "queens:N".
	Syntax string
	// Parse reads the spec after "NAME:" and validates it.
	Parse func(rest string) (Spec, error)
	// Board returns the board an instance is played on.
	Board func(Spec) Board
	// DefaultTask is the task an instance gets when none is named.
	DefaultTask Task
	// Shape is the form of the puzzle's solutions (text, JSON, parse back).
	Shape *Shape
	// Check reports why sol does not solve spec, or nil if it does. It uses
	// the checker's own geometry (check.go), never the solvers' tables.
	Check func(spec Spec, sol Solution) error
	// Extend reports why the last element of a partial solution (the piece
	// on the highest occupied square of a layout, the last square of a
	// path, the last move of a plan) breaks the rules given the elements
	// before it, which the caller has checked the same way; nil when the
	// partial solution may still be completed. It uses the checker's own
	// geometry. Check still decides whether a complete one solves spec.
	// Nil when the puzzle has none (the brute-force backend then refuses it).
	Extend func(spec Spec, sol Solution) error
	// Count returns the published number of solutions for the Count or
	// Unique task, if one is known (nil: nothing is published).
	Count func(spec Spec, task Task) (uint64, bool)
	// CountTheorem names the theorem a published count rests on when it is
	// derived from one rather than from a published enumeration ("" or nil
	// otherwise): an answer by the same theorem then confirms nothing.
	CountTheorem func(spec Spec, task Task) string
	// GameValue returns the published value of a game for the side to
	// move (GameWin, GameDraw or GameLoss), if known (nil for puzzles
	// that are not games).
	GameValue func(spec Spec) (string, bool)
	// Shortest returns the published length of a shortest plan, if known
	// (nil for puzzles without plans).
	Shortest func(spec Spec) (int, bool)
	// Optimum returns the published optimum of an optimisation puzzle's
	// instance (the Optimum task's objective), if one is known; nil for
	// puzzles without one.
	Optimum func(spec Spec) (int, bool)
	// Objective returns the objective value of a solution that passed
	// Check, for optimisation puzzles (the pieces of a dominating set,
	// the total value of chosen intervals); nil for puzzles without one.
	// Maximize says the optimum is the largest value, else the smallest.
	Objective func(spec Spec, sol Solution) int64
	Maximize  bool
	// Lengths marks puzzles whose answers carry a plan length (the
	// Shortest task, and Count of shortest plans).
	Lengths bool
	// Probe is a tiny instance that compare puts to a backend to learn
	// whether it accepts the puzzle and a task at all.
	Probe string
	// Sweep makes small instances for differential sweeps; nil when the
	// puzzle is not swept.
	Sweep *Sweep
	// Size is how the puzzle's instances grow (a scaling figure's x axis).
	Size SizeMeasure
}

// Limits bound the instances a sweep generates; each puzzle's Sweep says
// which limits it reads.
type Limits struct {
	// MaxSide bounds both sides of generated boards (pieces, tours, king paths).
	MaxSide int
	// MaxPieces bounds the number of pieces of a pieces instance.
	MaxPieces int
	// MaxQueens bounds n of queens:n.
	MaxQueens int
	// MaxLength bounds the number of squares of a king path.
	MaxLength int
}

// Sweep generates the small instances of one puzzle for a differential
// sweep and the one-step-smaller neighbours of an instance for shrinking.
type Sweep struct {
	// Task is the task swept.
	Task Task
	// Generate lists instances within lim, smallest first.
	Generate func(lim Limits) []Spec
	// Shrink lists instances one step smaller than spec (a smaller board,
	// one piece fewer), most promising first.
	Shrink func(spec Spec) []Spec
}

// descriptors holds the registered puzzles by name.
var descriptors = map[string]*Descriptor{}

// Puzzles lists the registered puzzle names in Order; Register keeps it.
var Puzzles []string

// Register adds a puzzle. Each puzzle's own file calls it once from init; a
// repeated name or a missing parser, board, shape or checker panics, since
// registration happens at start-up and either is a programming error.
func Register(d Descriptor) {
	if _, dup := descriptors[d.Name]; dup {
		panic(fmt.Sprintf("puzzle %q registered twice", d.Name))
	}
	if d.Parse == nil || d.Board == nil || d.Shape == nil || d.Check == nil || d.DefaultTask == "" || d.Size.Of == nil {
		panic(fmt.Sprintf("puzzle %q: Parse, Board, Shape, Check, DefaultTask and Size are required", d.Name))
	}
	descriptors[d.Name] = &d
	Puzzles = append(Puzzles, d.Name)
	slices.SortStableFunc(Puzzles, func(a, b string) int { return cmp.Compare(descriptors[a].Order, descriptors[b].Order) })
}

// Lookup returns the descriptor of a puzzle by name.
func Lookup(name string) (*Descriptor, error) {
	if d, ok := descriptors[name]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("unknown puzzle %q: want one of %s", name, strings.Join(Puzzles, ", "))
}

// Describe returns the descriptor of spec's puzzle. Every Spec comes from a
// registered puzzle, so it never fails for one.
func Describe(spec Spec) *Descriptor {
	d, ok := descriptors[spec.Puzzle()]
	if !ok {
		panic(fmt.Sprintf("spec %s of unregistered puzzle %q", spec, spec.Puzzle()))
	}
	return d
}

// Parse reads a spec string and validates it: the board, squares and pieces
// must make sense, and a placement must have room for its pieces. An error
// names exactly what is wrong.
func Parse(spec string) (Spec, error) {
	name, rest, hasRest := strings.Cut(spec, ":")
	if name == "" {
		return nil, errors.New("empty spec: want PUZZLE:..., like queens:8")
	}
	d, ok := descriptors[name]
	if !ok {
		return nil, fmt.Errorf("unknown puzzle %q in spec %q: want one of %s", name, spec, strings.Join(Puzzles, ", "))
	}
	if !hasRest {
		// Quote only what the user typed.
		return nil, fmt.Errorf("spec %q names the puzzle but no instance: want %s", spec, d.Syntax)
	}
	return d.Parse(rest)
}

// MustParse is Parse for specs known to be valid, such as literals in tests
// and built-in suites; it panics on error.
func MustParse(spec string) Spec {
	s, err := Parse(spec)
	if err != nil {
		panic(err)
	}
	return s
}

// BoardOf returns the board an instance is played on.
func BoardOf(spec Spec) Board { return Describe(spec).Board(spec) }

// DefaultTask is the task an instance gets when none is named (the
// puzzle's descriptor says: first for tours, shortest for swaps, count for
// the counting puzzles).
func DefaultTask(spec Spec) Task { return Describe(spec).DefaultTask }

// Check reports why sol does not solve spec, or nil if it does: the
// independent checker of spec's puzzle (see check.go). For a swap it checks
// that the plan replays legally and reaches the targets; that the plan is
// shortest is for the caller to compare.
func Check(spec Spec, sol Solution) error {
	if sol.Board != BoardOf(spec) {
		return fmt.Errorf("solution is for a %s board, instance is on %s", sol.Board, BoardOf(spec))
	}
	return Describe(spec).Check(spec, sol)
}

// CheckExtension reports why the last element of the partial solution sol
// breaks spec's rules given the elements before it (see Descriptor.Extend):
// the independent checker's rules, for searches that propose candidates
// without any geometry of their own (package brute) and prune through it.
func CheckExtension(spec Spec, sol Solution) error {
	ext, err := Extender(spec)
	if err != nil {
		return err
	}
	return ext(sol)
}

// Extender returns CheckExtension for one spec, looked up once, for
// searches that call it millions of times; an error when the puzzle has no
// partial check.
func Extender(spec Spec) (func(Solution) error, error) {
	d := Describe(spec)
	if d.Extend == nil {
		return nil, fmt.Errorf("the checker has no partial check for %s", d.Name)
	}
	b := BoardOf(spec)
	return func(sol Solution) error {
		if sol.Board != b {
			return fmt.Errorf("solution is for a %s board, instance is on %s", sol.Board, b)
		}
		return d.Extend(spec, sol)
	}, nil
}

// KnownCount returns the published number of solutions of spec for the
// Count or Unique task, if one is known (see each puzzle's table).
func KnownCount(spec Spec, task Task) (uint64, bool) {
	if d := Describe(spec); d.Count != nil {
		return d.Count(spec, task)
	}
	return 0, false
}

// KnownTheorem names the theorem the published count of spec for task rests
// on, or "" when the count comes from an enumeration (or none is known).
func KnownTheorem(spec Spec, task Task) string {
	if d := Describe(spec); d.CountTheorem != nil {
		return d.CountTheorem(spec, task)
	}
	return ""
}

// KnownGameValue returns the published value of spec's game for the side
// to move, if one is known (see each game's table).
func KnownGameValue(spec Spec) (string, bool) {
	if d := Describe(spec); d.GameValue != nil {
		return d.GameValue(spec)
	}
	return "", false
}

// KnownShortest returns the published length of a shortest plan for spec,
// if one is known.
func KnownShortest(spec Spec) (int, bool) {
	if d := Describe(spec); d.Shortest != nil {
		return d.Shortest(spec)
	}
	return 0, false
}

// KnownOptimum returns the published optimum of spec (the objective of
// the Optimum task), if one is known.
func KnownOptimum(spec Spec) (int, bool) {
	if d := Describe(spec); d.Optimum != nil {
		return d.Optimum(spec)
	}
	return 0, false
}

// ObjectiveOf returns the objective value of sol, a solution of spec that
// passed Check, and whether spec's puzzle has an objective (see
// Descriptor.Objective); maximize says the optimum is the largest value.
func ObjectiveOf(spec Spec, sol Solution) (value int64, maximize, ok bool) {
	d := Describe(spec)
	if d.Objective == nil {
		return 0, false, false
	}
	return d.Objective(spec, sol), d.Maximize, true
}

// HasLength reports whether an answer of spec's puzzle to task carries a
// plan length (a swap's Shortest and Count answers).
func HasLength(spec Spec, task Task) bool {
	return Describe(spec).Lengths && (task == Shortest || task == Count)
}

// ParseSolution reads a solution in the text form Solution.Text writes, for
// the spec's board: board rows, a numbered grid, or a move list, as the
// puzzle's shape says. It is how a solution from outside boardsat reaches
// the checker.
func ParseSolution(spec Spec, text string) (Solution, error) {
	return Describe(spec).Shape.ParseText(BoardOf(spec), text)
}

// DecodeSolution reads the JSON form of a solution (Solution.MarshalJSON:
// {"rows": [...]}, {"path": [...]} or {"moves": [...]}) for spec's board.
func DecodeSolution(spec Spec, raw json.RawMessage) (Solution, error) {
	sh := Describe(spec).Shape
	var j map[string][]string
	if err := json.Unmarshal(raw, &j); err != nil {
		return Solution{}, fmt.Errorf("bad solution JSON: %v", err)
	}
	words, ok := j[sh.Key]
	if !ok {
		return Solution{}, fmt.Errorf("bad solution JSON for %s: want {%q: [...]}", spec.Puzzle(), sh.Key)
	}
	return sh.ParseWords(BoardOf(spec), words)
}
