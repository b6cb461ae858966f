// Package comparison compares two sets of results of the same runs (two
// commits, two machines, two solver versions): it matches the runs by
// instance, variant and task, gives each instance's ratio of medians, a
// geometric mean of the ratios with a bootstrap confidence interval, and
// tests each difference for significance (a Mann-Whitney U test where both
// sides have MinRepeats runs or more, as benchstat does). The medians,
// intervals and time measures are results/report's.
package comparison

import (
	"math"
	"slices"
	"strconv"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/results/report"
	"gonum.org/v1/gonum/stat"
)

// Side is one instance, variant and task on one side of a comparison.
type Side struct {
	Runs, Solved int
	// Status is "solved" when more than half of the runs were (as the
	// scores count an instance solved), else the most frequent outcome
	// (see report.Outcome); Median is the median time of the solved runs
	// in the time measure (NaN when not solved).
	Status string
	Median float64
	// Times are the solved runs' times, tested against the other side's.
	Times []float64
}

// Pair is one instance, variant and task that both sides ran.
type Pair struct {
	Puzzle, Instance, Variant, Task string
	A, B                            Side
	// Ratio is B's median over A's (below 1: B is faster); NaN unless
	// both solved it.
	Ratio float64
	// P is the Mann-Whitney two-sided p-value of A's and B's solved times,
	// NaN where either has fewer than MinRepeats; Significant is P < Alpha.
	P           float64
	Significant bool
}

// Mean is the geometric mean of the ratios of one variant and task (or,
// Variant and Task "all", of every pair) over the instances both solved,
// with its bootstrap 95% confidence interval.
type Mean struct {
	Variant, Task string
	// N counts the instances both solved; Faster and Slower those where B
	// was significantly faster or slower; OnlyA and OnlyB those only one
	// side solved.
	N, Faster, Slower, OnlyA, OnlyB int
	GeoMean, Lo, Hi                 float64
}

// Result is a comparison.
type Result struct {
	Time  string // the time measure (see report.TimeKinds)
	Pairs []Pair
	Means []Mean
	// OnlyA and OnlyB count the instance, variant and task groups only one
	// side ran (not compared).
	OnlyA, OnlyB int
}

type key struct{ instance, variant, task string }

// Compare matches a's and b's runs by instance, variant and task, and
// compares each match in the time measure.
func Compare(a, b []results.Row, time string) Result {
	ga, orderA := group(a)
	gb, _ := group(b)
	res := Result{Time: time}
	for _, k := range orderA {
		rb, ok := gb[k]
		if !ok {
			res.OnlyA++
			continue
		}
		ra := ga[k]
		p := Pair{Puzzle: ra[0].Puzzle, Instance: k.instance, Variant: k.variant, Task: k.task,
			A: side(ra, time), B: side(rb, time), Ratio: math.NaN(), P: math.NaN()}
		if p.A.Status == "solved" && p.B.Status == "solved" && p.A.Median > 0 {
			p.Ratio = p.B.Median / p.A.Median
			p.Significant, p.P = Significant(p.A.Times, p.B.Times)
		}
		res.Pairs = append(res.Pairs, p)
	}
	for k := range gb {
		if _, ok := ga[k]; !ok {
			res.OnlyB++
		}
	}
	res.Means = means(res.Pairs)
	return res
}

// group groups rows by instance, variant and task, leaving out the rows
// that are no attempt (refused, not run).
func group(rows []results.Row) (map[key][]results.Row, []key) {
	g := map[key][]results.Row{}
	var order []key
	for _, r := range rows {
		if r.NotRun() || r.Refused() {
			continue
		}
		k := key{r.Instance, r.Variant, r.Task}
		if _, ok := g[k]; !ok {
			order = append(order, k)
		}
		g[k] = append(g[k], r)
	}
	return g, order
}

// side describes one group of runs: its median from report.Summarize.
func side(g []results.Row, time string) Side {
	sum := report.Summarize(g, time)[0]
	s := Side{Runs: sum.Runs, Solved: sum.Solved, Median: math.NaN()}
	for _, r := range g {
		if r.Solved() {
			t, _ := report.Seconds(r, time)
			s.Times = append(s.Times, t)
		}
	}
	if 2*s.Solved > s.Runs {
		s.Status, s.Median = "solved", sum.Median
		return s
	}
	counts := map[string]int{}
	for _, r := range g {
		o := report.Outcome(r)
		counts[o]++
		if counts[o] > counts[s.Status] {
			s.Status = o
		}
	}
	return s
}

