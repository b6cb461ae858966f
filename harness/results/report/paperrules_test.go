package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// paperRules runs scripts/paper-rules RULE ARGS... and returns whether it
// passed and what it printed. Without python3 the test skips, except under
// CI=true, where it fails.
func paperRules(t *testing.T, args ...string) (bool, string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is not installed, and CI=true requires it")
		}
		t.Skip("python3 is not installed: skipping (CI=true makes this a failure)")
	}
	out, err := exec.Command("../../../scripts/paper-rules", args...).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("paper-rules %q: %v\n%s", args, err, out)
	}
	return err == nil, string(out)
}

// TestPaperRulesCatch feeds every rule of scripts/paper-rules a good and a
// bad figure or table: each passes the good one and fails the bad one,
// naming what is wrong.
func TestPaperRulesCatch(t *testing.T) {
	dir := t.TempDir()
	rows, err := results.ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	save := func(name string, f *Figure, size Size) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := SaveFigureSize(f, path, size); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cactus := func(rows []results.Row, time string) *Figure {
		t.Helper()
		f, err := Cactus(Summarize(rows, time), time)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	good := save("good.pdf", cactus(rows, TimeSolver), ColumnSize)
	check := func(rule string, wantOK bool, want string, args ...string) {
		t.Helper()
		ok, out := paperRules(t, append([]string{rule}, args...)...)
		if ok != wantOK || !strings.Contains(out, want) {
			t.Errorf("paper-rules %s %q: ok %v, %q; want ok %v and %q", rule, args, ok, out, wantOK, want)
		}
	}

	// size: a figure made for a page, printed in a column.
	check("size", true, "fits a column", good, "column")
	check("size", false, "larger than a column", save("page.pdf", cactus(rows, TimeSolver), PageSize), "column")

	// overlap: tick labels at 10 and 11 on an axis of 0 to 1000.
	p := plot.New()
	l, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1000, Y: 1}})
	p.Add(l)
	p.X.Min, p.X.Max = 0, 1000
	p.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 10, Label: "10"}, {Value: 11, Label: "11"}, {Value: 500, Label: "500"}})
	styleText(p)
	check("overlap", true, "none overlapping", good)
	check("overlap", false, "labels '10' and '11' overlap", save("ticks.pdf", &Figure{Panels: []*plot.Plot{p}, Cols: 1}, ColumnSize))
	// The old scatter axis: a label at every decade and at the 20 s limit,
	// "10" and "20" less than 2 pt apart, read as "1020".
	q := plot.New()
	ql, _ := plotter.NewLine(plotter.XYs{{X: 1e-4, Y: 0}, {X: 20, Y: 1}})
	q.Add(ql)
	q.X.Scale = plot.LogScale{}
	q.X.Min, q.X.Max = 1e-4, 20
	var ts []plot.Tick
	for _, v := range []float64{0.001, 0.01, 0.1, 1, 10, 20} {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	q.X.Tick.Marker = plot.ConstantTicks(ts)
	styleText(q)
	check("overlap", false, "labels '10' and '20' overlap", save("1020.pdf", &Figure{Panels: []*plot.Plot{q}, Cols: 1}, Size{W: 2.4 * vg.Inch, H: 2 * vg.Inch}))
	// Text wider than the figure runs off its page: an axis label of 150
	// characters in a column.
	wide := plot.New()
	wl, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	wide.Add(wl)
	styleText(wide)
	wide.X.Label.Text = strings.Repeat("board squares ", 11)
	check("overlap", false, "runs off the", save("wide.pdf", &Figure{Panels: []*plot.Plot{wide}, Cols: 1}, ColumnSize))

	// dpi: ours, and a PNG that records no resolution (as gonum writes).
	check("dpi", true, "300 dpi, 1050 px", save("good.png", cactus(rows, TimeSolver), ColumnSize))
	img := image.NewRGBA(image.Rect(0, 0, 336, 200))
	img.Set(1, 1, color.Black)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.png")
	if err := os.WriteFile(plain, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	check("dpi", false, "records no resolution", plain)
	low, err := withDPI(buf.Bytes(), 96)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, low, 0o644); err != nil {
		t.Fatal(err)
	}
	check("dpi", false, "is 96 dpi (336 px for 3.50 in): print needs 300", plain)

	// measure: a table of CPU seconds beside a figure of solver seconds.
	table := func(name, time string) string {
		t.Helper()
		ps, err := Pivots(rows, MeasureMedian, 2, time)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := ps[0].LaTeX(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	check("measure", true, "both in solver seconds", table("solver.tex", TimeSolver), good)
	check("measure", false, "shows CPU seconds and "+good+" solver seconds", table("cpu.tex", TimeCPU), good)

	// backends: a figure of the SAT variants alone, from results where
	// native searches ran too.
	var sat []results.Row
	for _, r := range rows {
		if r.Backend == "sat" {
			sat = append(sat, r)
		}
	}
	check("backends", true, "every backend that ran (native, sat)", fixtureCSV, good)
	check("backends", false, "draws no variant of backend(s) native", fixtureCSV, save("sat.pdf", cactus(sat, TimeSolver), ColumnSize))

	// latexlog: a log with an overfull box of 5 pt, and one of 0.5 pt.
	logf := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	check("latexlog", true, "no overfull box over 1 pt", logf("ok.log", "Overfull \\hbox (0.5pt too wide) in paragraph\n"))
	check("latexlog", false, "Overfull \\hbox (5.2pt too wide)", logf("wide.log", "Overfull \\hbox (5.2pt too wide) in paragraph\n"))
	check("latexlog", false, "Float too large for page by 42.0pt", logf("tall.log", "LaTeX Warning: Float too large for page by 42.0pt on input line 9.\n"))

	// marks: the pivot of the mixed file, and the same with the old single
	// dash for three outcomes; and a mark the footnote does not explain.
	mixed, err := results.ReadFiles(mixedCSV)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Pivots(mixed, MeasureMedian, 2, TimeCPU)
	if err != nil {
		t.Fatal(err)
	}
	var pb bytes.Buffer
	if err := ps[0].LaTeX(&pb); err != nil {
		t.Fatal(err)
	}
	goodTex := pb.String()
	check("marks", true, "no dash, every mark explained once", logf("marks.tex", goodTex))
	check("marks", false, "a cell is a dash ('---')", logf("dash.tex", strings.ReplaceAll(goodTex, "{n/r}", "{---}")))
	check("marks", false, "the mark 't/o' is used and explained 0 times", logf("unexplained.tex", strings.Replace(goodTex, "t/o: ", "", 1)))

	// limits: the mixed file, and a copy with a solved run at its 2 s limit.
	check("limits", true, "each within its limits", mixedCSV)
	data, err := os.ReadFile(mixedCSV)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	f := strings.Split(lines[1], ",")
	f[13], f[14] = "2.5", "2.1" // seconds, user: over the 2 s CPU limit
	lines[1] = strings.Join(f, ",")
	check("limits", false, "at or beyond its limit", logf("atlimit.csv", strings.Join(lines, "\n")))

	// greyscale: the fixture's cactus, and a figure whose two legend
	// entries share one look.
	check("greyscale", true, "all different in greyscale", good, fixtureCSV)
	same := &Figure{Panels: []*plot.Plot{p}, Cols: 1}
	for _, v := range []string{"native/plain", "native/bitboard"} {
		l, pts, _ := plotter.NewLinePoints(plotter.XYs{{}})
		l.Color, pts.Color = color.RGBA{0, 114, 178, 255}, color.RGBA{0, 114, 178, 255}
		same.addEntry(v, l, pts)
	}
	check("greyscale", false, "the legend entries 'native/plain' and 'native/bitboard' look alike", save("same.pdf", same, ColumnSize), fixtureCSV)
}
