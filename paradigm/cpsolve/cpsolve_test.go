package cpsolve

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/paradigm/mzn"
	"github.com/boardsat/boardsat/puzzle"
)

func solve(t *testing.T, spec string, task puzzle.Task) puzzle.Answer {
	t.Helper()
	ans, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task})
	if err != nil {
		t.Fatalf("%s %s: %v", spec, task, err)
	}
	if ans.SolveSeconds <= 0 {
		t.Errorf("%s %s: no solve time in the answer", spec, task)
	}
	return ans
}

// TestPublishedCounts counts small instances of every puzzle with a
// MiniZinc model through Gecode and compares with the published tables
// (puzzle.KnownCount), and the optima with puzzle.KnownOptimum.
func TestPublishedCounts(t *testing.T) {
	cnftest.NeedSolver(t, Binary)
	for _, spec := range []string{
		"queens:1", "queens:3", "queens:6", "pieces:3x3:K1R2", "pieces:4x4:R2N4",
		"tour:5x5:a1", "tour:3x4:*", "tour:3x10:a1:closed", "tour:3x8:*:closed",
		"kingpath:4x4:b1:4", "dominate:5x5:Q", "dominate:6x6:Q:k=3", "dominate:6x6:Q:k=2",
		"dominate:4x4:Q:independent",
	} {
		want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
		if !ok {
			t.Fatalf("%s: no published count", spec)
		}
		ans := solve(t, spec, puzzle.Count)
		if ans.Status != puzzle.OK || ans.Count != want {
			t.Errorf("%s: count %s %d (%s), published %d", spec, ans.Status, ans.Count, ans.Message, want)
		}
	}
	for _, spec := range []string{"dominate:6x6:Q", "dominate:5x5:K", "dominate:4x4:N"} {
		want, _ := puzzle.KnownOptimum(puzzle.MustParse(spec))
		ans := solve(t, spec, puzzle.Optimum)
		if ans.Status != puzzle.OK || ans.Objective == nil || ans.Objective.Int64() != int64(want) || ans.Solution == nil {
			t.Errorf("%s: optimum %s %v (%s), published %d", spec, ans.Status, ans.Objective, ans.Message, want)
		}
	}
	if ans := solve(t, "queens:3", puzzle.First); ans.Status != puzzle.Unsat {
		t.Errorf("queens:3 first: %s, want unsat", ans.Status)
	}
}

// TestIntervalsByEnumeration checks the optimum and the number of optimal
// selections of small random instances against every subset.
func TestIntervalsByEnumeration(t *testing.T) {
	cnftest.NeedSolver(t, Binary)
	for _, spec := range []string{"intervals:random:12:seed=4", "intervals:random:14:seed=11"} {
		s := puzzle.MustParse(spec).(puzzle.Intervals)
		best, count := int64(-1), uint64(0)
		for mask := range 1 << len(s.Items) {
			var picks []int
			for i := range s.Items {
				if mask>>i&1 == 1 {
					picks = append(picks, i)
				}
			}
			v, err := puzzle.IntervalsValue(s, picks)
			switch {
			case err != nil:
			case v > best:
				best, count = v, 1
			case v == best:
				count++
			}
		}
		if a := solve(t, spec, puzzle.Optimum); a.Status != puzzle.OK || a.Objective.Int64() != best {
			t.Errorf("%s: optimum %s %v, enumeration %d", spec, a.Status, a.Objective, best)
		}
		if a := solve(t, spec, puzzle.Count); a.Status != puzzle.OK || a.Count != count {
			t.Errorf("%s: count %s %d, enumeration %d", spec, a.Status, a.Count, count)
		}
	}
}

