package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/boardsat/boardsat/harness/results"
)

// The measures of a pivot table and of the scores: the median seconds of
// the solved runs, PAR-k, and the number of solved runs.
const (
	MeasureMedian = "median"
	MeasurePAR2   = "par2"
	MeasureSolved = "solved"
)

// Measures lists the measures a pivot table shows (--measure).
var Measures = []string{MeasureMedian, MeasurePAR2, MeasureSolved}

// DefaultPAR is the penalty factor of PAR scores: PAR-2, as in the SAT
// competitions.
const DefaultPAR = 2

// PARScore is the PAR-k score of a group of runs in the time measure: the
// mean over the runs of the run's time when solved, else k times its
// limit in that same measure (see runTime: the CPU limit for CPU seconds,
// the wall limit for wall and solver seconds). Runs without a limit in
// the measure (CPU seconds of runs under a wall limit alone, files of an
// earlier schema) count unsolved ones at k times the largest time of the
// group in the measure.
// Runs that were not run or were refused have no score: they are left out,
// and a group of only those (or of none) scores NaN.
func PARScore(runs []results.Row, k float64, time string) float64 {
	runs = attempted(runs)
	if len(runs) == 0 {
		return math.NaN()
	}
	fallback := 0.0
	for _, r := range runs {
		t, _ := runTime(r, time)
		fallback = max(fallback, t)
	}
	sum := 0.0
	for _, r := range runs {
		t, limit := runTime(r, time)
		switch {
		case r.Solved():
			sum += t
		case limit > 0:
			sum += k * limit
		default:
			sum += k * fallback
		}
	}
	return sum / float64(len(runs))
}

// attempted returns the runs of g that ran the instance: not the rows of a
// stopped ladder, nor requests the backend refused (it cannot run them).
func attempted(g []results.Row) []results.Row {
	var out []results.Row
	for _, r := range g {
		if !r.NotRun() && !r.Refused() {
			out = append(out, r)
		}
	}
	return out
}

// Score sums up one variant on one puzzle and task, never over another
// puzzle's instances, and compares it with the others over the same
// instances: Solved, PAR, Unique, Best and Contribution are over the
// Common instances, those every variant of the puzzle and task ran, so
// that a variant that ran fewer instances (a ladder stopped earlier, a
// request refused) is neither favoured nor penalised for them; Ran and
// SolvedRan say what it did on all it ran. An instance counts as solved
// by the variant when more than half of its runs of it were solved; its
// time is then the median time of the solved runs in the time measure,
// and its score on the instance the mean PAR-k of its runs (PARScore).
type Score struct {
	Puzzle, Task, Variant string
	// Solved of the Common instances; SolvedRan of the Ran instances it
	// ran; NotRun of the Instances of the puzzle and task (any variant's)
	// the variant did not run.
	Solved, Common, SolvedRan, Ran, NotRun, Instances int
	// PAR is the mean over the Common instances of the variant's PAR-k
	// score on each; NaN when there are none.
	PAR float64
	// Unique counts the Common instances only this variant solved; Best
	// those on which its score is the virtual best solver's (ties count
	// for each); Contribution is Best over the instances the VBS solved.
	Unique, Best int
	Contribution float64
}

// VBS is the virtual best solver of one puzzle and task over the
// instances every variant ran: per instance, the best score of any
// variant, by the statistic the variants are scored by (the mean PAR-k of
// a variant's runs on it), so that the VBS is never worse than a variant
// on any instance nor in aggregate.
type VBS struct {
	Puzzle, Task string
	// Solved of Instances: those any variant solved, of the Common ones.
	Solved, Instances int
	// PAR is the mean over the instances of the best score (NaN when none).
	PAR float64
	// Times are the best scores of the solved instances, ascending.
	Times []float64
}

// Win counts, on one puzzle and task, over the instances both variants
// ran, those where Variant beat Versus: solved it when Versus did not, or
// solved both faster. Ties are instances both solved in equal time, or
// neither solved.
type Win struct {
	Puzzle, Task, Variant, Versus string
	Wins, Losses, Ties            int
}

// cell is one variant's result on one instance.
type cell struct {
	ran    bool    // some run attempted it (see attempted)
	solved bool    // more than half the attempted runs solved it
	time   float64 // median time of the solved runs
	par    float64
}

// Aggregates are the scores of every variant per puzzle and task, the VBS
// and the pairwise wins, in one time measure.
type Aggregates struct {
	Time   string
	Scores []Score
	VBS    []VBS
	Wins   []Win
}

// taskTable holds the cells of one puzzle and task: instance -> variant ->
// cell.
type taskTable struct {
	puzzle, task string
	instances    []string
	variants     []string
	cells        map[string]map[string]cell
}

// tables groups rows by puzzle and task, in order of first appearance,
// times in the time measure.
func tables(rows []results.Row, k float64, time string) []*taskTable {
	type group struct{ puzzle, task, instance, variant string }
	var out []*taskTable
	byTask := map[[2]string]*taskTable{}
	groups := map[group][]results.Row{}
	var order []group
	for _, r := range rows {
		tk := [2]string{r.Puzzle, r.Task}
		tt := byTask[tk]
		if tt == nil {
			tt = &taskTable{puzzle: r.Puzzle, task: r.Task, cells: map[string]map[string]cell{}}
			byTask[tk] = tt
			out = append(out, tt)
		}
		if !slices.Contains(tt.instances, r.Instance) {
			tt.instances = append(tt.instances, r.Instance)
		}
		if !slices.Contains(tt.variants, r.Variant) {
			tt.variants = append(tt.variants, r.Variant)
		}
		key := group{r.Puzzle, r.Task, r.Instance, r.Variant}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], r)
	}
	for _, key := range order {
		g := attempted(groups[key])
		var times []float64
		for _, r := range g {
			if r.Solved() {
				t, _ := runTime(r, time)
				times = append(times, t)
			}
		}
		c := cell{ran: len(g) > 0, solved: 2*len(times) > len(g), time: median(times), par: PARScore(g, k, time)}
		tt := byTask[[2]string{key.puzzle, key.task}]
		if tt.cells[key.instance] == nil {
			tt.cells[key.instance] = map[string]cell{}
		}
		tt.cells[key.instance][key.variant] = c
	}
	return out
}

