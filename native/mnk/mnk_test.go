package mnk

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

func solve(t testing.TB, spec, heuristic string, task puzzle.Task, threads int, emit func(puzzle.Solution) error) puzzle.Answer {
	t.Helper()
	ans, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task,
		Heuristic: heuristic, Threads: threads, Emit: emit})
	if err != nil {
		t.Fatalf("%s %s %s: %v", spec, heuristic, task, err)
	}
	if ans.Status != puzzle.OK && ans.Status != puzzle.Unsat {
		t.Fatalf("%s %s %s: status %s (%s)", spec, heuristic, task, ans.Status, ans.Message)
	}
	return ans
}

// TestTicTacToePublished: the published tic-tac-toe counts, from both
// counters: complete games, by outcome and by length, and the reachable
// positions (the empty board included), as the main count of the
// positions spec and as a statistic.
func TestTicTacToePublished(t *testing.T) {
	for _, h := range []string{"alphabeta", "negamax"} {
		ans := solve(t, "mnk:3x3:3", h, puzzle.Count, 0, nil)
		want := map[string]int64{"x_wins": puzzle.TicTacToeXWins, "o_wins": puzzle.TicTacToeOWins, "draws": puzzle.TicTacToeDraws}
		for l, n := range puzzle.TicTacToeGamesByLength {
			want[fmt.Sprintf("games_%d", l)] = int64(n)
		}
		if h == "alphabeta" {
			want["positions"] = puzzle.TicTacToePositions
		}
		if ans.Count != puzzle.TicTacToeGames {
			t.Errorf("%s: %d games, published %d", h, ans.Count, puzzle.TicTacToeGames)
		}
		for k, n := range want {
			if ans.Stats[k] != n {
				t.Errorf("%s: %s = %d, published %d", h, k, ans.Stats[k], n)
			}
		}
		for l := 1; l <= 9; l++ {
			spec := fmt.Sprintf("mnk:3x3:3:moves=%d", l)
			got := solve(t, spec, h, puzzle.Count, 0, nil).Count
			if got != puzzle.TicTacToeGamesByLength[l] {
				t.Errorf("%s %s: %d games, published %d", h, spec, got, puzzle.TicTacToeGamesByLength[l])
			}
		}
	}
	if n := solve(t, "mnk:3x3:3:positions", "", puzzle.Count, 0, nil).Count; n != puzzle.TicTacToePositions {
		t.Errorf("positions: %d, published %d", n, puzzle.TicTacToePositions)
	}
	// The positions at each ply add up to all of them.
	var sum uint64 = 1 // the empty board
	for l := 1; l <= 9; l++ {
		sum += solve(t, fmt.Sprintf("mnk:3x3:3:moves=%d:positions", l), "", puzzle.Count, 0, nil).Count
	}
	if sum != puzzle.TicTacToePositions {
		t.Errorf("positions by ply sum to %d, published %d", sum, puzzle.TicTacToePositions)
	}
}

// TestPublishedValues: the published values that the tests can afford
// (3x3x3 and 4x4x4 draws), on one and two threads, and from both
// strategies where the plain negamax can afford it.
func TestPublishedValues(t *testing.T) {
	for _, spec := range []string{"mnk:3x3:3", "mnk:4x4:4"} {
		want, ok := puzzle.KnownGameValue(puzzle.MustParse(spec))
		if !ok {
			t.Fatalf("%s: no published value", spec)
		}
		for _, threads := range []int{1, 2} {
			ans := solve(t, spec, "", puzzle.Value, threads, nil)
			if ans.GameValue != want {
				t.Errorf("%s on %d threads: %s, published %s", spec, threads, ans.GameValue, want)
			}
			checkLine(t, spec, ans)
		}
	}
	if v := solve(t, "mnk:3x3:3", "negamax", puzzle.Value, 0, nil).GameValue; v != puzzle.GameDraw {
		t.Errorf("negamax: tic-tac-toe is a %s", v)
	}
}

// checkLine: the value's game record passes the checker and ends as the
// value says (best play by both sides from the position).
func checkLine(t *testing.T, spec string, ans puzzle.Answer) {
	t.Helper()
	s := puzzle.MustParse(spec)
	if ans.Solution == nil {
		t.Fatalf("%s: value without a game", spec)
	}
	if err := puzzle.Check(s, *ans.Solution); err != nil {
		t.Fatalf("%s: checker rejects %v: %v", spec, ans.Solution.GameNames(), err)
	}
	out, err := puzzle.MNKOutcome(s.(puzzle.MNK), ans.Solution.Game)
	if err != nil {
		t.Fatal(err)
	}
	mover := strings.ToLower(string(s.(puzzle.MNK).ToMove()))
	want := map[string]string{puzzle.GameDraw: "draw", puzzle.GameWin: mover, puzzle.GameLoss: map[string]string{"x": "o", "o": "x"}[mover]}[ans.GameValue]
	if out != want {
		t.Errorf("%s: value %s but its game %v ends %s", spec, ans.GameValue, ans.Solution.GameNames(), out)
	}
}

