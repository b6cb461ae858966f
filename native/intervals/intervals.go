// Package intervals solves the seed's Gattaca puzzle (weighted intervals,
// puzzle.Intervals) natively, two ways:
//
//   - "dp" (default): weighted interval scheduling by dynamic programming.
//     Sorted by end, interval j either stays out (the best of the first
//     j-1) or goes in with the best of the intervals that end before it
//     starts, a prefix of the order found by binary search: O(n log n). The
//     same recurrence counts the optimal selections exactly (each selection
//     is counted once, by its last interval in end order), in uint64 while
//     it fits and math/big past that.
//   - "seed": the seed's recursive search: from each interval, add any
//     interval compatible with all chosen so far, recursively, and take the
//     largest total. It explores every order of every selection, so it is
//     exponential (factorial on well-separated intervals); it refuses more
//     than SeedMaxIntervals intervals and polls its time limit.
package intervals

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sort"

	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	search.Register(search.Strategy{Puzzle: "intervals", Name: "dp", Default: true,
		Tasks: []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.First}, Solve: dpSolve,
		Doc: "weighted interval scheduling: sort by end, binary-search the last compatible interval, O(n log n); counts optimal selections exactly"})
	search.Register(search.Strategy{Puzzle: "intervals", Name: "seed",
		Tasks: []puzzle.Task{puzzle.Optimum, puzzle.First}, Solve: seedSolve,
		Doc: fmt.Sprintf("the seed's recursive search over every compatible extension (exponential; at most %d intervals)", SeedMaxIntervals)})
}

// Result is the DP's answer: the optimum, the number of optimal selections,
// and one optimal selection (indices in input order, increasing).
type Result struct {
	Best  int64
	Count *big.Int
	Picks []int
}

// DP solves an instance by weighted interval scheduling.
func DP(items []puzzle.Interval) Result {
	n := len(items)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Sorted by end; ties by input order, so the answer is deterministic.
	slices.SortStableFunc(order, func(a, b int) int {
		switch ea, eb := items[a].End, items[b].End; {
		case ea < eb:
			return -1
		case ea > eb:
			return 1
		}
		return 0
	})
	ends := make([]int64, n)
	for k, i := range order {
		ends[k] = items[i].End
	}
	// pred[k]: how many intervals of the order end before interval k
	// starts, all of them before k (its end is at least its start).
	pred := make([]int, n)
	for k, i := range order {
		s := items[i].Start
		pred[k] = sort.Search(k, func(m int) bool { return ends[m] >= s })
	}
	// best[k], cnt[k]: over the first k intervals of the order.
	best := make([]int64, n+1)
	cnt := make([]uint64, n+1)
	cnt[0] = 1
	var big_ []*big.Int // the counts in math/big, once one overflows
	for k := 1; k <= n; k++ {
		in := items[order[k-1]].Value + best[pred[k-1]]
		out := best[k-1]
		best[k] = max(in, out)
		if big_ != nil {
			big_ = append(big_, bigStep(big_, in, out, k, pred[k-1]))
			continue
		}
		var c uint64
		var carry bool
		switch {
		case in > out:
			c = cnt[pred[k-1]]
		case out > in:
			c = cnt[k-1]
		default:
			c, carry = limbs.Add64(cnt[k-1], cnt[pred[k-1]])
		}
		if carry {
			big_ = make([]*big.Int, k, n+1)
			for m := range k {
				big_[m] = new(big.Int).SetUint64(cnt[m])
			}
			big_ = append(big_, bigStep(big_, in, out, k, pred[k-1]))
			continue
		}
		cnt[k] = c
	}
	res := Result{Best: best[n]}
	if big_ != nil {
		res.Count = big_[n]
	} else {
		res.Count = new(big.Int).SetUint64(cnt[n])
	}
	// One optimal selection: walk back, taking interval k whenever taking
	// it is optimal.
	res.Picks = []int{}
	for k := n; k > 0; {
		if items[order[k-1]].Value+best[pred[k-1]] == best[k] {
			res.Picks = append(res.Picks, order[k-1])
			k = pred[k-1]
		} else {
			k--
		}
	}
	slices.Sort(res.Picks)
	return res
}

