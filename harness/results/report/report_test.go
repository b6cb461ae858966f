package report

import (
	"bytes"
	"fmt"
	"github.com/boardsat/boardsat/harness/results"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/internal/atomicfile"
)

func row(instance, variant, task string, rep int, status string, secs float64) results.Row {
	sq := 16
	if strings.HasPrefix(instance, "queens:") {
		var n int
		for _, c := range strings.TrimPrefix(instance, "queens:") {
			n = n*10 + int(c-'0')
		}
		sq = n * n
	}
	return results.Row{Time: time.Date(2026, 11, 21, 15, 0, 0, 0, time.UTC), Instance: instance, Puzzle: strings.Split(instance, ":")[0],
		Squares: sq, Variant: variant, Backend: strings.Split(variant, "/")[0], Task: task, Rep: rep, Status: status,
		Answer: 92, HasAnswer: status == results.StatusOK, Seconds: secs, User: secs / 2, Sys: 0.001, MaxRSSKB: 12345,
		Stats: map[string]int64{"nodes": 1000}}
}

func TestSummarize(t *testing.T) {
	var rows []results.Row
	for i, s := range []float64{1, 2, 3, 4, 100} {
		rows = append(rows, row("queens:8", "a", "count", i+1, results.StatusOK, s))
	}
	rows = append(rows, row("queens:8", "a", "count", 6, results.StatusTimeout, 500))
	sums := Summarize(rows, TimeWall)
	if len(sums) != 1 {
		t.Fatalf("%d groups", len(sums))
	}
	s := sums[0]
	if s.Runs != 6 || s.Solved != 5 || s.Median != 3 || s.Mean != 22 || s.Statuses["timeout"] != 1 {
		t.Errorf("%+v", s)
	}
	// Sample standard deviation of 1, 2, 3, 4, 100.
	if want := math.Sqrt((21*21 + 20*20 + 19*19 + 18*18 + 78*78) / 4.0); math.Abs(s.SD-want) > 1e-9 {
		t.Errorf("sd %g, want %g", s.SD, want)
	}
	if !(s.CILo >= 1 && s.CILo <= s.Median && s.CIHi >= s.Median && s.CIHi <= 100) {
		t.Errorf("CI [%g, %g] around median %g", s.CILo, s.CIHi, s.Median)
	}
	if again := Summarize(rows, TimeWall)[0]; again.CILo != s.CILo || again.CIHi != s.CIHi {
		t.Error("bootstrap not reproducible")
	}
	// Constant samples: the interval collapses.
	lo, hi := BootstrapCI([]float64{5, 5, 5}, median, 0.95, 100, 1)
	if lo != 5 || hi != 5 {
		t.Errorf("constant CI [%g, %g]", lo, hi)
	}
}

func TestSpeedups(t *testing.T) {
	rows := []results.Row{
		row("queens:8", "base", "count", 1, results.StatusOK, 2), row("queens:8", "fast", "count", 1, results.StatusOK, 1),
		row("queens:9", "base", "count", 1, results.StatusOK, 8), row("queens:9", "fast", "count", 1, results.StatusOK, 2),
		row("queens:10", "base", "count", 1, results.StatusOK, 8), row("queens:10", "fast", "count", 1, results.StatusTimeout, 60),
	}
	sp, err := Speedups(Summarize(rows, TimeWall), "base", TimeWall)
	if err != nil || len(sp) != 1 {
		t.Fatal(sp, err)
	}
	if s := sp[0]; s.Variant != "fast" || s.Instances != 2 || math.Abs(s.GeoMean-math.Sqrt(8)) > 1e-12 || s.Min != 2 || s.Max != 4 {
		t.Errorf("%+v", s)
	}
	if _, err := Speedups(Summarize(rows, TimeWall), "nosuch", TimeWall); err == nil {
		t.Error("unknown baseline accepted")
	}
}

