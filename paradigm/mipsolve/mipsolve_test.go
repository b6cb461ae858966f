package mipsolve

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
)

func solveWith(t *testing.T, solver, spec string, task puzzle.Task) puzzle.Answer {
	t.Helper()
	ans, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Solver: solver})
	if err != nil {
		t.Fatalf("%s %s %s: %v", solver, spec, task, err)
	}
	if ans.SolveSeconds <= 0 {
		t.Errorf("%s %s %s: no solve time in the answer", solver, spec, task)
	}
	return ans
}

// TestSolvers runs cbc and glpk on small instances of every puzzle with
// an integer program: a first solution where the published count says one
// exists (checked by the backend), unsat where it says none does, and the
// published optima.
func TestSolvers(t *testing.T) {
	for _, s := range Solvers {
		if cnftest.MissingSolver(t, s.Binary) {
			continue
		}
		for _, spec := range []string{"queens:1", "queens:2", "queens:3", "queens:6", "pieces:3x3:K1R2", "pieces:4x4:R2N4",
			"tour:5x5:a1", "tour:3x4:*", "tour:3x10:a1:closed", "tour:3x8:*:closed", "tour:3x3:*", "dominate:6x6:Q:k=2", "dominate:6x6:Q:k=3"} {
			n, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
			if !ok {
				t.Fatalf("%s: no published count", spec)
			}
			want := puzzle.OK
			if n == 0 {
				want = puzzle.Unsat
			}
			ans := solveWith(t, s.Name, spec, puzzle.First)
			if ans.Status != want || (want == puzzle.OK) != (ans.Solution != nil) {
				t.Errorf("%s %s: %s (%s), want %s", s.Name, spec, ans.Status, ans.Message, want)
			}
		}
		for _, spec := range []string{"dominate:6x6:Q", "dominate:5x5:K", "dominate:4x4:N", "dominate:7x5:R"} {
			want, _ := puzzle.KnownOptimum(puzzle.MustParse(spec))
			ans := solveWith(t, s.Name, spec, puzzle.Optimum)
			if ans.Status != puzzle.OK || ans.Objective == nil || ans.Objective.Int64() != int64(want) {
				t.Errorf("%s %s: optimum %s %v (%s), published %d", s.Name, spec, ans.Status, ans.Objective, ans.Message, want)
			}
		}
		spec := "intervals:random:14:seed=11"
		iv := puzzle.MustParse(spec).(puzzle.Intervals)
		best := int64(0)
		for mask := range 1 << len(iv.Items) {
			var picks []int
			for i := range iv.Items {
				if mask>>i&1 == 1 {
					picks = append(picks, i)
				}
			}
			if v, err := puzzle.IntervalsValue(iv, picks); err == nil && v > best {
				best = v
			}
		}
		if a := solveWith(t, s.Name, spec, puzzle.Optimum); a.Status != puzzle.OK || a.Objective.Int64() != best {
			t.Errorf("%s %s: optimum %s %v, enumeration %d", s.Name, spec, a.Status, a.Objective, best)
		}
	}
}

