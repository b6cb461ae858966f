package report

import (
	"bytes"
	"github.com/boardsat/boardsat/harness/results"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// aggRows: two variants a and b on three instances of task count with a
// 10 s wall limit. p solved by both (a 1 s, b 2 s), q by a only (3 s; b
// timed out), r by neither; b ran s alone (4 s). Each instance one run,
// except p for a: three runs, 1, 1.5 and a timeout (solved by majority,
// median 1.25).
func aggRows() []results.Row {
	mk := func(in, v, st string, secs float64, rep int) results.Row {
		r := row(in, v, "count", rep, st, secs)
		r.WallLimit = 10
		return r
	}
	return []results.Row{
		mk("queens:4", "a", results.StatusOK, 1, 1), mk("queens:4", "a", results.StatusOK, 1.5, 2), mk("queens:4", "a", results.StatusTimeout, 12, 3),
		mk("queens:4", "b", results.StatusOK, 2, 1),
		mk("queens:5", "a", results.StatusOK, 3, 1), mk("queens:5", "b", results.StatusTimeout, 12, 1),
		mk("queens:6", "a", results.StatusTimeout, 12, 1), mk("queens:6", "b", results.StatusMemout, 5, 1),
		mk("queens:7", "b", results.StatusOK, 4, 1),
	}
}

// TestAggregate checks solved-of-ran, not run, PAR-2, VBS, unique solves,
// contribution and pairwise wins against values worked out by hand.
func TestAggregate(t *testing.T) {
	a := Aggregate(aggRows(), 2, TimeWall)
	if len(a.Scores) != 2 || len(a.VBS) != 1 || len(a.Wins) != 1 {
		t.Fatalf("%+v", a)
	}
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
	// Over the instances both ran (queens:4..6; b alone ran queens:7).
	// a: queens:4 PAR (1 + 1.5 + 20)/3 = 7.5; queens:5 3; queens:6 20.
	// Mean 30.5/3; unique queens:5, where it is the VBS.
	sa, sb := a.Scores[0], a.Scores[1]
	if sa.Variant != "a" || sa.Solved != 2 || sa.Common != 3 || sa.SolvedRan != 2 || sa.Ran != 3 || sa.NotRun != 1 || sa.Instances != 4 ||
		!near(sa.PAR, 30.5/3) || sa.Unique != 1 || sa.Best != 1 || !near(sa.Contribution, 1.0/2) {
		t.Errorf("a: %+v", sa)
	}
	// b: 2 + 20 + 20 = 42 over 3; the VBS on queens:4 (2 < 7.5); its
	// queens:7 is in ran and solved_ran only.
	if sb.Variant != "b" || sb.Solved != 1 || sb.SolvedRan != 2 || sb.Ran != 4 || sb.NotRun != 0 || !near(sb.PAR, 42.0/3) || sb.Unique != 0 ||
		sb.Best != 1 || !near(sb.Contribution, 1.0/2) {
		t.Errorf("b: %+v", sb)
	}
	// The VBS takes each instance's best PAR-2 of a variant: 2, 3, 20.
	v := a.VBS[0]
	if v.Solved != 2 || v.Instances != 3 || !near(v.PAR, 25.0/3) || !slices.Equal(v.Times, []float64{2, 3}) {
		t.Errorf("VBS: %+v", v)
	}
	// a beats b on queens:4 (1.25 < 2) and queens:5; ties queens:6;
	// queens:7, which a did not run, is no contest.
	if w := a.Wins[0]; w.Variant != "a" || w.Versus != "b" || w.Wins != 2 || w.Losses != 0 || w.Ties != 1 {
		t.Errorf("wins: %+v", w)
	}
	// A CPU limit scores CPU time against it.
	r := row("queens:4", "c", "count", 1, results.StatusTimeout, 50)
	r.CPULimit, r.WallLimit = 3, 100
	if got := PARScore([]results.Row{r}, 2, TimeCPU); got != 6 {
		t.Errorf("PAR-2 of a CPU-limited timeout: %g, want 6", got)
	}
}

// TestPivot checks the pivot's values, its best-in-bold and dashes, and that
// its LaTeX has the parts a paper needs.
func TestPivot(t *testing.T) {
	ps, err := Pivots(aggRows(), MeasureMedian, 2, TimeWall)
	if err != nil || len(ps) != 1 {
		t.Fatal(ps, err)
	}
	p := ps[0]
	if len(p.Instances) != 4 || len(p.Variants) != 2 || p.Values[0][0] != 1.25 || p.Values[0][1] != 2 || !math.IsNaN(p.Values[1][1]) || !math.IsNaN(p.Values[3][0]) {
		t.Errorf("median pivot %+v", p)
	}
	w := p.Wide()
	if w.Rows[0][1] != "**1.25**" || w.Rows[0][2] != "2.00" || w.Rows[1][2] != "t/o" || w.Rows[2][2] != "m/o" || w.Rows[3][1] != "n/r" {
		t.Errorf("wide rows %q", w.Rows)
	}
	var buf bytes.Buffer
	if err := p.LaTeX(&buf); err != nil {
		t.Fatal(err)
	}
	tex := buf.String()
	for _, want := range []string{`\toprule`, `\midrule`, `\bottomrule`, `\caption{`, `\label{tab:boardsat-median-queens-count}`,
		`S[table-format=1.2]S[table-format=1.2]@{}}`, `queens:4 & \bfseries 1.25 & 2.00 \\`, `queens:5 & \bfseries 3.00 & {t/o} \\`, `t/o: most runs hit the time limit`, `\begin{table}`} {
		if !strings.Contains(tex, want) {
			t.Errorf("LaTeX lacks %q:\n%s", want, tex)
		}
	}
	solved, _ := Pivots(aggRows(), MeasureSolved, 2, TimeWall)
	if s := solved[0].Values[0]; s[0] != 2 || s[1] != 1 {
		t.Errorf("solved runs on queens:4: %v", s)
	}
	par, _ := Pivots(aggRows(), MeasurePAR2, 2, TimeWall)
	if v := par[0].Values[0][0]; math.Abs(v-7.5) > 1e-9 {
		t.Errorf("PAR-2 of a on queens:4: %g, want 7.5", v)
	}
	if long := par[0].Long(); long.Header[4] != "par2_s" || len(long.Rows) != 8 || long.Rows[7][4] != "4" || long.Rows[6][4] != "" {
		t.Errorf("long: %q %q", long.Header, long.Rows)
	}
	first := row("queens:4", "a", "first", 1, results.StatusOK, 0.5)
	first.WallLimit = 10
	two, _ := Pivots(append(aggRows(), first), MeasureMedian, 2, TimeWall)
	if lt := LongPivots(two); len(two) != 2 || len(lt.Rows) != 9 || lt.Header[4] != "median_s" || !slices.Equal(lt.Rows[8], []string{"queens", "first", "queens:4", "a", "0.5"}) {
		t.Errorf("two tasks in one long table: %d pivots, %q", len(two), lt.Rows)
	}
	if _, err := Pivots(aggRows(), "mean", 2, TimeWall); err == nil || !strings.Contains(err.Error(), "unknown --measure") {
		t.Errorf("unknown measure: %v", err)
	}
}

// TestSummaryTidy: the summary CSV holds numbers or empty cells only, with
// the CI's bounds in columns of their own.
func TestSummaryTidy(t *testing.T) {
	var buf bytes.Buffer
	if err := SummaryTable(Summarize(aggRows(), TimeWall)).Render(&buf, "csv"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	header := strings.Split(lines[0], ",")
	for _, l := range lines[1:] {
		for i, c := range strings.Split(l, ",") {
			if i < 3 || c == "" {
				continue
			}
			if _, err := parseNumber(c); err != nil {
				t.Errorf("column %s: %q is not a number", header[i], c)
			}
		}
	}
	if !strings.Contains(lines[0], "ci_low_s,ci_high_s") {
		t.Errorf("header %s", lines[0])
	}
}

func parseNumber(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
