package tour

// Closed knight's tours counted by splitting the board in two halves and
// joining them (meet in the middle, after McKay's count of the 8x8 tours),
// strategy "split".
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

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/subproblem"
)

// SplitMaxSide is the largest shorter side the split counter accepts: an
// interface (2w squares, four bits each) is one 64-bit word.
const SplitMaxSide = 8

// splitHalfPeak holds the measured number of interfaces of a half (states
// of the last layer of the half DP) by shorter side w, on boards 2w tall
// (the half is w x w): 6x6 1,658, 8x8 7,934,470; 7 is interpolated. A
// taller half grows, measured on 6 wide boards, about 1.4x per row.
var splitHalfPeak = []int64{0, 1, 1, 20, 100, 200, 1_658, 120_000, 7_934_470}

// splitEstimate returns the estimated interfaces of the larger half of a
// board w x h (w the shorter side).
func splitEstimate(w, h int) int64 {
	if w >= len(splitHalfPeak) {
		e := splitHalfPeak[len(splitHalfPeak)-1]
		for i := len(splitHalfPeak); i <= w && e < 1<<50; i++ {
			e *= 60
		}
		return e
	}
	e := splitHalfPeak[w]
	for r := w; r < h-h/2 && e < 1<<50; r++ {
		e = e * 14 / 10
	}
	return e
}

// SplitMaxInterfaces is the largest estimated half table the split counter
// takes on (about 100 bytes an interface while it is built).
var SplitMaxInterfaces int64 = 60_000_000

func init() {
	search.Register(search.Strategy{Puzzle: "tour", Name: "split", Tasks: []puzzle.Task{puzzle.Count},
		Doc:   "closed tours: the board cut in two halves, each counted by a frontier DP per interface, joined over the crossing moves (McKay); both cores, shards and checkpoints",
		Solve: tourSolveSplit})
}

// tourSolveSplit answers a count request with the split counter.
func tourSolveSplit(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t, ok := req.Spec.(puzzle.Tour)
	if !ok {
		return puzzle.Answer{}, fmt.Errorf("not a tour instance: %s", req.Spec)
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
	if !t.Closed {
		return fmt.Sprintf("the split counter counts closed tours only (%s asks for open tours)", t)
	}
	est := splitEstimate(w, h)
	if w > SplitMaxSide {
		return fmt.Sprintf("the split counter refuses %s: its shorter side %d is over %d (an interface of 2w squares must fit a 64-bit word), and a half would hold about %d interfaces",
			b, w, SplitMaxSide, est)
	}
	if est > SplitMaxInterfaces {
		return fmt.Sprintf("the split counter refuses %s: a half would hold about %d interfaces, over its limit of %d (about %d GiB)",
			b, est, SplitMaxInterfaces, est*100>>30)
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
	halves := []*halfPlan{newHalfPlan(w, h, a)}
	if h-a != a {
		halves = append(halves, newHalfPlan(w, h, h-a))
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
	j := newSplitJoin(w, bottom, top)
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
			if sum[0] != 0 {
				overflow.Do(func() { overflowed = true })
				return 0, false
			}
			return sum[1], true
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
// twice as long as wide. Measured with the join of 2026-11-26 (single
// runs, quiet machine, one thread, user seconds, split against frontier):
// 6x8 0.4 against 11.7 (loaded); 6x10 1.97 against 5.55; 6x12 6.19
// against 8.42; 7x10 121.8 (two threads) against 225. Split is faster on
// longer boards too (5x20 0.65 against 1.39), but there its per-subproblem
// counts can pass 64 bits (6x16 stops after 13.7 s with an overflow, the
// frontier DP answers in 29.2 s), so those go to the frontier DP first.
func splitFirst(w, h int) bool { return h <= 2*w }

// closedCounter is one of auto's exact counters of closed tours.
type closedCounter struct {
	name  string
	solve func(context.Context, puzzle.Request) (puzzle.Answer, error)
}

// closedCounters are auto's exact counters, in the order tried on boards
// splitFirst accepts (the reverse on the others).
var closedCounters = []closedCounter{{"split", tourSolveSplit}, {"frontier", tourSolveFrontier}}

// tourCountClosedAuto counts the closed tours of t (no theorem rules them
// out) with the fastest exact method that takes the board: the split
// counter where splitFirst says so and whenever the request is a shard or
// checkpointed (only split cuts its work into subproblems), the frontier
// DP on longer boards; the other one if the first refuses or answers with
// an error (split's 64-bit overflow). A board both refuse is an error with
// both estimates (exit 2 at the CLI), never a partial count.
func tourCountClosedAuto(ctx context.Context, req puzzle.Request, t puzzle.Tour) (puzzle.Answer, error) {
	w, h := min(t.Board.W, t.Board.H), max(t.Board.W, t.Board.H)
	order := slices.Clone(closedCounters)
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
