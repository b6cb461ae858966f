package swap

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// swapAsk runs one native swap strategy on a spec string.
func swapAsk(t testing.TB, spec, heuristic string, task puzzle.Task) puzzle.Answer {
	t.Helper()
	ans, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Heuristic: heuristic})
	if err != nil {
		t.Fatalf("%s %s %s: %v", spec, heuristic, task, err)
	}
	return ans
}

// swapCheckPlan asserts that a shortest answer carries a plan of its length
// that the independent checker accepts.
func swapCheckPlan(t *testing.T, spec string, ans puzzle.Answer) {
	t.Helper()
	if ans.Status != puzzle.OK {
		return
	}
	if ans.Solution == nil {
		t.Fatalf("%s: status ok but no plan", spec)
	}
	if len(ans.Solution.Plan) != ans.Length {
		t.Fatalf("%s: plan has %d moves, length says %d", spec, len(ans.Solution.Plan), ans.Length)
	}
	if err := puzzle.Check(puzzle.MustParse(spec), *ans.Solution); err != nil {
		t.Fatalf("%s: plan %v fails the checker: %v", spec, ans.Solution.MoveNames(), err)
	}
}

var swapStrategyNames = []string{"bfs", "bidir", "astar"}

func TestSwapKnownShortest(t *testing.T) {
	for _, spec := range []string{
		"swap:4x3",
		"swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free",
	} {
		want, ok := puzzle.KnownShortest(puzzle.MustParse(spec))
		if !ok {
			t.Fatalf("%s: no published length", spec)
		}
		for _, h := range swapStrategyNames {
			ans := swapAsk(t, spec, h, puzzle.Shortest)
			if ans.Status != puzzle.OK || ans.Length != want {
				t.Errorf("%s %s: %s length %d, want %d", spec, h, ans.Status, ans.Length, want)
			}
			swapCheckPlan(t, spec, ans)
			if ans.Stats[puzzle.StatNodes] <= 0 || ans.Stats[puzzle.StatStates] <= 0 {
				t.Errorf("%s %s: stats %v lack nodes or states", spec, h, ans.Stats)
			}
		}
	}
}

// TestSwapSeedPlan: the seed's breadth-first search prints one particular
// 22-move plan; ours, generating moves in the same order, must be legal and
// as short (it need not be the same plan).
func TestSwapSeedPlan(t *testing.T) {
	seed := strings.Fields("a1-b3 d2-b1 a2-c3 d3-c1 a3-c2 c1-a2 b3-c1 b1-a3 c1-d3 a2-c1 c2-a1 a3-c2 a1-b3 c2-a1 c3-a2 d1-c3 b3-d2 c3-b1 a2-c3 b1-a3 c3-d1 c1-a2")
	spec := puzzle.MustParse("swap:4x3")
	sol, err := puzzle.ParseSolution(spec, strings.Join(seed, " "))
	if err != nil {
		t.Fatal(err)
	}
	if err := puzzle.Check(spec, sol); err != nil {
		t.Fatalf("the seed's plan fails the checker: %v", err)
	}
	if ans := swapAsk(t, "swap:4x3", "bfs", puzzle.Shortest); ans.Length != len(seed) {
		t.Errorf("bfs length %d, the seed's plan has %d moves", ans.Length, len(seed))
	}
}

// TestSwapGuariniVariants: every rule and turn order on Guarini's board;
// all strategies agree, counts agree between bfs and bidir.
func TestSwapGuariniVariants(t *testing.T) {
	for _, rule := range []string{"none", "own", "enemy"} {
		for _, turns := range []string{"alternate", "free"} {
			spec := "swap:3x3:w=a3,c3:b=a1,c1:rule=" + rule + ":turns=" + turns
			swapAgree(t, spec, true)
		}
	}
}

// swapAgree checks that every strategy gives the same status and length,
// that bfs and bidir count the same number of shortest plans, and returns
// the bfs answers.
func swapAgree(t *testing.T, spec string, count bool) (shortest, counted puzzle.Answer) {
	t.Helper()
	for i, h := range swapStrategyNames {
		ans := swapAsk(t, spec, h, puzzle.Shortest)
		swapCheckPlan(t, spec, ans)
		if i == 0 {
			shortest = ans
		} else if ans.Status != shortest.Status || ans.Length != shortest.Length {
			t.Errorf("%s: %s says %s/%d, bfs says %s/%d", spec, h, ans.Status, ans.Length, shortest.Status, shortest.Length)
		}
	}
	if shortest.Status != puzzle.OK && shortest.Status != puzzle.Unsat {
		t.Fatalf("%s: bfs status %s", spec, shortest.Status)
	}
	if !count {
		return shortest, puzzle.Answer{}
	}
	counted = swapAsk(t, spec, "bfs", puzzle.Count)
	other := swapAsk(t, spec, "bidir", puzzle.Count)
	if counted.Status != shortest.Status || counted.Length != shortest.Length {
		t.Errorf("%s: bfs count says %s/%d, shortest %s/%d", spec, counted.Status, counted.Length, shortest.Status, shortest.Length)
	}
	if other.Status != counted.Status || other.Count != counted.Count || other.Length != counted.Length {
		t.Errorf("%s: bidir counts %d plans of %d (%s), bfs %d of %d (%s)", spec,
			other.Count, other.Length, other.Status, counted.Count, counted.Length, counted.Status)
	}
	if counted.Status == puzzle.Unsat && counted.Count != 0 {
		t.Errorf("%s: unsat with count %d", spec, counted.Count)
	}
	return shortest, counted
}

