package report

import (
	"slices"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// gridRow is a run of dominate:NxN:Q of secs CPU seconds; cpu puts it
// under a CPU limit of 300 s (and makes its wall time twice that), else
// under a wall limit of 1200 s alone.
func gridRow(n int, task, variant, status string, secs float64, cpu bool) results.Row {
	in := map[int]string{4: "dominate:4x4:Q", 5: "dominate:5x5:Q"}[n]
	r := results.Row{Instance: in, Puzzle: "dominate", Squares: n * n, Variant: variant, Task: task, Status: status,
		Seconds: secs, User: secs - 0.5, Sys: 0.5, WallLimit: 1200}
	if cpu {
		r.User, r.Sys, r.CPULimit, r.Seconds = secs-0.5, 0.5, 300, 2*secs
	}
	if status == results.StatusOK {
		r.SetAnswerString(map[string]string{"optimum": "2", "count": "12"}[task])
		if n == 5 {
			r.SetAnswerString(map[string]string{"optimum": "3", "count": "186"}[task])
		}
	}
	return r
}

func TestGrid(t *testing.T) {
	ok, to := results.StatusOK, results.StatusTimeout
	cpuOut := func(r results.Row) results.Row {
		r.Limit = results.LimitCPU
		r.Answer, r.HasAnswer = 0, false
		return r
	}
	refused := gridRow(4, "count", "c", results.StatusError, 0, false)
	refused.Message = results.RefusedMessage("beyond this backend's limits")
	notRun := gridRow(5, "optimum", "b", to, 0, true)
	notRun.Message = results.NotRunMessage("ladder stopped after a timeout or memout on dominate:4x4:Q")
	rows := []results.Row{
		// The larger board first: rows are ordered by board size.
		gridRow(5, "optimum", "a", ok, 250, true), cpuOut(gridRow(5, "optimum", "a", to, 300.2, true)), cpuOut(gridRow(5, "optimum", "a", to, 300.1, true)),
		notRun,
		gridRow(4, "optimum", "a", ok, 1, true), gridRow(4, "optimum", "a", ok, 3, true), gridRow(4, "optimum", "a", ok, 2, true),
		gridRow(4, "optimum", "b", ok, 150, true),
		gridRow(4, "count", "a", ok, 10, false), gridRow(4, "count", "a", ok, 30, false), gridRow(4, "count", "a", ok, 20, false),
		gridRow(5, "count", "a", ok, 40, false), gridRow(5, "count", "a", ok, 42, false), gridRow(5, "count", "a", results.StatusError, 1, false),
		// A wall-clock timeout of a run without a CPU limit.
		gridRow(5, "count", "c", to, 1200, false),
		// A request the backend refused: not an error of it.
		refused,
	}
	g := Grid(rows, TimeCPU)
	wantHeader := []string{"instance", "optimum: answer", "optimum: a", "optimum: b", "count: answer", "count: a", "count: c"}
	if !slices.Equal(g.Header, wantHeader) {
		t.Fatalf("header %q, want %q", g.Header, wantHeader)
	}
	want := [][]string{
		{"dominate:4x4:Q", "2", "2.00", "150 (1 run)", "12", "20.0", "refused"},
		{"dominate:5x5:Q", "3", "> 300 s (1 of 3 solved)", "n/r", "186", "41.0 (2 of 3)", "> 1200 s wall"},
	}
	if len(g.Rows) != len(want) {
		t.Fatalf("%d rows: %q", len(g.Rows), g.Rows)
	}
	for i := range want {
		if !slices.Equal(g.Rows[i], want[i]) {
			t.Errorf("row %d: %q\nwant   %q", i, g.Rows[i], want[i])
		}
	}
}
