package report

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// mixedCSV is a committed result file of every outcome a table marks:
// solved runs with spread over repeats (one pair of medians whose
// bootstrap intervals overlap, one pair tied as printed), timeouts, a
// memout, wrong answers, refusals and ladders stopped (not run).
const mixedCSV = "../testdata/mixed.csv"

// needTool skips a test without the program, except under CI=true,
// where it fails.
func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed, and CI=true requires it", name)
		}
		t.Skipf("%s is not installed: skipping (CI=true makes this a failure)", name)
	}
}

// latexTables writes every LaTeX table of the result file: the pivot of
// each measure (split into pages as results table does), the pivot of
// medians with each spread beneath them, the scores and the grid.
func latexTables(t *testing.T, file string) string {
	t.Helper()
	rows, err := results.ReadFiles(file)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, m := range Measures {
		ps, err := Pivots(rows, m, 2, TimeCPU)
		if err != nil {
			t.Fatal(err)
		}
		if err := PivotsLaTeX(&b, ps); err != nil {
			t.Fatal(err)
		}
	}
	ps, _ := Pivots(rows, MeasureMedian, 2, TimeCPU)
	for _, kind := range SpreadKinds {
		sps, err := PivotsSpread(ps, rows, kind)
		if err != nil {
			t.Fatal(err)
		}
		if err := PivotsLaTeX(&b, sps); err != nil {
			t.Fatal(err)
		}
	}
	for _, tb := range []Table{ScoreTable(Aggregate(rows, 2, TimeCPU), 2), Grid(rows, TimeCPU)} {
		if err := tb.Render(&b, "latex"); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// compileTwoColumn compiles body in \documentclass[twocolumn]{article}
// and returns pdflatex's log.
func compileTwoColumn(t *testing.T, body string) string {
	t.Helper()
	needTool(t, "pdflatex")
	dir := t.TempDir()
	doc := "\\documentclass[twocolumn]{article}\n\\usepackage{booktabs,siunitx,graphicx}\n\\begin{document}\n" + body + "\\end{document}\n"
	if err := os.WriteFile(filepath.Join(dir, "doc.tex"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := os.Getenv("BOARDSAT_KEEP_TEX"); d != "" {
		os.WriteFile(filepath.Join(d, "doc.tex"), []byte(doc), 0o644)
	}
	cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	log, _ := os.ReadFile(filepath.Join(dir, "doc.log"))
	if err != nil {
		t.Fatalf("pdflatex: %v\n%s", err, out)
	}
	return string(log)
}

// overfull returns the log's overfull boxes over 1 pt and its floats too
// large for the page.
func overfull(log string) []string {
	var bad []string
	for _, m := range regexp.MustCompile(`Overfull \\[hv]box \(([\d.]+)pt too (?:wide|high)\)[^\n]*`).FindAllStringSubmatch(log, -1) {
		if w, _ := strconv.ParseFloat(m[1], 64); w > 1 {
			bad = append(bad, m[0])
		}
	}
	return append(bad, regexp.MustCompile(`Float too large for page by [\d.]+pt`).FindAllString(log, -1)...)
}

// TestLaTeXTablesFit: every LaTeX table of the fixture and of the mixed
// file (pivots of every measure, scores, grid), and a pivot of eight
// long-named variants, compiles in a two-column article without an
// overfull box over 1 pt or a float too large; the scores and grid are
// floats with a caption and a label.
func TestLaTeXTablesFit(t *testing.T) {
	body := latexTables(t, fixtureCSV) + latexTables(t, mixedCSV)
	wide := Pivot{Puzzle: "queens", Task: "count", Measure: MeasureMedian, Time: TimeCPU}
	for j := range 8 {
		wide.Variants = append(wide.Variants, fmt.Sprintf("sat/encoding-%d", j))
	}
	for i := range 45 {
		wide.Instances = append(wide.Instances, fmt.Sprintf("queens:%d", i+4))
		row := make([]float64, 8)
		for j := range row {
			row[j] = math.Pow(10, float64(i%7-4)) * float64(j+1) * 1.2345
		}
		wide.Values = append(wide.Values, row)
	}
	// The same with a spread beneath each median: wider cells, two lines
	// an instance.
	var sp [][][2]float64
	for _, row := range wide.Values {
		var r [][2]float64
		for _, v := range row {
			r = append(r, [2]float64{0.91 * v, 1.13 * v})
		}
		sp = append(sp, r)
	}
	// Columns of unequal widths: the first sixteen not run (a narrow
	// mark), the next eight with spreads; the page split measured the
	// first columns only and set the wide ones as many a table as the
	// narrow ones took (on the quick suite, 109 pt over).
	mixed := Pivot{Puzzle: "dominate", Task: "optimum", Measure: MeasureMedian, Time: TimeCPU, Instances: []string{"dominate:4x4:Q", "dominate:5x5:Q"}}
	var msp [][][2]float64
	for i := range 2 {
		var vals []float64
		var spr [][2]float64
		for j := range 24 {
			if i == 0 {
				mixed.Variants = append(mixed.Variants, fmt.Sprintf("sat/unsatsat+enc%d", j))
			}
			v := math.NaN()
			if j >= 16 {
				v = 0.0611 + float64(j)/1000
			}
			vals = append(vals, v)
			spr = append(spr, [2]float64{0.9 * v, 1.1 * v})
		}
		mixed.Values = append(mixed.Values, vals)
		msp = append(msp, spr)
	}
	var b bytes.Buffer
	for _, p := range []Pivot{wide, wide.WithSpread(sp, SpreadCI), mixed.WithSpread(msp, SpreadCI)} {
		for _, page := range p.Pages() {
			if err := page.LaTeX(&b); err != nil {
				t.Fatal(err)
			}
		}
	}
	body += b.String()
	// A grid's rotated headers run long ("optimum: sat/unsatsat-...");
	// thirty rows beneath one of 50 characters were 40 pt too tall for the
	// page on a fresh quick suite.
	tall := Table{Title: "A grid of long headers", Label: "tall", Header: []string{"instance", "optimum: sat/unsatsat-lines-hilbert-lex+seqcounter"}, Numeric: []bool{false, true}}
	for i := range 70 {
		tall.Rows = append(tall.Rows, []string{fmt.Sprintf("dominate:%dx%d:Q", i+4, i+4), "0.0123"})
	}
	var tb bytes.Buffer
	if err := tall.Render(&tb, "latex"); err != nil {
		t.Fatal(err)
	}
	body += tb.String()
	for _, what := range []string{"scores", "grid"} {
		if !strings.Contains(body, "\\label{tab:boardsat-"+what) {
			t.Errorf("no LaTeX %s table with a label", what)
		}
	}
	if n, c := strings.Count(body, "\\begin{tabular}"), strings.Count(body, "\\caption{"); n != c {
		t.Errorf("%d tabulars, %d captions: a table without a float and caption", n, c)
	}
	if bad := overfull(compileTwoColumn(t, body)); len(bad) > 0 {
		t.Errorf("the tables do not fit a two-column article:\n%s", strings.Join(bad, "\n"))
	}
}

// TestPivotFloat: a pivot of two variants goes in a column (table), one of
// eight long-named variants across the page (table*).
func TestPivotFloat(t *testing.T) {
	p := Pivot{Puzzle: "queens", Task: "count", Measure: MeasureMedian, Instances: []string{"queens:8"}}
	for _, c := range []struct {
		n   int
		env string
	}{{2, "\\begin{table}["}, {8, "\\begin{table*}["}} {
		p.Variants, p.Values = nil, [][]float64{nil}
		for j := range c.n {
			p.Variants = append(p.Variants, fmt.Sprintf("sat/encoding-%d", j))
			p.Values[0] = append(p.Values[0], 0.0123*float64(j+1))
		}
		var b bytes.Buffer
		if err := p.LaTeX(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.env) {
			t.Errorf("%d variants: want %s:\n%s", c.n, c.env, b.String())
		}
	}
}

// TestPivotMarksAndBold, on the mixed file: each outcome without a value
// has its own mark, each mark used is explained once in the footnote, no
// native time prints 0.00, values tied as printed are all bold, and a row
// whose best median's bootstrap interval overlaps another's has no bold.
func TestPivotMarksAndBold(t *testing.T) {
	rows, err := results.ReadFiles(mixedCSV)
	if err != nil {
		t.Fatal(err)
	}
	// A skipped run (a ladder stopped before it) is marked as not run.
	skip := rows[len(rows)-1]
	skip.Variant, skip.Backend, skip.Status, skip.Message = "check/skip", "check", results.StatusSkipped, ""
	rows = append(rows, skip)
	ps, err := Pivots(rows, MeasureMedian, 2, TimeCPU)
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	w := p.Wide()
	cell := func(in, v string) string {
		i, j := -1, -1
		for k, x := range p.Instances {
			if x == in {
				i = k
			}
		}
		for k, x := range p.Variants {
			if x == v {
				j = k
			}
		}
		if i < 0 || j < 0 {
			t.Fatalf("no cell %s %s", in, v)
		}
		return w.Rows[i][j+1]
	}
	for _, c := range []struct{ in, v, want string }{
		{"queens:10", "sat/seqcounter", "t/o"}, {"queens:12", "sat/totalizer", "m/o"}, {"queens:10", "cp/gecode", "ref"},
		{"queens:12", "mip/cbc", "n/r"}, {"queens:8", "mip/cbc", "wrong"}, {"queens:12", "check/skip", "n/r"},
		{"queens:6", "native/plain", "**0.0113**"}, {"queens:6", "native/bitboard", "**0.0113**"},
		{"queens:10", "native/plain", "0.0490"}, {"queens:10", "native/bitboard", "0.0460"},
	} {
		if got := cell(c.in, c.v); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.in, c.v, got, c.want)
		}
	}
	var b bytes.Buffer
	if err := p.LaTeX(&b); err != nil {
		t.Fatal(err)
	}
	tex := b.String()
	for _, m := range outcomeMarks {
		want := 1
		if m.outcome == OutcomeError {
			want = 0 // no run of the file failed: not explained
		}
		if n := strings.Count(tex, m.mark+": "); n != want {
			t.Errorf("the footnote explains %q %d times, want %d:\n%s", m.mark, n, want, tex)
		}
	}
	if strings.Contains(tex, "---") || strings.Contains(tex, " 0.00 ") || strings.Contains(tex, " 0.00\\") {
		t.Errorf("a dash or a time of 0.00:\n%s", tex)
	}
	if !strings.Contains(tex, "bootstrap 95\\% interval") {
		t.Errorf("the caption does not say when a value is bold:\n%s", tex)
	}
}
