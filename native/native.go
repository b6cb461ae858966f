// Package native is boardsat's native backend: hand-written searches, one
// sub-package per puzzle family (queens, pieces, tour, swap, kingpath, mnk,
// intervals, dominate), each
// search a named strategy selectable with --heuristic, on a small shared
// core (search: the strategy registry and answers; symmetry: the board
// symmetries). It shares nothing with the SAT side but the puzzle
// definitions, so the two backends check each other. A new family adds one
// directory and one import below.
package native

import (
	"context"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"

	// The puzzle families: each registers its strategies from init.
	_ "github.com/boardsat/boardsat/native/dominate"
	_ "github.com/boardsat/boardsat/native/intervals"
	_ "github.com/boardsat/boardsat/native/kingpath"
	_ "github.com/boardsat/boardsat/native/mnk"
	_ "github.com/boardsat/boardsat/native/pieces"
	_ "github.com/boardsat/boardsat/native/queens"
	_ "github.com/boardsat/boardsat/native/swap"
	_ "github.com/boardsat/boardsat/native/tour"
)

// Backend is the native backend, registered as "native".
type Backend struct{}

func init() { puzzle.Backends.Add("native", Backend{}) }

// Family: a native search.
func (Backend) Family() puzzle.Family { return puzzle.FamilySearch }

// Name returns "native".
func (Backend) Name() string { return "native" }

// Doc describes the backend.
func (Backend) Doc() string { return "hand-written searches, one per named heuristic" }

// Choices lists every strategy as a heuristic choice.
func (Backend) Choices() []puzzle.Choice {
	var out []puzzle.Choice
	for _, p := range puzzle.Puzzles {
		for _, s := range search.Strategies(p) {
			out = append(out, puzzle.Choice{Field: "heuristic", Puzzle: p, Name: s.Name, Doc: s.Doc, Default: s.Default})
		}
	}
	return out
}

// Solve runs the named (or default) strategy for the request's puzzle.
func (Backend) Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	return search.Solve(ctx, req)
}

// Describe names the strategy req runs, as its answer would
// (puzzle.Describer): the one named, or the puzzle's default.
func (Backend) Describe(req puzzle.Request) (heuristic, encoding, solver string) {
	if req.Heuristic != "" {
		return req.Heuristic, "", ""
	}
	for _, s := range search.Strategies(req.Spec.Puzzle()) {
		if s.Default {
			return s.Name, "", ""
		}
	}
	return "", "", ""
}
