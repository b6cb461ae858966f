package report

import (
	"fmt"
	"github.com/boardsat/boardsat/harness/results"
	"io"
	"math"
	"strconv"
	"strings"
)

// Pivot is one task's measure per instance (rows) and variant (columns):
// the table a paper prints.
type Pivot struct {
	Puzzle, Task, Measure string
	// Time is the time measure of the seconds (see TimeKinds).
	Time string
	// K is the PAR factor (MeasurePAR2 shows PAR-K).
	K                   float64
	Instances, Variants []string
	// Values[i][j] is instance i's value for variant j: NaN when the
	// variant did not solve it (median), or did not run it or only had it
	// refused (every measure).
	Values [][]float64
	// Outcomes[i][j] says why Values[i][j] is NaN (an Outcome constant;
	// "" where there is a value).
	Outcomes [][]string
	// CIs[i][j] is the bootstrap 95% interval of the median of the solved
	// runs' times (BootstrapCI, as Summarize computes it), with the median
	// measure; NaN otherwise.
	CIs [][][2]float64
	// Spread[i][j] is the spread of kind SpreadKind (SpreadIQR or
	// SpreadCI) of cell (i, j)'s solved runs, set by WithSpread for the
	// LaTeX table, which prints it beneath each median; nil for none.
	Spread     [][][2]float64
	SpreadKind string

	// A page of a larger pivot (Pages): which part it is, and the best
	// marks of its rows over all the variants.
	part, label string
	bestOf      []map[int]bool
}

// PageRows is the most instances one LaTeX pivot table holds: a pivot
// longer is split (Pages).
const PageRows = tableRows

// Pages splits the pivot into tables that fit a two-column paper: the
// variants in groups as wide as the text width takes (TextWidthPt, from
// the widths of the instance names and the cells in \small type), the
// instances in groups of PageRows. The best per instance stays that over
// every variant. A pivot that fits is returned alone.
func (p Pivot) Pages() []Pivot {
	groups := p.columnGroups()
	rows, cols := len(p.Instances), len(p.Variants)
	perPage := p.rowsPerPage()
	if len(groups) == 1 && rows <= perPage {
		return []Pivot{p}
	}
	best := make([]map[int]bool, rows)
	for i := range rows {
		best[i] = p.best(i)
	}
	nc, nr := len(groups), (rows+perPage-1)/perPage
	var out []Pivot
	for r := range nr {
		for _, g := range groups {
			i0, i1 := r*perPage, min((r+1)*perPage, rows)
			j0, j1 := g[0], g[1]
			q := Pivot{Puzzle: p.Puzzle, Task: p.Task, Measure: p.Measure, Time: p.Time, K: p.K, Instances: p.Instances[i0:i1], Variants: p.Variants[j0:j1], SpreadKind: p.SpreadKind}
			for i := i0; i < i1; i++ {
				q.Values = append(q.Values, p.Values[i][j0:j1])
				if p.Spread != nil {
					q.Spread = append(q.Spread, p.Spread[i][j0:j1])
				}
				if p.Outcomes != nil {
					q.Outcomes = append(q.Outcomes, p.Outcomes[i][j0:j1])
				}
				if p.CIs != nil {
					q.CIs = append(q.CIs, p.CIs[i][j0:j1])
				}
				b := map[int]bool{}
				for j := range best[i] {
					if j >= j0 && j < j1 {
						b[j-j0] = true
					}
				}
				q.bestOf = append(q.bestOf, b)
			}
			k := len(out) + 1
			q.part = fmt.Sprintf(" (part %d of %d: variants %d--%d of %d, instances %d--%d of %d)", k, nr*nc, j0+1, j1, cols, i0+1, i1, rows)
			q.label = fmt.Sprintf("-%d", k)
			out = append(out, q)
		}
	}
	return out
}

// columnGroups cuts the variants into runs of columns, [j0, j1), each as
// many as the text width takes beside the instance column, each column at
// its own width (a run of wide ones, the spreads of slow variants say,
// holds fewer).
func (p Pivot) columnGroups() [][2]int {
	nameW, cellW := p.columnWidths()
	var groups [][2]int
	for j0 := 0; j0 < len(cellW) || len(groups) == 0; {
		j1 := j0 + 1
		for j1 < len(cellW) && tabularPt(append([]float64{nameW}, cellW[j0:j1+1]...), pivotSepPt) <= TextWidthPt {
			j1++
		}
		groups = append(groups, [2]int{j0, min(j1, len(cellW))})
		j0 = j1
	}
	return groups
}

