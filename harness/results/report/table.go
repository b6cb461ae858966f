package report

import (
	"encoding/csv"
	"fmt"
	"github.com/boardsat/boardsat/harness/results"
	"io"
	"math"
	"strconv"
	"strings"
)

// Table is a titled grid of cells, rendered as Markdown, CSV or LaTeX.
type Table struct {
	Title string
	// Label names the table in a LaTeX \label (tab:boardsat-LABEL);
	// "table" when empty.
	Label  string
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
		"_", `\_`, "{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`,
		">", `\textgreater{}`, "<", `\textless{}`, "|", `\textbar{}`)
	return r.Replace(s)
}

// latex writes the table as LaTeX floats a two-column paper takes: each
// a table when it fits a column, a table* when it fits the page, with the
// title as its caption and a label. A table wider than the page is split
// by columns, its leading text columns (the keys: instance, variant...)
// repeated in every part, and one longer than tableRows by rows; the
// caption says which part each is, and every floatsQueued parts a
// \clearpage lets LaTeX place them. Numeric columns' headers are set
// rotated, so that a column is as wide as its numbers.
func (t Table) latex(w io.Writer) error {
	keys := 0
	for keys < len(t.Header) && !t.numeric(keys) {
		keys++
	}
	keys = max(1, min(keys, len(t.Header)-1))
	width := make([]float64, len(t.Header))
	for i, h := range t.Header {
		width[i] = 10 // a rotated header's line
		if !t.numeric(i) {
			width[i] = smallTextPt(h)
		}
		for _, r := range t.Rows {
			if i < len(r) {
				width[i] = max(width[i], smallTextPt(r[i]))
			}
		}
	}
	// Column groups: the keys, then as many other columns as the page takes.
	var groups [][]int
	for i := keys; i < len(t.Header); {
		g := []int{}
		for k := range keys {
			g = append(g, k)
		}
		g = append(g, i)
		for i++; i < len(t.Header) && t.groupPt(append(g, i), width) <= TextWidthPt; i++ {
			g = append(g, i)
		}
		groups = append(groups, g)
	}
	if len(groups) == 0 {
		groups = [][]int{{0}}
	}
	per := t.rowsPerPart()
	nr := max(1, (len(t.Rows)+per-1)/per)
	parts := len(groups) * nr
	label := t.Label
	if label == "" {
		label = "table"
	}
	var sb strings.Builder
	sb.WriteString("% needs \\usepackage{booktabs,graphicx}\n")
	k := 0
	for r := range nr {
		for _, g := range groups {
			k++
			if k > 1 && (k-1)%floatsQueued == 0 {
				sb.WriteString(floatFlush)
			}
			part, lab := "", latexLabelOf(label)
			if parts > 1 {
				part = fmt.Sprintf(" (part %d of %d: rows %d--%d of %d, columns %d--%d of %d)", k, parts, r*per+1, min((r+1)*per, len(t.Rows)), len(t.Rows),
					g[keys]+1, g[len(g)-1]+1, len(t.Header))
				lab += fmt.Sprintf("-%d", k)
			}
			t.latexPart(&sb, g, t.Rows[min(r*per, len(t.Rows)):min((r+1)*per, len(t.Rows))], floatEnv(t.groupPt(g, width)), part, lab)
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// rowsPerPart is the most rows one float of the table holds: tableRows,
// or fewer where the rotated headers (as tall as the longest is wide: a
// grid's "optimum: sat/unsatsat+seqcounter") and the caption (at a
// column's width, the narrowest a part has) leave less of the text
// height; rows of 11 pt, 40 pt for the rules and the part's words.
func (t Table) rowsPerPart() int {
	head := 0.0
	for i, h := range t.Header {
		if t.numeric(i) {
			head = max(head, smallTextPt(h))
		}
	}
	caption := math.Ceil(smallTextPt(t.Title)/ColumnWidthPt) * 11
	return max(5, min(tableRows, int((TextHeightPt-head-caption-40)/11)))
}

// groupPt is the width of a tabular of the columns cols.
func (t Table) groupPt(cols []int, width []float64) float64 {
	ws := make([]float64, len(cols))
	for i, c := range cols {
		ws[i] = width[c]
	}
	return tabularPt(ws, tableSepPt)
}

// tableSepPt is the column separation of a LaTeX table (\tabcolsep).
const tableSepPt = 4

// latexPart writes one float of the table: the columns cols of rows.
func (t Table) latexPart(sb *strings.Builder, cols []int, rows [][]string, env, part, label string) {
	if env == "" {
		env = "table*" // a single column group wider than the page: as good as it gets
	}
	fmt.Fprintf(sb, "\\begin{%s}[tbp]\n\\centering\n\\small\n\\setlength{\\tabcolsep}{%dpt}\n", env, tableSepPt)
	fmt.Fprintf(sb, "\\caption{%s%s.}\n\\label{%s}\n", latexEscape(strings.TrimSuffix(t.Title, ".")), part, label)
	sb.WriteString("\\begin{tabular}{@{}")
	for _, c := range cols {
		if t.numeric(c) {
			sb.WriteString("r")
		} else {
			sb.WriteString("l")
		}
	}
	sb.WriteString("@{}}\n\\toprule\n")
	line := func(cells []string, header bool) {
		out := make([]string, len(cols))
		for i, c := range cols {
			if c < len(cells) {
				out[i] = latexEscape(cells[c])
			}
			if header && t.numeric(c) {
				out[i] = "\\rotatebox{90}{" + out[i] + "}"
			}
		}
		sb.WriteString(strings.Join(out, " & ") + " \\\\\n")
	}
	line(t.Header, true)
	sb.WriteString("\\midrule\n")
	for _, r := range rows {
		line(r, false)
	}
	fmt.Fprintf(sb, "\\bottomrule\n\\end{tabular}\n\\end{%s}\n", env)
}

// fmtSec formats seconds with 4 significant digits, "" for NaN (a tidy
// table's empty cell).
func fmtSec(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

func fmtNum(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// statusOrder is the order of the status count columns: every status,
// skipped (not run) counted apart from timeout.
var statusOrder = results.Statuses

// SummaryTable lays out group summaries, one row per group, tidy: numbers
// or empty cells only (a count per status, the answer when the solved runs
// agree on one, the CI's bounds in two columns), units in column names.
func SummaryTable(sums []Summary) Table {
	t := Table{
		Title: "Runs per instance, variant and task (seconds: " + summaryTime(sums) + " of the solved runs; CI: bootstrap 95% of the median)",
		Header: []string{"instance", "variant", "task", "runs", "solved", "n_ok", "n_unsat", "n_timeout", "n_memout", "n_error", "n_wrong", "n_skipped",
			"answer", "distinct_answers", "median_s", "mean_s", "sd_s", "ci_low_s", "ci_high_s", "median_rss_kb", "median_nodes"},
	}
	t.Numeric = make([]bool, len(t.Header))
	for i := 3; i < len(t.Numeric); i++ {
		t.Numeric[i] = true
	}
	for _, s := range sums {
		ans := ""
		if len(s.Answers) == 1 {
			ans = s.Answers[0]
		}
		row := []string{s.Instance, s.Variant, s.Task, strconv.Itoa(s.Runs), strconv.Itoa(s.Solved)}
		for _, st := range statusOrder {
			row = append(row, strconv.Itoa(s.Statuses[st]))
		}
		row = append(row, ans, strconv.Itoa(len(s.Answers)), fmtSec(s.Median), fmtSec(s.Mean), fmtSec(s.SD), fmtSec(s.CILo), fmtSec(s.CIHi),
			fmtNum(s.MedianRSSKB), fmtNum(s.MedianNodes))
		t.Rows = append(t.Rows, row)
	}
	return t
}

// summaryTime names the time measure of the summaries.
func summaryTime(sums []Summary) string {
	if len(sums) == 0 {
		return TimeName(DefaultTime)
	}
	return TimeName(sums[0].Time)
}

// CertifyTable lays out the certified groups (bench certify=true): per
// instance and variant, the solved runs, how many were certified, the
// median proof size and check seconds, and the median of check time over
// solve time. It has no rows when no run was certified.
func CertifyTable(sums []Summary) Table {
	t := Table{
		Title:   "Certified runs: proofs checked per instance and variant (check/solve: median of check_seconds over solve_seconds less check_seconds)",
		Header:  []string{"instance", "variant", "task", "solved", "certified", "median_proof_bytes", "median_check_s", "check/solve"},
		Numeric: []bool{false, false, false, true, true, true, true, true},
	}
	for _, s := range sums {
		if !s.Certify {
			continue
		}
		ratio := "NaN"
		if !math.IsNaN(s.CheckRatio) {
			ratio = strconv.FormatFloat(s.CheckRatio, 'f', 2, 64)
		}
		t.Rows = append(t.Rows, []string{s.Instance, s.Variant, s.Task, strconv.Itoa(s.Solved), strconv.Itoa(s.Certified),
			fmtNum(s.MedianProofBytes), fmtSec(s.MedianCheck), ratio})
	}
	return t
}

// captionNotesMax is the longest the notes of a caption run (characters):
// a caption is a few lines, not a page (a suite of thirty puzzles and tasks
// with variants refused on some made one of 4,000 characters, which LaTeX
// cannot set: "Dimension too large").
const captionNotesMax = 400

// commonNote is the caption's word on the puzzles and tasks where a
// variant ran fewer instances than the others: the notes themselves when
// short, else how many there are and where the rows say it.
func commonNote(notes []string) string {
	if all := strings.Join(notes, ". "); len(all) <= captionNotesMax {
		return all
	}
	return fmt.Sprintf("In %d puzzles and tasks a variant ran fewer instances than the others: there the scores are over the common instances only, and its ran and not_run say what it ran", len(notes))
}

// ScoreTable lays out the scores of every variant per puzzle and task and
// the virtual best solver (variant "VBS"), over the instances every
// variant of the puzzle and task ran (common): solved of those, PAR-k over
// them, unique solves, the instances where the variant is the VBS and
// that share of the VBS's solves; beside them what each ran (ran, and
// solved_ran of those), did not run, and the instances of the puzzle and
// task. The title names the time measure and the variants that ran fewer.
func ScoreTable(a Aggregates, k float64) Table {
	par := "par" + fmtFloat(k) + "_s"
	title := "Per puzzle and task, in " + TimeName(a.Time) + ", over the instances every variant of it ran (common): instances solved " +
		"(more than half the runs solved), PAR-" + fmtFloat(k) + " (an unsolved run counts " + fmtFloat(k) + " times the " + LimitName(a.Time) + "), unique solves, instances where the variant is the virtual best solver (VBS, " +
		"the best PAR-" + fmtFloat(k) + " of any variant on each) and its share of the VBS's solves; beside them the instances each variant ran, " +
		"solved of those, and did not run (never scored as unsolved)"
	if notes := a.CommonNotes(); len(notes) > 0 {
		title += ". " + commonNote(notes)
	}
	t := Table{
		Title:   title,
		Label:   "scores",
		Header:  []string{"puzzle", "task", "variant", "solved", "common", par, "unique", "vbs_best", "vbs_share", "ran", "solved_ran", "not_run", "instances"},
		Numeric: []bool{false, false, false, true, true, true, true, true, true, true, true, true, true},
	}
	for _, v := range a.VBS {
		for _, s := range a.Scores {
			if s.Puzzle == v.Puzzle && s.Task == v.Task {
				t.Rows = append(t.Rows, []string{s.Puzzle, s.Task, s.Variant, strconv.Itoa(s.Solved), strconv.Itoa(s.Common), fmtSec(s.PAR),
					strconv.Itoa(s.Unique), strconv.Itoa(s.Best), strconv.FormatFloat(s.Contribution, 'f', 3, 64),
					strconv.Itoa(s.Ran), strconv.Itoa(s.SolvedRan), strconv.Itoa(s.NotRun), strconv.Itoa(s.Instances)})
			}
		}
		t.Rows = append(t.Rows, []string{v.Puzzle, v.Task, "VBS", strconv.Itoa(v.Solved), strconv.Itoa(v.Instances), fmtSec(v.PAR), "", "", "",
			"", "", "", ""})
	}
	return t
}

// WinsTable lays out the pairwise wins of every two variants on each
// puzzle and task, over the instances both ran.
func WinsTable(a Aggregates) Table {
	t := Table{
		Title: "Pairwise wins per puzzle and task in " + TimeName(a.Time) + ", over the instances both variants ran: instances where variant beat versus " +
			"(solved it alone, or faster), lost, or tied (equal times, or neither solved)",
		Header:  []string{"puzzle", "task", "variant", "versus", "wins", "losses", "ties"},
		Numeric: []bool{false, false, false, false, true, true, true},
	}
	for _, w := range a.Wins {
		t.Rows = append(t.Rows, []string{w.Puzzle, w.Task, w.Variant, w.Versus, strconv.Itoa(w.Wins), strconv.Itoa(w.Losses), strconv.Itoa(w.Ties)})
	}
	return t
}

// SpeedupTable lays out speed-ups against baseline, of median times in the
// time measure.
func SpeedupTable(sps []Speedup, baseline, time string) Table {
	t := Table{
		Title:   "Speed-up over " + baseline + " in " + TimeName(time) + " (geometric mean over instances both solved of baseline median / variant median; above 1 is faster)",
		Header:  []string{"variant", "task", "instances", "speedup_geomean", "speedup_min", "speedup_max"},
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
func SpeedupTableAll(ps []PuzzleSpeedups, time string) Table {
	t := Table{
		Title:   "Speed-up over each puzzle's baseline in " + TimeName(time) + " (geometric mean over instances both solved of baseline median / variant median; above 1 is faster)",
		Header:  []string{"puzzle", "baseline", "variant", "task", "instances", "speedup_geomean", "speedup_min", "speedup_max"},
		Numeric: []bool{false, false, false, false, true, true, true, true},
	}
	for _, p := range ps {
		for _, r := range SpeedupTable(p.Speedups, p.Baseline, time).Rows {
			t.Rows = append(t.Rows, append([]string{p.Puzzle, p.Baseline}, r...))
		}
	}
	return t
}

// fmtFloat writes f in Go's shortest decimal form, as the results CSV does.
func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
