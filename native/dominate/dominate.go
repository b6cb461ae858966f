// Package dominate solves domination puzzles natively: the fewest pieces of
// one kind that occupy or attack every square, with a proof that fewer do
// not suffice, and every minimum set. The search ("bnb") is a
// branch-and-bound for set cover over bitsets: branch on the undominated
// square with the fewest allowed candidate placements (largest gain
// first), prune by a coverage bound and a packing bound (and each child
// by its parent's gains), find the minimum by raising the size bound from
// the root's lower bound (each failed size a proof), and split the tree
// into subproblems that the shared pool (package subproblem) runs on every
// core. A count searches one set per class under the board's symmetries
// (roots by the least square of an orbit in an edge-first order, leaves
// kept when canonical and weighted by their class size), so one search
// gives the count and the unique count. An existence search on a square
// board folds the root's candidates by the reflection that fixes the
// first branch square, or on an odd board branches at the centre, one
// candidate per orbit of its symmetries. "naive" is the seed-style search
// kept for comparison: every set of squares in row-major order, smallest
// sets first, no bound.
package dominate

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/native/symmetry"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	tasks := []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.First, puzzle.All, puzzle.Unique}
	search.Register(search.Strategy{Puzzle: "dominate", Name: "bnb", Default: true, Tasks: tasks, Solve: bnbSolve,
		Doc: "branch-and-bound over bitsets: branch on the undominated square with fewest candidates, coverage and packing bounds, size raised from the lower bound; split on all cores"})
	search.Register(search.Strategy{Puzzle: "dominate", Name: "naive", Tasks: tasks, Solve: naiveSolve,
		Doc: "seed-style: every set of squares in row-major order, smallest first, no bound; one core"})
}

// splitWant is how many subproblems a split search aims for.
const splitWant = 64

// splitTasks expands the tree below the root of an engine with the given
// bound until there are splitWant nodes (or the tree ends), folded by the
// symmetry sigma (nil: none; see engine.fold), branching at the root as
// orbits says (nil: on the usual branch square).
func splitTasks(e *engine, sigma []int32, orbits *rootOrbits) ([]state, int) {
	var tasks []state
	depth := 0
	for depth = 1; depth <= e.limit; depth++ {
		tasks = e.expand(depth, sigma, orbits)
		if len(tasks) >= splitWant {
			break
		}
	}
	if depth > e.limit {
		depth = e.limit
	}
	return tasks, depth
}

// rootSymmetry returns a symmetry of the board other than the identity
// that fixes the square the search branches on first and is its own
// inverse (on a square board, the diagonal reflection through the corner
// a1), or nil if there is none: the split folds the root's candidates by
// it, which halves the work of counts and of proofs that no set exists.
func rootSymmetry(g *geom) []int32 {
	e := newEngine(context.Background(), g, false, g.n)
	t := e.branchSquare(g.full, g.full)
	if t < 0 {
		return nil
	}
	for _, p := range symmetry.Perms[int32](g.board)[1:] {
		if p[t] != int32(t) {
			continue
		}
		inv := true
		for q, r := range p {
			if p[r] != int32(q) {
				inv = false
				break
			}
		}
		if inv {
			return p
		}
	}
	return nil
}

// foldNote names the fold in a split's partition (checkpoints of another
// split do not match it).
func foldNote(sigma []int32) string {
	if sigma == nil {
		return ""
	}
	return ", root folded by a symmetry"
}

