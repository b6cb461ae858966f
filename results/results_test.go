package results

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/atomicfile"
)

func row(instance, variant, task string, rep int, status string, secs float64) Row {
	sq := 16
	if strings.HasPrefix(instance, "queens:") {
		var n int
		for _, c := range strings.TrimPrefix(instance, "queens:") {
			n = n*10 + int(c-'0')
		}
		sq = n * n
	}
	return Row{Time: time.Date(2026, 11, 21, 15, 0, 0, 0, time.UTC), Instance: instance, Puzzle: strings.Split(instance, ":")[0],
		Squares: sq, Variant: variant, Backend: strings.Split(variant, "/")[0], Task: task, Rep: rep, Status: status,
		Answer: 92, HasAnswer: status == StatusOK, Seconds: secs, User: secs / 2, Sys: 0.001, MaxRSSKB: 12345,
		Stats: map[string]int64{"nodes": 1000}}
}

func TestRecordRoundTrip(t *testing.T) {
	r := row("queens:8", "sat/seqcounter/gophersat", "count", 3, StatusOK, 0.25)
	r.Heuristic, r.Encoding, r.Solver = "", "seqcounter", "gophersat"
	r.Stats["clauses"] = 7
	r.Message = "a, \"quoted\"\nmessage"
	var buf bytes.Buffer
	if err := Write(&buf, []Row{r, row("swap:4x3", "native/bfs", "shortest", 1, StatusTimeout, 1)}); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf, "mem")
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %v", got, err)
	}
	r.Message = "a, \"quoted\" message" // one line
	if g := got[0]; g.Key() != r.Key() || g.Seconds != r.Seconds || g.Stats["clauses"] != 7 || g.Stats["nodes"] != 1000 ||
		len(g.Stats) != 2 || g.Message != r.Message || !g.Time.Equal(r.Time) || g.Encoding != "seqcounter" || g.Answer != 92 {
		t.Errorf("round trip: %+v", g)
	}
	if got[1].HasAnswer {
		t.Error("timeout row has an answer")
	}
}

func TestReadRefuses(t *testing.T) {
	good := strings.Join(Columns, ",") + "\n"
	for name, text := range map[string]string{
		"empty":        "",
		"other schema": "a,b,c\n1,2,3\n",
		"old schema":   strings.Join(Columns[:len(Columns)-1], ",") + "\n",
		"malformed":    good + "\"unterminated\n",
		"short row":    good + "x,y\n",
		"bad status":   good + strings.Replace(strings.Join(row("queens:8", "native", "count", 1, StatusOK, 1).Record(), ","), ",ok,", ",great,", 1) + "\n",
		"bad number":   good + strings.Replace(strings.Join(row("queens:8", "native", "count", 1, StatusOK, 1).Record(), ","), ",0.5,", ",fast,", 1) + "\n",
	} {
		if _, err := Read(strings.NewReader(text), name); err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error spans lines: %q", name, err)
		}
	}
}

func TestAppenderDropsPartialRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	a, rows, err := OpenAppend(path)
	if err != nil || len(rows) != 0 {
		t.Fatal(err)
	}
	a.Add(row("queens:8", "native", "count", 1, StatusOK, 1))
	a.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("2026-11-21T15:00:00Z,queens:9,que") // a crash mid-row
	f.Close()
	a, rows, err = OpenAppend(path)
	if err != nil || len(rows) != 1 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	a.Add(row("queens:9", "native", "count", 1, StatusOK, 2))
	a.Close()
	all, err := ReadFiles(path)
	if err != nil || len(all) != 2 || all[1].Instance != "queens:9" {
		t.Errorf("%v %v", all, err)
	}
	os.WriteFile(path, []byte("x,y\n"), 0o644)
	if _, _, err := OpenAppend(path); err == nil {
		t.Error("appending to another schema accepted")
	}
}

