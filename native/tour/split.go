package tour

// Closed knight's tours, and open ones from all starts, counted by
// splitting the board in two halves and joining them (meet in the middle,
// after McKay's count of the 8x8 closed tours), strategy "split".
//
// The board is turned so that its rows are along the shorter side w (at
// most 8) and cut between rows a-1 and a (a = h/2). A closed tour crosses
// the cut through a set E of knight moves between the bottom half's last
// two rows (a-2, a-1) and the top half's first two (a, a+1). Each half is
// counted on its own by a frontier DP (split_half.go) that ends with the
// half's interface: for each of its 2w boundary squares, how many crossing
// moves it still needs (0, 1 or 2) and how the ends of the half's path
// fragments pair up. The top half is the bottom half of the board turned
// upside down, so on a board of even height one table serves both.
//
// The join (split_join.go) takes the top half's interfaces class by class,
// a class being a need vector (the needs of the 2w top squares). For one
// class it enumerates the crossing sets E that give the top squares exactly
// those needs and give the bottom squares a need vector present in the
// bottom table; for each bottom interface of that need vector it follows the
// bottom fragments through E and gets the pairing they induce on the top
// squares that take one crossing move (or a closed loop). These induced
// pairings are summed per pairing, and each is matched against the top
// interfaces of the class: a pair counts when the two pairings together
// close one single cycle. Every tour is counted once: its crossing set and
// its two halves are determined by it. The board's left-right mirror (and,
// with one table for both halves, its up-down flip) maps the tours of a
// pair of need vectors onto those of another pair, so only one pair of
// each orbit is joined, weighted by the orbit's size: one whose bottom need
// vector has the fewest interfaces to follow (splitOrbit).
//
// The classes are the subproblems of the count (package subproblem): a
// count can be cut into shards (solve --shard K/N, then combine),
// checkpointed and resumed. The half tables are rebuilt by every shard and
// every resumed run (they take a small part of the time on 8x8).
//
// Open tours (from every start: spec start "*") are counted the same way as
// Hamiltonian paths: each half also chooses which of its squares are the
// path's ends (split_half.go), and the join asks for one path instead of
// one cycle (split_join.go). Every path is counted once; the answer is
// twice that, the directed tours the published tables count.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// SplitMaxSide is the largest shorter side the split counter accepts: an
// interface (2w squares, four bits each) is one 64-bit word.
const SplitMaxSide = 8

// splitHalfStates holds the measured size of a half DP: the most states it
// holds at once (its largest layer or its interface table, whichever is
// larger), by closed or open tours, shorter side w and rows r of the half,
// on boards 2r tall. Measured 2026-11-26 (TestSplitHalfSizes recomputes
// the entries up to 300,000); the 8x8 closed half is 7,934,470 and the
// 7x7 open one (7 by 4) 27,925,039.
var splitHalfStates = map[bool]map[[2]int]int64{
	true: {
		{3, 3}: 3, {3, 4}: 5, {3, 5}: 8,
		{4, 3}: 36, {4, 4}: 101, {4, 5}: 276, {4, 8}: 671,
		{5, 3}: 119, {5, 4}: 1_155, {5, 5}: 8_083, {5, 6}: 22_584, {5, 8}: 52_752, {5, 10}: 56_497,
		{6, 3}: 1_658, {6, 4}: 24_291, {6, 5}: 276_059, {6, 6}: 938_849, {6, 8}: 1_425_748,
		{7, 3}: 25_121, {7, 4}: 479_037,
		{8, 3}: 248_207, {8, 4}: 7_934_470,
	},
	false: {
		{3, 3}: 105, {3, 4}: 166, {3, 5}: 329, {3, 10}: 2_153,
		{4, 3}: 2_232, {4, 4}: 3_599, {4, 5}: 11_029, {4, 8}: 21_248,
		{5, 3}: 15_341, {5, 4}: 63_962, {5, 5}: 245_420, {5, 6}: 776_575, {5, 8}: 1_165_365,
		{6, 3}: 206_734, {6, 4}: 1_386_771, {6, 5}: 9_182_663,
		{7, 3}: 2_966_069, {7, 4}: 27_925_039,
	},
}