// swapRandomSpecs returns n random small swap specs: boards 3x3 to 4x4, one
// or two knights a side, every rule and turn order, half with their own
// targets.
func swapRandomSpecs(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []string
	for len(out) < n {
		b := puzzle.Board{W: 3 + rng.IntN(2), H: 3 + rng.IntN(2)}
		kw, kb := 1+rng.IntN(2), 1+rng.IntN(2)
		place := func() (string, string) {
			perm := rng.Perm(b.Size())
			var w, bl []string
			for i := range kw + kb {
				name := b.Name(puzzle.Square(perm[i]))
				if i < kw {
					w = append(w, name)
				} else {
					bl = append(bl, name)
				}
			}
			return strings.Join(w, ","), strings.Join(bl, ",")
		}
		w, bl := place()
		spec := fmt.Sprintf("swap:%s:w=%s:b=%s", b, w, bl)
		if rng.IntN(2) == 0 {
			tw, tb := place()
			spec += ":tw=" + tw + ":tb=" + tb
		}
		spec += ":rule=" + []string{"none", "own", "enemy"}[rng.IntN(3)]
		spec += ":turns=" + []string{"alternate", "free"}[rng.IntN(2)]
		s, err := puzzle.Parse(spec)
		if err != nil {
			continue // a random target set equal to its start is still fine; others are skipped
		}
		out = append(out, s.String())
	}
	return out
}

// swapBruteCount counts, by plain depth-first enumeration of move
// sequences with its own move rules (written like the checker), the plans
// of exactly l moves that reach the targets. It gives up (ok false) after
// budget nodes.
func swapBruteCount(s puzzle.Swap, l int, budget int) (count uint64, ok bool) {
	b := s.Board
	cell := make([]int, b.Size())
	for _, q := range s.White {
		cell[q] = 1
	}
	for _, q := range s.Black {
		cell[q] = 2
	}
	apart := func(p, q int) bool {
		df, dr := p%b.W-q%b.W, p/b.W-q/b.W
		return df*df*dr*dr == 4
	}
	atGoal := func() bool {
		for _, q := range s.TargetWhite {
			if cell[q] != 1 {
				return false
			}
		}
		for _, q := range s.TargetBlack {
			if cell[q] != 2 {
				return false
			}
		}
		return true
	}
	nodes := 0
	var rec func(step int) bool
	rec = func(step int) bool {
		nodes++
		if nodes > budget {
			return false
		}
		if step == l {
			if atGoal() {
				count++
			}
			return true
		}
		for from := range cell {
			c := cell[from]
			if c == 0 || (s.Turns == puzzle.Alternate && c != 1+step%2) {
				continue
			}
			for to := range cell {
				if cell[to] != 0 || !apart(from, to) {
					continue
				}
				cell[from] = 0
				legal := true
				for q, o := range cell {
					if o == 0 || !apart(q, to) {
						continue
					}
					if (s.Rule == puzzle.RuleOwn && o == c) || (s.Rule == puzzle.RuleEnemy && o != c) {
						legal = false
					}
				}
				if legal {
					cell[to] = c
					if !rec(step + 1) {
						return false
					}
					cell[to] = 0
				}
				cell[from] = c
			}
		}
		return true
	}
	return count, rec(0)
}

// TestSwapRandomSweep: on random small instances every strategy agrees on
// status and length, bfs and bidir agree on the number of shortest plans,
// and that number equals a brute-force count where one is affordable.
func TestSwapRandomSweep(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 80
	}
	brute, unsat := 0, 0
	for _, spec := range swapRandomSpecs(n, 5) {
		short, counted := swapAgree(t, spec, true)
		if short.Status == puzzle.Unsat {
			unsat++
			continue
		}
		if short.Length <= 9 {
			got, ok := swapBruteCount(puzzle.MustParse(spec).(puzzle.Swap), counted.Length, 2_000_000)
			if ok {
				brute++
				if got != counted.Count {
					t.Errorf("%s: brute force counts %d plans of %d moves, bfs %d", spec, got, counted.Length, counted.Count)
				}
			}
		}
	}
	t.Logf("%d instances, %d unreachable, %d counts checked by brute force", n, unsat, brute)
	if brute < n/4 {
		t.Errorf("only %d brute-force count checks", brute)
	}
	if unsat == 0 {
		t.Errorf("the sweep has no unreachable instance")
	}
}

