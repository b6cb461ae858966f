// Package pieces holds the native non-attacking pieces strategies.
//
// The seed's algorithm (seeds/000): a depth-first search that keeps, per
// piece type, the set of squares still free for it, and places all copies
// of one type at once as a combination of its free squares (so identical
// pieces never give duplicate placements). Three heuristics pick the type to
// place next: fewest copies left (copies), fewest free squares (free), or
// trying every type and taking the one that leaves fewest moves (lookahead).
// The seed's "lifted" pruning, a switch, also drops from each type's free
// squares those from which it would attack a placed piece. Each combination
// is its own strategy: copies, free, lookahead, and the same with -lifted.
//
// fast (the default): a bitboard counter that places one piece at a time,
// most constraining types first, identical pieces in increasing square
// order, with per-type masks of squares from which the type would attack a
// placed piece; it counts the last piece's squares by popcount instead of
// visiting them, counts one placement of the first type per class under the
// board's symmetries (4 for rectangles, 8 for squares) weighted by its class
// size, and spreads subproblems over all cores. Boards of up to 64 squares
// use single-word masks, boards up to 256 squares four-word masks; larger
// boards fall back to copies-lifted.
package pieces

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// piecesPollMask sets how often searches poll their context: every 4096 nodes.
const piecesPollMask = 4095

// Heuristics of the seed's search.
const (
	piecesByCopies    = iota // fewest copies left
	piecesByFree             // fewest free squares
	piecesByLookahead        // fewest moves after trying every type
)

func init() {
	tasks := []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All}
	heur := []struct {
		name string
		h    int
		doc  string
	}{
		{"copies", piecesByCopies, "seed DFS, places all copies of the type with fewest copies left"},
		{"free", piecesByFree, "seed DFS, places all copies of the type with fewest free squares"},
		{"lookahead", piecesByLookahead, "seed DFS, places the type whose placements leave fewest moves (slow)"},
	}
	for _, lifted := range []bool{false, true} {
		for _, x := range heur {
			name, doc := x.name, x.doc
			if lifted {
				name += "-lifted"
				doc += ", with the lifted pruning"
			}
			h, l := x.h, lifted
			search.Register(search.Strategy{Puzzle: "pieces", Name: name, Doc: doc, Tasks: tasks,
				Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
					return piecesSolveSeed(ctx, req, h, l)
				}})
		}
	}
	search.Register(search.Strategy{Puzzle: "pieces", Name: "fast", Default: true, Tasks: tasks, Solve: piecesSolveFast,
		Doc: "bitboard counter: one piece at a time, popcount at the last piece, board symmetry, all cores; over 256 squares runs geometric"})
	search.Register(search.Strategy{Puzzle: "pieces", Name: "geometric", Tasks: tasks,
		Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			p, err := piecesSpec(req)
			if err != nil {
				return puzzle.Answer{}, err
			}
			return piecesSolveGeometric(ctx, req, p)
		},
		Doc: "threats from coordinates, no tables: memory flat in the board size (for large boards), all cores"})
}

// piecesSpec checks a pieces request.
func piecesSpec(req puzzle.Request) (puzzle.Pieces, error) {
	p, ok := req.Spec.(puzzle.Pieces)
	if !ok {
		return p, fmt.Errorf("not a pieces instance: %s", req.Spec)
	}
	if p.Board.W < 1 || p.Board.H < 1 {
		return p, fmt.Errorf("pieces: bad board %s", p.Board)
	}
	for k, c := range p.Count {
		if c < 0 {
			return p, fmt.Errorf("pieces: negative count %d of %c", c, puzzle.Kind(k).Letter())
		}
	}
	if p.Total() > p.Board.Size() {
		return p, fmt.Errorf("pieces: %d pieces do not fit on %d squares", p.Total(), p.Board.Size())
	}
	return p, nil
}

// piecesRun collects what every pieces strategy reports.
type piecesRun struct {
	ctx     context.Context
	req     puzzle.Request
	board   puzzle.Board
	nodes   int64
	ticks   int64
	halted  bool
	count   uint64
	first   *puzzle.Solution
	emitErr error
}

// poll checks the context every 4096 nodes; once it reports true it keeps
// doing so.
func (r *piecesRun) poll() bool {
	if !r.halted && r.nodes&piecesPollMask == 0 && r.ctx.Err() != nil {
		r.halted = true
	}
	return r.halted
}

// tick polls the context every 4096 calls, for loops that visit no node
// (the seed's combinations); it reports whether to stop.
func (r *piecesRun) tick() bool {
	r.ticks++
	if !r.halted && r.ticks&piecesPollMask == 0 && r.ctx.Err() != nil {
		r.halted = true
	}
	return r.halted
}

// found handles one solution for the request's task (First or All); it
// returns false to stop the search.
func (r *piecesRun) found(squares []puzzle.Square, kinds []puzzle.Kind) bool {
	r.count++
	switch r.req.Task {
	case puzzle.First:
		sol := puzzle.PlacementOf(r.board, squares, kinds)
		r.first = &sol
		return false
	case puzzle.All:
		if r.req.Emit != nil {
			if err := r.req.Emit(puzzle.PlacementOf(r.board, squares, kinds)); err != nil {
				r.emitErr = err
				return false
			}
		}
	}
	return true
}

// empty answers an instance with no pieces: one placement, the empty one.
func (r *piecesRun) empty() (puzzle.Answer, error) {
	r.count = 1
	if r.req.Task != puzzle.Count {
		r.count = 0
		r.found(nil, nil)
	}
	return r.answer()
}

// answer builds the answer of a finished or stopped run.
func (r *piecesRun) answer() (puzzle.Answer, error) {
	return search.Answer(r.req.Task, r.count, r.nodes, r.halted, r.first, r.emitErr)
}
