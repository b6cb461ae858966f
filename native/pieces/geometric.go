package pieces

// Non-attacking pieces on large boards: the geometric counter, which
// decides every threat from the two squares' coordinates and so keeps no
// table at all (memory grows with the number of pieces, not the board).

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// piecesGeoOrder is the geometric counter's placement order: the kinds
// that threaten most squares on a large board first.
var piecesGeoOrder = []puzzle.Kind{puzzle.Queen, puzzle.Rook, puzzle.Bishop, puzzle.King, puzzle.Knight}

// piecesThreat reports whether a piece of kind k threatens a square df
// files and dr ranks away (absolute differences, not both zero) on an
// empty board. Every kind's threats are symmetric, so two pieces are in
// conflict when either kind threatens across their distance.
func piecesThreat(k puzzle.Kind, df, dr int) bool {
	switch k {
	case puzzle.King:
		return df <= 1 && dr <= 1
	case puzzle.Knight:
		return (df == 1 && dr == 2) || (df == 2 && dr == 1)
	case puzzle.Rook:
		return df == 0 || dr == 0
	case puzzle.Bishop:
		return df == dr
	case puzzle.Queen:
		return df == 0 || dr == 0 || df == dr
	}
	return false
}

// piecesGeo is one worker of the geometric counter: the slots (one per
// piece, copies of a kind consecutive and in increasing square order) and
// the squares placed so far.
type piecesGeo struct {
	run       *piecesRun
	w, n      int
	kind      []puzzle.Kind
	first     []bool // first[i]: slot i is the first copy of its kind
	sq, f, r  []int
	count     uint64
	nodes     int64
	halted    bool
	stop      *atomic.Bool
	ctx       context.Context
	enumerate bool // report each solution to run (First, All)
}

func newPiecesGeo(p puzzle.Pieces) *piecesGeo {
	g := &piecesGeo{w: p.Board.W, n: p.Board.Size()}
	for _, k := range piecesGeoOrder {
		for c := range p.Count[k] {
			g.kind = append(g.kind, k)
			g.first = append(g.first, c == 0)
		}
	}
	m := len(g.kind)
	g.sq, g.f, g.r = make([]int, m), make([]int, m), make([]int, m)
	return g
}

// free reports whether slot i may stand on square q (file f, rank r)
// beside slots 0..i-1.
func (g *piecesGeo) free(i, q, f, r int) bool {
	k := g.kind[i]
	for j := range i {
		df, dr := f-g.f[j], r-g.r[j]
		if df < 0 {
			df = -df
		}
		if dr < 0 {
			dr = -dr
		}
		if q == g.sq[j] || piecesThreat(k, df, dr) || piecesThreat(g.kind[j], df, dr) {
			return false
		}
	}
	return true
}

// poll checks the context and the shared stop flag every 4096 nodes.
func (g *piecesGeo) poll() bool {
	if !g.halted && g.nodes&piecesPollMask == 0 && ((g.stop != nil && g.stop.Load()) || g.ctx.Err() != nil) {
		g.halted = true
		if g.stop != nil {
			g.stop.Store(true)
		}
	}
	return g.halted
}

// place searches slot i on squares lo..hi-1 (and on, for later slots),
// counting or reporting completions; false stops the search.
func (g *piecesGeo) place(i, lo, hi int) bool {
	for q := lo; q < hi; q++ {
		g.nodes++
		if g.poll() {
			return false
		}
		f, r := q%g.w, q/g.w
		if !g.free(i, q, f, r) {
			continue
		}
		g.sq[i], g.f[i], g.r[i] = q, f, r
		if i+1 == len(g.kind) {
			g.count++
			if g.enumerate && !g.report() {
				return false
			}
			continue
		}
		start := 0
		if !g.first[i+1] {
			start = q + 1
		}
		if !g.place(i+1, start, g.n) {
			return false
		}
	}
	return true
}

// report hands the current placement to the run (First, All).
func (g *piecesGeo) report() bool {
	sq := make([]puzzle.Square, len(g.sq))
	for i, q := range g.sq {
		sq[i] = puzzle.Square(q)
	}
	return g.run.found(sq, g.kind)
}

// piecesSolveGeometric answers with the geometric counter; counts split
// into one subproblem per rank of the first piece.
func piecesSolveGeometric(ctx context.Context, req puzzle.Request, p puzzle.Pieces) (puzzle.Answer, error) {
	run := &piecesRun{ctx: ctx, req: req, board: p.Board}
	g := newPiecesGeo(p)
	if len(g.kind) == 0 {
		return run.empty()
	}
	if req.Task != puzzle.Count {
		g.run, g.ctx, g.enumerate = run, ctx, true
		g.place(0, 0, g.n)
		run.nodes, run.halted = g.nodes, g.halted
		return run.answer()
	}
	var stop atomic.Bool
	var mu sync.Mutex
	var workers []*piecesGeo
	partition := fmt.Sprintf("pieces-geometric first piece's rank: %d subproblems", p.Board.H)
	res, err := search.RunSplit(ctx, req, "geometric", partition, p.Board.H, func() subproblem.Solver {
		w := newPiecesGeo(p)
		w.ctx, w.stop = ctx, &stop
		mu.Lock()
		workers = append(workers, w)
		mu.Unlock()
		return func(rank int) (uint64, bool) {
			before := w.count
			ok := w.place(0, rank*w.w, (rank+1)*w.w)
			return w.count - before, ok
		}
	})
	if err != nil {
		return puzzle.Answer{}, err
	}
	var nodes int64
	for _, w := range workers {
		nodes += w.nodes
	}
	return search.SplitAnswer(res, map[string]int64{puzzle.StatNodes: nodes}), nil
}