// TestFakeMinizinc puts a fake minizinc first on PATH: a solution that
// breaks the rules, output it cannot read, a run without a verdict, a
// crash and a hang are never ok.
func TestFakeMinizinc(t *testing.T) {
	const q4 = "echo 'solution: [2, 4, 1, 3]'; echo ----------"
	tests := []struct {
		name, spec string
		task       puzzle.Task
		script     string
		want       puzzle.Status
		timeout    time.Duration
	}{
		{"right", "queens:4", puzzle.First, q4, puzzle.OK, 0},
		{"right count", "queens:4", puzzle.Count, q4 + "; echo 'solution: [3, 1, 4, 2]'; echo ----------; echo ==========", puzzle.OK, 0},
		{"invalid solution", "queens:4", puzzle.First, "echo 'solution: [1, 2, 3, 4]'; echo ----------", puzzle.Error, 0},
		{"invalid in a count", "queens:4", puzzle.Count, q4 + "; echo 'solution: [1, 1, 1, 1]'; echo ----------; echo ==========", puzzle.Error, 0},
		{"wrong length", "queens:4", puzzle.First, "echo 'solution: [2, 4, 1]'; echo ----------", puzzle.Error, 0},
		{"unreadable", "queens:4", puzzle.First, "echo 'hello world'", puzzle.Error, 0},
		{"garbage values", "queens:4", puzzle.First, "echo 'solution: [2, x, 1, 3]'; echo ----------", puzzle.Error, 0},
		{"no separator", "queens:4", puzzle.First, "echo 'solution: [2, 4, 1, 3]'", puzzle.Error, 0},
		{"count without verdict", "queens:4", puzzle.Count, q4, puzzle.Error, 0},
		{"nothing", "queens:4", puzzle.First, "true", puzzle.Error, 0},
		{"verdict without solution", "queens:4", puzzle.Count, "echo ==========", puzzle.Error, 0},
		{"unsat after a solution", "queens:4", puzzle.First, q4 + "; echo =====UNSATISFIABLE=====", puzzle.Error, 0},
		{"unknown", "queens:4", puzzle.First, "echo =====UNKNOWN=====", puzzle.Error, 0},
		{"crash", "queens:4", puzzle.First, q4 + "; kill -SEGV $$", puzzle.Error, 0},
		{"bad exit", "queens:4", puzzle.First, q4 + "; exit 1", puzzle.Error, 0},
		{"wrong objective", "dominate:2x2:K", puzzle.Optimum, "echo 'solution: [1, 0, 0, 0]'; echo 'objective: 2'; echo ----------; echo ==========", puzzle.Error, 0},
		{"right objective", "dominate:2x2:K", puzzle.Optimum, "echo 'solution: [1, 0, 0, 0]'; echo 'objective: 1'; echo ----------; echo ==========", puzzle.OK, 0},
		{"optimum unproven", "dominate:2x2:K", puzzle.Optimum, "echo 'solution: [1, 0, 0, 0]'; echo 'objective: 1'; echo ----------", puzzle.Error, 0},
		{"hang", "queens:4", puzzle.First, "sleep 30", puzzle.Timeout, 300 * time.Millisecond},
		{"hang after a solution", "dominate:3x3:K", puzzle.Optimum, "echo 'solution: [0, 0, 0, 0, 1, 0, 0, 0, 0]'; echo 'objective: 1'; echo ----------; sleep 30", puzzle.Timeout, 500 * time.Millisecond},
		{"count stopped", "queens:4", puzzle.Count, q4 + "; echo 'solution: [3, 1, 4, 2]'; echo ----------; sleep 30", puzzle.Timeout, 500 * time.Millisecond},
	}
	for _, tc := range tests {
		cnftest.FakeSolver(t, Binary, tc.script)
		ctx := context.Background()
		if tc.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, tc.timeout)
			defer cancel()
		}
		ans, err := Backend{}.Solve(ctx, puzzle.Request{Spec: puzzle.MustParse(tc.spec), Task: tc.task})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if ans.Status != tc.want {
			t.Errorf("%s: status %s (%s), want %s", tc.name, ans.Status, ans.Message, tc.want)
		}
		if tc.want == puzzle.Error && ans.Message == "" {
			t.Errorf("%s: error without a message", tc.name)
		}
		if tc.name == "hang after a solution" && (ans.Objective == nil || ans.Objective.Int64() != 1 || ans.Bound != nil) {
			t.Errorf("%s: objective %v, bound %v; want the best found, 1, and no bound", tc.name, ans.Objective, ans.Bound)
		}
		if tc.name == "count stopped" && (ans.Found == nil || ans.Found.Int64() != 2) {
			// An interrupted count answers what it found (a lower bound).
			t.Errorf("%s: found %v, want the 2 solutions checked before the limit", tc.name, ans.Found)
		}
		if tc.want == puzzle.OK && tc.task == puzzle.Count && ans.Count != 2 {
			t.Errorf("%s: count %d, want 2", tc.name, ans.Count)
		}
	}
}

