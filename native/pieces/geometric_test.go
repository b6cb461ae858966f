package pieces

import (
	"context"
	"fmt"
	"testing"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// TestGeometricAgreesWithFast: on every small board and small piece
// multiset the geometric counter (no tables) counts what the bitboard
// counter counts, and its First answers pass the independent checker.
func TestGeometricAgreesWithFast(t *testing.T) {
	sets := []string{"Q1", "K2", "N3", "B2R1", "Q2", "K1N2", "R2B2", "K1Q1B1R1N1", "Q3"}
	checked := 0
	for w := 1; w <= 5; w++ {
		for h := 1; h <= 5; h++ {
			for _, set := range sets {
				spec, err := puzzle.Parse(fmt.Sprintf("pieces:%dx%d:%s", w, h, set))
				if err != nil {
					continue // more pieces than squares
				}
				want := solveNative(t, spec, "fast", puzzle.Count)
				got := solveNative(t, spec, "geometric", puzzle.Count)
				if got.CountString() != want.CountString() {
					t.Errorf("%s: geometric %s, fast %s", spec, got.CountString(), want.CountString())
				}
				first := solveNative(t, spec, "geometric", puzzle.First)
				if want.CountString() == "0" {
					if first.Status != puzzle.Unsat {
						t.Errorf("%s: geometric first %s, want unsat", spec, first.Status)
					}
				} else if first.Solution == nil || puzzle.Check(spec, *first.Solution) != nil {
					t.Errorf("%s: geometric first %+v does not check", spec, first.Solution)
				}
				checked++
			}
		}
	}
	if checked < 150 {
		t.Errorf("only %d instances checked", checked)
	}
}

// TestGeometricLargeBoards: on boards over 256 squares (where fast runs
// the geometric counter) two pieces of a kind count as the published
// formulas say (OEIS A036464 queens, A172123 bishops, A172132 knights;
// rooks n^2(n-1)^2/2), and one queen stands anywhere.
func TestGeometricLargeBoards(t *testing.T) {
	for _, n := range []uint64{17, 20, 31} {
		cases := map[string]uint64{
			"Q2": n * (n - 1) * (n - 2) * (3*n - 1) / 6,
			"B2": n * (n - 1) * (3*n*n - n + 2) / 6,
			"N2": n*n*(n*n-1)/2 - 4*(n-1)*(n-2),
			"R2": n * n * (n - 1) * (n - 1) / 2,
			"Q1": n * n,
		}
		for set, want := range cases {
			spec := puzzle.MustParse(fmt.Sprintf("pieces:%dx%d:%s", n, n, set))
			ans := solveNative(t, spec, "fast", puzzle.Count)
			if ans.CountString() != fmt.Sprint(want) || ans.Heuristic != "geometric" {
				t.Errorf("%s: %s by %s, want %d by geometric", spec, ans.CountString(), ans.Heuristic, want)
			}
		}
	}
}

func solveNative(t *testing.T, spec puzzle.Spec, heuristic string, task puzzle.Task) puzzle.Answer {
	t.Helper()
	ans, err := search.Solve(context.Background(), puzzle.Request{Spec: spec, Task: task, Heuristic: heuristic, Threads: 2})
	if err != nil || (ans.Status != puzzle.OK && ans.Status != puzzle.Unsat) {
		t.Fatalf("%s %s %s: %v %+v", spec, heuristic, task, err, ans)
	}
	return ans
}