// TestStrategiesAgree: on every board of up to 10 squares with sides up
// to 4 and every K, and on 12 squares for K up to 3, alpha-beta (one and two threads) and the plain
// negamax give the same value; on boards of up to 9 squares the memoised
// count and the plain tree walk give the same counts and splits.
func TestStrategiesAgree(t *testing.T) {
	for w := 1; w <= 4; w++ {
		for h := 1; h <= 4; h++ {
			if w*h > 12 {
				continue
			}
			for k := 1; k <= max(w, h); k++ {
				if w*h > 10 && k > 3 {
					continue // plain negamax takes seconds
				}
				spec := fmt.Sprintf("mnk:%dx%d:%d", w, h, k)
				want := solve(t, spec, "negamax", puzzle.Value, 0, nil).GameValue
				for _, threads := range []int{1, 2} {
					ans := solve(t, spec, "alphabeta", puzzle.Value, threads, nil)
					if ans.GameValue != want {
						t.Errorf("%s: alphabeta (%d threads) %s, negamax %s", spec, threads, ans.GameValue, want)
					}
					checkLine(t, spec, ans)
				}
				if w*h > 9 {
					continue
				}
				a := solve(t, spec, "alphabeta", puzzle.Count, 0, nil)
				b := solve(t, spec, "negamax", puzzle.Count, 0, nil)
				if a.Count != b.Count {
					t.Errorf("%s: memoised %d games, tree walk %d", spec, a.Count, b.Count)
				}
				for key, n := range b.Stats {
					if key != puzzle.StatNodes && a.Stats[key] != n {
						t.Errorf("%s: %s memoised %d, tree walk %d", spec, key, a.Stats[key], n)
					}
				}
			}
		}
	}
}

// randomPosition plays n random moves on the board without ending the
// game, returning the pos= cells, or false if play ended first.
func randomPosition(r *rand.Rand, w, h, k, n int) (string, bool) {
	b := puzzle.Board{W: w, H: h}
	m := puzzle.MNK{Board: b, K: k}
	var game []puzzle.Square
	for len(game) < n {
		q := puzzle.Square(r.IntN(b.Size()))
		if puzzle.CheckExtension(m, puzzle.Solution{Board: b, Game: append(game, q)}) != nil {
			continue
		}
		game = append(game, q)
		if _, err := puzzle.MNKOutcome(m, game); err == nil {
			return "", false // the game is over
		}
	}
	rows := make([]byte, 0, b.Size())
	cells := []byte(strings.Repeat(".", b.Size()))
	for i, q := range game {
		cells[q] = "XO"[i%2]
	}
	for r := h - 1; r >= 0; r-- {
		rows = append(rows, cells[r*w:(r+1)*w]...)
	}
	return string(rows), true
}

// TestRandomPositions: from random positions on 4x4 and 5x3 boards (X or
// O to move), alpha-beta and plain negamax agree on the value, and the
// value's game passes the checker and ends as the value says.
func TestRandomPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 3))
	tried := 0
	for tried < 60 {
		w, h := 4, 4
		if tried%3 == 2 {
			w, h = 5, 3
		}
		k := 3 + tried%2
		pos, ok := randomPosition(r, w, h, k, 5+tried%4)
		if !ok {
			continue
		}
		tried++
		spec := fmt.Sprintf("mnk:%dx%d:%d:pos=%s", w, h, k, pos)
		want := solve(t, spec, "negamax", puzzle.Value, 0, nil).GameValue
		ans := solve(t, spec, "alphabeta", puzzle.Value, 1+tried%2, nil)
		if ans.GameValue != want {
			t.Errorf("%s: alphabeta %s, negamax %s", spec, ans.GameValue, want)
		}
		checkLine(t, spec, ans)
	}
}