// TestSwapKeyModes: the dense, rank-map and byte-map indexes give the same
// search.
func TestSwapKeyModes(t *testing.T) {
	for _, spec := range []string{"swap:4x3", "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free",
		"swap:4x4:w=a1,b1:b=c4,d4:rule=enemy:turns=free"} {
		s := puzzle.MustParse(spec).(puzzle.Swap)
		var base swapResult
		for i, mode := range []int{swapKeyDense, swapKeyRank, swapKeyBytes} {
			g, err := newSwapGame(s)
			if err != nil {
				t.Fatal(err)
			}
			if g.keyMode != swapKeyDense {
				t.Fatalf("%s: expected a dense index", spec)
			}
			g.keyMode, g.keyModeAStar = mode, mode
			for _, search := range []func(context.Context, *swapGame, bool) swapResult{swapBFS, swapBidir, swapAStar} {
				r := search(context.Background(), g, true)
				if i == 0 && base.status == "" {
					base = r
				}
				if r.status != base.status || r.length != base.length || r.states == 0 || (r.count != base.count && r.count != 0) {
					t.Errorf("%s mode %d: %s %d %d, want %s %d %d", spec, mode, r.status, r.length, r.count, base.status, base.length, base.count)
				}
			}
		}
	}
}

// TestSwapUnreachable: a knight on the centre of 3x3 never moves; a side
// with no legal first move under alternating turns is stuck.
func TestSwapUnreachable(t *testing.T) {
	for _, spec := range []string{
		"swap:3x3:w=b2,a1:b=c3,c1:rule=none:turns=free",
		"swap:4x4:w=a1,b1,c1,d1:b=a4,b4,c4,d4:rule=enemy:turns=alternate",
	} {
		short, counted := swapAgree(t, spec, true)
		if short.Status != puzzle.Unsat || counted.Status != puzzle.Unsat {
			t.Errorf("%s: %s / %s, want unsat", spec, short.Status, counted.Status)
		}
	}
}

// TestSwapStartIsGoal: targets equal to the start need no move.
func TestSwapStartIsGoal(t *testing.T) {
	spec := "swap:3x4:w=a1:b=c4:tw=a1:tb=c4:rule=own:turns=alternate"
	for _, h := range swapStrategyNames {
		ans := swapAsk(t, spec, h, puzzle.Shortest)
		if ans.Status != puzzle.OK || ans.Length != 0 {
			t.Errorf("%s: %s %d, want ok 0", h, ans.Status, ans.Length)
		}
		swapCheckPlan(t, spec, ans)
	}
	if ans := swapAsk(t, spec, "bfs", puzzle.Count); ans.Count != 1 {
		t.Errorf("count %d, want 1", ans.Count)
	}
}

// TestSwap8x8: four knights a side on 8x8 under every rule and turn order,
// by A*: plans check; and every strategy agrees on two-a-side exchanges on
// 5x5 and 6x6.
func TestSwap8x8(t *testing.T) {
	for _, rule := range []string{"none", "own", "enemy"} {
		for _, turns := range []string{"alternate", "free"} {
			spec := "swap:8x8:w=a1,b1,c1,d1:b=a8,b8,c8,d8:rule=" + rule + ":turns=" + turns
			ans := swapAsk(t, spec, "astar", puzzle.Shortest)
			if ans.Status != puzzle.OK {
				t.Fatalf("%s: %s", spec, ans.Status)
			}
			swapCheckPlan(t, spec, ans)
		}
	}
	for _, spec := range []string{"swap:5x5:w=a1,b1:b=d5,e5:rule=own:turns=alternate", "swap:6x6:w=a1,b1:b=e6,f6:rule=enemy:turns=free"} {
		swapAgree(t, spec, false)
	}
}

// TestSwapTimeout: a cancelled context gives status timeout, not an error.
func TestSwapTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, h := range swapStrategyNames {
		ans, err := search.Solve(ctx, puzzle.Request{Spec: puzzle.MustParse("swap:8x8:w=a1,b1,c1,d1:b=h5,h6,h7,h8:rule=enemy:turns=free"), Task: puzzle.Shortest, Heuristic: h})
		if err != nil || ans.Status != puzzle.Timeout {
			t.Errorf("%s: %v %s, want timeout", h, err, ans.Status)
		}
	}
}

