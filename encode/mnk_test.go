package encode

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/puzzle"
)

func mnkSAT(t testing.TB, spec, encoding string, task puzzle.Task, emit func(puzzle.Solution) error) puzzle.Answer {
	t.Helper()
	ans, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Encoding: encoding, Emit: emit})
	if err != nil {
		t.Fatalf("%s %s: %v", spec, encoding, err)
	}
	if ans.Status != puzzle.OK && ans.Status != puzzle.Unsat {
		t.Fatalf("%s %s: %s %s", spec, encoding, ans.Status, ans.Message)
	}
	return ans
}

// TestMNKSATPublished: the projected counts of the play model are the
// published tic-tac-toe counts: every complete game, the games of each
// length, and (projected on the final board) the positions after each
// ply, which with the empty board add up to the 5,478 reachable positions.
func TestMNKSATPublished(t *testing.T) {
	if n := mnkSAT(t, "mnk:3x3:3", "", puzzle.Count, nil).Count; n != puzzle.TicTacToeGames {
		t.Errorf("%d games, published %d", n, puzzle.TicTacToeGames)
	}
	var positions uint64 = 1
	for l := 1; l <= 9; l++ {
		spec := fmt.Sprintf("mnk:3x3:3:moves=%d", l)
		if n := mnkSAT(t, spec, "", puzzle.Count, nil).Count; n != puzzle.TicTacToeGamesByLength[l] {
			t.Errorf("%s: %d games, published %d", spec, n, puzzle.TicTacToeGamesByLength[l])
		}
		positions += mnkSAT(t, spec+":positions", "", puzzle.Count, nil).Count
	}
	if positions != puzzle.TicTacToePositions {
		t.Errorf("%d positions, published %d", positions, puzzle.TicTacToePositions)
	}
}

// TestMNKSATEncodings: every cardinality encoding gives the same projected
// counts, of games of one length, of games of any length, and of
// positions.
func TestMNKSATEncodings(t *testing.T) {
	for _, spec := range []string{"mnk:3x3:3:moves=6", "mnk:4x2:3", "mnk:3x3:3:moves=3:positions", "mnk:3x2:2:positions", "mnk:3x3:3:pos=X...O....:moves=4"} {
		want := mnkSAT(t, spec, "pairwise", puzzle.Count, nil)
		if want.Count == 0 {
			t.Fatalf("%s: no models", spec)
		}
		for _, c := range card.All() {
			if ans := mnkSAT(t, spec, c.Name, puzzle.Count, nil); ans.Count != want.Count {
				t.Errorf("%s %s: %d, pairwise %d", spec, c.Name, ans.Count, want.Count)
			}
		}
	}
}

// TestMNKSATAll: every game the model lists passes the checker, there are
// as many as the count, and first finds one exactly when there are any.
func TestMNKSATAll(t *testing.T) {
	for _, spec := range []string{"mnk:3x3:3:moves=5", "mnk:3x3:3:moves=4", "mnk:3x2:2", "mnk:3x3:3:pos=X.O.X.O.."} {
		s := puzzle.MustParse(spec)
		n := mnkSAT(t, spec, "", puzzle.Count, nil).Count
		var emitted uint64
		mnkSAT(t, spec, "", puzzle.All, func(sol puzzle.Solution) error {
			emitted++
			return puzzle.Check(s, sol)
		})
		if emitted != n {
			t.Errorf("%s: emitted %d, count %d", spec, emitted, n)
		}
		first := mnkSAT(t, spec, "", puzzle.First, nil)
		if (n == 0) != (first.Status == puzzle.Unsat) {
			t.Errorf("%s: count %d, first %s", spec, n, first.Status)
		}
	}
}

// TestMNKSATValueRefused: task value is native-only, with a clear error.
func TestMNKSATValueRefused(t *testing.T) {
	_, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("mnk:3x3:3"), Task: puzzle.Value})
	if err == nil || !strings.Contains(err.Error(), "native") || strings.Contains(err.Error(), "\n") {
		t.Errorf("value: %v", err)
	}
}