// rowsPerPage is the most instances one LaTeX table of the pivot holds:
// PageRows, or fewer where the rotated variant names and the caption (at
// a column's width) leave less of the text height (rows of 11 pt, 40 pt
// for the rules and the footnote); half as many when a spread line
// follows each.
func (p Pivot) rowsPerPage() int {
	head := 0.0
	for _, v := range p.Variants {
		head = max(head, smallTextPt(v))
	}
	caption := math.Ceil(smallTextPt(p.caption()+" (part 10 of 10: variants 10--10 of 10, instances 100--100 of 100)")/ColumnWidthPt) * 11
	n := max(5, min(PageRows, int((TextHeightPt-head-caption-40)/11)))
	if p.Spread != nil {
		return max(3, n/2)
	}
	return n
}

// pivotSepPt is the column separation of a LaTeX pivot (\tabcolsep).
const pivotSepPt = 4

// columnWidths estimates the widths, in points, of the instance column
// and of each variant's column in \small type: a column is as wide as
// its widest cell (number or mark), or a rotated header's line.
func (p Pivot) columnWidths() (name float64, cells []float64) {
	name = smallTextPt("Instance")
	for _, in := range p.Instances {
		name = max(name, smallTextPt(in))
	}
	cells = make([]float64, len(p.Variants))
	for j := range p.Variants {
		// A column as wide as its siunitx format reserves, or its widest
		// mark, or the rotated header's line.
		whole, frac := p.digits(j)
		cells[j] = max(10, smallTextPt(strings.Repeat("0", whole+frac)+"."))
		for i := range p.Instances {
			cells[j] = max(cells[j], smallTextPt(p.cell(i, j)), p.spreadPt(i, j))
		}
	}
	return name, cells
}

// scriptOfSmall is the width of \scriptsize (7 pt) type over \small (9 pt).
const scriptOfSmall = 7.0 / 9

// spreadText is the spread of cell (i, j) as its LaTeX line prints it,
// "[lo, hi]" at the precision of the cells; "" where it has none.
func (p Pivot) spreadText(i, j int) string {
	if p.Spread == nil {
		return ""
	}
	lo, hi := p.Spread[i][j][0], p.Spread[i][j][1]
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsNaN(p.Values[i][j]) {
		return ""
	}
	return "[" + p.cellText(lo) + ", " + p.cellText(hi) + "]"
}

// spreadPt estimates the width of cell (i, j)'s spread line in \scriptsize.
func (p Pivot) spreadPt(i, j int) float64 {
	return scriptOfSmall * smallTextPt(p.spreadText(i, j))
}

// WithSpread returns the pivot with the spread of kind (SpreadIQR or
// SpreadCI) of each cell, as PivotSpreads returns it for this pivot: the
// LaTeX table prints it beneath each median.
func (p Pivot) WithSpread(sp [][][2]float64, kind string) Pivot {
	p.Spread, p.SpreadKind = sp, kind
	return p
}

// cell is the text of cell (i, j): the value at its precision, or the
// mark of its outcome.
func (p Pivot) cell(i, j int) string {
	if c := p.cellText(p.Values[i][j]); c != "" {
		return c
	}
	return outcomeMark(p.outcome(i, j))
}

// outcome is why cell (i, j) has no value (not run when unknown).
func (p Pivot) outcome(i, j int) string {
	if p.Outcomes != nil && p.Outcomes[i][j] != "" {
		return p.Outcomes[i][j]
	}
	return OutcomeNotRun
}

// digits returns the most digits before and after the decimal point of
// any value of column j, as printed.
func (p Pivot) digits(j int) (whole, frac int) {
	whole = 1
	for _, row := range p.Values {
		if c := p.cellText(row[j]); c != "" {
			w, f, _ := strings.Cut(c, ".")
			whole, frac = max(whole, len(w)), max(frac, len(f))
		}
	}
	return whole, frac
}