// bigStep is one step of the count in math/big.
func bigStep(cnt []*big.Int, in, out int64, k, pred int) *big.Int {
	switch {
	case in > out:
		return cnt[pred]
	case out > in:
		return cnt[k-1]
	}
	return new(big.Int).Add(cnt[k-1], cnt[pred])
}

// dpSolve answers optimum, count and first by DP.
func dpSolve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	iv := req.Spec.(puzzle.Intervals)
	if ctx.Err() != nil {
		return puzzle.Answer{Status: puzzle.Timeout, Message: "time limit reached before starting"}, nil
	}
	r := DP(iv.Items)
	ans := puzzle.Answer{Status: puzzle.OK, Objective: big.NewInt(r.Best), Bound: big.NewInt(r.Best),
		Stats: map[string]int64{puzzle.StatNodes: int64(len(iv.Items))}}
	switch req.Task {
	case puzzle.Count:
		ans.SetCount(r.Count)
	default:
		ans.Solution = &puzzle.Solution{Board: puzzle.BoardOf(iv), Picks: r.Picks}
	}
	return ans, nil
}

// SeedMaxIntervals bounds the instances the seed's search takes: it
// explores every order of every selection.
const SeedMaxIntervals = 24

// seedSearch is the seed's search with its counters.
type seedSearch struct {
	ctx     context.Context
	items   []puzzle.Interval
	nodes   int64
	stopped bool
}

// apart is the seed's compatibility test: a ends before b starts or b
// ends before a starts (closed intervals; an interval is not apart from
// itself).
func apart(a, b puzzle.Interval) bool { return a.End < b.Start || b.End < a.Start }

// findMax is the seed's find_max: the best total of a selection that holds
// start and extends it with intervals from allowed (all compatible with
// what is chosen so far), recursively; chosen gets the best selection's
// intervals below start.
func (s *seedSearch) findMax(start int, allowed []int) (int64, []int) {
	s.nodes++
	if s.nodes&4095 == 0 && s.ctx.Err() != nil {
		s.stopped = true
	}
	if s.stopped {
		return 0, nil
	}
	var mine []int
	for _, x := range allowed {
		if apart(s.items[x], s.items[start]) {
			mine = append(mine, x)
		}
	}
	best, bestSel := s.bestFrom(mine)
	if best < 0 {
		return s.items[start].Value, []int{start}
	}
	return s.items[start].Value + best, append(bestSel, start)
}

// bestFrom runs findMax from every interval of set, within set, and returns
// the best value and its selection; -1 and nil when set is empty.
func (s *seedSearch) bestFrom(set []int) (int64, []int) {
	var best int64 = -1
	var bestSel []int
	for _, x := range set {
		v, sel := s.findMax(x, set)
		if v > best {
			best, bestSel = v, sel
		}
	}
	return best, bestSel
}

// seedSolve runs the seed's search from every interval and takes the best.
func seedSolve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	iv := req.Spec.(puzzle.Intervals)
	if n := len(iv.Items); n > SeedMaxIntervals {
		return puzzle.Answer{}, fmt.Errorf("the seed's search refuses more than %d intervals (%s has %d): it is exponential; use the default heuristic dp", SeedMaxIntervals, iv, n)
	}
	s := &seedSearch{ctx: ctx, items: iv.Items}
	all := make([]int, len(iv.Items))
	for i := range all {
		all[i] = i
	}
	best, bestSel := s.bestFrom(all)
	stats := map[string]int64{puzzle.StatNodes: s.nodes}
	slices.Sort(bestSel)
	ans := puzzle.Answer{Status: puzzle.OK, Objective: big.NewInt(best), Bound: big.NewInt(best), Stats: stats,
		Solution: &puzzle.Solution{Board: puzzle.BoardOf(iv), Picks: bestSel}}
	if s.stopped {
		// Every selection the search returns is feasible, also when it
		// was cut short: report the best found, and the only bound the
		// seed's search proves, the total of every value.
		var total int64
		for _, it := range iv.Items {
			total += it.Value
		}
		ans.Status, ans.Bound = puzzle.Timeout, big.NewInt(total)
		ans.Message = fmt.Sprintf("stopped after %d nodes; best found %d, not proved optimal", s.nodes, best)
		if bestSel == nil {
			ans.Objective, ans.Solution = nil, nil
		}
	}
	return ans, nil
}