// exists searches for a dominating set of at most limit pieces on every
// core; it returns one if found, and whether the search finished (a
// stopped search proves nothing).
func exists(ctx context.Context, req puzzle.Request, g *geom, indep bool, limit int, nodes *atomic.Int64) ([]int32, bool, error) {
	var sigma []int32
	orbits := existenceRoot(g)
	if orbits == nil {
		sigma = rootSymmetry(g)
	}
	tasks, depth := splitTasks(newEngine(ctx, g, indep, limit), sigma, orbits)
	// The sizes below limit are refuted (optimum tries them in order from
	// a lower bound).
	var found atomic.Bool
	var mu sync.Mutex
	var sol []int32
	plain := req
	plain.Split = nil // a shard of an existence search proves nothing
	note := foldNote(sigma)
	if orbits != nil {
		note = ", one root candidate per orbit"
	}
	partition := fmt.Sprintf("sets of at most %d pieces, prefixes of %d placements%s: %d subproblems", limit, depth, note, len(tasks))
	res, err := search.RunSplit(ctx, plain, "bnb", partition, len(tasks), func() subproblem.Solver {
		e := newEngine(ctx, g, indep, limit)
		e.minimal = true
		e.abort = found.Load
		e.leaf = func(chosen []int32, _ []uint64) (uint64, bool) {
			mu.Lock()
			if sol == nil {
				sol = slices.Clone(chosen)
			}
			mu.Unlock()
			found.Store(true)
			return 1, false
		}
		return func(id int) (uint64, bool) {
			if found.Load() {
				return 0, true
			}
			n0 := e.nodes
			e.stopped, e.count = false, 0
			e.run(tasks[id])
			nodes.Add(e.nodes - n0)
			if e.stopped && e.count == 0 && !found.Load() {
				return 0, false
			}
			return e.count, true
		}
	})
	if err != nil {
		return nil, false, err
	}
	if sol != nil {
		return sol, true, nil
	}
	return nil, res.Complete, nil
}

// optimum finds the fewest pieces (at most cap) that dominate: greedy gives
// a set, then every size from the root's lower bound up is searched, each
// failure a proof that the minimum is larger. It returns the best set
// found (nil if none of at most cap pieces), the proven lower bound, and
// whether the search finished.
func optimum(ctx context.Context, req puzzle.Request, g *geom, indep bool, capK int, nodes *atomic.Int64) (best []int32, bound int, done bool, err error) {
	if gr := greedy(g, indep); len(gr) <= capK {
		best = gr
	}
	root := newEngine(ctx, g, indep, g.n)
	st := root.rootState()
	und := slices.Clone(g.full)
	bound = root.lowerBound(und, st.allow)
	for k := bound; k <= capK; k++ {
		if best != nil && len(best) <= k {
			return best, k, true, nil
		}
		sol, finished, err := exists(ctx, req, g, indep, k, nodes)
		if err != nil {
			return nil, 0, false, err
		}
		if sol != nil {
			return sol, k, true, nil
		}
		if !finished {
			return best, k, false, nil
		}
		bound = k + 1
	}
	return best, bound, true, nil
}

// solution turns a set of squares into a layout of the spec's piece.
func solution(d puzzle.Dominate, set []int32) *puzzle.Solution {
	sq := make([]puzzle.Square, len(set))
	kinds := make([]puzzle.Kind, len(set))
	for i, s := range set {
		sq[i], kinds[i] = puzzle.Square(s), d.Piece
	}
	sol := puzzle.PlacementOf(d.Board, sq, kinds)
	return &sol
}

// limitOf returns the size bound of the sets a count, first, all or unique
// task is about: k= when given, else the minimum (found by optimum). ok is
// false when the search stopped first (ans says so) or no set exists
// (ans is status unsat).
func limitOf(ctx context.Context, req puzzle.Request, d puzzle.Dominate, g *geom, nodes *atomic.Int64) (limit int, ans puzzle.Answer, ok bool, err error) {
	if d.HasK {
		return d.K, ans, true, nil
	}
	best, bound, done, err := optimum(ctx, req, g, d.Independent, g.n, nodes)
	if err != nil {
		return 0, ans, false, err
	}
	if !done {
		ans = puzzle.Answer{Status: puzzle.Timeout, Message: fmt.Sprintf("stopped while proving the minimum (at least %d)", bound)}
		return 0, ans, false, nil
	}
	if best == nil {
		return 0, puzzle.Answer{Status: puzzle.Unsat}, false, nil
	}
	return len(best), ans, true, nil
}

// resumedMinimum returns the minimum a count resumes with: a count starts
// writing its checkpoint only once it has proved the minimum, and names
// it in the partition ("sets of at most K pieces, one per class: ..."),
// so a checkpoint this build wrote for the same instance and task holds a
// proven minimum, and the resumed count does not prove it again.
// With k= there is no minimum to prove, and nothing to take.
func resumedMinimum(req puzzle.Request) (int, bool) {
	if (req.Task != puzzle.Count && req.Task != puzzle.Unique) || req.Spec.(puzzle.Dominate).HasK {
		return 0, false
	}
	p, ok := search.CheckpointPartition(req, "bnb")
	if !ok {
		return 0, false
	}
	var k int
	if _, err := fmt.Sscanf(p, countPartitionHead, &k); err != nil || k < 1 {
		return 0, false
	}
	return k, true
}