// TestFakeSolvers puts a fake cbc and a fake glpsol first on PATH, each
// writing the solution file named by its fourth argument: an invalid
// solution, a fractional value, a wrong objective, an unreadable or
// missing file, a crash and a hang are never ok.
func TestFakeSolvers(t *testing.T) {
	// queens:4 has 16 columns x_a1..x_d4, numbered 1..16 by square.
	q4 := map[string]bool{"x_b1": true, "x_d2": true, "x_a3": true, "x_c4": true}
	cbcLines, glpkLines := "", ""
	for i, s := range []string{"a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4", "d4"} {
		v := "0"
		if q4["x_"+s] {
			v = "1"
			cbcLines += "echo '" + strconv.Itoa(i) + " x_" + s + " 1 0'; "
		}
		glpkLines += "echo 'j " + strconv.Itoa(i+1) + " " + v + "'; "
	}
	tests := []struct {
		name, solver, spec string
		script             string
		want               puzzle.Status
		timeout            time.Duration
	}{
		{"right", "cbc", "queens:4", "(echo 'Optimal - objective value 0'; " + cbcLines + ") > $4", puzzle.OK, 0},
		{"invalid solution", "cbc", "queens:4", "(echo 'Optimal - objective value 0'; echo '0 x_a1 1 0'; echo '1 x_b1 1 0') > $4", puzzle.Error, 0},
		{"no queens", "cbc", "queens:4", "echo 'Optimal - objective value 0' > $4", puzzle.Error, 0},
		{"fractional", "cbc", "queens:4", "(echo 'Optimal - objective value 0'; " + cbcLines + " echo '4 x_a2 0.5 0') > $4", puzzle.Error, 0},
		{"unknown column", "cbc", "queens:4", "(echo 'Optimal - objective value 0'; " + cbcLines + " echo '99 y 1 0') > $4", puzzle.Error, 0},
		{"flagged infeasible", "cbc", "queens:4", "(echo 'Optimal - objective value 0'; echo '** 0 x_a1 1 0') > $4", puzzle.Error, 0},
		{"infeasible", "cbc", "queens:4", "echo 'Infeasible - objective value 0' > $4", puzzle.Unsat, 0},
		{"stopped", "cbc", "queens:4", "echo 'Stopped on time - objective value 0' > $4", puzzle.Error, 0},
		{"garbage status", "cbc", "queens:4", "echo 'hello world' > $4", puzzle.Error, 0},
		{"no file", "cbc", "queens:4", "true", puzzle.Error, 0},
		{"crash", "cbc", "queens:4", "kill -SEGV $$", puzzle.Error, 0},
		{"wrong objective", "cbc", "dominate:2x2:K", "(echo 'Optimal - objective value 2'; echo '0 x_a1 1 0') > $4", puzzle.Error, 0},
		{"right objective", "cbc", "dominate:2x2:K", "(echo 'Optimal - objective value 1'; echo '0 x_a1 1 0') > $4", puzzle.OK, 0},
		{"hang", "cbc", "queens:4", "sleep 30", puzzle.Timeout, 300 * time.Millisecond},
		{"right", "glpk", "queens:4", "(echo 's mip 14 16 o 0'; " + glpkLines + " echo 'e o f') > $4", puzzle.OK, 0},
		{"truncated", "glpk", "queens:4", "(echo 's mip 14 16 o 0'; " + glpkLines + ") > $4", puzzle.Error, 0},
		{"missing column", "glpk", "queens:4", "(echo 's mip 14 16 o 0'; echo 'j 2 1'; echo 'e o f') > $4", puzzle.Error, 0},
		{"wrong size", "glpk", "queens:4", "(echo 's mip 14 15 o 0'; " + glpkLines + " echo 'e o f') > $4", puzzle.Error, 0},
		{"no integer point", "glpk", "queens:4", "(echo 's mip 14 16 n 0'; echo 'e o f') > $4", puzzle.Unsat, 0},
		{"feasible only", "glpk", "queens:4", "(echo 's mip 14 16 f 0'; " + glpkLines + " echo 'e o f') > $4", puzzle.Error, 0},
		{"wrong objective", "glpk", "dominate:2x2:K", "(echo 's mip 4 4 o 3'; echo 'j 1 1'; echo 'j 2 0'; echo 'j 3 0'; echo 'j 4 0'; echo 'e o f') > $4", puzzle.Error, 0},
	}
	for _, tc := range tests {
		bin := "cbc"
		if tc.solver == "glpk" {
			bin = "glpsol"
		}
		cnftest.FakeSolver(t, bin, tc.script)
		ctx := context.Background()
		if tc.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, tc.timeout)
			defer cancel()
		}
		ans, err := Backend{}.Solve(ctx, puzzle.Request{Spec: puzzle.MustParse(tc.spec), Task: puzzle.First, Solver: tc.solver})
		if err != nil {
			t.Fatalf("%s %s: %v", tc.solver, tc.name, err)
		}
		if ans.Status != tc.want {
			t.Errorf("%s %s: status %s (%s), want %s", tc.solver, tc.name, ans.Status, ans.Message, tc.want)
		}
		if tc.want == puzzle.Error && ans.Message == "" {
			t.Errorf("%s %s: error without a message", tc.solver, tc.name)
		}
	}
}

// TestRequestErrors: count, other tasks, an unknown solver, a puzzle
// without a program and an absent binary are errors, before any run.
func TestRequestErrors(t *testing.T) {
	for _, tc := range []struct {
		req  puzzle.Request
		want string
	}{
		{puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.Count}, "does not do task count"},
		{puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.All}, "not all"},
		{puzzle.Request{Spec: puzzle.MustParse("swap:3x3:w=a3:b=a1:rule=none:turns=free"), Task: puzzle.Count}, "does not do task count"},
		{puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.First, Solver: "gurobi"}, `unknown mip solver "gurobi"`},
		{puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.First, Encoding: "x"}, "--solver only"},
	} {
		if _, err := (Backend{}).Solve(context.Background(), tc.req); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want an error with %q", tc.req.Spec, tc.req.Task, err, tc.want)
		}
	}
	if !cnftest.MissingSolver(t, "cbc") {
		for spec, want := range map[string]string{"kingpath:3x3:a1:3": "no integer-programming model for kingpath", "queens:4": "queens has none"} {
			if _, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Optimum}); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", spec, err, want)
			}
		}
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("queens:4"), Task: puzzle.First, Solver: "glpk"}); err == nil || !strings.Contains(err.Error(), `"glpsol"`) {
		t.Errorf("absent glpsol: %v", err)
	}
}