// splitEstimate returns the estimated size (states held at once) of the
// larger half DP of a board w x h (w the shorter side, at most
// SplitMaxSide), for closed or open tours. Unmeasured halves are
// extrapolated from the table: a half of a wider board grows as the same
// half of the closed tours does from w-1 to w (16.6x from 7 to 8 at four
// rows), a taller one 10x a row up to w+1 rows (measured 7x to 15x) and
// 1.3x a row beyond (where the interfaces stop growing: 5 wide, 6 to 10
// rows, 1.07x to 1.6x a row); a half of two or three rows counts as three.
func splitEstimate(w, h int, closed bool) int64 {
	r := max(h-h/2, 3)
	tab := splitHalfStates[closed]
	if e, ok := tab[[2]int{w, r}]; ok {
		return e
	}
	// The tallest measured half of this width below r, if any.
	for q := r - 1; q >= 3; q-- {
		if e, ok := tab[[2]int{w, q}]; ok {
			for ; q < r && e < 1<<50; q++ {
				if q < w+1 {
					e *= 10
				} else {
					e = e * 13 / 10
				}
			}
			return e
		}
	}
	// A width not measured (open tours 8 wide, or wider than the table):
	// grown from w-1 as the closed halves grow.
	if w <= 3 {
		return 1 << 50
	}
	e := splitEstimate(w-1, h, closed)
	c1, ok1 := splitHalfStates[true][[2]int{w, r}]
	c0, ok0 := splitHalfStates[true][[2]int{w - 1, r}]
	g := int64(17)
	if ok1 && ok0 {
		g = (c1 + c0 - 1) / c0
	}
	if e > 1<<50/g {
		return 1 << 50
	}
	return e * g
}

// splitBytesPerState is the memory a state of the estimate costs, measured
// with the peak resident set: 7x7 open 3.70 GB for 27.9 M (133 bytes), 8x8
// closed 1.33 to 1.60 GB for 7.9 M (the join's workers add to the table).
const splitBytesPerState = 200

func init() {
	search.Register(search.Strategy{Puzzle: "tour", Name: "split", Tasks: []puzzle.Task{puzzle.Count},
		Doc:   "closed tours and open tours from all starts: the board cut in two halves, each counted by a frontier DP per interface, joined over the crossing moves (McKay); both cores, shards and checkpoints",
		Solve: tourSolveSplit})
}

// tourSolveSplit answers a count request with the split counter.
func tourSolveSplit(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t, ok := req.Spec.(puzzle.Tour)
	if !ok {
		return puzzle.Answer{}, fmt.Errorf("not a tour instance: %s", req.Spec)
	}
	if ctx.Err() != nil {
		// Cancelled before it starts: a timeout whatever the board, as for
		// every strategy, so that the probe by which bench and compare
		// ask whether a variant takes a puzzle (an open tour from one
		// start, which this counter refuses) is not read as a refusal of
		// the puzzle.
		return puzzle.Answer{Status: puzzle.Timeout, Message: "cancelled before the split count started"}, nil
	}
	var prog splitProgress
	if req.Split != nil && req.Split.Stage != nil {
		stage := req.Split.Stage
		prog = func(half, v, n int, states int64) {
			stage(v+1, n, fmt.Sprintf("squares of half %d: %d states", half, states))
		}
	}
	return splitCount(ctx, req, t, prog)
}