// countPartitionHead starts the partition of a count, naming its limit.
const countPartitionHead = "sets of at most %d pieces, one per class:"

// bnbSolve answers every task with the branch-and-bound.
func bnbSolve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	d := req.Spec.(puzzle.Dominate)
	g := newGeom(d)
	var nodes atomic.Int64
	stats := func() map[string]int64 { return map[string]int64{puzzle.StatNodes: nodes.Load()} }
	switch req.Task {
	case puzzle.Optimum:
		capK := g.n
		if d.HasK {
			capK = d.K
		}
		best, bound, done, err := optimum(ctx, req, g, d.Independent, capK, &nodes)
		if err != nil {
			return puzzle.Answer{}, err
		}
		return optimumAnswer(d, best, bound, done, stats()), nil
	case puzzle.First:
		limit := g.n
		if d.HasK {
			limit = d.K
		}
		best, bound, done, err := optimum(ctx, req, g, d.Independent, limit, &nodes)
		if err != nil {
			return puzzle.Answer{}, err
		}
		ans := puzzle.Answer{Status: puzzle.OK, Stats: stats()}
		switch {
		case !done:
			ans.Status, ans.Message = puzzle.Timeout, fmt.Sprintf("stopped while proving the minimum (at least %d)", bound)
		case best == nil:
			ans.Status = puzzle.Unsat
		default:
			ans.Solution = solution(d, best)
		}
		return ans, nil
	}
	// Read before the count writes the checkpoint.
	limit, resumed := resumedMinimum(req)
	if !resumed {
		proved, ans, ok, err := limitOf(ctx, req, d, g, &nodes)
		if err != nil || !ok {
			ans.Stats = stats()
			return ans, err
		}
		limit = proved
	}
	if req.Task == puzzle.All {
		return bnbAll(ctx, req, d, g, limit, &nodes)
	}
	ans, err := bnbCount(ctx, req, d, g, limit, &nodes)
	if resumed && err == nil {
		// Say what ran: this run counted, and took the minimum from the run
		// that proved it.
		ans.Method = fmt.Sprintf("count resumed at the minimum %d as proved by the run that wrote the checkpoint", limit)
	}
	return ans, err
}

// optimumAnswer is the answer of an optimisation: status OK with the
// optimum when done; Unsat when done and no set of at most K exists;
// Timeout with the best set found and the proven bound otherwise.
func optimumAnswer(d puzzle.Dominate, best []int32, bound int, done bool, stats map[string]int64) puzzle.Answer {
	ans := puzzle.Answer{Status: puzzle.OK, Stats: stats}
	if best != nil {
		ans.Solution = solution(d, best)
		ans.Objective = big.NewInt(int64(len(best)))
	}
	ans.Bound = big.NewInt(int64(bound))
	switch {
	case !done:
		ans.Status = puzzle.Timeout
		ans.Message = fmt.Sprintf("stopped: at least %d pieces proven", bound)
		if best != nil {
			ans.Message += fmt.Sprintf(", best set found has %d", len(best))
		}
	case best == nil:
		ans.Status, ans.Objective, ans.Bound = puzzle.Unsat, nil, nil
	default:
		ans.Bound = big.NewInt(int64(len(best)))
	}
	return ans
}

// eachSet calls fn with every set a leaf stands for: its pieces plus any
// allowed squares up to limit pieces (the pieces alone for independent
// sets); it stops when fn returns false and reports whether it finished.
func eachSet(chosen []int32, allow []uint64, limit int, indep bool, fn func(set []int32) bool) bool {
	if indep {
		return fn(chosen)
	}
	var free []int32
	for i, w := range allow {
		for ; w != 0; w &= w - 1 {
			free = append(free, int32(i*64+bits.TrailingZeros64(w)))
		}
	}
	set := slices.Clone(chosen)
	var rec func(from int) bool
	rec = func(from int) bool {
		if !fn(set) {
			return false
		}
		if len(set) == limit {
			return true
		}
		for i := from; i < len(free); i++ {
			set = append(set, free[i])
			ok := rec(i + 1)
			set = set[:len(set)-1]
			if !ok {
				return false
			}
		}
		return true
	}
	return rec(0)
}

// countWant is how many subproblems a count aims for: enough that two
// cores (or a cluster's shards) share the work evenly.
const countWant = 2048

