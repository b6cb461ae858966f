package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/puzzle"
)

// toySpec is an instance of a puzzle only this test registers strategies for.
type toySpec struct{}

func (toySpec) Puzzle() string { return "search-toy" }
func (toySpec) String() string { return "search-toy:1" }

func init() {
	answer := func(n uint64) func(context.Context, puzzle.Request) (puzzle.Answer, error) {
		return func(context.Context, puzzle.Request) (puzzle.Answer, error) {
			return puzzle.Answer{Status: puzzle.OK, Count: n}, nil
		}
	}
	Register(Strategy{Puzzle: "search-toy", Name: "slow", Tasks: []puzzle.Task{puzzle.Count}, Solve: answer(1)})
	Register(Strategy{Puzzle: "search-toy", Name: "fast", Default: true, Tasks: []puzzle.Task{puzzle.Count, puzzle.First}, Solve: answer(2)})
}

// TestSolveDispatch: the default strategy runs when none is named, a named
// one when named, and the answer records which ran; an unknown name, a task
// the strategy does not do and a puzzle without strategies are refused.
func TestSolveDispatch(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		heuristic string
		count     uint64
	}{{"", 2}, {"fast", 2}, {"slow", 1}} {
		ans, err := Solve(ctx, puzzle.Request{Spec: toySpec{}, Task: puzzle.Count, Heuristic: c.heuristic})
		want := c.heuristic
		if want == "" {
			want = "fast"
		}
		if err != nil || ans.Count != c.count || ans.Heuristic != want {
			t.Errorf("heuristic %q: %+v %v, want count %d by %s", c.heuristic, ans, err, c.count, want)
		}
	}
	for _, c := range []struct {
		req  puzzle.Request
		want string
	}{
		{puzzle.Request{Spec: toySpec{}, Task: puzzle.Count, Heuristic: "nope"}, `unknown search-toy heuristic "nope"`},
		{puzzle.Request{Spec: toySpec{}, Task: puzzle.First, Heuristic: "slow"}, "does not do task first for search-toy (it does count)"},
		{puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.Count}, "no strategy for queens"},
	} {
		if _, err := Solve(ctx, c.req); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.req, err, c.want)
		}
	}
	if names := Strategies("search-toy"); len(names) != 2 || names[0].Name != "slow" {
		t.Errorf("Strategies in registration order: %+v", names)
	}
}

// TestAnswerNeverOKWhenCut: a stopped search is a timeout and a failed
// emit an error, never status OK with the partial count.
func TestAnswerNeverOKWhenCut(t *testing.T) {
	if a, err := Answer(puzzle.Count, 5, 9, true, nil, nil); err != nil || a.Status != puzzle.Timeout {
		t.Errorf("stopped: %+v %v", a, err)
	}
	planted := errors.New("planted")
	if a, err := Answer(puzzle.All, 5, 9, false, nil, planted); !errors.Is(err, planted) || a.Status != puzzle.Error {
		t.Errorf("emit failed: %+v %v", a, err)
	}
	if a, _ := Answer(puzzle.First, 0, 9, false, nil, nil); a.Status != puzzle.Unsat {
		t.Errorf("finished without a solution: %+v", a)
	}
	if a, _ := Answer(puzzle.Count, 5, 9, false, nil, nil); a.Status != puzzle.OK || a.Count != 5 || a.Stats[puzzle.StatNodes] != 9 {
		t.Errorf("finished: %+v", a)
	}
}

// TestMemoutMessage: a search the memory budget ended says so, with where
// it stopped, and nothing about a deadline.
func TestMemoutMessage(t *testing.T) {
	e := &membudget.Exceeded{Resident: 60 << 20, Budget: 54 << 20}
	for stopped, want := range map[string]string{
		"deadline passed before the search finished": e.Error(),
		"":                         e.Error(),
		"stopped after 4096 nodes": e.Error() + "; stopped after 4096 nodes",
		"context canceled; peak layer 12 states, 3 in all": e.Error() + "; peak layer 12 states, 3 in all",
	} {
		if got := memoutMessage(e, stopped); got != want {
			t.Errorf("memoutMessage(%q) = %q, want %q", stopped, got, want)
		}
	}
}