// means returns the geometric mean of every variant and task's ratios, in
// order of first appearance, then that of every pair.
func means(pairs []Pair) []Mean {
	var order []Mean
	idx := map[[2]string]int{}
	all := Mean{Variant: "all", Task: "all"}
	var ratios [][]float64
	var allRatios []float64
	for _, p := range pairs {
		k := [2]string{p.Variant, p.Task}
		i, ok := idx[k]
		if !ok {
			i = len(order)
			idx[k] = i
			order = append(order, Mean{Variant: p.Variant, Task: p.Task})
			ratios = append(ratios, nil)
		}
		for _, m := range []*Mean{&order[i], &all} {
			switch {
			case !math.IsNaN(p.Ratio):
				m.N++
				if p.Significant && p.Ratio < 1 {
					m.Faster++
				} else if p.Significant && p.Ratio > 1 {
					m.Slower++
				}
			case p.A.Status == "solved" && p.B.Status != "solved":
				m.OnlyA++
			case p.B.Status == "solved" && p.A.Status != "solved":
				m.OnlyB++
			}
		}
		if !math.IsNaN(p.Ratio) && p.Ratio > 0 {
			ratios[i] = append(ratios[i], p.Ratio)
			allRatios = append(allRatios, p.Ratio)
		}
	}
	out := slices.Clone(order)
	for i := range out {
		out[i].GeoMean, out[i].Lo, out[i].Hi = geoMeanCI(ratios[i])
	}
	all.GeoMean, all.Lo, all.Hi = geoMeanCI(allRatios)
	return append(out, all)
}

// geoMeanCI returns the geometric mean of xs and its bootstrap 95%
// confidence interval, by report's resampling (same resamples, same seed
// as the CI of a median); NaN when xs is empty.
func geoMeanCI(xs []float64) (g, lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	gm := func(v []float64) float64 { return stat.GeometricMean(v, nil) }
	lo, hi = report.BootstrapCI(xs, gm, 0.95, report.BootstrapResamples, report.BootstrapSeed)
	return gm(xs), lo, hi
}

// Tables returns the per-instance table and the table of geometric means,
// A and B named by labelA and labelB.
func (r Result) Tables(labelA, labelB string) []report.Table {
	tn := report.TimeName(r.Time)
	per := report.Table{
		Title: "Per instance: median " + tn + " of the solved runs in A (" + labelA + ") and B (" + labelB + "), ratio B/A (below 1: B faster); " +
			"p: Mann-Whitney two-sided, where both sides have " + strconv.Itoa(MinRepeats) + " runs or more; significant at p < " + fmtG(Alpha),
		Header:  []string{"puzzle", "task", "instance", "variant", "a_status", "a_runs", "a_median_s", "b_status", "b_runs", "b_median_s", "ratio_b_a", "p_value", "significant"},
		Numeric: []bool{false, false, false, false, false, true, true, false, true, true, true, true, false},
	}
	for _, p := range r.Pairs {
		sig := ""
		if !math.IsNaN(p.P) {
			sig = "no"
			if p.Significant {
				sig = "yes"
			}
		}
		per.Rows = append(per.Rows, []string{p.Puzzle, p.Task, p.Instance, p.Variant,
			p.A.Status, strconv.Itoa(p.A.Runs), fmtG(p.A.Median), p.B.Status, strconv.Itoa(p.B.Runs), fmtG(p.B.Median),
			fmtG(p.Ratio), fmtG(p.P), sig})
	}
	sum := report.Table{
		Title:   "Geometric mean of the ratios B/A over the instances both solved, with its bootstrap 95% CI; B significantly faster or slower; solved by one side only",
		Header:  []string{"variant", "task", "instances", "geomean_b_a", "ci_low", "ci_high", "b_faster", "b_slower", "only_a_solved", "only_b_solved"},
		Numeric: []bool{false, false, true, true, true, true, true, true, true, true},
	}
	for _, m := range r.Means {
		sum.Rows = append(sum.Rows, []string{m.Variant, m.Task, strconv.Itoa(m.N), fmtG(m.GeoMean), fmtG(m.Lo), fmtG(m.Hi),
			strconv.Itoa(m.Faster), strconv.Itoa(m.Slower), strconv.Itoa(m.OnlyA), strconv.Itoa(m.OnlyB)})
	}
	return []report.Table{per, sum}
}

// fmtG writes x with 4 significant digits, "" for NaN.
func fmtG(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}