// splitRefusal says why the split counter does not take t on, or "".
func splitRefusal(t puzzle.Tour) string {
	b := t.Board
	w, h := min(b.W, b.H), max(b.W, b.H)
	if !t.Closed && !t.AllStarts {
		return fmt.Sprintf("the split counter counts open tours from all starts only (%s asks for tours from one start)", t)
	}
	if w < 3 || h < 4 {
		return fmt.Sprintf("the split counter needs a board at least 3x4 (%s)", b)
	}
	est := splitEstimate(w, h, t.Closed)
	if w > SplitMaxSide {
		return fmt.Sprintf("the split counter refuses %s: its shorter side %d is over %d (an interface of 2w squares must fit a 64-bit word), and a half would hold about %d interfaces and states",
			b, w, SplitMaxSide, est)
	}
	// The budget is package membudget's: the machine's memory less a
	// margin, or the limit solve --mem sets, so that a larger machine or a
	// cluster node with --mem 64G takes on what a small one refuses.
	need, budget := est*splitBytesPerState, membudget.Budget()
	if need > budget {
		return fmt.Sprintf("the split counter refuses %s: a half would hold about %d interfaces and states, about %s, over its memory budget of %s (solve --mem sets it)",
			t, est, membudget.Bytes(need), membudget.Bytes(budget))
	}
	return ""
}

// splitProgress, if set, hears about the half DPs: the half (1 bottom, 2
// top), the square done, the half's squares and the layer's states.
type splitProgress func(half, v, n int, states int64)

// splitCount counts the closed tours of t with the split counter.
func splitCount(ctx context.Context, req puzzle.Request, t puzzle.Tour, prog splitProgress) (puzzle.Answer, error) {
	if r := tourClosedImpossible(t.Board); r != "" && t.Closed {
		return tourUnsat(r), nil
	}
	if r := splitRefusal(t); r != "" {
		return puzzle.Answer{}, fmt.Errorf("%s", r)
	}
	b := t.Board
	w, h := min(b.W, b.H), max(b.W, b.H)
	a := h / 2
	threads := search.Threads(req.Threads)
	halves := []*halfPlan{newHalfPlan(w, h, a, !t.Closed)}
	if h-a != a {
		halves = append(halves, newHalfPlan(w, h, h-a, !t.Closed))
	}
	var res [2]halfResult
	var states, peak int64
	for i, p := range halves {
		var pf func(v, n int, s int64)
		if prog != nil {
			pf = func(v, n int, s int64) { prog(i+1, v, n, s) }
		}
		res[i] = p.run(ctx, threads, pf)
		if res[i].stopped {
			return puzzle.Answer{Status: puzzle.Timeout, Message: "stopped while building half " + fmt.Sprint(i+1),
				Stats: map[string]int64{puzzle.StatStates: peak}}, nil
		}
		if res[i].overflow {
			return puzzle.Answer{Status: puzzle.Error, Message: "a half count overflowed 64 bits"}, nil
		}
		states += res[i].states
		peak = max(peak, res[i].peak)
	}
	// One side serves both halves when their tables are one (the join's
	// up-down symmetry, splitOrbit, is keyed on that).
	bottom := newSplitSide(res[0].table, w)
	top := bottom
	if len(halves) == 2 {
		top = newSplitSide(res[1].table, w)
	}
	j := newSplitJoin(w, bottom, top, !t.Closed)
	total := min(len(j.top.needs), splitSubproblems)
	partition := fmt.Sprintf("%dx%d cut after row %d: %d top need classes in %d subproblems", w, h, a, len(j.top.needs), total)
	var overflow sync.Once
	overflowed := false
	r, err := search.RunSplit(ctx, req, "split", partition, max(total, 1), func() subproblem.Solver {
		wk := j.newWorker()
		return func(id int) (uint64, bool) {
			var sum [2]uint64
			for c := id; c < len(j.top.needs); c += total {
				if ctx.Err() != nil {
					return 0, false
				}
				if !wk.class(j.top.needs[c], &sum) {
					overflow.Do(func() { overflowed = true })
					return 0, false
				}
			}
			// Directed tours count each path twice: the sum doubled.
			if !t.Closed && limbs.Add(sum[:], sum[:]) {
				overflow.Do(func() { overflowed = true })
				return 0, false
			}
			if sum[1] != 0 {
				overflow.Do(func() { overflowed = true })
				return 0, false
			}
			return sum[0], true
		}
	})
	if err != nil {
		return puzzle.Answer{}, err
	}
	stats := map[string]int64{puzzle.StatStates: states}
	mem := fmt.Sprintf("split %dx%d after row %d: half tables of %d and %d interfaces, %d need classes, %d half-DP states in all (peak layer %d)",
		w, h, a, len(j.bottom.keys), len(j.top.keys), len(j.top.needs), states, peak)
	if overflowed {
		return puzzle.Answer{Status: puzzle.Error, Stats: stats, Message: "a subproblem's count overflowed 64 bits; " + mem}, nil
	}
	ans := search.SplitAnswer(r, stats)
	if ans.Status != puzzle.OK {
		ans.Message = strings.TrimSpace(ans.Message + "; " + mem)
		return ans, nil
	}
	ans.Message = mem
	if ans.CountString() == "0" && search.Whole(req) {
		ans.Status = puzzle.Unsat
		ans.Message = "no tour (split count); " + mem
	}
	return ans, nil
}

