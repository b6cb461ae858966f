package native

import (
	"context"
	"errors"
	"testing"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// TestEmitFailureNeverOK: when the solution callback fails part way, every
// enumerating strategy answers status Error with the callback's error, never
// status OK with the count so far.
func TestEmitFailureNeverOK(t *testing.T) {
	planted := errors.New("planted emit failure")
	for _, spec := range []string{"queens:6", "pieces:3x3:K1R2", "pieces:4x4:R2N2"} {
		sp := puzzle.MustParse(spec)
		for _, s := range search.Strategies(sp.Puzzle()) {
			if !containsTask(s.Tasks, puzzle.All) {
				continue
			}
			emitted := 0
			req := puzzle.Request{Spec: sp, Task: puzzle.All, Heuristic: s.Name, Threads: 1,
				Emit: func(puzzle.Solution) error {
					emitted++
					if emitted == 2 {
						return planted
					}
					return nil
				}}
			ans, err := Backend{}.Solve(context.Background(), req)
			if !errors.Is(err, planted) || ans.Status == puzzle.OK {
				t.Errorf("%s %s: emit failed, got %s count %d err %v", spec, s.Name, ans.Status, ans.Count, err)
			}
		}
	}
}

func containsTask(ts []puzzle.Task, t puzzle.Task) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}
