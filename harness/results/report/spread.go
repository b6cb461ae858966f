package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/boardsat/boardsat/harness/results"
)

// The spreads over repeats a pivot can show beside each median (--spread):
// the interquartile range of the solved runs' times, or the bootstrap 95%
// confidence interval of their median as Summarize computes it.
const (
	SpreadIQR = "iqr"
	SpreadCI  = "ci"
)

// SpreadKinds lists the spreads.
var SpreadKinds = []string{SpreadIQR, SpreadCI}

// CheckSpread reports an unknown spread; "" (none) is fine.
func CheckSpread(kind string) error {
	if kind != "" && !slices.Contains(SpreadKinds, kind) {
		return fmt.Errorf("unknown --spread %q: want iqr or ci", kind)
	}
	return nil
}

// SpreadName names a spread for captions and headers.
func SpreadName(kind string) string {
	if kind == SpreadCI {
		return "bootstrap 95% CI of the median"
	}
	return "interquartile range"
}

// Seconds returns a run's seconds in the time measure and the limit it ran
// under (see TimeKinds): what every table and figure of this package is
// made of, for the packages that build on it.
func Seconds(r results.Row, time string) (t, limit float64) { return runTime(r, time) }

// Quartiles returns the 25th and 75th percentiles of xs, interpolated
// linearly between the order statistics x(1) <= ... <= x(n) at rank
// 1 + (n-1)p (Hyndman and Fan's type 7, R's and NumPy's default); NaN when
// xs is empty.
func Quartiles(xs []float64) (q1, q3 float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	at := func(p float64) float64 {
		h := float64(len(s)-1) * p
		i := int(math.Floor(h))
		if i+1 >= len(s) {
			return s[i]
		}
		return s[i] + (h-float64(i))*(s[i+1]-s[i])
	}
	return at(0.25), at(0.75)
}

// SpreadOf returns the spread kind of one group from its summary (the CI
// Summarize computed) and the solved runs' times (the IQR).
func SpreadOf(s Summary, times []float64, kind string) (lo, hi float64) {
	if kind == SpreadCI {
		return s.CILo, s.CIHi
	}
	return Quartiles(times)
}

// spreads returns the spread kind of every instance, variant and task's
// solved runs in the time measure: the CI from Summarize itself, the IQR
// from the runs' times; NaN bounds for a group with no solved run.
func spreads(rows []results.Row, kind, time string) map[groupKey][2]float64 {
	times := map[groupKey][]float64{}
	for _, r := range attempted(rows) {
		if r.Solved() {
			t, _ := runTime(r, time)
			k := groupKey{r.Instance, r.Variant, r.Task}
			times[k] = append(times[k], t)
		}
	}
	out := map[groupKey][2]float64{}
	for _, s := range Summarize(rows, time) {
		k := groupKey{s.Instance, s.Variant, s.Task}
		lo, hi := SpreadOf(s, times[k], kind)
		out[k] = [2]float64{lo, hi}
	}
	return out
}

// PivotSpreads returns, for every cell of the pivots (same order), the
// spread of the solved runs' times of that instance and variant: NaN
// bounds where the pivot has no value. Only a median pivot has a spread.
func PivotSpreads(ps []Pivot, rows []results.Row, kind string) ([][][][2]float64, error) {
	if err := CheckSpread(kind); err != nil {
		return nil, err
	}
	out := make([][][][2]float64, len(ps))
	var sp map[groupKey][2]float64
	for n, p := range ps {
		if p.Measure != MeasureMedian {
			return nil, fmt.Errorf("--spread goes with --measure median, not %s", p.Measure)
		}
		if sp == nil {
			sp = spreads(rows, kind, p.Time) // one time measure for all
		}
		out[n] = make([][][2]float64, len(p.Instances))
		for i, in := range p.Instances {
			out[n][i] = make([][2]float64, len(p.Variants))
			for j, v := range p.Variants {
				b := [2]float64{math.NaN(), math.NaN()}
				if !math.IsNaN(p.Values[i][j]) {
					b = sp[groupKey{in, v, p.Task}]
				}
				out[n][i][j] = b
			}
		}
	}
	return out, nil
}

// PivotsSpread returns the pivots with the spread of kind attached to each
// cell (PivotSpreads, WithSpread), for their LaTeX tables.
func PivotsSpread(ps []Pivot, rows []results.Row, kind string) ([]Pivot, error) {
	sps, err := PivotSpreads(ps, rows, kind)
	if err != nil {
		return nil, err
	}
	out := make([]Pivot, len(ps))
	for i, p := range ps {
		out[i] = p.WithSpread(sps[i], kind)
	}
	return out, nil
}

// WideSpread is Wide with each value followed by its spread, as
// "0.0123 [0.0120, 0.0131]", and the spread named in the title.
func (p Pivot) WideSpread(sp [][][2]float64, kind string) Table {
	t := p.Wide()
	t.Title += "; in brackets the " + SpreadName(kind) + " of the solved runs"
	for i := range t.Rows {
		for j := range p.Variants {
			if lo, hi := sp[i][j][0], sp[i][j][1]; !math.IsNaN(lo) {
				t.Rows[i][j+1] += fmt.Sprintf(" [%s, %s]", p.cellText(lo), p.cellText(hi))
			}
		}
	}
	return t
}

// LongPivotsSpread is LongPivots with two more columns, the spread's lower
// and upper bounds in seconds (empty where the cell has none).
func LongPivotsSpread(ps []Pivot, sps [][][][2]float64, kind string) Table {
	t := LongPivots(ps)
	name := "iqr"
	if kind == SpreadCI {
		name = "ci"
	}
	t.Header = append(t.Header, name+"_low_s", name+"_high_s")
	t.Numeric = append(t.Numeric, true, true)
	t.Title += "; " + SpreadName(kind) + " of the solved runs"
	n := 0
	for k, p := range ps {
		for i := range p.Instances {
			for j := range p.Variants {
				lo, hi := sps[k][i][j][0], sps[k][i][j][1]
				t.Rows[n] = append(t.Rows[n], fmtCell4(lo), fmtCell4(hi))
				n++
			}
		}
	}
	return t
}

// fmtCell4 writes seconds to 4 decimals, "" for NaN, as a pivot's cells.
func fmtCell4(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}