// Aggregate computes the scores, VBS and pairwise wins of every puzzle and
// task with PAR-k (k = DefaultPAR for PAR-2), times in the time measure
// (see TimeKinds). Scores and the VBS are over the instances every variant
// of the puzzle and task ran (see Score); the wins over those both of a
// pair ran.
func Aggregate(rows []results.Row, k float64, time string) Aggregates {
	a := Aggregates{Time: time}
	for _, tt := range tables(rows, k, time) {
		common := tt.common()
		vbs, best := tt.vbs(common)
		a.VBS = append(a.VBS, vbs)
		for _, v := range tt.variants {
			a.Scores = append(a.Scores, tt.score(v, common, best, vbs.Solved))
		}
		a.Wins = append(a.Wins, tt.wins()...)
	}
	return a
}

// common returns the instances every variant of the table ran, in order.
func (tt *taskTable) common() []string {
	var out []string
	for _, in := range tt.instances {
		all := true
		for _, v := range tt.variants {
			all = all && tt.cells[in][v].ran
		}
		if all {
			out = append(out, in)
		}
	}
	return out
}

// vbs returns the virtual best solver over the instances, and its score
// on each.
func (tt *taskTable) vbs(instances []string) (VBS, map[string]float64) {
	vbs := VBS{Puzzle: tt.puzzle, Task: tt.task, Instances: len(instances), PAR: math.NaN()}
	best := map[string]float64{}
	sum := 0.0
	for _, in := range instances {
		b, solved := math.Inf(1), false
		for _, v := range tt.variants {
			c := tt.cells[in][v]
			b, solved = min(b, c.par), solved || c.solved
		}
		best[in] = b
		sum += b
		if solved {
			vbs.Solved++
			vbs.Times = append(vbs.Times, b)
		}
	}
	sort.Float64s(vbs.Times)
	if len(instances) > 0 {
		vbs.PAR = sum / float64(len(instances))
	}
	return vbs, best
}

// score sums up variant v over the common instances (best: the VBS's
// score on each; vbsSolved: how many the VBS solved) and over all it ran.
func (tt *taskTable) score(v string, common []string, best map[string]float64, vbsSolved int) Score {
	s := Score{Puzzle: tt.puzzle, Task: tt.task, Variant: v, Instances: len(tt.instances), Common: len(common), PAR: math.NaN()}
	for _, in := range tt.instances {
		switch c := tt.cells[in][v]; {
		case !c.ran:
			s.NotRun++
		case c.solved:
			s.Ran++
			s.SolvedRan++
		default:
			s.Ran++
		}
	}
	sum := 0.0
	for _, in := range common {
		c := tt.cells[in][v]
		sum += c.par
		if !c.solved {
			continue
		}
		s.Solved++
		if c.par == best[in] {
			s.Best++
		}
		others := 0
		for _, u := range tt.variants {
			if u != v && tt.cells[in][u].solved {
				others++
			}
		}
		if others == 0 {
			s.Unique++
		}
	}
	if len(common) > 0 {
		s.PAR = sum / float64(len(common))
	}
	if vbsSolved > 0 {
		s.Contribution = float64(s.Best) / float64(vbsSolved)
	}
	return s
}

// wins returns the pairwise wins of every two variants of the table.
func (tt *taskTable) wins() []Win {
	var out []Win
	for i, v := range tt.variants {
		for _, u := range tt.variants[i+1:] {
			w := Win{Puzzle: tt.puzzle, Task: tt.task, Variant: v, Versus: u}
			for _, in := range tt.instances {
				cv, cu := tt.cells[in][v], tt.cells[in][u]
				switch {
				case !cv.ran || !cu.ran:
					// Not a contest: one of them did not run it.
				case cv.solved && (!cu.solved || cv.time < cu.time):
					w.Wins++
				case cu.solved && (!cv.solved || cu.time < cv.time):
					w.Losses++
				default:
					w.Ties++
				}
			}
			out = append(out, w)
		}
	}
	return out
}

// CommonNotes says, per puzzle and task where some variant did not run
// every instance, over which instances the scores are and which variants
// ran fewer: "dominate optimum: scored over the 4 instances every variant
// ran, of 7; ran fewer: cp/gecode 4 of 7".
func (a Aggregates) CommonNotes() []string {
	var out []string
	for _, v := range a.VBS {
		var fewer []string
		for _, s := range a.Scores {
			if s.Puzzle == v.Puzzle && s.Task == v.Task && s.Ran < s.Instances {
				fewer = append(fewer, fmt.Sprintf("%s %d of %d", s.Variant, s.Ran, s.Instances))
			}
		}
		if len(fewer) > 0 {
			out = append(out, fmt.Sprintf("%s %s: scored over the %d instances every variant ran, of %d; ran fewer: %s",
				v.Puzzle, v.Task, v.Instances, v.Instances+countLeft(a, v), strings.Join(fewer, ", ")))
		}
	}
	return out
}

// countLeft returns how many instances of the VBS's puzzle and task are
// not common to every variant.
func countLeft(a Aggregates, v VBS) int {
	for _, s := range a.Scores {
		if s.Puzzle == v.Puzzle && s.Task == v.Task {
			return s.Instances - s.Common
		}
	}
	return 0
}
