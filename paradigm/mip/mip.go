// Package mip writes boardsat's puzzles as integer programs: one linear
// model per puzzle with an integer-programming reading (Puzzles lists
// them: each puzzle's file registers its model; swap's is a plan of a
// fixed horizon), in CPLEX LP and in MPS, and reads a MIP solver's variable
// values back into a puzzle.Solution. Each puzzle's
// model lives in the file named for it, with its variables, constraints
// and objective in its doc comment; docs/paradigms.md collects them.
//
// The models use the puzzle package's geometry (Board.Attacks,
// Board.KnightMoves) and nothing of the SAT encoders: a MIP answer agrees
// with the SAT and native ones only if all three read the puzzle alike.
package mip

import (
	"fmt"
	"math"

	"github.com/boardsat/boardsat/paradigm/models"
	"github.com/boardsat/boardsat/puzzle"
)

// Kind is the domain of a variable.
type Kind int8

// The variable kinds.
const (
	Binary     Kind = iota // 0 or 1
	Integer                // whole numbers between Lo and Hi
	Continuous             // reals between Lo and Hi
)

// Var is one variable of a program.
type Var struct {
	// Name is the variable's name in the written files: letters, digits
	// and _ only, not starting with a digit.
	Name string
	Kind Kind
	// Lo and Hi bound Integer and Continuous variables (Binary: 0 and 1).
	Lo, Hi int64
}

// Term is Coef times variable Var (an index into Program.Vars).
type Term struct {
	Coef int64
	Var  int
}

// Sense is a row's relation: '<' (at most), '>' (at least) or '=' (equal).
type Sense byte

// The row senses.
const (
	LE Sense = '<'
	GE Sense = '>'
	EQ Sense = '='
)

// Row is one linear constraint: sum of Terms Sense RHS.
type Row struct {
	Name  string
	Terms []Term
	Sense Sense
	RHS   int64
}

// Program is a mixed-integer linear program with integer coefficients.
type Program struct {
	// Comments describe the model, one line each (written as comments).
	Comments []string
	Vars     []Var
	Rows     []Row
	// Objective is minimised, or maximised when Maximize; empty for a
	// feasibility question.
	Objective []Term
	Maximize  bool
}

// Model is a puzzle instance as a program, and the way back from a
// solver's values to a puzzle solution.
type Model struct {
	Program
	// Decode returns the solution that variable values (values[v] for
	// Vars[v], whole numbers) stand for.
	Decode func(values []int64) (puzzle.Solution, error)
}

// NewVar adds a variable and returns its index.
func (p *Program) NewVar(name string, k Kind, lo, hi int64) int {
	if k == Binary {
		lo, hi = 0, 1
	}
	p.Vars = append(p.Vars, Var{Name: name, Kind: k, Lo: lo, Hi: hi})
	return len(p.Vars) - 1
}

// AddRow adds the constraint sum of coef*var (vars[i] with coefs[i], or 1
// when coefs is nil) sense rhs.
func (p *Program) AddRow(name string, vars []int, coefs []int64, sense Sense, rhs int64) {
	terms := make([]Term, len(vars))
	for i, v := range vars {
		terms[i] = Term{Coef: 1, Var: v}
		if coefs != nil {
			terms[i].Coef = coefs[i]
		}
	}
	p.Rows = append(p.Rows, Row{Name: name, Terms: terms, Sense: sense, RHS: rhs})
}

// Options select the variant of a model written.
type Options struct {
	// Steps is the horizon of a planning model (swap): the plan has
	// exactly Steps moves. A planning model refuses 0.
	Steps int
}

// builders holds each puzzle's model builder; each puzzle's file adds its
// own (swap with AddPlan: its model is a plan of Options.Steps moves).
var builders = models.NewSet[Options, Model]("integer-programming")

// NeedsHorizon reports whether the puzzle's model is a plan of Steps
// moves (swap): its tasks are answered by searching the horizon upward.
func NeedsHorizon(puzzleName string) bool { return builders.NeedsHorizon(puzzleName) }

// Has reports whether the puzzle has an integer-programming model here.
func Has(puzzleName string) bool { return builders.Has(puzzleName) }

// Puzzles lists the puzzles with a model, in the order they were added.
func Puzzles() []string { return builders.Puzzles() }

// Register adds the model builder of a family whose code lies outside this
// package (the recipe test's toy family); the package's own families add
// theirs from their files' init. A second one for a puzzle panics.
func Register(puzzleName string, build func(puzzle.Spec, Options) (*Model, error)) {
	builders.Add(puzzleName, build)
}

// Build returns spec's model, or an error naming why there is none (a
// puzzle without an integer-programming model here, an instance too large).
func Build(spec puzzle.Spec, opt Options) (*Model, error) { return builders.Build(spec, opt) }

// Round turns a solver's reported values into whole numbers: each must lie
// within 1e-6 of an integer and within its variable's bounds (1e-6 slack),
// else the answer is refused with an error naming the variable.
func (p *Program) Round(values []float64) ([]int64, error) {
	if len(values) != len(p.Vars) {
		return nil, fmt.Errorf("%d values for %d variables", len(values), len(p.Vars))
	}
	out := make([]int64, len(values))
	for i, x := range values {
		r := math.Round(x)
		v := p.Vars[i]
		if math.IsNaN(x) || math.Abs(x-r) > 1e-6 || r < float64(v.Lo) || r > float64(v.Hi) {
			return nil, fmt.Errorf("variable %s = %v is not a whole number from %d to %d", v.Name, x, v.Lo, v.Hi)
		}
		out[i] = int64(r)
	}
	return out, nil
}

// Index returns each variable's index by name.
func (p *Program) Index() map[string]int {
	m := make(map[string]int, len(p.Vars))
	for i, v := range p.Vars {
		m[v.Name] = i
	}
	return m
}

// placementDecoder decodes a layout from one variable per (square, kind):
// vars[k][s] is the variable of kind k on square s, or -1 when there is
// none. A square with two pieces is an error.
func placementDecoder(b puzzle.Board, vars [puzzle.NumKinds][]int) func([]int64) (puzzle.Solution, error) {
	return func(val []int64) (puzzle.Solution, error) {
		var squares []puzzle.Square
		var kinds []puzzle.Kind
		for s := range b.Size() {
			for k := range puzzle.Kind(puzzle.NumKinds) {
				if vars[k] == nil || vars[k][s] < 0 || val[vars[k][s]] == 0 {
					continue
				}
				if len(squares) > 0 && squares[len(squares)-1] == puzzle.Square(s) {
					return puzzle.Solution{}, fmt.Errorf("two pieces on %s", b.Name(puzzle.Square(s)))
				}
				squares, kinds = append(squares, puzzle.Square(s)), append(kinds, k)
			}
		}
		return puzzle.PlacementOf(b, squares, kinds), nil
	}
}

// squareVars adds one binary per square, named prefix_SQ, and returns
// their indices by square.
func squareVars(p *Program, b puzzle.Board, prefix string) []int {
	out := make([]int, b.Size())
	for s := range puzzle.Square(b.Size()) {
		out[s] = p.NewVar(prefix+"_"+b.Name(s), Binary, 0, 1)
	}
	return out
}

// pick returns the variables of the given squares.
func pick(vars []int, squares []puzzle.Square) []int {
	out := make([]int, len(squares))
	for i, s := range squares {
		out[i] = vars[s]
	}
	return out
}

// pickInts returns the variables vars[i] of the given indices.
func pickInts(vars []int, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = vars[j]
	}
	return out
}