func TestTables(t *testing.T) {
	rows := []results.Row{row("queens:8", "sat/seq_counter", "count", 1, results.StatusOK, 0.5), row("queens:8", "native", "count", 1, results.StatusOK, 0.25)}
	tab := SummaryTable(Summarize(rows, TimeWall))
	for format, want := range map[string][]string{
		"md":    {"| queens:8 ", "| sat/seq_counter", "---: |"},
		"csv":   {"instance,variant,task", "queens:8,native,count,1,1"},
		"latex": {`\begin{tabular}{@{}lll`, `\caption{Runs per instance`, `\label{tab:boardsat-table-1}`, `\toprule`, `sat/seq\_counter`, `\bottomrule`, `\end{tabular}`},
	} {
		var buf bytes.Buffer
		if err := tab.Render(&buf, format); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("%s table lacks %q:\n%s", format, w, buf.String())
			}
		}
	}
	if err := tab.Render(io.Discard, "html"); err == nil {
		t.Error("unknown format accepted")
	}
}

func TestBenchfmt(t *testing.T) {
	r := row("queens:8", "sat/position+seqcounter/cadical", "count", 1, results.StatusOK, 0.5)
	r.Backend, r.Encoding, r.Solver = "sat", "position+seqcounter", "cadical"
	var buf bytes.Buffer
	WriteBenchfmt(&buf, []results.Row{r, row("queens:9", "native", "count", 1, results.StatusTimeout, 9)},
		[]results.Session{{GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU"}})
	out := buf.String()
	line := regexp.MustCompile(`(?m)^BenchmarkBoardsat/instance=queens:8/backend=sat/encoding=position\+seqcounter/solver=cadical/task=count\t1\t0\.5 sec/op\t0\.251 cpu-sec/op\t12641280 peak-RSS-B\t1000 nodes/op$`)
	if !line.MatchString(out) || !strings.HasPrefix(out, "goos: linux\ngoarch: amd64\n") || strings.Contains(out, "queens:9") {
		t.Errorf("benchfmt:\n%s", out)
	}
}

// TestBenchNameByRequestedVariant checks that benchmarks are named by the
// variant requested, not by the heuristic that ran: native/symmetric hands
// queens:4 to bitboard, and must stay apart from native/bitboard itself.
func TestBenchNameByRequestedVariant(t *testing.T) {
	sym := row("queens:4", "native/symmetric", "first", 1, results.StatusOK, 0.01)
	sym.Heuristic = "bitboard" // what ran
	bit := row("queens:4", "native/bitboard", "first", 1, results.StatusOK, 0.01)
	bit.Heuristic = "bitboard"
	cases := []struct {
		r    results.Row
		want string
	}{
		{sym, "BenchmarkBoardsat/instance=queens:4/backend=native/heuristic=symmetric/task=first"},
		{bit, "BenchmarkBoardsat/instance=queens:4/backend=native/heuristic=bitboard/task=first"},
		{row("queens:8", "sat/totalizer", "count", 1, results.StatusOK, 1), "BenchmarkBoardsat/instance=queens:8/backend=sat/encoding=totalizer/task=count"},
		{row("queens:8", "gophersat-count/pairwise", "count", 1, results.StatusOK, 1), "BenchmarkBoardsat/instance=queens:8/backend=gophersat-count/encoding=pairwise/task=count"},
	}
	for _, c := range cases {
		if got := BenchName(c.r); got != c.want {
			t.Errorf("%s: %s, want %s", c.r.Variant, got, c.want)
		}
	}
}

// fixtureCSV is a real bench run (boardsat bench on a small suite of
// queens, pieces and tours, native and SAT variants, two repetitions).
const fixtureCSV = "../testdata/bench.csv"

// TestFigures renders every figure kind from the fixture in every format
// and checks what a reader relies on: one panel per puzzle and task with
// solved runs, a legend entry per variant drawn, distinct looks for the
// variants of one panel, nothing below the time floor, and each file
// written whole and readable by all.
func TestFigures(t *testing.T) {
	rows, err := results.ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	sums := Summarize(rows, TimeWall)
	panels := Panels(sums)
	if len(panels) != 4 { // queens count, queens first, pieces count, tour first
		t.Fatalf("fixture panels %v, want 4", panels)
	}
	x, y, ok := ScatterPair(sums)
	if !ok {
		t.Fatal("no scatter pair in the fixture")
	}
	dir := t.TempDir()
	for _, time := range TimeKinds {
		figs := map[string]*Figure{}
		if figs["cactus"], err = Cactus(sums, time); err != nil {
			t.Fatal(err)
		}
		if figs["scaling"], err = Scaling(sums, time); err != nil {
			t.Fatal(err)
		}
		if figs["scatter"], err = Scatter(sums, x, y, time); err != nil {
			t.Fatal(err)
		}
		if figs["ecdf"], err = ECDF(sums, x, y, time); err != nil {
			t.Fatal(err)
		}
		for kind, f := range figs {
			// Cactus and scaling: queens count alone has 3 instances or
			// more (MinPanelInstances); the others are named as left out.
			// Scatter: one square panel; ECDF: one panel, a line per task.
			want := map[string]int{"cactus": 1, "scaling": 1, "scatter": 1, "ecdf": 1}[kind]
			if kind == "cactus" || kind == "scaling" {
				if wantLeft := []string{"queens first (1 instance)", "pieces count (2 instances)", "tour first (2 instances)"}; !slices.Equal(f.Left, wantLeft) {
					t.Errorf("%s: left out %q, want %q", kind, f.Left, wantLeft)
				}
			}
			if len(f.Panels) != want {
				t.Errorf("%s: %d panels, want %d", kind, len(f.Panels), want)
			}
			for _, ext := range PlotFormats {
				path := filepath.Join(dir, kind+"-"+time+"."+ext)
				if err := SaveFigure(f, path); err != nil {
					t.Fatal(err)
				}
				if st, err := os.Stat(path); err != nil || st.Size() < 1000 || st.Mode().Perm() != atomicfile.Mode {
					t.Errorf("%s: %v %v", path, st, err)
				}
			}
		}
		var queens []Summary
		for _, s := range sums {
			if s.Puzzle == "queens" && s.Task == "count" {
				queens = append(queens, s)
			}
		}
		if got, want := len(figs["cactus"].labels), len(variantsOf(queens))+1; got != want || !slices.Contains(figs["cactus"].labels, VBSLabel) {
			t.Errorf("cactus legend has %d entries, want one per variant and the VBS (%d)", got, want)
		}
	}
	st := newStyles(sums)
	for _, pn := range panels {
		seen := map[string]string{}
		for _, s := range sums {
			if s.Puzzle != pn.Puzzle || s.Task != pn.Task {
				continue
			}
			sv := st.byVariant[s.Variant]
			k := fmt.Sprintf("%v %T %v", sv.color, sv.glyph, sv.dashes)
			if u, dup := seen[k]; dup && u != s.Variant {
				t.Errorf("%v: %s and %s look the same", pn, u, s.Variant)
			}
			seen[k] = s.Variant
			for _, tk := range TimeKinds {
				if sec := seconds(s, tk); sec < TimeFloor {
					t.Errorf("%s %s: %s time %g below the floor", s.Instance, s.Variant, tk, sec)
				}
			}
		}
	}
	if err := SaveFigure(figs(t, sums), filepath.Join(dir, "fig.gif")); err == nil {
		t.Error("unknown figure format accepted")
	}
	if _, err := Scatter(sums, x, "nosuch", "solver"); err == nil {
		t.Error("scatter with an unknown variant accepted")
	}
	if _, err := Cactus(sums, "user"); err == nil {
		t.Error("unknown time kind accepted")
	}
	if _, err := Cactus(nil, "solver"); err == nil {
		t.Error("cactus without runs accepted")
	}
}

// TestScatterKeepsUnsolved: an instance one variant did not solve is drawn
// at the limit, never dropped; the figure's text is all glyph outlines in
// SVG, and a character the font lacks is refused.
func TestScatterKeepsUnsolved(t *testing.T) {
	sums := Summarize(aggRows(), TimeWall)
	pts, limit, _ := pairPoints(sums, "a", "b", "wall")
	if limit != 10 || len(pts) != 3 {
		t.Fatalf("limit %g, points %+v", limit, pts)
	}
	want := []pairPoint{{"queens", "count", 1.25, 2, false}, {"queens", "count", 3, 10, true}, {"queens", "count", 10, 10, true}}
	if !slices.Equal(pts, want) {
		t.Errorf("points %+v, want %+v", pts, want)
	}
	f, err := Scatter(sums, "a", "b", "wall")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	svg := filepath.Join(dir, "s.svg")
	if err := SaveFigure(f, svg); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(svg)
	if strings.Contains(string(data), "<text") {
		t.Error("the SVG holds text elements: it depends on the reader's fonts")
	}
	f.Panels[0].Title.Text = "≤ 0.1 ms, 2× faster, 5 µs"
	for _, ext := range []string{"pdf", "svg", "png"} {
		if err := SaveFigure(f, filepath.Join(dir, "glyphs."+ext)); err != nil {
			t.Errorf("%s with ≤, × and µ: %v", ext, err)
		}
	}
	f.Panels[0].Title.Text = "snow ☃"
	if err := SaveFigure(f, filepath.Join(dir, "x.pdf")); err == nil || !strings.Contains(err.Error(), "no glyph") {
		t.Errorf("a character without a glyph: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.pdf")); !os.IsNotExist(err) {
		t.Error("a figure with a missing glyph was written")
	}
}

func figs(t *testing.T, sums []Summary) *Figure {
	f, err := Cactus(sums, "solver")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestSpeedupTableAll checks that the speed-ups of several puzzles make one
// CSV table: one header, a puzzle and a baseline column.
func TestSpeedupTableAll(t *testing.T) {
	rows, err := results.ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	sums := Summarize(rows, TimeWall)
	var ps []PuzzleSpeedups
	for _, pz := range []struct{ puzzle, base string }{{"queens", "native/bitboard"}, {"pieces", "native/fast"}} {
		var sel []Summary
		for _, s := range sums {
			if s.Puzzle == pz.puzzle {
				sel = append(sel, s)
			}
		}
		sp, err := Speedups(sel, pz.base, TimeWall)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, PuzzleSpeedups{Puzzle: pz.puzzle, Baseline: pz.base, Speedups: sp})
	}
	var buf bytes.Buffer
	if err := SpeedupTableAll(ps, TimeWall).Render(&buf, "csv"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if lines[0] != "puzzle,baseline,variant,task,instances,speedup_geomean,speedup_min,speedup_max" || strings.Count(buf.String(), "puzzle,baseline") != 1 {
		t.Errorf("header %q, or repeated headers:\n%s", lines[0], buf.String())
	}
	want := len(ps[0].Speedups) + len(ps[1].Speedups)
	if len(lines) != 1+want || !strings.HasPrefix(lines[1], "queens,native/bitboard,") || !strings.HasPrefix(lines[len(lines)-1], "pieces,native/fast,") {
		t.Errorf("%d lines, want %d:\n%s", len(lines), 1+want, buf.String())
	}
}

// TestSummaryKeepsBigAnswer: a count beyond 2^64 reaches the summary with
// every digit.
func TestSummaryKeepsBigAnswer(t *testing.T) {
	const big = "123456789012345678901234567890"
	r := row("tour:8x8:*", "native/split", "count", 1, results.StatusOK, 1)
	if err := r.SetAnswerString(big); err != nil {
		t.Fatal(err)
	}
	sums := Summarize([]results.Row{r}, TimeWall)
	if len(sums) != 1 || !slices.Contains(sums[0].Answers, big) {
		t.Errorf("summary lacks %s: %+v", big, sums)
	}
}

// TestFigureSizes: a figure is made at its print width (column 3.5 in,
// page 7 in, or WxH), and a bad size is refused.
func TestFigureSizes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		size  string
		width string // the PDF page width in points
	}{{"column", "252.00"}, {"page", "504.00"}, {"5x4", "360.00 288.00"}} {
		data, _ := os.ReadFile(fixtureCactusPDF(t, dir, c.size))
		if !strings.Contains(string(data), "/MediaBox [0 0 "+c.width) {
			t.Errorf("%s: no MediaBox of width %s", c.size, c.width)
		}
	}
	for _, bad := range []string{"", "letter", "0x3", "3x", "x3", "21x4", "3.5 x 2"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("size %q accepted", bad)
		}
	}
}

// TestScatterAxesEndAtLimit: the axes of a scatter plot end at the time
// limit (10 s here), not a decade past it.
func TestScatterAxesEndAtLimit(t *testing.T) {
	f, err := Scatter(Summarize(aggRows(), TimeWall), "a", "b", "wall")
	if err != nil {
		t.Fatal(err)
	}
	p := f.Panels[0]
	if p.X.Max != 10 || p.Y.Max != 10 || p.X.Min != 1 || p.Y.Min != 1 {
		t.Errorf("axes x %g..%g, y %g..%g, want 1..10 both", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
}

// TestTopVariants: variants ranked by solved count, then PAR-2; the cut
// names those left out.
func TestTopVariants(t *testing.T) {
	rows := aggRows() // a and b solve 2 instances each, a with the better PAR-2 (30.5/3 over the 3 it ran, against 11.5)
	kept, left := TopVariants(rows, 1, TimeWall)
	if !slices.Equal(kept, []string{"a"}) || !slices.Equal(left, []string{"b"}) {
		t.Errorf("top 1: kept %q, left %q", kept, left)
	}
	rows = append(rows, row("queens:8", "c", "count", 1, results.StatusOK, 1), row("queens:9", "c", "count", 1, results.StatusOK, 1),
		row("queens:10", "c", "count", 1, results.StatusOK, 1))
	if kept, left := TopVariants(rows, 2, TimeWall); !slices.Equal(kept, []string{"c", "a"}) || !slices.Equal(left, []string{"b"}) {
		t.Errorf("top 2: kept %q, left %q", kept, left)
	}
	if kept, left := TopVariants(rows, 0, TimeWall); len(kept) != 3 || left != nil {
		t.Errorf("all: kept %q, left %q", kept, left)
	}
}

// fixtureCactusPDF writes the fixture's cactus figure at size (as --size
// reads it) to DIR/SIZE.pdf and returns the path.
func fixtureCactusPDF(t *testing.T, dir, size string) string {
	t.Helper()
	rows, err := results.ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	sz, err := ParseSize(size)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, size+".pdf")
	if err := SaveFigureSize(figs(t, Summarize(rows, TimeWall)), path, sz); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSkippedCountedApart: a run a ladder did not run is counted as
// skipped in the summary table, never as a timeout, and is not a run of
// the group's statistics.
func TestSkippedCountedApart(t *testing.T) {
	to := row("queens:8", "a", "count", 1, results.StatusTimeout, 5)
	sk := row("queens:9", "a", "count", 1, results.StatusSkipped, 0)
	sk.Message = results.NotRunMessage("ladder stopped after a timeout or memout on queens:8")
	tab := SummaryTable(Summarize([]results.Row{to, sk}, TimeCPU))
	col := func(name string) int { return slices.Index(tab.Header, name) }
	if col("n_skipped") < 0 {
		t.Fatalf("no n_skipped column in %v", tab.Header)
	}
	for _, r := range tab.Rows {
		want := map[string][2]string{"queens:8": {"1", "0"}, "queens:9": {"0", "1"}}[r[0]]
		if r[col("n_timeout")] != want[0] || r[col("n_skipped")] != want[1] {
			t.Errorf("%s: n_timeout %s, n_skipped %s; want %s, %s", r[0], r[col("n_timeout")], r[col("n_skipped")], want[0], want[1])
		}
	}
}
