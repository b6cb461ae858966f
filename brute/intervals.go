package brute

import (
	"context"
	"fmt"
	"math/big"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	solvers.Add("intervals", solver{tasks: []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.First}, solve: intervalSelections})
}

// MaxIntervals bounds the intervals of an intervals instance the backend
// takes: it visits every selection the checker accepts, up to 2^N.
const MaxIntervals = 22

// intervalSelections enumerates every selection of intervals in increasing
// index order, extending one only when the checker's partial check accepts
// the new interval; each complete selection's value comes from the checker
// (puzzle.IntervalsValue). It keeps the best value, how many selections
// reach it, and the first that does.
func intervalSelections(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	iv := req.Spec.(puzzle.Intervals)
	n := len(iv.Items)
	if n > MaxIntervals {
		return puzzle.Answer{}, TooLarge{req.Spec, itoa(n) + " intervals", MaxIntervals}
	}
	extend, err := puzzle.Extender(req.Spec)
	if err != nil {
		return puzzle.Answer{}, err
	}
	b := puzzle.BoardOf(req.Spec)
	var (
		best  int64 = -1
		count uint64
		first []int
		nodes int64
		picks = []int{}
	)
	var rec func(next int) error
	rec = func(next int) error {
		nodes++
		if nodes%stopEvery == 0 && ctx.Err() != nil {
			return errStop
		}
		// Every selection is complete as it stands: score it, then extend it.
		v, err := puzzle.IntervalsValue(iv, picks)
		if err != nil {
			return fmt.Errorf("the checker refuses a selection its partial check accepted: %v", err)
		}
		switch {
		case v > best:
			best, count, first = v, 1, append([]int{}, picks...)
		case v == best:
			count++
		}
		for i := next; i < n; i++ {
			picks = append(picks, i)
			if extend(puzzle.Solution{Board: b, Picks: picks}) == nil {
				if err := rec(i + 1); err != nil {
					return err
				}
			}
			picks = picks[:len(picks)-1]
		}
		return nil
	}
	if err := rec(0); err == errStop {
		return puzzle.Answer{Status: puzzle.Timeout, Stats: map[string]int64{puzzle.StatNodes: nodes},
			Message: fmt.Sprintf("stopped after %d candidates", nodes)}, nil
	} else if err != nil {
		return puzzle.Answer{}, err
	}
	ans := puzzle.Answer{Status: puzzle.OK, Objective: big.NewInt(best), Bound: big.NewInt(best),
		Stats: map[string]int64{puzzle.StatNodes: nodes}}
	if req.Task == puzzle.Count {
		ans.Count = count
	} else {
		ans.Solution = &puzzle.Solution{Board: b, Picks: first}
	}
	return ans, nil
}