func TestSummarize(t *testing.T) {
	var rows []Row
	for i, s := range []float64{1, 2, 3, 4, 100} {
		rows = append(rows, row("queens:8", "a", "count", i+1, StatusOK, s))
	}
	rows = append(rows, row("queens:8", "a", "count", 6, StatusTimeout, 500))
	sums := Summarize(rows)
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
	if again := Summarize(rows)[0]; again.CILo != s.CILo || again.CIHi != s.CIHi {
		t.Error("bootstrap not reproducible")
	}
	// Constant samples: the interval collapses.
	lo, hi := BootstrapCI([]float64{5, 5, 5}, median, 0.95, 100, 1)
	if lo != 5 || hi != 5 {
		t.Errorf("constant CI [%g, %g]", lo, hi)
	}
}

func TestSpeedups(t *testing.T) {
	rows := []Row{
		row("queens:8", "base", "count", 1, StatusOK, 2), row("queens:8", "fast", "count", 1, StatusOK, 1),
		row("queens:9", "base", "count", 1, StatusOK, 8), row("queens:9", "fast", "count", 1, StatusOK, 2),
		row("queens:10", "base", "count", 1, StatusOK, 8), row("queens:10", "fast", "count", 1, StatusTimeout, 60),
	}
	sp, err := Speedups(Summarize(rows), "base")
	if err != nil || len(sp) != 1 {
		t.Fatal(sp, err)
	}
	if s := sp[0]; s.Variant != "fast" || s.Instances != 2 || math.Abs(s.GeoMean-math.Sqrt(8)) > 1e-12 || s.Min != 2 || s.Max != 4 {
		t.Errorf("%+v", s)
	}
	if _, err := Speedups(Summarize(rows), "nosuch"); err == nil {
		t.Error("unknown baseline accepted")
	}
}

