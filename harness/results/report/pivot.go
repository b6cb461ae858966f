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

	// A page of a larger pivot (Pages): which part it is, and the best
	// marks of its rows over all the variants.
	part, label string
	bestOf      []map[int]bool
}

// The page a LaTeX pivot must fit: a pivot wider or longer is split into
// several tables (Pages).
const (
	// PageWidthPt is the text width a table may take, in points (a
	// one-column article's is 345 pt, a two-column paper's 505 pt).
	PageWidthPt = 400
	// PageRows is the most instances one table holds.
	PageRows = 40
)

// Pages splits the pivot into tables that fit a page: the variants in
// groups as wide as PageWidthPt allows (estimated from the longest
// instance name and the widest number, in \small type), the instances in
// groups of PageRows. The best per instance stays that over every variant.
// A pivot that fits is returned alone.
func (p Pivot) Pages() []Pivot {
	name := 0
	for _, in := range p.Instances {
		name = max(name, len(in))
	}
	digits, _ := p.numberFormat()
	// About 5.5 pt a character in \small, 8 pt of column separation.
	colPt := float64(digits)*5.5 + 8
	perTable := max(1, int((PageWidthPt-(float64(name)*5.5+8))/colPt))
	rows, cols := len(p.Instances), len(p.Variants)
	if cols <= perTable && rows <= PageRows {
		return []Pivot{p}
	}
	best := make([]map[int]bool, rows)
	for i := range rows {
		best[i] = p.best(i)
	}
	nc, nr := (cols+perTable-1)/perTable, (rows+PageRows-1)/PageRows
	var out []Pivot
	for r := range nr {
		for c := range nc {
			i0, i1 := r*PageRows, min((r+1)*PageRows, rows)
			j0, j1 := c*perTable, min((c+1)*perTable, cols)
			q := Pivot{Puzzle: p.Puzzle, Task: p.Task, Measure: p.Measure, Time: p.Time, K: p.K, Instances: p.Instances[i0:i1], Variants: p.Variants[j0:j1]}
			for i := i0; i < i1; i++ {
				q.Values = append(q.Values, p.Values[i][j0:j1])
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

// numberFormat returns the characters of the widest cell and the siunitx
// table-format of the pivot's numbers.
func (p Pivot) numberFormat() (chars int, format string) {
	intDigits := 1
	for _, row := range p.Values {
		for _, v := range row {
			if !math.IsNaN(v) && v >= 1 {
				intDigits = max(intDigits, int(math.Floor(math.Log10(v)))+1)
			}
		}
	}
	if p.Measure == MeasureSolved {
		return intDigits, fmt.Sprintf("%d.0", intDigits)
	}
	return intDigits + 5, fmt.Sprintf("%d.4", intDigits)
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
		for _, r := range rows {
			if r.Puzzle == tt.puzzle && r.Task == tt.task && r.Solved() {
				solvedRuns[[2]string{r.Instance, r.Variant}]++
			}
		}
		for _, in := range tt.instances {
			vals := make([]float64, len(tt.variants))
			for j, v := range tt.variants {
				c := tt.cells[in][v]
				switch {
				case !c.ran:
					vals[j] = math.NaN()
				case measure == MeasureMedian && !c.solved:
					vals[j] = math.NaN()
				case measure == MeasureMedian:
					vals[j] = c.time
				case measure == MeasurePAR2:
					vals[j] = c.par
				default:
					vals[j] = float64(solvedRuns[[2]string{in, v}])
				}
			}
			p.Values = append(p.Values, vals)
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

// best returns, per row, the index set of the best values: least time, or
// most solved runs.
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
	for j, v := range p.Values[i] {
		if v == b {
			out[j] = true
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

// cellText writes a value: "" for none, seconds to 4 decimals, counts whole.
func (p Pivot) cellText(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case p.Measure == MeasureSolved:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// Long returns the pivot as a tidy table: one row per instance and
// variant, the measure in a column named with its unit.
func (p Pivot) Long() Table {
	t := Table{Title: p.caption(), Header: []string{"puzzle", "task", "instance", "variant", p.column()}, Numeric: []bool{false, false, false, false, true}}
	for i, in := range p.Instances {
		for j, v := range p.Variants {
			t.Rows = append(t.Rows, []string{p.Puzzle, p.Task, in, v, p.cellText(p.Values[i][j])})
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
// "-" where there is no value.
func (p Pivot) Wide() Table {
	t := Table{Title: p.caption(), Header: append([]string{"instance"}, p.Variants...)}
	t.Numeric = make([]bool, len(t.Header))
	for j := 1; j < len(t.Numeric); j++ {
		t.Numeric[j] = true
	}
	for i, in := range p.Instances {
		best := p.best(i)
		row := []string{in}
		for j, v := range p.Values[i] {
			c := p.cellText(v)
			switch {
			case c == "":
				c = "-"
			case best[j]:
				c = "**" + c + "**"
			}
			row = append(row, c)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// caption says what the cells hold, in which time measure.
func (p Pivot) caption() string {
	what := fmt.Sprintf("%s, task %s", p.Puzzle, p.Task)
	switch p.Measure {
	case MeasureMedian:
		return fmt.Sprintf("Median %s of the solved runs, %s; best per instance in bold", TimeName(p.Time), what)
	case MeasurePAR2:
		return fmt.Sprintf("PAR-%s in %s, %s: mean over the runs of the time, or %s times the %s when unsolved; best per instance in bold",
			fmtFloat(p.K), TimeName(p.Time), what, fmtFloat(p.K), LimitName(p.Time))
	}
	return fmt.Sprintf("Solved runs per instance, %s; best per instance in bold", what)
}

// dashNote says what a dash of the pivot stands for, as the cells are
// computed: with a median, any instance without a solved run; with PAR-K
// and solved runs, only the instances the variant did not run (a refused
// request, a ladder stopped earlier), since a timeout, memout or error
// scores K times the limit, or 0 solved.
func (p Pivot) dashNote() string {
	if p.Measure == MeasureMedian {
		return "--- no solved run within the limits (timeout, memout or error), refused by the backend, or not run."
	}
	return "--- refused by the backend, or not run: nothing to score."
}

// LaTeX writes the pivot as a table environment a paper can \input:
// booktabs rules, siunitx S columns aligned on the decimal point, variant
// names set upright in the header (rotated by 90 degrees, so a column is
// as wide as its numbers and six variants of any name fit a page), best
// per instance in bold, a dash for no value with a note under the table, a
// caption and the label tab:boardsat-MEASURE-PUZZLE-TASK (a page of a larger
// pivot, Pages, says which part it is and adds -K). The document needs
// \usepackage{booktabs,siunitx,graphicx}.
func (p Pivot) LaTeX(w io.Writer) error {
	_, format := p.numberFormat()
	var sb strings.Builder
	fmt.Fprintf(&sb, "%% boardsat results table --what pivot --measure %s --time %s, puzzle %s, task %s\n", p.Measure, p.Time, p.Puzzle, p.Task)
	sb.WriteString("% needs \\usepackage{booktabs,siunitx,graphicx}\n")
	sb.WriteString("\\begin{table}[tbp]\n\\centering\n\\small\n\\setlength{\\tabcolsep}{4pt}\n\\sisetup{detect-weight=true,mode=text}\n")
	fmt.Fprintf(&sb, "\\caption{%s%s.}\n\\label{tab:boardsat-%s-%s-%s%s}\n", latexEscape(p.caption()), p.part, p.Measure, latexLabel(p.Puzzle), latexLabel(p.Task), p.label)
	fmt.Fprintf(&sb, "\\begin{tabular}{@{}l*{%d}{S[table-format=%s]}@{}}\n\\toprule\n", len(p.Variants), format)
	sb.WriteString("{Instance}")
	for _, v := range p.Variants {
		fmt.Fprintf(&sb, " & {\\rotatebox{90}{%s}}", latexEscape(v))
	}
	sb.WriteString(" \\\\\n\\midrule\n")
	dash := false
	for i, in := range p.Instances {
		best := p.best(i)
		sb.WriteString(latexEscape(in))
		for j, v := range p.Values[i] {
			c := p.cellText(v)
			switch {
			case c == "":
				c, dash = "{---}", true
			case best[j]:
				c = "\\bfseries " + c
			}
			sb.WriteString(" & " + c)
		}
		sb.WriteString(" \\\\\n")
	}
	sb.WriteString("\\bottomrule\n\\end{tabular}\n")
	if dash {
		sb.WriteString("\\par\\smallskip\\footnotesize " + p.dashNote() + "\n")
	}
	sb.WriteString("\\end{table}\n")
	_, err := io.WriteString(w, sb.String())
	return err
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