// splitFirst reports whether the split counter is tried before the
// frontier DP on a board w x h (w the shorter side): on boards at most
// twice as long as wide, for closed tours and for open tours from all
// starts. There split is the faster of the two, closed or open; on longer
// boards it is alike or slower, and its per-subproblem counts can pass 64
// bits (6x16 ends in an overflow), so those go to the frontier DP first.
// The timings behind the rule are in docs/measurements/tour.md.
func splitFirst(w, h int) bool { return h <= 2*w }

// exactCounter is one of auto's exact counters of closed tours and of open
// tours from all starts.
type exactCounter struct {
	name  string
	solve func(context.Context, puzzle.Request) (puzzle.Answer, error)
}

// exactCounters are auto's exact counters, in the order tried on boards
// splitFirst accepts (the reverse on the others).
var exactCounters = []exactCounter{{"split", tourSolveSplit}, {"frontier", tourSolveFrontier}}

// tourCountExactAuto counts the closed tours of t, or its open tours from
// all starts (no theorem rules them out), with the fastest exact method
// that takes the board: the split counter where splitFirst says so and
// whenever the request is a shard or checkpointed (only split cuts its
// work into subproblems), the frontier DP on longer boards; the other one if the first refuses or answers with
// an error (split's 64-bit overflow). A board both refuse is an error with
// both estimates (exit 2 at the CLI), never a partial count.
func tourCountExactAuto(ctx context.Context, req puzzle.Request, t puzzle.Tour) (puzzle.Answer, error) {
	w, h := min(t.Board.W, t.Board.H), max(t.Board.W, t.Board.H)
	order := slices.Clone(exactCounters)
	split := req.Split != nil && (!req.Split.Shard.Whole() || req.Split.Checkpoint != "")
	if !splitFirst(w, h) && !split {
		slices.Reverse(order)
	}
	if split {
		order = order[:1]
	}
	var fallbacks []string
	for i, m := range order {
		a, err := m.solve(ctx, req)
		if err != nil {
			fallbacks = append(fallbacks, m.name+": refused: "+err.Error())
			continue
		}
		if a.Status == puzzle.Error && i < len(order)-1 {
			fallbacks = append(fallbacks, m.name+": error: "+a.Message)
			continue
		}
		a.Method, a.Fallbacks = m.name, fallbacks
		return a, nil
	}
	return puzzle.Answer{}, fmt.Errorf("no exact method counts %s: %s", t, strings.Join(fallbacks, "; "))
}

// splitSubproblems is the most subproblems a split count is cut into
// (need classes are dealt to them round robin): fixed, so that shards and
// checkpoints do not depend on the number of threads.
const splitSubproblems = 4096