// TestRequestErrors: requests the backend cannot take are errors (exit 2
// on the command line), before any solver runs.
func TestRequestErrors(t *testing.T) {
	for _, tc := range []struct {
		req  puzzle.Request
		want string
	}{
		{puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.First, Solver: "chuffed"}, `unknown cp solver "chuffed"`},
		{puzzle.Request{Spec: puzzle.MustParse("mnk:3x3:3"), Task: puzzle.Value}, "does not do task value"},
		{puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.All}, "not all"},
		{puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.First, Heuristic: "x"}, "--solver only"},
		{puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.Shortest}, "shortest for plans (swap), not for queens"},
	} {
		_, err := Backend{}.Solve(context.Background(), tc.req)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want an error with %q", tc.req.Spec, tc.req.Task, err, tc.want)
		}
	}
	// The model is looked for, and an optimum asked of a puzzle whose model
	// has no objective refused, once the solver is found.
	if !cnftest.MissingSolver(t, Binary) {
		mnk := puzzle.Request{Spec: puzzle.MustParse("mnk:3x3:3"), Task: puzzle.First}
		if _, err := (Backend{}).Solve(context.Background(), mnk); err == nil || !strings.Contains(err.Error(), "no MiniZinc model for mnk") {
			t.Errorf("mnk: %v", err)
		}
		opt := puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.Optimum}
		if _, err := (Backend{}).Solve(context.Background(), opt); err == nil || !strings.Contains(err.Error(), "queens has none") {
			t.Errorf("queens optimum: %v", err)
		}
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.First}); err == nil || !strings.Contains(err.Error(), `"minizinc"`) {
		t.Errorf("absent minizinc: %v", err)
	}
}

func TestParseValues(t *testing.T) {
	for in, want := range map[string][]int64{
		"[1, 0, 3]":     {1, 0, 3},
		"[]":            {},
		" [true,false]": {1, 0},
		"[-2]":          {-2},
	} {
		got, err := parseValues(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("parseValues(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"1, 2", "[1, x]", "[1,,2]", "[1", ""} {
		if _, err := parseValues(bad); err == nil {
			t.Errorf("parseValues(%q) accepted", bad)
		}
	}
}

// TestSwapWithoutMoves: on a board with no knight move (2x1, 2x2) the
// swap model has an empty move table, which MiniZinc aborts on; the
// model says "no move exists" instead, so every horizon is unsatisfiable
// and never a solver crash.
func TestSwapWithoutMoves(t *testing.T) {
	cnftest.NeedSolver(t, Binary)
	for _, spec := range []string{"swap:2x1", "swap:2x2"} {
		for _, T := range []int{1, 2} {
			sp := puzzle.MustParse(spec)
			m, err := mzn.Build(sp, mzn.Options{Steps: T})
			if err != nil {
				t.Fatalf("%s T=%d: %v", spec, T, err)
			}
			if r := run(context.Background(), Solvers[0], sp, m, false); r.status != puzzle.Unsat {
				t.Errorf("%s T=%d: %s (%s), want unsat", spec, T, r.status, r.message)
			}
		}
	}
}
