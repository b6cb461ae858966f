package report

import (
	"fmt"
	"github.com/boardsat/boardsat/results"
	"io"
	"math"
	"strconv"
	"strings"
)

// Pivot is one task's measure per instance (rows) and variant (columns):
// the table a paper prints.
type Pivot struct {
	Task, Measure string
	// K is the PAR factor (MeasurePAR2 shows PAR-K).
	K                   float64
	Instances, Variants []string
	// Values[i][j] is instance i's value for variant j: NaN when the
	// variant did not solve it (median) or never ran it.
	Values [][]float64
}

// Pivots returns one pivot per task of the rows, in order of first
// appearance; measure is one of Measures and k the PAR factor.
func Pivots(rows []results.Row, measure string, k float64) ([]Pivot, error) {
	if err := CheckMeasure(measure); err != nil {
		return nil, err
	}
	var out []Pivot
	for _, tt := range tables(rows, k) {
		p := Pivot{Task: tt.task, Measure: measure, K: k, Instances: tt.instances, Variants: tt.variants}
		solvedRuns := map[[2]string]int{}
		for _, r := range rows {
			if r.Task == tt.task && r.Solved() {
				solvedRuns[[2]string{r.Instance, r.Variant}]++
			}
		}
		for _, in := range tt.instances {
			vals := make([]float64, len(tt.variants))
			for j, v := range tt.variants {
				c, ok := tt.cells[in][v]
				switch {
				case !ok:
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
	t := Table{Title: p.caption(), Header: []string{"task", "instance", "variant", p.column()}, Numeric: []bool{false, false, false, true}}
	for i, in := range p.Instances {
		for j, v := range p.Variants {
			t.Rows = append(t.Rows, []string{p.Task, in, v, p.cellText(p.Values[i][j])})
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

// caption says what the cells hold.
func (p Pivot) caption() string {
	switch p.Measure {
	case MeasureMedian:
		return fmt.Sprintf("Median seconds of the solved runs, task %s (CPU seconds where a CPU limit applied, else wall clock); best per instance in bold", p.Task)
	case MeasurePAR2:
		return fmt.Sprintf("PAR-%s seconds, task %s: mean over the runs of the time, or %s times the limit when unsolved; best per instance in bold", fmtFloat(p.K), p.Task, fmtFloat(p.K))
	}
	return fmt.Sprintf("Solved runs per instance, task %s; best per instance in bold", p.Task)
}

// LaTeX writes the pivot as a table environment a paper can \input:
// booktabs rules, siunitx S columns aligned on the decimal point, variant
// names set upright in the header (rotated by 90 degrees, so a column is
// as wide as its numbers and six variants of any name fit a page), best
// per instance in bold, a dash for no value with a note under the table, a
// caption and the label tab:boardsat-MEASURE-TASK. The document needs
// \usepackage{booktabs,siunitx,graphicx}.
func (p Pivot) LaTeX(w io.Writer) error {
	intDigits := 1
	for _, row := range p.Values {
		for _, v := range row {
			if !math.IsNaN(v) && v >= 1 {
				intDigits = max(intDigits, int(math.Floor(math.Log10(v)))+1)
			}
		}
	}
	format := fmt.Sprintf("%d.4", intDigits)
	if p.Measure == MeasureSolved {
		format = fmt.Sprintf("%d.0", intDigits)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%% boardsat results table --what pivot --measure %s, task %s\n", p.Measure, p.Task)
	sb.WriteString("% needs \\usepackage{booktabs,siunitx,graphicx}\n")
	sb.WriteString("\\begin{table}[tbp]\n\\centering\n\\small\n\\setlength{\\tabcolsep}{4pt}\n\\sisetup{detect-weight=true,mode=text}\n")
	fmt.Fprintf(&sb, "\\caption{%s.}\n\\label{tab:boardsat-%s-%s}\n", latexEscape(p.caption()), p.Measure, latexLabel(p.Task))
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
		sb.WriteString("\\par\\smallskip\\footnotesize --- no solved run within the limits (timeout, memout or error), or not run.\n")
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
