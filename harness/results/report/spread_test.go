package report

import (
	"math"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// TestQuartiles checks the IQR against values worked out by hand (type 7:
// rank 1 + (n-1)p): for 1, 2, 3, 4 the 25th percentile is at rank 1.75,
// 1.75; the 75th at rank 3.25, 3.25; for 1..5, 2 and 4.
func TestQuartiles(t *testing.T) {
	q1, q3 := Quartiles([]float64{4, 1, 3, 2})
	if q1 != 1.75 || q3 != 3.25 {
		t.Errorf("quartiles of 1..4: %g, %g; want 1.75, 3.25", q1, q3)
	}
	if q1, q3 := Quartiles([]float64{5, 1, 4, 2, 3}); q1 != 2 || q3 != 4 {
		t.Errorf("quartiles of 1..5: %g, %g; want 2, 4", q1, q3)
	}
	if q1, q3 := Quartiles(nil); !math.IsNaN(q1) || !math.IsNaN(q3) {
		t.Errorf("quartiles of nothing: %g, %g", q1, q3)
	}
}

// TestPivotSpread checks that a pivot's spread is the IQR of the solved
// runs, or the very CI Summarize gives, and that both tables show it.
func TestPivotSpread(t *testing.T) {
	rows := aggRows() // queens:4 by a: 1 and 1.5 solved, one timeout
	ps, err := Pivots(rows, MeasureMedian, 2, TimeWall)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := PivotSpreads(ps, rows, SpreadIQR)
	if err != nil {
		t.Fatal(err)
	}
	// Instances queens:4..7, variants a, b.
	if got := sp[0][0][0]; got != [2]float64{1.125, 1.375} {
		t.Errorf("IQR of a on queens:4 (1 and 1.5 s: 1.125 to 1.375): %v", got)
	}
	if got := sp[0][2][0]; !math.IsNaN(got[0]) {
		t.Errorf("a did not solve queens:6, yet has a spread %v", got)
	}
	ci, err := PivotSpreads(ps, rows, SpreadCI)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Summarize(rows, TimeWall) {
		if s.Instance == "queens:4" && s.Variant == "a" && ci[0][0][0] != [2]float64{s.CILo, s.CIHi} {
			t.Errorf("CI %v, Summarize's %g..%g", ci[0][0][0], s.CILo, s.CIHi)
		}
	}
	w := ps[0].WideSpread(sp[0], SpreadIQR)
	if !strings.Contains(w.Rows[0][1], "[1.12, 1.38]") || !strings.Contains(w.Title, "interquartile") {
		t.Errorf("wide pivot with spread: %q, %q", w.Title, w.Rows[0])
	}
	var tex strings.Builder
	if err := ps[0].WithSpread(sp[0], SpreadIQR).LaTeX(&tex); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tex.String(), "{\\scriptsize [1.12, 1.38]}") || !strings.Contains(tex.String(), "beneath each median, in brackets, the interquartile range") {
		t.Errorf("LaTeX pivot with spread: no spread line or no word of it in the caption:\n%s", tex.String())
	}
	l := LongPivotsSpread(ps, sp, SpreadIQR)
	if l.Header[len(l.Header)-2] != "iqr_low_s" || l.Rows[0][5] != "1.1250" || l.Rows[0][6] != "1.3750" {
		t.Errorf("long pivot with spread: %q %q", l.Header, l.Rows[0])
	}
	if _, err := PivotSpreads(ps, rows, "sd"); err == nil {
		t.Error("--spread sd accepted")
	}
	par, _ := Pivots(rows, MeasurePAR2, 2, TimeWall)
	if _, err := PivotSpreads(par, rows, SpreadCI); err == nil {
		t.Error("a spread of a PAR-2 pivot accepted")
	}
}

// TestRunsTable checks that every run is a row with its CPU, wall and
// solver seconds, memory and outcome side by side.
func TestRunsTable(t *testing.T) {
	refused := row("queens:8", "sat/x", "count", 1, results.StatusError, 0.1)
	refused.Message = results.RefusedMessage("no such encoding")
	notRun := row("queens:9", "sat/x", "count", 1, results.StatusTimeout, 0)
	notRun.Message = results.NotRunMessage("the ladder stopped")
	rows := append(aggRows(), refused, notRun)
	tb := RunsTable(rows)
	if len(tb.Rows) != len(rows) {
		t.Fatalf("%d rows for %d runs", len(tb.Rows), len(rows))
	}
	col := func(name string) int {
		for i, h := range tb.Header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s in %q", name, tb.Header)
		return -1
	}
	// aggRows' first run: 1 s wall, user 0.5 + sys 0.001.
	if r := tb.Rows[0]; r[col("cpu_s")] != "0.501" || r[col("wall_s")] != "1" || r[col("maxrss_kb")] != "12345" || r[col("status")] != "ok" {
		t.Errorf("first run: %q", r)
	}
	if got := tb.Rows[len(rows)-2][col("status")]; got != "refused" {
		t.Errorf("refused run's status %q", got)
	}
	if got := tb.Rows[len(rows)-1][col("status")]; got != "not run" {
		t.Errorf("not-run row's status %q", got)
	}
}