// TestSwapBadRequests: tasks a strategy does not do are errors.
func TestSwapBadRequests(t *testing.T) {
	for _, c := range []struct {
		h    string
		task puzzle.Task
	}{{"astar", puzzle.Count}, {"bfs", puzzle.All}, {"bfs", puzzle.Unique}, {"nosuch", puzzle.Shortest}} {
		_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("swap:4x3"), Task: c.task, Heuristic: c.h})
		if err == nil {
			t.Errorf("%s %s: no error", c.h, c.task)
		}
	}
	if _, err := swapSolve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.Shortest}, swapBFS); err == nil {
		t.Error("a queens spec reached the swap search without error")
	}
}

func benchSwap(b *testing.B, spec, h string, task puzzle.Task) {
	req := puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Heuristic: h}
	var ans puzzle.Answer
	for b.Loop() {
		var err error
		ans, err = search.Solve(context.Background(), req)
		if err != nil || ans.Status != puzzle.OK {
			b.Fatalf("%v %s", err, ans.Status)
		}
	}
	b.ReportMetric(float64(ans.Stats[puzzle.StatStates]), "states")
	b.ReportMetric(float64(ans.Stats[puzzle.StatNodes]), "nodes")
}

// BenchmarkSwapSeedBFS: the seed's puzzle, shortest plan by bfs (the seed's C++ took 16 ms).
func BenchmarkSwapSeedBFS(b *testing.B) { benchSwap(b, "swap:4x3", "bfs", puzzle.Shortest) }

// BenchmarkSwapSeedBFSCount: the seed's puzzle, number of shortest plans by bfs.
func BenchmarkSwapSeedBFSCount(b *testing.B) { benchSwap(b, "swap:4x3", "bfs", puzzle.Count) }

// BenchmarkSwapSeedBidir: the seed's puzzle by bidirectional search.
func BenchmarkSwapSeedBidir(b *testing.B) { benchSwap(b, "swap:4x3", "bidir", puzzle.Shortest) }

// BenchmarkSwapSeedAStar: the seed's puzzle by A*.
func BenchmarkSwapSeedAStar(b *testing.B) { benchSwap(b, "swap:4x3", "astar", puzzle.Shortest) }

// BenchmarkSwap8x8: four knights a side on 8x8 by A*, one sub-benchmark per
// instance and rule.
func BenchmarkSwap8x8(b *testing.B) {
	for _, pos := range []string{"w=a1,b1,c1,d1:b=a8,b8,c8,d8", "w=c3,d3,e3,f3:b=c6,d6,e6,f6"} {
		for _, rule := range []string{"none", "own", "enemy"} {
			for _, turns := range []string{"alternate", "free"} {
				spec := "swap:8x8:" + pos + ":rule=" + rule + ":turns=" + turns
				b.Run(pos[2:4]+"/"+rule+"/"+turns, func(b *testing.B) { benchSwap(b, spec, "astar", puzzle.Shortest) })
			}
		}
	}
}

// TestSwapMemoryBudget: a search over the memory budget ends within
// seconds, refused with its estimate when the projection passes the
// budget (swap:64x64 at the default budget; swap:8x8 at 200 MiB), else
// with status memout once the process passes it (swap:5x5 under a budget of
// 1 MiB, below any process's resident set).
func TestSwapMemoryBudget(t *testing.T) {
	defer membudget.Set(math.MaxInt64)
	ask := func(spec, h string) (puzzle.Answer, error) {
		return search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Shortest, Heuristic: h})
	}
	for _, h := range []string{"bfs", "bidir"} {
		if _, err := ask("swap:64x64", h); err == nil || !strings.Contains(err.Error(), "over its memory budget of") {
			t.Errorf("swap:64x64 %s: err %v, want a refusal with the estimate", h, err)
		}
	}
	// The watchdog compares the whole process's resident memory with the
	// budget: give back what earlier tests of the package freed, so the
	// projection, not a heap left over from them, decides (seen once in a
	// full run: memout, no refusal).
	debug.FreeOSMemory()
	membudget.Set(200 << 20)
	if _, err := ask("swap:8x8", "bfs"); err == nil || !strings.Contains(err.Error(), "over its memory budget of 200 MiB") {
		t.Errorf("swap:8x8 under 200 MiB: err %v, want a refusal", err)
	}
	// Under 1 MiB, less than any process holds, the watchdog ends every strategy at
	// once (A* solves swap:5x5 in about 0.4 s unbounded), unless the
	// breadth-first projection refuses first.
	membudget.Set(1 << 20)
	for _, h := range swapStrategyNames {
		ans, err := ask("swap:5x5", h)
		refused := err != nil && strings.Contains(err.Error(), "over its memory budget of") && h != "astar"
		if !refused && (err != nil || ans.Status != puzzle.Memout || !strings.Contains(ans.Message, "passed the memory budget")) {
			t.Errorf("swap:5x5 %s under 1 MiB: %v %s %q, want memout", h, err, ans.Status, ans.Message)
		}
	}
}
