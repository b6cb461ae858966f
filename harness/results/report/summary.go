package report

import (
	"fmt"
	"github.com/boardsat/boardsat/harness/results"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"

	"gonum.org/v1/gonum/stat"
)

// Summary describes the runs of one group: one instance, one variant, one task.
type Summary struct {
	Instance, Puzzle, Variant, Task string
	Squares                         int
	// Runs is the number of runs; Ran how many of them ran (not skipped
	// by a ladder, nor refused by the backend); Solved how many ended ok
	// or unsat.
	Runs, Ran, Solved int
	// Statuses counts runs by status.
	Statuses map[string]int
	// NotRun counts the rows of runs not run (a ladder stopped earlier),
	// counted in Statuses under their status, timeout.
	NotRun int
	// Answer is the answer of the solved runs (Answers lists every distinct
	// answer, so a disagreement within a group shows), in decimal with every
	// digit (counts may exceed 2^64).
	Answers []string
	// Time is the time measure of Median, Mean, SD and the bootstrap 95%
	// confidence interval [CILo, CIHi] of the median, which are over the
	// solved runs' seconds in that measure; all are NaN when no run was
	// solved.
	Time                         string
	Median, Mean, SD, CILo, CIHi float64
	// WallMedian is the median wall-clock seconds of the solved runs.
	WallMedian float64
	// SolverMedian is the median of the seconds the solving process
	// measured itself (solver_seconds, no process start-up) over the solved
	// runs; NaN when none was solved.
	SolverMedian float64
	// CPUMedian is the median of the CPU seconds (user + sys of the whole
	// process tree) of the solved runs; NaN when none was solved.
	CPUMedian float64
	// MedianRSSKB is the median peak RSS of the solved runs.
	MedianRSSKB float64
	// MedianNodes is the median of the nodes counter (NaN if not reported).
	MedianNodes float64
	// Limit is the largest limit of the runs in the time measure, in
	// seconds: the CPU limit for cpu, the wall-clock limit for wall and
	// solver (0: none in that measure, or not recorded).
	Limit float64
	// Certify marks a group of certified runs (bench certify=true);
	// Certified counts its solved runs whose every refutation was proved
	// and checked. MedianProofBytes and MedianCheck are the medians of the
	// solved runs' proof bytes and check seconds, and CheckRatio the median
	// of check time over solve time (check_seconds over solve_seconds less
	// check_seconds, the checks running inside the solve); NaN when none.
	Certify                                   bool
	Certified                                 int
	MedianProofBytes, MedianCheck, CheckRatio float64
}

// BootstrapResamples is the number of resamples behind each confidence
// interval, and BootstrapSeed seeds them, so a summary is reproducible.
const (
	BootstrapResamples = 2000
	BootstrapSeed      = 20261121
)

// groupKey orders groups: by puzzle, size, instance, variant, task.
type groupKey struct{ instance, variant, task string }

