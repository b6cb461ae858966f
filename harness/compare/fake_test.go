package compare

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// fakeBackend is a brute-force backend registered only in tests: it places
// pieces (or queens) square by square and asks the independent checker about
// every complete layout. With wrong set it miscounts by one whenever there
// are at least two knights on a board at least 3x3: the planted bug the
// shrinking tests must find.
type fakeBackend struct {
	name  string
	wrong bool
}

func (f fakeBackend) Name() string { return f.name }
func (f fakeBackend) Doc() string  { return "test brute force" }
func (f fakeBackend) Choices() []puzzle.Choice {
	return []puzzle.Choice{
		{Field: "heuristic", Puzzle: "pieces", Name: "plain", Doc: "plain", Default: true},
		{Field: "heuristic", Puzzle: "pieces", Name: "reversed", Doc: "kinds in reverse order"},
		{Field: "heuristic", Puzzle: "queens", Name: "plain", Doc: "plain", Default: true},
	}
}

func (f fakeBackend) Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	var p puzzle.Pieces
	switch s := req.Spec.(type) {
	case puzzle.Pieces:
		p = s
	case puzzle.Queens:
		p = puzzle.Pieces{Board: s.Board()}
		p.Count[puzzle.Queen] = s.N
	default:
		return puzzle.Answer{}, fmt.Errorf("%s does not do %s", f.name, req.Spec.Puzzle())
	}
	if req.Task != puzzle.Count && req.Task != puzzle.First && req.Task != puzzle.All {
		return puzzle.Answer{}, fmt.Errorf("%s does not do task %s", f.name, req.Task)
	}
	if req.Heuristic != "" && req.Heuristic != "plain" && req.Heuristic != "reversed" {
		return puzzle.Answer{}, fmt.Errorf("unknown heuristic %q", req.Heuristic)
	}
	var count uint64
	var first *puzzle.Solution
	layout := make([]puzzle.Kind, p.Board.Size())
	for i := range layout {
		layout[i] = puzzle.NoPiece
	}
	left := p.Count
	var rec func(sq int) error
	rec = func(sq int) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		total := 0
		for _, n := range left {
			total += n
		}
		if total == 0 {
			sol := puzzle.Solution{Board: p.Board, Layout: append([]puzzle.Kind(nil), layout...)}
			if puzzle.Check(req.Spec, sol) == nil {
				count++
				if first == nil {
					first = &sol
				}
				if req.Emit != nil {
					return req.Emit(sol)
				}
			}
			return nil
		}
		if sq == len(layout) || len(layout)-sq < total {
			return nil
		}
		for k := range left {
			if left[k] > 0 {
				left[k]--
				layout[sq] = puzzle.Kind(k)
				err := rec(sq + 1)
				layout[sq] = puzzle.NoPiece
				left[k]++
				if err != nil {
					return err
				}
			}
		}
		return rec(sq + 1)
	}
	if err := rec(0); err != nil {
		return puzzle.Answer{Status: puzzle.Timeout, Message: err.Error()}, nil
	}
	if f.wrong && p.Count[puzzle.Knight] >= 2 && p.Board.W >= 3 && p.Board.H >= 3 {
		count++
	}
	ans := puzzle.Answer{Status: puzzle.OK, Count: count, Stats: map[string]int64{puzzle.StatNodes: int64(count)}}
	if req.Task == puzzle.First {
		ans.Count = 0
		if first == nil {
			ans.Status = puzzle.Unsat
		}
		ans.Solution = first
	}
	return ans, nil
}

func init() {
	puzzle.Backends.Add("test-brute", fakeBackend{name: "test-brute"})
	puzzle.Backends.Add("test-wrong", fakeBackend{name: "test-wrong", wrong: true})
}