// Stat names of the counts a count search finds besides the one asked for.
const (
	statSets    = "sets"    // dominating sets (the count)
	statClasses = "classes" // classes of sets under the board's symmetries (the unique count)
	statLimit   = "limit"   // the set size bound searched (the minimum when no k= is given)
)

// bnbCount counts the sets of at most limit pieces (Count), or their
// classes under the board's symmetries (Unique), through the shared pool:
// one search over the canonical set of each class (see orbitSplit) finds
// both, the count as the classes weighted by their sizes; the one not
// asked for goes into the stats when this run searched every subproblem.
func bnbCount(ctx context.Context, req puzzle.Request, d puzzle.Dominate, g *geom, limit int, nodes *atomic.Int64) (puzzle.Answer, error) {
	o := newOrbitSplit(g)
	tasks, depth := orbitTasks(ctx, g, d.Independent, limit, o, countWant)
	partition := fmt.Sprintf(countPartitionHead+" a root per least square of an orbit, prefixes of %d further placements, interleaved by %d: %d subproblems", limit, depth, taskStride, len(tasks))
	var overflow atomic.Bool // a count asked for passed 2^64
	var mu sync.Mutex
	var other subproblem.Sum // the count not asked for, over this run's subproblems
	otherOK := true          // no subproblem's count not asked for passed 2^64
	solved := 0              // the subproblems this run searched to the end
	res, err := search.RunSplit(ctx, req, "bnb", partition, len(tasks), func() subproblem.Solver {
		e := newEngine(ctx, g, d.Independent, limit)
		e.minimal = !d.HasK // the limit is the proven minimum
		cc := &classCounter{o: o}
		var sets, classes uint64
		var setsOver bool
		e.leaf = func(chosen []int32, allow []uint64) (uint64, bool) {
			eachSet(chosen, allow, limit, d.Independent, func(set []int32) bool {
				if w := cc.weigh(set); w > 0 {
					var over bool
					sets, over = limbs.Add64(sets, w)
					setsOver = setsOver || over
					classes++
				}
				return true
			})
			return 0, true
		}
		return func(id int) (uint64, bool) {
			n0 := e.nodes
			e.stopped, sets, classes, setsOver = false, 0, 0, false
			e.run(tasks[id])
			nodes.Add(e.nodes - n0)
			if e.stopped {
				return 0, false
			}
			mine, theirs := sets, classes
			if req.Task == puzzle.Unique {
				mine, theirs = classes, sets
			} else if setsOver {
				overflow.Store(true)
				return 0, false
			}
			mu.Lock()
			other.Add(theirs)
			otherOK = otherOK && !(req.Task == puzzle.Unique && setsOver)
			solved++
			mu.Unlock()
			return mine, true
		}
	})
	if err != nil {
		return puzzle.Answer{}, err
	}
	stats := map[string]int64{puzzle.StatNodes: nodes.Load(), statLimit: int64(limit)}
	if overflow.Load() {
		return puzzle.Answer{Status: puzzle.Error, Message: "a subproblem's count passed 2^64", Stats: stats}, nil
	}
	if o := other.Big(); res.Complete && solved == res.InShard && otherOK && o.IsInt64() {
		name := statClasses
		if req.Task == puzzle.Unique {
			name = statSets
		}
		stats[name] = o.Int64()
	}
	ans := search.SplitAnswer(res, stats)
	if ans.Status == puzzle.OK && ans.Count == 0 && ans.Big == nil && search.Whole(req) {
		ans.Status = puzzle.Unsat
	}
	return ans, nil
}

// bnbAll streams every set of at most limit pieces, one search on one core.
func bnbAll(ctx context.Context, req puzzle.Request, d puzzle.Dominate, g *geom, limit int, nodes *atomic.Int64) (puzzle.Answer, error) {
	e := newEngine(ctx, g, d.Independent, limit)
	var emitErr error
	var count uint64
	e.leaf = func(chosen []int32, allow []uint64) (uint64, bool) {
		ok := eachSet(chosen, allow, limit, d.Independent, func(set []int32) bool {
			count++
			if req.Emit != nil {
				emitErr = req.Emit(*solution(d, set))
			}
			return emitErr == nil
		})
		return 0, ok
	}
	e.run(e.rootState())
	nodes.Add(e.nodes)
	stopped := e.stopped && emitErr == nil
	return search.Answer(puzzle.All, count, nodes.Load(), stopped, nil, emitErr)
}
