// Package encode turns puzzle instances into CNF / pseudo-Boolean formulas,
// one encoder per puzzle, parameterised by a cardinality encoding, and solves
// them as boardsat's "sat" backend. It shares nothing with the native
// searches but the puzzle definitions.
package encode

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// Options tune how an instance is encoded.
type Options struct {
	// SymmetryBreaking adds constraints that remove some solutions equivalent
	// under a board symmetry (not down to one per class: queens keeps 46 of
	// 92). Sound for a first solution only, never for any count.
	SymmetryBreaking bool
	// Steps is the plan length T for planning encodings (swaps).
	Steps int
}

// Instance is an encoded puzzle instance: the formula, and the way from a
// model back to a puzzle solution.
type Instance struct {
	Formula *cnf.Formula
	// Decode maps a model (model[v] for variable v, model[0] unused) to the
	// solution it stands for.
	Decode func(model []bool) (puzzle.Solution, error)
	// CubeVars are the variables a cube-and-conquer split of the formula
	// decides first, the most useful first; nil leaves the choice to
	// package sat (the primary variables in the most clauses).
	CubeVars []cnf.Lit
}

// Encoder builds formulas for one puzzle under one model of the puzzle (for
// tours: position-based or successor-based, say). The cardinality encoding
// is chosen separately.
type Encoder struct {
	// Puzzle is the puzzle it encodes.
	Puzzle string
	// Name selects it: --encoding MODEL+CARD, or CARD alone for the default model.
	Name string
	// Doc says in one line what the model is.
	Doc string
	// Default marks the model used when --encoding names no model: the
	// best measured one (Why says by what measurement). A task it does
	// not do goes to the first registered model that does it.
	Default bool
	// Why says why the default model is the default (boardsat list
	// prints it); "" for the others.
	Why string
	// DefaultCard is the cardinality encoding the model runs with when
	// --encoding names none ("" for the package's DefaultCard).
	DefaultCard string
	// Tasks lists the tasks the sat backend answers with it.
	Tasks []puzzle.Task
	// Build encodes spec with cardinality encoding enc.
	Build func(spec puzzle.Spec, enc card.Encoding, opt Options) (*Instance, error)
	// Solve, if set, replaces the generic solve path for this model (a
	// planning encoding searches its plan length T upward, say).
	Solve func(ctx context.Context, req puzzle.Request, enc card.Encoding) (puzzle.Answer, error)
	// GophersatOnly marks a model whose search runs on gophersat's own
	// solver (a kept solver, gophersat's own optimisation): another
	// solver is refused by name, before its binary is looked for.
	GophersatOnly bool
	// OwnOptimiser marks a model that one solver run optimises (its
	// objective set on one formula): gophersat's Optimal, or a maxsat or
	// pb solver's own optimisation; a sat solver is refused by name.
	OwnOptimiser bool
}

// whyOnly is the Why of a puzzle's only model.
const whyOnly = "the only model"

// whyIf returns why when cond holds, else "": the Why of a model registered
// in a loop with its siblings.
func whyIf(cond bool, why string) string {
	if cond {
		return why
	}
	return ""
}

// encoders holds each puzzle's encoders, in registration order.
var encoders = puzzle.NewPerPuzzle[Encoder]("model")

// register adds an encoder; each puzzle's file calls it from init. A
// second model of one name for one puzzle panics.
func register(e Encoder) { encoders.Add(e.Puzzle, e.Name, e) }

// Register adds the encoder of a family whose code lies outside this
// package (the recipe test's toy family); the package's own families call
// register from their files' init. A second model of one name for one
// puzzle panics, as for them.
func Register(e Encoder) { register(e) }

// Encoders returns the encoders for a puzzle, in registration order.
func Encoders(puzzleName string) []Encoder { return encoders.Values(puzzleName) }

// DefaultCard is the cardinality encoding used when --encoding names none
// and the model has no DefaultCard of its own.
const DefaultCard = "seqcounter"

// DefaultCardWhy says why DefaultCard is the default.
const DefaultCardWhy = "any k, and as fast as totalizer and mtotalizer counting pieces:5x5:K2Q1N2 (20 ms each); a model that measured better with another names its own"

// Resolve reads an --encoding value, "MODEL+CARD", "MODEL+", "MODEL",
// "CARD" or "" (the puzzle's default model; the model's DefaultCard, else
// DefaultCard; a name that is both a card encoding and a model is the card),
// and returns the encoder and the cardinality encoding it names.
func Resolve(puzzleName, encoding string) (Encoder, card.Encoding, error) {
	return ResolveTask(puzzleName, encoding, "")
}

// ResolveTask is Resolve for a request of task: when --encoding names no
// model and the default model does not do task, the first registered model
// that does it is taken (the plain one: dominate's default answers no task
// all, satunsat does).
func ResolveTask(puzzleName, encoding string, task puzzle.Task) (Encoder, card.Encoding, error) {
	r := encoders.Of(puzzleName)
	if r == nil {
		return Encoder{}, card.Encoding{}, fmt.Errorf("the sat backend has no encoder for %s yet", puzzleName)
	}
	model, cardName, hasModel := strings.Cut(encoding, "+")
	if !hasModel {
		model, cardName = "", encoding
		// One name alone is a card encoding (the default model with it),
		// or else a model of this puzzle, with its own default card
		// encoding: --encoding satunsat is satunsat+totalizer. A name that
		// is both (intervals' pairwise) stays the card encoding, as before.
		if _, err := card.Lookup(encoding); err != nil && encoding != "" {
			if _, err := r.Lookup(encoding); err != nil {
				return Encoder{}, card.Encoding{}, fmt.Errorf("unknown encoding %q: want a cardinality encoding (%s), a %s model, or MODEL+CARD (boardsat list names them)",
					encoding, strings.Join(card.Registry.Names(), ", "), puzzleName)
			}
			model, cardName = encoding, ""
		}
	}
	var e Encoder
	if model == "" {
		for _, c := range Encoders(puzzleName) {
			if c.Default {
				e = c
			}
		}
		if e.Name == "" {
			return Encoder{}, card.Encoding{}, fmt.Errorf("no default %s model", puzzleName)
		}
		if task != "" && !slices.Contains(e.Tasks, task) {
			for _, c := range Encoders(puzzleName) {
				if slices.Contains(c.Tasks, task) {
					e = c
					break
				}
			}
		}
	} else {
		var err error
		if e, err = r.Lookup(model); err != nil {
			return Encoder{}, card.Encoding{}, err
		}
	}
	if cardName == "" {
		cardName = cmp.Or(e.DefaultCard, DefaultCard)
	}
	c, err := card.Lookup(cardName)
	if err != nil {
		return Encoder{}, card.Encoding{}, err
	}
	return e, c, nil
}
