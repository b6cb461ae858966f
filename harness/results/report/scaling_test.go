package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
	"gonum.org/v1/plot"
)

// TestScalingAxes: the scaling figure's x axis is the puzzle's own size
// measure, log when it spans a decade or more (intervals, 10 to 1000),
// linear otherwise (queens' board side, 6 to 12); the instances a
// variant timed out on are crosses at the limit (2 s), the ones not run
// are not.
func TestScalingAxes(t *testing.T) {
	rows, err := results.ReadFiles(mixedCSV)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Scaling(Summarize(rows, TimeCPU), TimeCPU)
	if err != nil {
		t.Fatal(err)
	}
	p := f.Panels[0]
	if _, log := p.X.Scale.(plot.LogScale); p.X.Label.Text != "board side" || log {
		t.Errorf("queens x axis %q (log %v), want board side, linear", p.X.Label.Text, log)
	}
	// sat/seqcounter and mip/cbc time out on queens:10: two crosses at the
	// limit, set apart in their variants' slots (dodge) so that both show:
	// six variants over a quarter of the sizes' gap (2: boards 6 to 12),
	// 0.1 a slot, so within 10 +- 0.25.
	crosses := f.timedOut
	if len(crosses) != 2 || crosses[0].Y != 2 || crosses[1].Y != 2 || math.Abs(crosses[0].X-crosses[1].X) < 0.099 ||
		math.Abs(crosses[0].X-10) > 0.25 || math.Abs(crosses[1].X-10) > 0.25 {
		t.Errorf("timed-out crosses %v, want two at y 2, at least a slot (0.1) apart, within 10 +- 0.25", crosses)
	}
	if !slices.Contains(f.labels, TimedOutLabel) {
		t.Errorf("legend %q lacks %q", f.labels, TimedOutLabel)
	}
	var iv []results.Row
	for _, n := range []int{10, 100, 1000} {
		r := row(fmt.Sprintf("intervals:random:%d:seed=1", n), "native/x", "optimum", 1, results.StatusOK, float64(n)/1e4)
		r.Puzzle, r.User = "intervals", r.Seconds
		iv = append(iv, r)
	}
	g, err := Scaling(Summarize(iv, TimeCPU), TimeCPU)
	if err != nil {
		t.Fatal(err)
	}
	q := g.Panels[0]
	if _, log := q.X.Scale.(plot.LogScale); q.X.Label.Text != "number of intervals" || !log || q.X.Min != 10 || q.X.Max != 1000 {
		t.Errorf("intervals x axis %q (log %v) from %g to %g, want number of intervals, log, 10 to 1000", q.X.Label.Text, log, q.X.Min, q.X.Max)
	}
}

// TestLegendNamesDrawnPanels: the fixture's cactus draws one panel
// (queens count; the others have fewer than three instances), so no
// legend label names a puzzle and task, least of all a panel not drawn.
func TestLegendNamesDrawnPanels(t *testing.T) {
	rows, err := results.ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Cactus(Summarize(rows, TimeCPU), TimeCPU)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Panels) != 1 {
		t.Fatalf("%d panels", len(f.Panels))
	}
	for _, l := range f.labels {
		if strings.Contains(l, "(queens") || strings.Contains(l, "pieces") {
			t.Errorf("legend label %q names panels, with one panel drawn", l)
		}
	}
}

// TestIntegerTicksWide: an axis of four-digit values (board squares of
// the paradigms suite, 900 to 4100) labels three values at most, which
// a panel of half a column holds apart; two-digit ones keep five.
func TestIntegerTicksWide(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		most   int
	}{{900, 4100, 3}, {3, 13, 5}} {
		n := 0
		for _, tk := range (integerTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label != "" {
				n++
			}
		}
		if n > c.most || n < 2 {
			t.Errorf("%g to %g: %d labels, want 2 to %d", c.lo, c.hi, n, c.most)
		}
	}
}
