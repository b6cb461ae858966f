package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Table is a titled grid of cells, rendered as Markdown, CSV or LaTeX.
type Table struct {
	Title  string
	Header []string
	// Numeric marks right-aligned columns.
	Numeric []bool
	Rows    [][]string
}

// Formats lists the table formats Render understands.
var Formats = []string{"md", "csv", "latex"}

// Render writes t in format: "md" (Markdown), "csv" or "latex" (a booktabs
// tabular a paper can \input as is).
func (t Table) Render(w io.Writer, format string) error {
	switch format {
	case "md", "markdown":
		return t.markdown(w)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(t.Header)
		cw.WriteAll(t.Rows)
		return cw.Error()
	case "latex", "tex":
		return t.latex(w)
	}
	return fmt.Errorf("unknown table format %q: want md, csv or latex", format)
}

func (t Table) numeric(i int) bool { return i < len(t.Numeric) && t.Numeric[i] }

func (t Table) markdown(w io.Writer) error {
	width := make([]int, len(t.Header))
	for i, h := range t.Header {
		width[i] = len(h)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	line := func(cells []string) string {
		var sb strings.Builder
		sb.WriteString("|")
		for i, c := range cells {
			if t.numeric(i) {
				fmt.Fprintf(&sb, " %*s |", width[i], c)
			} else {
				fmt.Fprintf(&sb, " %-*s |", width[i], c)
			}
		}
		return sb.String()
	}
	var sb strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&sb, "### %s\n\n", t.Title)
	}
	sb.WriteString(line(t.Header) + "\n|")
	for i := range t.Header {
		if t.numeric(i) {
			sb.WriteString(" " + strings.Repeat("-", max(width[i]-1, 1)) + ": |")
		} else {
			sb.WriteString(" " + strings.Repeat("-", max(width[i], 1)) + " |")
		}
	}
	sb.WriteString("\n")
	for _, r := range t.Rows {
		sb.WriteString(line(r) + "\n")
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// latexEscape escapes LaTeX's special characters.
func latexEscape(s string) string {
	r := strings.NewReplacer(`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`,
		"_", `\_`, "{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`)
	return r.Replace(s)
}

func (t Table) latex(w io.Writer) error {
	var sb strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&sb, "%% %s\n", t.Title)
	}
	sb.WriteString(`\begin{tabular}{`)
	for i := range t.Header {
		if t.numeric(i) {
			sb.WriteString("r")
		} else {
			sb.WriteString("l")
		}
	}
	sb.WriteString("}\n\\toprule\n")
	esc := func(cells []string) string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = latexEscape(c)
		}
		return strings.Join(out, " & ") + ` \\` + "\n"
	}
	sb.WriteString(esc(t.Header))
	sb.WriteString("\\midrule\n")
	for _, r := range t.Rows {
		sb.WriteString(esc(r))
	}
	sb.WriteString("\\bottomrule\n\\end{tabular}\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// fmtSec formats seconds with 4 significant digits, "-" for NaN.
func fmtSec(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

func fmtNum(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// SummaryTable lays out group summaries, one row per group.
func SummaryTable(sums []Summary) Table {
	t := Table{
		Title:   "Runs per instance, variant and task (seconds: wall clock of solved runs; CI: bootstrap 95% of the median)",
		Header:  []string{"instance", "variant", "task", "runs", "solved", "statuses", "answer", "median s", "mean s", "sd s", "95% CI s", "median RSS KiB", "median nodes"},
		Numeric: []bool{false, false, false, true, true, false, true, true, true, true, false, true, true},
	}
	for _, s := range sums {
		ans := s.Answers
		ci := "-"
		if !math.IsNaN(s.CILo) {
			ci = "[" + fmtSec(s.CILo) + ", " + fmtSec(s.CIHi) + "]"
		}
		t.Rows = append(t.Rows, []string{s.Instance, s.Variant, s.Task, strconv.Itoa(s.Runs), strconv.Itoa(s.Solved),
			statusList(s.Statuses), strings.Join(ans, " "), fmtSec(s.Median), fmtSec(s.Mean), fmtSec(s.SD), ci,
			fmtNum(s.MedianRSSKB), fmtNum(s.MedianNodes)})
	}
	return t
}

func statusList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.Itoa(m[k])
	}
	return strings.Join(parts, " ")
}

// SpeedupTable lays out speed-ups against baseline.
func SpeedupTable(sps []Speedup, baseline string) Table {
	t := Table{
		Title:   "Speed-up over " + baseline + " (geometric mean over instances both solved of baseline median / variant median; above 1 is faster)",
		Header:  []string{"variant", "task", "instances", "geomean speed-up", "min", "max"},
		Numeric: []bool{false, false, true, true, true, true},
	}
	for _, s := range sps {
		t.Rows = append(t.Rows, []string{s.Variant, s.Task, strconv.Itoa(s.Instances), fmtSec(s.GeoMean), fmtSec(s.Min), fmtSec(s.Max)})
	}
	return t
}

// PuzzleSpeedups are one puzzle's speed-ups against its baseline.
type PuzzleSpeedups struct {
	Puzzle, Baseline string
	Speedups         []Speedup
}

// SpeedupTableAll lays out every puzzle's speed-ups as one table with a
// puzzle and a baseline column: the form for CSV, where blocks with
// repeated headers would not read as one table.
func SpeedupTableAll(ps []PuzzleSpeedups) Table {
	t := Table{
		Title:   "Speed-up over each puzzle's baseline (geometric mean over instances both solved of baseline median / variant median; above 1 is faster)",
		Header:  []string{"puzzle", "baseline", "variant", "task", "instances", "geomean speed-up", "min", "max"},
		Numeric: []bool{false, false, false, false, true, true, true, true},
	}
	for _, p := range ps {
		for _, r := range SpeedupTable(p.Speedups, p.Baseline).Rows {
			t.Rows = append(t.Rows, append([]string{p.Puzzle, p.Baseline}, r...))
		}
	}
	return t
}