// TestOptStatusTable checks the MiniZinc Challenge statuses of
// optimisation runs: ok is OPT, unsat UNSAT, a timeout with an answer SAT,
// one without UNKNOWN, wrong WRONG; refused runs are not attempts, and a
// task that optimises nothing has no row.
func TestOptStatusTable(t *testing.T) {
	mk := func(st string, answer bool) results.Row {
		r := row("swap:4x3", "native/bfs", "shortest", 1, st, 1)
		r.HasAnswer = answer
		return r
	}
	refused := mk(results.StatusError, false)
	refused.Message = results.RefusedMessage("no")
	rows := []results.Row{mk(results.StatusOK, true), mk(results.StatusOK, true), mk(results.StatusUnsat, false),
		mk(results.StatusTimeout, true), mk(results.StatusTimeout, false), mk(results.StatusMemout, false),
		mk(results.StatusWrong, true), refused, row("queens:4", "a", "count", 1, results.StatusOK, 1)}
	tb := OptStatusTable(rows)
	if len(tb.Rows) != 1 {
		t.Fatalf("want one row (swap shortest), got %q", tb.Rows)
	}
	want := []string{"swap", "shortest", "native/bfs", "8", "2", "1", "1", "2", "1", "1"}
	if strings.Join(tb.Rows[0], ",") != strings.Join(want, ",") {
		t.Errorf("got  %q\nwant %q (header %q)", tb.Rows[0], want, tb.Header)
	}
}

// TestDrawSpread checks the bars of a scaling and a scatter figure against
// quartiles worked out by hand: variant a solves queens:4 in 1, 2, 3, 4 s
// (median 2.5, IQR 1.75 to 3.25), b in 2, 2, 2, 2 s (no spread).
func TestDrawSpread(t *testing.T) {
	var rows []results.Row
	for _, in := range []string{"queens:4", "queens:5", "queens:6"} {
		for i, s := range []float64{1, 2, 3, 4} {
			rows = append(rows, row(in, "a", "count", i+1, results.StatusOK, s), row(in, "b", "count", i+1, results.StatusOK, 2))
		}
	}
	sums := Summarize(rows, TimeWall)
	f, err := Scaling(sums, TimeWall)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := spreadBars(f, "scaling", rows, SpreadIQR, TimeWall, "", "")
	if err != nil || len(bs) != 1 || len(bs[0].XYs) != 6 {
		t.Fatalf("bars %+v, %v", bs, err)
	}
	// The x axis is the board side; of two variants a sizes' gap of 1
	// apart, a is drawn 0.125 left of it, b 0.125 right (dodge).
	if xy, e := bs[0].XYs[0], bs[0].YErrors[0]; xy.X != 3.875 || xy.Y != 2.5 || e.Low != 0.75 || e.High != 0.75 {
		t.Errorf("queens:4 by a: point %v, bar %v; want (3.875, 2.5) from 1.75 to 3.25", xy, e)
	}
	if xy := bs[0].XYs[1]; xy.X != 4.125 || xy.Y != 2 {
		t.Errorf("queens:4 by b: point %v, want (4.125, 2)", xy)
	}
	if e := bs[0].YErrors[1]; e.Low != 0 || e.High != 0 {
		t.Errorf("b's runs all 2 s: bar %v, want none", e)
	}
	if err := DrawSpread(f, "scaling", rows, SpreadIQR, TimeWall, "", ""); err != nil || !strings.Contains(f.Note, "interquartile range") {
		t.Errorf("DrawSpread: %v, note %q", err, f.Note)
	}
	sc, err := Scatter(sums, "a", "b", TimeWall)
	if err != nil {
		t.Fatal(err)
	}
	bs, err = spreadBars(sc, "scatter", rows, SpreadIQR, TimeWall, "a", "b")
	if err != nil || len(bs) != 1 || len(bs[0].XYs) != 3 {
		t.Fatalf("scatter bars %+v, %v", bs, err)
	}
	if e := bs[0].XErrors[0]; e.Low != 0.75 || e.High != 0.75 {
		t.Errorf("scatter x bar %v, want 0.75 each way", e)
	}
	if err := DrawSpread(sc, "scatter", rows, SpreadCI, TimeWall, "a", "b"); err != nil {
		t.Error(err)
	}
	if err := SaveFigure(sc, t.TempDir()+"/s.svg"); err != nil {
		t.Error(err)
	}
	if err := DrawSpread(f, "cactus", rows, SpreadCI, TimeWall, "", ""); err == nil {
		t.Error("a spread on a cactus accepted")
	}
}