// Pivots returns one pivot per puzzle and task of the rows, in order of
// first appearance; measure is one of Measures, k the PAR factor and time
// the time measure (see TimeKinds).
func Pivots(rows []results.Row, measure string, k float64, time string) ([]Pivot, error) {
	if err := CheckMeasure(measure); err != nil {
		return nil, err
	}
	if err := CheckTime(time); err != nil {
		return nil, err
	}
	var out []Pivot
	for _, tt := range tables(rows, k, time) {
		p := Pivot{Puzzle: tt.puzzle, Task: tt.task, Measure: measure, Time: time, K: k, Instances: tt.instances, Variants: tt.variants}
		solvedRuns := map[[2]string]int{}
		groups := map[[2]string][]results.Row{}
		for _, r := range rows {
			if r.Puzzle == tt.puzzle && r.Task == tt.task {
				key := [2]string{r.Instance, r.Variant}
				groups[key] = append(groups[key], r)
				if r.Solved() {
					solvedRuns[key]++
				}
			}
		}
		for _, in := range tt.instances {
			vals := make([]float64, len(tt.variants))
			outs := make([]string, len(tt.variants))
			cis := make([][2]float64, len(tt.variants))
			for j, v := range tt.variants {
				c := tt.cells[in][v]
				g := groups[[2]string{in, v}]
				cis[j] = [2]float64{math.NaN(), math.NaN()}
				switch {
				case !c.ran:
					vals[j] = math.NaN()
				case measure == MeasureMedian && !c.solved:
					vals[j] = math.NaN()
				case measure == MeasureMedian:
					vals[j] = c.time
					cis[j] = solvedCI(g, time)
				case measure == MeasurePAR2:
					vals[j] = c.par
				default:
					vals[j] = float64(solvedRuns[[2]string{in, v}])
				}
				if math.IsNaN(vals[j]) {
					outs[j] = cellOutcome(g)
				}
			}
			p.Values = append(p.Values, vals)
			p.Outcomes = append(p.Outcomes, outs)
			p.CIs = append(p.CIs, cis)
		}
		out = append(out, p)
	}
	return out, nil
}

// CheckMeasure reports an unknown measure.
func CheckMeasure(measure string) error {
	for _, m := range Measures {
		if m == measure {
			return nil
		}
	}
	return fmt.Errorf("unknown --measure %q: want median, par2 or solved", measure)
}

// solvedCI is the bootstrap 95% interval of the median of the solved
// runs' times of g, as Summarize computes it.
func solvedCI(g []results.Row, time string) [2]float64 {
	var times []float64
	for _, r := range g {
		if r.Solved() && !r.NotRun() {
			t, _ := runTime(r, time)
			times = append(times, t)
		}
	}
	lo, hi := BootstrapCI(times, median, 0.95, BootstrapResamples, BootstrapSeed)
	return [2]float64{lo, hi}
}

// best returns the index set of row i's best values: every value that
// prints the same as the least time (or the most solved runs), at the
// printed precision. With the median, a row whose best values' bootstrap
// intervals overlap another value's interval has none: the difference may
// be noise.
func (p Pivot) best(i int) map[int]bool {
	if p.bestOf != nil {
		return p.bestOf[i]
	}
	out := map[int]bool{}
	b := math.NaN()
	for _, v := range p.Values[i] {
		if math.IsNaN(v) {
			continue
		}
		if math.IsNaN(b) || (p.Measure == MeasureSolved && v > b) || (p.Measure != MeasureSolved && v < b) {
			b = v
		}
	}
	if math.IsNaN(b) {
		return out
	}
	hi := math.Inf(-1)
	for j, v := range p.Values[i] {
		if p.cellText(v) == p.cellText(b) {
			out[j] = true
			if p.CIs != nil {
				hi = max(hi, p.CIs[i][j][1])
			}
		}
	}
	if p.Measure != MeasureMedian || p.CIs == nil {
		return out
	}
	for j, v := range p.Values[i] {
		if !out[j] && !math.IsNaN(v) && !(p.CIs[i][j][0] > hi) {
			return map[int]bool{}
		}
	}
	return out
}

