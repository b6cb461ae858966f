package pieces

// Non-attacking pieces: the fast counter's plan (piece order, board
// symmetry classes, subproblems on all cores).

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/native/symmetry"
	"github.com/boardsat/boardsat/puzzle"
)

// ---------------------------------------------------------------------------
// The fast counter.

// piecesPlan is the placement order shared by the fast engines: one slot
// per piece, kinds most constraining first, copies of a kind consecutive.
type piecesPlan struct {
	board puzzle.Board
	n     int
	kinds []puzzle.Kind // kinds present, in placement order
	slot  []int         // slot[i]: index into kinds of slot i's kind
	first []bool        // first[i]: slot i is the first copy of its kind
	// need[i][j]: copies of kinds[j] still to place after slot i is filled.
	need [][puzzle.NumKinds]int
	sym  [][]int // the board's symmetries as square permutations (identity first)
}

// slotKinds returns each slot's kind.
func (pl *piecesPlan) slotKinds() []puzzle.Kind {
	kinds := make([]puzzle.Kind, len(pl.slot))
	for i, j := range pl.slot {
		kinds[i] = pl.kinds[j]
	}
	return kinds
}

// newPiecesPlan orders the kinds by total attack-set size on the board,
// largest first (queens, then rooks or bishops, ...), ties in spec order.
func newPiecesPlan(p puzzle.Pieces) *piecesPlan {
	b := p.Board
	pl := &piecesPlan{board: b, n: b.Size()}
	weight := map[puzzle.Kind]int{}
	for k := range puzzle.Kind(puzzle.NumKinds) {
		if p.Count[k] == 0 {
			continue
		}
		pl.kinds = append(pl.kinds, k)
		for q := range pl.n {
			weight[k] += len(b.Attacks(k, puzzle.Square(q)))
		}
	}
	slices.SortStableFunc(pl.kinds, func(a, c puzzle.Kind) int { return weight[c] - weight[a] })
	for j, k := range pl.kinds {
		for c := range p.Count[k] {
			pl.slot = append(pl.slot, j)
			pl.first = append(pl.first, c == 0)
		}
	}
	pl.need = make([][puzzle.NumKinds]int, len(pl.slot))
	for i := range pl.slot {
		for t := i + 1; t < len(pl.slot); t++ {
			pl.need[i][pl.slot[t]]++
		}
	}
	pl.sym = symmetry.Perms[int](b)
	return pl
}

// weight returns how many placements the set of squares set (sorted)
// stands for if it is the least of its images under the board's
// symmetries, and 0 if it is not.
func (pl *piecesPlan) weight(set []int) uint64 {
	return symmetry.SetClassWeight(pl.sym, set, make([]int, len(set)))
}

// piecesTask is one subproblem of the fast counter: the first slots filled
// (squares in slot order) and the weight of their class.
type piecesTask struct {
	prefix []int
	weight uint64
}

// piecesSymSets bounds the number of ways to choose the first kind's
// squares for which the fast counter enumerates them up to symmetry (and
// the number of subproblems it makes).
const piecesSymSets = 200000

// piecesChoose returns n choose k, saturating at 1<<62.
func piecesChoose(n, k int) uint64 {
	c := uint64(1)
	for i := range k {
		c = c * uint64(n-i) / uint64(i+1)
		if c > 1<<62/uint64(n+1) {
			return 1 << 62
		}
	}
	return c
}

// tasks splits the count into subproblems (and reports the partial
// placements it visited): each placement of the first
// kind's copies up to symmetry (weighted by its class size), extended by
// every square of the next slot; with many copies of the first kind, simply
// the first two slots' squares.
func (pl *piecesPlan) tasks(legal func(prefix []int) bool) (out []piecesTask, nodes int64) {
	c0 := 0
	for c0 < len(pl.slot) && pl.slot[c0] == 0 {
		c0++
	}
	sets := piecesChoose(pl.n, c0)
	useSym := c0 < len(pl.slot) && sets <= piecesSymSets && len(pl.sym) > 1
	depth := min(2, len(pl.slot))
	if useSym {
		depth = c0
		if sets*uint64(pl.n) <= piecesSymSets {
			depth++
		}
	}
	prefix := make([]int, 0, depth)
	var walk func()
	walk = func() {
		i := len(prefix)
		if i == depth {
			w := uint64(1)
			if useSym {
				if w = pl.weight(prefix[:c0]); w == 0 {
					return
				}
			}
			out = append(out, piecesTask{slices.Clone(prefix), w})
			return
		}
		start := 0
		if !pl.first[i] {
			start = prefix[i-1] + 1
		}
		for q := start; q < pl.n; q++ {
			prefix = append(prefix, q)
			if legal(prefix) {
				nodes++
				if useSym && i+1 == c0 && pl.weight(prefix) == 0 {
					prefix = prefix[:i]
					continue
				}
				walk()
			}
			prefix = prefix[:i]
		}
	}
	walk()
	return out, nodes
}

// piecesSolveFast answers with the fast counter.
func piecesSolveFast(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	p, err := piecesSpec(req)
	if err != nil {
		return puzzle.Answer{}, err
	}
	if p.Board.Size() > 256 {
		ans, err := piecesSolveGeometric(ctx, req, p)
		ans.Heuristic = "geometric"
		return ans, err
	}
	pl := newPiecesPlan(p)
	run := &piecesRun{ctx: ctx, req: req, board: p.Board}
	if len(pl.slot) == 0 {
		return run.empty()
	}
	var e piecesEngine
	if pl.n <= 64 {
		e = newPieces64(pl)
	} else {
		e = newPiecesWide(pl)
	}
	if req.Task != puzzle.Count {
		e.enumerate(run)
		return run.answer()
	}
	var stop atomic.Bool
	tasks, nodes := pl.tasks(e.legal)
	var mu sync.Mutex
	var workers []piecesCounter
	partition := fmt.Sprintf("pieces-fast prefixes of %d slots: %d subproblems", piecesTaskDepth(tasks), len(tasks))
	res, err := search.RunSplit(ctx, req, "fast", partition, len(tasks), func() subproblem.Solver {
		w := e.worker(ctx, &stop)
		mu.Lock()
		workers = append(workers, w)
		mu.Unlock()
		return func(id int) (uint64, bool) {
			c := tasks[id].weight * w.countFrom(tasks[id].prefix)
			return c, !stop.Load() && ctx.Err() == nil
		}
	})
	if err != nil {
		return puzzle.Answer{}, err
	}
	for _, w := range workers {
		nodes += w.nodeCount()
	}
	return search.SplitAnswer(res, map[string]int64{puzzle.StatNodes: nodes}), nil
}

// piecesTaskDepth is the number of slots the subproblems fix (0 if none).
func piecesTaskDepth(tasks []piecesTask) int {
	if len(tasks) == 0 {
		return 0
	}
	return len(tasks[0].prefix)
}

// piecesEngine is a fast counter for one board size class.
type piecesEngine interface {
	// legal reports whether the squares of the first slots are a legal
	// partial placement (in order, no threats).
	legal(prefix []int) bool
	// enumerate visits every solution in order, for First and All.
	enumerate(run *piecesRun)
	// worker returns a counter for subproblems that polls ctx and stop.
	worker(ctx context.Context, stop *atomic.Bool) piecesCounter
}

// piecesCounter counts the completions of subproblems.
type piecesCounter interface {
	countFrom(prefix []int) uint64
	nodeCount() int64
}