// Summarize groups rows by instance, variant and task, in order of first
// appearance, and describes each group, its statistics in the time
// measure (see TimeKinds).
func Summarize(rows []results.Row, time string) []Summary {
	idx := map[groupKey]int{}
	var groups [][]results.Row
	for _, r := range rows {
		k := groupKey{r.Instance, r.Variant, r.Task}
		i, ok := idx[k]
		if !ok {
			i = len(groups)
			idx[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	out := make([]Summary, len(groups))
	for i, g := range groups {
		out[i] = summarize(g, time)
	}
	return out
}

func summarize(g []results.Row, time string) Summary {
	s := Summary{Instance: g[0].Instance, Puzzle: g[0].Puzzle, Squares: g[0].Squares, Variant: g[0].Variant,
		Task: g[0].Task, Runs: len(g), Statuses: map[string]int{}, Time: time}
	var secs, wall, solver, cpu, rss, nodes, proofs, checks, ratios []float64
	for _, r := range g {
		s.Certify = s.Certify || r.Certify
		t, limit := runTime(r, time)
		s.Limit = max(s.Limit, limit)
		s.Statuses[r.Status]++
		if !r.NotRun() && !r.Refused() {
			s.Ran++
		}
		if r.NotRun() {
			s.NotRun++
		}
		if !r.Solved() {
			continue
		}
		s.Solved++
		secs, wall = append(secs, t), append(wall, r.Seconds)
		solver = append(solver, r.SolverSeconds)
		cpu = append(cpu, r.User+r.Sys)
		rss = append(rss, float64(r.MaxRSSKB))
		if n, ok := r.Stats["nodes"]; ok {
			nodes = append(nodes, float64(n))
		}
		if r.Certify {
			if r.Certified {
				s.Certified++
			}
			proofs, checks = append(proofs, float64(r.ProofBytes)), append(checks, r.CheckSeconds)
			if solve := r.SolveSeconds - r.CheckSeconds; solve > 0 {
				ratios = append(ratios, r.CheckSeconds/solve)
			}
		}
		if a := r.AnswerString(); a != "" && !slices.Contains(s.Answers, a) {
			s.Answers = append(s.Answers, a)
		}
	}
	s.Median, s.Mean, s.SD, s.CILo, s.CIHi = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
	s.MedianRSSKB, s.MedianNodes, s.SolverMedian, s.CPUMedian, s.WallMedian = median(rss), median(nodes), median(solver), median(cpu), median(wall)
	s.MedianProofBytes, s.MedianCheck, s.CheckRatio = median(proofs), median(checks), median(ratios)
	if len(secs) == 0 {
		return s
	}
	s.Median = median(secs)
	s.Mean, s.SD = stat.MeanStdDev(secs, nil)
	if len(secs) == 1 {
		s.SD = 0
	}
	s.CILo, s.CIHi = BootstrapCI(secs, median, 0.95, BootstrapResamples, BootstrapSeed)
	return s
}

// median returns the median of xs (NaN when empty), without changing xs.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// BootstrapCI returns the percentile bootstrap confidence interval at level
// (0.95 for 95%) of statistic f over xs, from resamples drawn with a PCG
// generator seeded with seed: the same inputs give the same interval.
func BootstrapCI(xs []float64, f func([]float64) float64, level float64, resamples int, seed uint64) (lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(xs))))
	est := make([]float64, resamples)
	buf := make([]float64, len(xs))
	for i := range est {
		for j := range buf {
			buf[j] = xs[rng.IntN(len(xs))]
		}
		est[i] = f(buf)
	}
	sort.Float64s(est)
	alpha := (1 - level) / 2
	return stat.Quantile(alpha, stat.Empirical, est, nil), stat.Quantile(1-alpha, stat.Empirical, est, nil)
}

// Speedup is the speed of one variant relative to the baseline on one task:
// the geometric mean over the instances both solved of the ratio of the
// baseline's median seconds to the variant's (above 1: faster than the
// baseline).
type Speedup struct {
	Variant, Task string
	// Instances is how many instances both solved.
	Instances int
	// GeoMean, Min and Max summarise the per-instance ratios (NaN if none).
	GeoMean, Min, Max float64
}

// Variants returns the distinct variants of rows in order of first appearance.
func Variants(rows []results.Row) []string {
	return distinct(rows, func(r results.Row) string { return r.Variant })
}

// Speedups compares every variant with baseline, task by task, from the
// group summaries, with their median times in the time measure. It returns
// an error if baseline is not among them.
func Speedups(sums []Summary, baseline, time string) ([]Speedup, error) {
	base := map[[2]string]float64{} // (instance, task) -> baseline median
	found := false
	for _, s := range sums {
		if s.Variant == baseline {
			found = true
			if s.Solved > 0 {
				base[[2]string{s.Instance, s.Task}] = medianOf(s, time)
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("unknown baseline variant %q: the results hold %s", baseline, quoteList(variantsOf(sums)))
	}
	type acc struct{ ratios []float64 }
	order := []string{}
	accs := map[[2]string]*acc{}
	for _, s := range sums {
		if s.Variant == baseline {
			continue
		}
		k := [2]string{s.Variant, s.Task}
		a := accs[k]
		if a == nil {
			a = &acc{}
			accs[k] = a
			order = append(order, s.Variant+"\x00"+s.Task)
		}
		b, ok := base[[2]string{s.Instance, s.Task}]
		m := medianOf(s, time)
		if !ok || s.Solved == 0 || !(m > 0) || !(b > 0) {
			continue
		}
		a.ratios = append(a.ratios, b/m)
	}
	var out []Speedup
	for _, o := range order {
		var v, t string
		for i := range len(o) {
			if o[i] == 0 {
				v, t = o[:i], o[i+1:]
				break
			}
		}
		a := accs[[2]string{v, t}]
		sp := Speedup{Variant: v, Task: t, Instances: len(a.ratios), GeoMean: math.NaN(), Min: math.NaN(), Max: math.NaN()}
		if len(a.ratios) > 0 {
			sp.GeoMean = stat.GeometricMean(a.ratios, nil)
			sp.Min, sp.Max = slices.Min(a.ratios), slices.Max(a.ratios)
		}
		out = append(out, sp)
	}
	return out, nil
}

func variantsOf(sums []Summary) []string {
	return distinct(sums, func(s Summary) string { return s.Variant })
}

func quoteList(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += strconv.Quote(x)
	}
	return out
}