// column is the tidy column name of the pivot's measure (units in the name).
func (p Pivot) column() string {
	switch p.Measure {
	case MeasureMedian:
		return "median_s"
	case MeasurePAR2:
		return "par" + fmtFloat(p.K) + "_s"
	}
	return "solved_runs"
}

// cellText writes a value: "" for none, seconds to 3 significant digits
// (never a time of 0.00), counts whole.
func (p Pivot) cellText(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case p.Measure == MeasureSolved:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return sigDigits(v, 3)
}

// sigDigits writes v in fixed notation with n significant digits (more
// when v has more whole digits).
func sigDigits(v float64, n int) string {
	if v == 0 || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	d := max(0, n-1-int(math.Floor(math.Log10(math.Abs(v)))))
	return strconv.FormatFloat(v, 'f', d, 64)
}

// Long returns the pivot as a tidy table: one row per instance and
// variant, the measure in a column named with its unit.
func (p Pivot) Long() Table {
	t := Table{Title: p.caption(), Header: []string{"puzzle", "task", "instance", "variant", p.column()}, Numeric: []bool{false, false, false, false, true}}
	for i, in := range p.Instances {
		for j, v := range p.Variants {
			c := fmtSec(p.Values[i][j])
			if p.Measure == MeasureSolved {
				c = p.cellText(p.Values[i][j])
			}
			t.Rows = append(t.Rows, []string{p.Puzzle, p.Task, in, v, c})
		}
	}
	return t
}

// LongPivots returns the pivots of every task as one tidy table (see Long).
func LongPivots(ps []Pivot) Table {
	var t Table
	for i, p := range ps {
		l := p.Long()
		if i == 0 {
			t = l
			continue
		}
		t.Rows = append(t.Rows, l.Rows...)
	}
	return t
}