// TestFirstAll: every game emitted passes the checker and is of the
// asked length, their number is the count, and first finds a game exactly
// when the count is not 0.
func TestFirstAll(t *testing.T) {
	for _, spec := range []string{"mnk:3x3:3:moves=5", "mnk:3x3:3:moves=4", "mnk:3x2:2", "mnk:3x3:3:pos=X.O.X.O..",
		"mnk:4x3:3:pos=XO..X.O.....:moves=3", "mnk:2x2:2"} {
		s := puzzle.MustParse(spec)
		n := solve(t, spec, "", puzzle.Count, 0, nil).Count
		var emitted uint64
		ans := solve(t, spec, "", puzzle.All, 0, func(sol puzzle.Solution) error {
			emitted++
			if err := puzzle.Check(s, sol); err != nil {
				t.Errorf("%s: emitted %v: %v", spec, sol.GameNames(), err)
			}
			return nil
		})
		if ans.Count != n || emitted != n {
			t.Errorf("%s: all says %d, emitted %d, count %d", spec, ans.Count, emitted, n)
		}
		first := solve(t, spec, "", puzzle.First, 0, nil)
		switch {
		case n == 0 && first.Status != puzzle.Unsat:
			t.Errorf("%s: no games but first says %s", spec, first.Status)
		case n > 0 && (first.Solution == nil || puzzle.Check(s, *first.Solution) != nil):
			t.Errorf("%s: first gives no valid game", spec)
		}
	}
}

// TestRefusals: value with moves= or positions, and lists of positions,
// are refused with an error.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		spec, h string
		task    puzzle.Task
	}{
		{"mnk:3x3:3:moves=5", "", puzzle.Value}, {"mnk:3x3:3:positions", "negamax", puzzle.Value},
		{"mnk:3x3:3:positions", "", puzzle.All}, {"mnk:3x3:3:positions", "negamax", puzzle.Count},
	} {
		_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(c.spec), Task: c.task, Heuristic: c.h})
		if err == nil {
			t.Errorf("%s %s %s: accepted", c.spec, c.h, c.task)
		}
	}
}

// TestTimeout: a cancelled search is never status ok.
func TestTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, task := range []puzzle.Task{puzzle.Value, puzzle.Count} {
		for _, h := range []string{"alphabeta", "negamax"} {
			ans, err := search.Solve(ctx, puzzle.Request{Spec: puzzle.MustParse("mnk:4x4:3"), Task: task, Heuristic: h})
			if err != nil || ans.Status != puzzle.Timeout {
				t.Errorf("%s %s: %s %v", h, task, ans.Status, err)
			}
		}
	}
}

// TestMemoLimit: a count whose memo outgrows its limit is status error,
// never a partial count.
func TestMemoLimit(t *testing.T) {
	defer func(n int) { memoLimit = n }(memoLimit)
	memoLimit = 100
	for _, spec := range []string{"mnk:3x3:3", "mnk:3x3:3:positions"} {
		ans, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count})
		if err != nil || ans.Status != puzzle.Error || ans.Count != 0 || !strings.Contains(ans.Message, "memo") {
			t.Errorf("%s: %s %d %q %v", spec, ans.Status, ans.Count, ans.Message, err)
		}
	}
}

func benchValue(b *testing.B, spec string, threads int) {
	for b.Loop() {
		ans := solve(b, spec, "", puzzle.Value, threads, nil)
		if want, ok := puzzle.KnownGameValue(puzzle.MustParse(spec)); ok && ans.GameValue != want {
			b.Fatalf("%s: %s, published %s", spec, ans.GameValue, want)
		}
	}
}

// BenchmarkTicTacToeValue: the value of tic-tac-toe (draw).
func BenchmarkTicTacToeValue(b *testing.B) { benchValue(b, "mnk:3x3:3", 0) }

// BenchmarkTicTacToeCount: every tic-tac-toe count (games by outcome and
// length, positions).
func BenchmarkTicTacToeCount(b *testing.B) {
	for b.Loop() {
		if n := solve(b, "mnk:3x3:3", "", puzzle.Count, 0, nil).Count; n != puzzle.TicTacToeGames {
			b.Fatal(n)
		}
	}
}

// BenchmarkValue444: 4x4, four in a row (draw).
func BenchmarkValue444(b *testing.B) { benchValue(b, "mnk:4x4:4", 0) }

// BenchmarkValue554: 5x5, four in a row (draw), on one and on two threads.
func BenchmarkValue554(b *testing.B) {
	b.Run("threads=1", func(b *testing.B) { benchValue(b, "mnk:5x5:4", 1) })
	b.Run("threads=2", func(b *testing.B) { benchValue(b, "mnk:5x5:4", 2) })
}

// BenchmarkValue654: 6x5, four in a row (first-player win), on one and on
// two threads.
func BenchmarkValue654(b *testing.B) {
	b.Run("threads=1", func(b *testing.B) { benchValue(b, "mnk:6x5:4", 1) })
	b.Run("threads=2", func(b *testing.B) { benchValue(b, "mnk:6x5:4", 2) })
}
