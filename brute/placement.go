package brute

import (
	"context"
	"errors"

	"github.com/boardsat/boardsat/puzzle"
)

// errStop ends an enumeration early (context done, first solution found).
var errStop = errors.New("stop")

// placements enumerates layouts of the given piece counts on b square by
// square: each square stays empty or takes any kind with pieces left, and a
// placed piece stays only if the checker's partial check accepts it. A
// layout with every piece placed is counted when puzzle.Check accepts it.
func placements(ctx context.Context, req puzzle.Request, b puzzle.Board, want [puzzle.NumKinds]int) (puzzle.Answer, error) {
	n := b.Size()
	if n > MaxPlacementSquares {
		return puzzle.Answer{}, TooLarge{req.Spec, "a board of " + itoa(n) + " squares", MaxPlacementSquares}
	}
	extend, err := puzzle.Extender(req.Spec)
	if err != nil {
		return puzzle.Answer{}, err
	}
	layout := make([]puzzle.Kind, n)
	for i := range layout {
		layout[i] = puzzle.NoPiece
	}
	left := want
	total := 0
	for _, c := range want {
		total += c
	}
	var count uint64
	var nodes int64
	var first *puzzle.Solution
	var emitErr error
	sol := puzzle.Solution{Board: b, Layout: layout}
	var rec func(sq, remaining int) error
	rec = func(sq, remaining int) error {
		nodes++
		if nodes%stopEvery == 0 && ctx.Err() != nil {
			return errStop
		}
		if remaining == 0 {
			if puzzle.Check(req.Spec, sol) != nil {
				return nil
			}
			count++
			if req.Task == puzzle.First {
				cp := puzzle.Solution{Board: b, Layout: append([]puzzle.Kind(nil), layout...)}
				first = &cp
				return errStop
			}
			if req.Emit != nil {
				if err := req.Emit(puzzle.Solution{Board: b, Layout: append([]puzzle.Kind(nil), layout...)}); err != nil {
					emitErr = err
					return errStop
				}
			}
			return nil
		}
		if n-sq < remaining {
			return nil // too few squares left: counting, not geometry
		}
		for k := range puzzle.Kind(puzzle.NumKinds) {
			if left[k] == 0 {
				continue
			}
			layout[sq] = k
			if extend(sol) == nil {
				left[k]--
				err := rec(sq+1, remaining-1)
				left[k]++
				if err != nil {
					layout[sq] = puzzle.NoPiece
					return err
				}
			}
			layout[sq] = puzzle.NoPiece
		}
		return rec(sq+1, remaining)
	}
	err = rec(0, total)
	stopped := err == errStop && ctx.Err() != nil && first == nil && emitErr == nil
	ans := finish(req.Task, count, nodes, stopped, first)
	if emitErr != nil {
		ans.Status, ans.Message = puzzle.Error, "stopped by the solution callback: "+emitErr.Error()
		return ans, emitErr
	}
	return ans, nil
}

func itoa(n int) string {
	const digits = "0123456789"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{digits[n%10]}, b...)
	}
	return string(b)
}