// Wide returns the pivot as instances x variants (Markdown), best in bold,
// the mark of its outcome where there is no value (the footnote, in the
// title, says what each stands for).
func (p Pivot) Wide() Table {
	t := Table{Title: p.caption(), Header: append([]string{"instance"}, p.Variants...)}
	if note := outcomeNote(p.outcomesUsed()); note != "" {
		t.Title += ". " + note
	}
	t.Numeric = make([]bool, len(t.Header))
	for j := 1; j < len(t.Numeric); j++ {
		t.Numeric[j] = true
	}
	for i, in := range p.Instances {
		best := p.best(i)
		row := []string{in}
		for j, v := range p.Values[i] {
			c := p.cell(i, j)
			if !math.IsNaN(v) && best[j] {
				c = "**" + c + "**"
			}
			row = append(row, c)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// caption says what the cells hold, in which time measure, and when a
// value is bold.
func (p Pivot) caption() string {
	what := fmt.Sprintf("%s, task %s", p.Puzzle, p.Task)
	const tie = "best per instance in bold (every value equal to it as printed)"
	switch p.Measure {
	case MeasureMedian:
		c := fmt.Sprintf("Median %s of the solved runs, %s; %s, unless its bootstrap 95%% interval of the median overlaps another variant's (then none)", TimeName(p.Time), what, tie)
		if p.Spread != nil {
			c += "; beneath each median, in brackets, the " + SpreadName(p.SpreadKind) + " of its solved runs"
		}
		return c
	case MeasurePAR2:
		return fmt.Sprintf("PAR-%s in %s, %s: mean over the runs of the time, or %s times the %s when unsolved; %s",
			fmtFloat(p.K), TimeName(p.Time), what, fmtFloat(p.K), LimitName(p.Time), tie)
	}
	return fmt.Sprintf("Solved runs per instance, %s; %s", what, tie)
}

// outcomesUsed are the outcomes of the pivot's cells without a value.
func (p Pivot) outcomesUsed() map[string]bool {
	used := map[string]bool{}
	for i, row := range p.Values {
		for j, v := range row {
			if math.IsNaN(v) {
				used[p.outcome(i, j)] = true
			}
		}
	}
	return used
}

// LaTeX writes the pivot as a float a paper can \input: table when it
// fits a column of a two-column paper, table* when it fits the page (a
// pivot wider or longer than that is split first: Pages). Booktabs rules,
// siunitx S columns aligned on the decimal point, variant names set
// upright in the header (rotated by 90 degrees, so that a column is as
// wide as its numbers), best per instance in bold, a mark for each
// outcome without a value, explained in a footnote, a caption and the
// label tab:boardsat-MEASURE-PUZZLE-TASK (a page of a larger pivot says
// which part it is and adds -K). The document needs
// \usepackage{booktabs,siunitx,graphicx}.
func (p Pivot) LaTeX(w io.Writer) error {
	nameW, cellW := p.columnWidths()
	env := floatEnv(tabularPt(append([]float64{nameW}, cellW...), pivotSepPt))
	if env == "" {
		env = "table*" // Pages splits a pivot wider than the page
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%% boardsat results table --what pivot --measure %s --time %s, puzzle %s, task %s\n", p.Measure, p.Time, p.Puzzle, p.Task)
	sb.WriteString("% needs \\usepackage{booktabs,siunitx,graphicx}\n")
	fmt.Fprintf(&sb, "\\begin{%s}[tbp]\n\\centering\n\\small\n\\setlength{\\tabcolsep}{%dpt}\n\\sisetup{detect-weight=true,mode=text}\n", env, pivotSepPt)
	fmt.Fprintf(&sb, "\\caption{%s%s.}\n\\label{%s%s}\n", latexEscape(p.caption()), p.part, latexLabelOf(p.Measure, p.Puzzle, p.Task), p.label)
	sb.WriteString("\\begin{tabular}{@{}l")
	for j := range p.Variants {
		whole, frac := p.digits(j)
		fmt.Fprintf(&sb, "S[table-format=%d.%d]", whole, frac)
	}
	sb.WriteString("@{}}\n\\toprule\n")
	sb.WriteString("{Instance}")
	for _, v := range p.Variants {
		fmt.Fprintf(&sb, " & {\\rotatebox{90}{%s}}", latexEscape(v))
	}
	sb.WriteString(" \\\\\n\\midrule\n")
	for i, in := range p.Instances {
		best := p.best(i)
		sb.WriteString(latexEscape(in))
		for j, v := range p.Values[i] {
			c := p.cell(i, j)
			switch {
			case math.IsNaN(v):
				c = "{" + latexEscape(c) + "}"
			case best[j]:
				c = "\\bfseries " + c
			}
			sb.WriteString(" & " + c)
		}
		sb.WriteString(" \\\\\n")
		p.spreadLine(&sb, i)
	}
	sb.WriteString("\\bottomrule\n\\end{tabular}\n")
	if note := outcomeNote(p.outcomesUsed()); note != "" {
		sb.WriteString("\\par\\smallskip\\footnotesize " + latexEscape(note) + ".\n")
	}
	fmt.Fprintf(&sb, "\\end{%s}\n", env)
	_, err := io.WriteString(w, sb.String())
	return err
}

// spreadLine writes, beneath instance i's row, a line of its cells'
// spreads in \scriptsize (nothing when no cell of the row has one).
func (p Pivot) spreadLine(sb *strings.Builder, i int) {
	var cells []string
	has := false
	for j := range p.Variants {
		t := p.spreadText(i, j)
		has = has || t != ""
		cells = append(cells, "{\\scriptsize "+t+"}")
	}
	if has {
		sb.WriteString(" & " + strings.Join(cells, " & ") + " \\\\\n")
	}
}

// PivotsLaTeX writes the pivots as LaTeX floats, each split into the
// tables that fit a two-column paper (Pages), with a \clearpage every
// floatsQueued floats: LaTeX holds 18 floats waiting for a page at most,
// and a file of pivot floats alone (a suite of thirty puzzles and tasks)
// gives it no text to break pages at.
func PivotsLaTeX(w io.Writer, ps []Pivot) error {
	n := 0
	for _, p := range ps {
		for _, page := range p.Pages() {
			if n > 0 {
				sep := "\n"
				if n%floatsQueued == 0 {
					sep += floatFlush
				}
				if _, err := io.WriteString(w, sep); err != nil {
					return err
				}
			}
			if err := page.LaTeX(w); err != nil {
				return err
			}
			n++
		}
	}
	return nil
}

// latexLabel keeps the letters and digits of s, for a \label.
func latexLabel(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('-')
		}
	}
	return sb.String()
}
