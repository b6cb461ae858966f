package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// clocksCSV holds one puzzle and task of two variants under a 2 s CPU
// limit and a 60 s wall limit, with the case: dominate:8x8:Q
// solved by cp/gecode in 1.69 s of CPU but 7.72 s of wall (7.60 s of
// solver seconds), past the CPU limit in every clock but its own, beside
// mip/glpk's CPU timeout (2.01 s of CPU, 2.90 s of wall).
const clocksCSV = "../testdata/clocks.csv"

// TestOneClock: the default measure is CPU time, the measure the CPU limit
// binds; in every measure a limit is the one of that measure (the CPU
// limit for CPU seconds, the wall limit for wall and solver seconds), a
// solved run is never drawn or printed at or beyond it, PAR-2 charges an
// unsolved run twice it, and a grid marks a limit of another measure as
// such.
func TestOneClock(t *testing.T) {
	rows, err := results.ReadFiles(clocksCSV)
	if err != nil {
		t.Fatal(err)
	}
	if DefaultTime != TimeCPU || TimeKinds[0] != TimeCPU {
		t.Errorf("default measure %q (kinds %v), want cpu", DefaultTime, TimeKinds)
	}
	for _, c := range []struct {
		time       string
		limit      float64 // the limit of the measure
		solved8    float64 // cp/gecode's time on dominate:8x8:Q
		gridGecode string
		gridGLPK   string
		axis       string // the cactus axis names the limit so
		label      string // and the scatter's legend so
	}{
		{TimeCPU, 2, 1.69, "1.69", "> 2.00 s", "CPU seconds (log; limit 2 s)", "CPU limit 2 s"},
		{TimeWall, 60, 7.72, "7.72", "> 2.00 s CPU", "wall-clock seconds (log; limit 60 s)", "wall-clock limit 60 s"},
		{TimeSolver, 60, 7.60, "7.60", "> 2.00 s CPU", "solver seconds (log; limit 60 s)", "wall-clock limit 60 s"},
	} {
		sums := Summarize(rows, c.time)
		pts, limit, bound := pairPoints(sums, "mip/glpk", "cp/gecode", c.time)
		if limit != c.limit || !bound || len(pts) != 4 {
			t.Fatalf("%s: scatter limit %g (bound %v), %d points; want %g, 4", c.time, limit, bound, len(pts), c.limit)
		}
		for _, s := range sums {
			if s.Solved > 0 && !(seconds(s, c.time) < limit) {
				t.Errorf("%s: solved %s %s drawn at %g, at or beyond the limit %g", c.time, s.Instance, s.Variant, seconds(s, c.time), limit)
			}
		}
		last := pts[3]
		if math.Abs(last.y-c.solved8) > 1e-9 || last.x != limit || !last.unsolved {
			t.Errorf("%s: dominate:8x8:Q drawn at (%g, %g), want (%g on the limit, %g)", c.time, last.x, last.y, limit, c.solved8)
		}
		g := Grid(rows, c.time)
		if got := g.Rows[3][2:]; !slices.Equal(got, []string{c.gridGecode, c.gridGLPK}) {
			t.Errorf("%s: grid dominate:8x8:Q %q, want %q, %q", c.time, got, c.gridGecode, c.gridGLPK)
		}
		if glpk := PARScore(rows[7:8], 2, c.time); glpk != 2*c.limit {
			t.Errorf("%s: PAR-2 of the timeout %g, want twice the %g s limit", c.time, glpk, c.limit)
		}
		f, err := Cactus(sums, c.time)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.yLabel, c.axis) {
			t.Errorf("%s: cactus axis %q, want %q", c.time, f.yLabel, c.axis)
		}
		sf, err := Scatter(sums, "mip/glpk", "cp/gecode", c.time)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(sf.labels, c.label) {
			t.Errorf("%s: scatter legend %q, want %q", c.time, sf.labels, c.label)
		}
	}
	// Under a wall limit alone, CPU seconds have no limit: the figures say
	// so instead of drawing the wall limit on a CPU axis.
	for i := range rows {
		rows[i].CPULimit, rows[i].Limit = 0, results.LimitWall
	}
	sums := Summarize(rows, TimeCPU)
	f, err := Cactus(sums, TimeCPU)
	if err != nil || !strings.Contains(f.yLabel, "CPU seconds (log; no limit)") {
		t.Errorf("cactus without a CPU limit: axis %q (%v), want it to say there is no CPU limit", f.yLabel, err)
	}
	if _, limit, bound := pairPoints(sums, "mip/glpk", "cp/gecode", TimeCPU); bound || limit == 60 {
		t.Errorf("scatter without a CPU limit: limit %g (bound %v), want the not-solved line, not the wall limit", limit, bound)
	}
	if g := Grid(rows, TimeCPU); g.Rows[3][3] != "> 60.0 s wall" {
		t.Errorf("grid without a CPU limit: %q, want the wall limit marked as such", g.Rows[3][3])
	}
}

// TestCaptionsNameTheLimit: the PAR-2 captions say which limit an
// unsolved run is charged, the one of the measure shown.
func TestCaptionsNameTheLimit(t *testing.T) {
	rows, err := results.ReadFiles(clocksCSV)
	if err != nil {
		t.Fatal(err)
	}
	for time, limit := range map[string]string{TimeCPU: "2 times the CPU limit", TimeWall: "2 times the wall-clock limit"} {
		ps, err := Pivots(rows, MeasurePAR2, 2, time)
		if err != nil {
			t.Fatal(err)
		}
		if c := ps[0].caption(); !strings.Contains(c, limit) {
			t.Errorf("%s: pivot caption %q does not say %q", time, c, limit)
		}
		if title := ScoreTable(Aggregate(rows, 2, time), 2).Title; !strings.Contains(title, "counts "+limit) {
			t.Errorf("%s: scores title %q does not say %q", time, title, limit)
		}
	}
}
