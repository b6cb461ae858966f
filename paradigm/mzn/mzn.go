// Package mzn writes boardsat's puzzles as MiniZinc models: one
// self-contained .mzn file per instance (data inlined), for the puzzles
// where a constraint-programming model makes sense (Puzzles lists them:
// each puzzle's file registers its model; swap's is a plan of a fixed
// horizon), and reads the solutions a MiniZinc
// solver prints back into puzzle.Solutions. Each puzzle's model lives in
// the file named for it, with its variables, constraints and objective in
// its doc comment; docs/paradigms.md collects them.
//
// Every model prints each solution as one line "solution: [v1, v2, ...]"
// (and "objective: V" when it optimises), which Decode turns back into a
// solution for the puzzle's checker. The models use the puzzle package's
// geometry and nothing of the SAT encoders.
package mzn

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/paradigm/models"
	"github.com/boardsat/boardsat/puzzle"
)

// Options select the variant of a model written.
type Options struct {
	// Fix, for a puzzle with an objective, fixes the objective to *Fix and
	// writes a satisfaction model (solve satisfy): its solutions are the
	// instance's optimal solutions, for counting them with
	// --all-solutions once the optimum is known. Nil writes the
	// optimisation model.
	Fix *int64
	// Count writes the model whose solutions the Count task counts: a
	// satisfaction model where the instance counts every feasible
	// solution (dominate with k=K: every set of at most K pieces); a
	// puzzle that counts its optimal solutions keeps its objective, and
	// is counted with Fix once the optimum is known.
	Count bool
	// Steps is the horizon of a planning model (swap): the plan has
	// exactly Steps moves. A planning model refuses 0.
	Steps int
}

// Model is one instance written as MiniZinc, and the way back.
type Model struct {
	// Text is the whole .mzn file.
	Text string
	// Sense is "minimize" or "maximize" for an optimisation model, ""
	// for a satisfaction model.
	Sense string
	// Decode returns the solution that the values of one "solution:"
	// line stand for.
	Decode func(vals []int64) (puzzle.Solution, error)
	// PerSolution is the number of the model's solutions that stand for
	// one solution of the instance (2 for closed tours, a circuit and its
	// reverse are one tour; else 1).
	PerSolution uint64
}

// SolutionPrefix starts the line each model prints per solution.
const SolutionPrefix = "solution: "

// ObjectivePrefix starts the line an optimisation model prints after it.
const ObjectivePrefix = "objective: "

// builders holds each puzzle's model builder; each puzzle's file adds its
// own (swap with AddPlan: its model is a plan of Options.Steps moves).
var builders = models.NewSet[Options, Model]("MiniZinc")

// NeedsHorizon reports whether the puzzle's model is a plan of Steps
// moves (swap): its tasks are answered by searching the horizon upward.
func NeedsHorizon(puzzleName string) bool { return builders.NeedsHorizon(puzzleName) }

// Has reports whether the puzzle has a MiniZinc model here.
func Has(puzzleName string) bool { return builders.Has(puzzleName) }

// Puzzles lists the puzzles with a model, in the order they were added.
func Puzzles() []string { return builders.Puzzles() }

// Register adds the model builder of a family whose code lies outside this
// package (the recipe test's toy family); the package's own families add
// theirs from their files' init. A second one for a puzzle panics.
func Register(puzzleName string, build func(puzzle.Spec, Options) (*Model, error)) {
	builders.Add(puzzleName, build)
}

// Build returns spec's model, or an error naming why there is none.
func Build(spec puzzle.Spec, opt Options) (*Model, error) {
	m, err := builders.Build(spec, opt)
	if err != nil {
		return nil, err
	}
	if m.PerSolution == 0 {
		m.PerSolution = 1
	}
	return m, nil
}

// writer builds a model's text.
type writer struct {
	sb strings.Builder
}

// line writes one line, formatted.
func (w *writer) line(format string, args ...any) {
	fmt.Fprintf(&w.sb, format, args...)
	w.sb.WriteByte('\n')
}

// comment writes each line as a MiniZinc comment.
func (w *writer) comment(lines ...string) {
	for _, l := range lines {
		w.line("%% %s", l)
	}
}

// setOf returns a MiniZinc set literal of the given numbers plus off.
func setOf[T ~int | ~int64](xs []T, off int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(int64(x)+int64(off), 10)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// setArray writes "array[1..len] of set of int: name = [...];", one set a
// line.
func (w *writer) setArray(name string, sets []string) {
	w.line("array[1..%d] of set of int: %s = [", len(sets), name)
	for i, s := range sets {
		sep := ","
		if i == len(sets)-1 {
			sep = ""
		}
		w.line("  %s%s", s, sep)
	}
	w.line("];")
}

// moveTable writes the table "moves" of the given moves, a row "from,to"
// of square numbers each, for constraints table([a, b], moves).
func (w *writer) moveTable(moves []puzzle.Move) {
	if len(moves) == 0 {
		w.line("array[int, 1..2] of int: moves = array2d(1..0, 1..2, []);")
		return
	}
	rows := make([]string, len(moves))
	for i, m := range moves {
		rows[i] = fmt.Sprintf("%d,%d", m.From, m.To)
	}
	w.line("array[int, 1..2] of int: moves = [|%s|];", strings.Join(rows, "|"))
}

// solve writes the solve item for an objective expression obj (a
// variable name) in the given sense, honouring opt.Fix, and the output
// item printing vars; it returns the model's sense.
func (w *writer) solve(opt Options, sense, obj, vars string) string {
	switch {
	case sense == "":
		w.line("solve satisfy;")
		w.line(`output ["%s", show(%s), "\n"];`, SolutionPrefix, vars)
		return ""
	case opt.Fix != nil:
		w.comment("the optimal solutions only: the objective fixed to the optimum")
		w.line("constraint %s = %d;", obj, *opt.Fix)
		w.line("solve satisfy;")
		w.line(`output ["%s", show(%s), "\n"];`, SolutionPrefix, vars)
		return ""
	}
	w.line("solve %s %s;", sense, obj)
	w.line(`output ["%s", show(%s), "\n", "%s", show(%s), "\n"];`, SolutionPrefix, vars, ObjectivePrefix, obj)
	return sense
}

// Write writes a model's text.
func (m *Model) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(m.Text)
	return bw.Flush()
}

// gecodeMax is the largest integer a Gecode variable holds (32-bit).
const gecodeMax = math.MaxInt32

// wantLen returns an error unless vals has n values.
func wantLen(vals []int64, n int) error {
	if len(vals) != n {
		return fmt.Errorf("solution line has %d values, the model has %d", len(vals), n)
	}
	return nil
}