func TestTables(t *testing.T) {
	rows := []Row{row("queens:8", "sat/seq_counter", "count", 1, StatusOK, 0.5), row("queens:8", "native", "count", 1, StatusOK, 0.25)}
	tab := SummaryTable(Summarize(rows))
	for format, want := range map[string][]string{
		"md":    {"| queens:8 ", "| sat/seq_counter", "---: |"},
		"csv":   {"instance,variant,task", "queens:8,native,count,1,1"},
		"latex": {`\begin{tabular}{lll`, `\toprule`, `sat/seq\_counter`, `\bottomrule`, `\end{tabular}`},
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
	r := row("queens:8", "sat/position+seqcounter/cadical", "count", 1, StatusOK, 0.5)
	r.Backend, r.Encoding, r.Solver = "sat", "position+seqcounter", "cadical"
	var buf bytes.Buffer
	WriteBenchfmt(&buf, []Row{r, row("queens:9", "native", "count", 1, StatusTimeout, 9)},
		[]Session{{GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU"}})
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
	sym := row("queens:4", "native/symmetric", "first", 1, StatusOK, 0.01)
	sym.Heuristic = "bitboard" // what ran
	bit := row("queens:4", "native/bitboard", "first", 1, StatusOK, 0.01)
	bit.Heuristic = "bitboard"
	cases := []struct {
		r    Row
		want string
	}{
		{sym, "BenchmarkBoardsat/instance=queens:4/backend=native/heuristic=symmetric/task=first"},
		{bit, "BenchmarkBoardsat/instance=queens:4/backend=native/heuristic=bitboard/task=first"},
		{row("queens:8", "sat/totalizer", "count", 1, StatusOK, 1), "BenchmarkBoardsat/instance=queens:8/backend=sat/encoding=totalizer/task=count"},
		{row("queens:8", "gophersat-count/pairwise", "count", 1, StatusOK, 1), "BenchmarkBoardsat/instance=queens:8/backend=gophersat-count/encoding=pairwise/task=count"},
	}
	for _, c := range cases {
		if got := BenchName(c.r); got != c.want {
			t.Errorf("%s: %s, want %s", c.r.Variant, got, c.want)
		}
	}
}

// fixtureCSV is a real bench run (boardsat bench on a small suite of
// queens, pieces and tours, native and SAT variants, two repetitions).
const fixtureCSV = "testdata/bench.csv"

// TestFigures renders every figure kind from the fixture in every format
// and checks what a reader relies on: one panel per puzzle and task with
// solved runs, a legend entry per variant drawn, distinct looks for the
// variants of one panel, nothing below the time floor, and each file
// written whole and readable by all.
func TestFigures(t *testing.T) {
	rows, err := ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	sums := Summarize(rows)
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
			want := len(panels)
			if kind == "scatter" || kind == "ecdf" {
				want = 2 // one per task: count and first
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
		if got, want := len(figs["cactus"].labels), len(variantsOf(sums))+1; got != want || !slices.Contains(figs["cactus"].labels, VBSLabel) {
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
	if _, err := Cactus(sums, "cpu"); err == nil {
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
	sums := Summarize(aggRows())
	pts, limit := pairPoints(sums, "a", "b", "wall")
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

// TestMergeDedupes checks that merging a file with itself keeps each run
// once, while distinct runs of one group (another session's repetition 1)
// are all kept.
func TestMergeDedupes(t *testing.T) {
	rows, dropped, err := Merge(fixtureCSV, fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := ReadFiles(fixtureCSV)
	if len(rows) != len(one) || dropped != len(one) {
		t.Errorf("merge of a file with itself: %d rows, %d dropped; want %d and %d", len(rows), dropped, len(one), len(one))
	}
	dir := t.TempDir()
	other := filepath.Join(dir, "other.csv")
	again := slices.Clone(one)
	for i := range again {
		again[i].Time = again[i].Time.Add(time.Hour) // the same groups, run later
	}
	if err := atomicfile.Write(other, func(w io.Writer) error { return Write(w, again) }); err != nil {
		t.Fatal(err)
	}
	rows, dropped, err = Merge(fixtureCSV, other)
	if err != nil || len(rows) != 2*len(one) || dropped != 0 {
		t.Errorf("merge of two sessions: %d rows, %d dropped, %v; want %d, 0", len(rows), dropped, err, 2*len(one))
	}
}

// TestSpeedupTableAll checks that the speed-ups of several puzzles make one
// CSV table: one header, a puzzle and a baseline column.
func TestSpeedupTableAll(t *testing.T) {
	rows, err := ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	sums := Summarize(rows)
	var ps []PuzzleSpeedups
	for _, pz := range []struct{ puzzle, base string }{{"queens", "native/bitboard"}, {"pieces", "native/fast"}} {
		var sel []Summary
		for _, s := range sums {
			if s.Puzzle == pz.puzzle {
				sel = append(sel, s)
			}
		}
		sp, err := Speedups(sel, pz.base)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, PuzzleSpeedups{Puzzle: pz.puzzle, Baseline: pz.base, Speedups: sp})
	}
	var buf bytes.Buffer
	if err := SpeedupTableAll(ps).Render(&buf, "csv"); err != nil {
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

// TestPreviousSchemasRead: a file of an earlier schema (before the method,
// fallbacks and theorem columns; before the measurement columns) is read
// with the missing fields empty, and refused for appending; the current
// schema round-trips them.
func TestPreviousSchemasRead(t *testing.T) {
	r := row("queens:8", "native/bitboard", "count", 1, StatusOK, 92)
	r.Method, r.Fallbacks, r.Theorem = "m", []string{"a: error: x", "b: error: y"}, "thm"
	r.MeasuredBy, r.Limit, r.CPULimit, r.WallLimit, r.MemLimitMB, r.Commit = MeasuredCgroup1, LimitCPU, 2.5, 60, 2048, "abc+dirty"
	for i, old := range PreviousSchemas {
		var buf bytes.Buffer
		buf.WriteString(strings.Join(old, ",") + "\n")
		rec := r.Record()
		var oldRec []string
		for _, c := range old {
			oldRec = append(oldRec, rec[slices.Index(Columns, c)])
		}
		buf.WriteString(strings.Join(oldRec, ",") + "\n")
		rows, err := Read(bytes.NewReader(buf.Bytes()), "old")
		if err != nil || len(rows) != 1 || rows[0].MeasuredBy != "" || rows[0].CPULimit != 0 || rows[0].Answer != 92 || (i == 0) != (rows[0].Method == "") {
			t.Fatalf("schema %d: %v %+v", i, err, rows)
		}
		path := filepath.Join(t.TempDir(), "old.csv")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := OpenAppend(path); err == nil || !strings.Contains(err.Error(), "previous schema") {
			t.Errorf("append to a schema %d file: %v", i, err)
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, []Row{r}); err != nil {
		t.Fatal(err)
	}
	rows, err := Read(bytes.NewReader(buf.Bytes()), "new")
	if err != nil || len(rows) != 1 || rows[0].Method != "m" || len(rows[0].Fallbacks) != 2 || rows[0].Fallbacks[1] != "b: error: y" || rows[0].Theorem != "thm" {
		t.Fatalf("round trip: %v %+v", err, rows)
	}
	got := rows[0]
	if got.MeasuredBy != r.MeasuredBy || got.Limit != r.Limit || got.CPULimit != 2.5 || got.WallLimit != 60 || got.MemLimitMB != 2048 || got.Commit != r.Commit {
		t.Errorf("measurement columns round trip: %+v", got)
	}
}

// TestBigAnswer: a count beyond 2^64 keeps every digit through CSV, and a
// malformed answer is refused.
func TestBigAnswer(t *testing.T) {
	r := row("tour:6x20:a1:closed", "native/frontier", "count", 1, StatusOK, 1)
	const big = "96325314726538906164" // over 2^64
	if err := r.SetAnswerString(big); err != nil || r.AnswerBig == nil || r.Answer != 0 {
		t.Fatalf("set %s: %v %+v", big, err, r)
	}
	small := row("queens:8", "native", "count", 1, StatusOK, 1)
	var buf bytes.Buffer
	if err := Write(&buf, []Row{r, small}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), ","+big+",") {
		t.Errorf("CSV lacks %s:\n%s", big, buf.String())
	}
	got, err := Read(&buf, "mem")
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %v", got, err)
	}
	if got[0].AnswerString() != big || got[1].AnswerString() != "92" || got[1].AnswerBig != nil {
		t.Errorf("read back %q and %q", got[0].AnswerString(), got[1].AnswerString())
	}
	sums := Summarize(got)
	if !slices.Contains(sums[0].Answers, big) && !slices.Contains(sums[1].Answers, big) {
		t.Errorf("summaries lack %s: %+v", big, sums)
	}
	for _, bad := range []string{"-5", "+5", "1e30", "12x"} {
		var x Row
		if err := x.SetAnswerString(bad); err == nil {
			t.Errorf("answer %q accepted", bad)
		}
	}
}

// TestCheckPool: rows of two commits are refused unless mixed, and then the
// note names both with their row counts; rows without a commit do not count.
func TestCheckPool(t *testing.T) {
	a := row("queens:8", "native", "count", 1, StatusOK, 92)
	a.Commit = "0123456789abcdef0123"
	b := a
	b.Commit = "fedcba9876543210fedc+dirty"
	old := a
	old.Commit = ""
	if note, err := CheckPool([]Row{a, a, old}, false); note != "" || err != nil {
		t.Errorf("one commit: %q %v", note, err)
	}
	_, err := CheckPool([]Row{a, b, a}, false)
	if err == nil || !strings.Contains(err.Error(), "--mixed") || !strings.Contains(err.Error(), "0123456789ab (2 rows)") {
		t.Errorf("two commits: %v", err)
	}
	note, err := CheckPool([]Row{a, b, a}, true)
	if err != nil || note != "pooled the rows of 2 commits: 0123456789ab (2 rows), fedcba987654+dirty (1 rows)" {
		t.Errorf("mixed: %q %v", note, err)
	}
}
