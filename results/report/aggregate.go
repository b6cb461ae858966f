package report

import (
	"github.com/boardsat/boardsat/results"
	"math"
	"slices"
	"sort"
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

// runTime returns the time a run is scored by, and the limit it ran under:
// CPU seconds (user + sys of the whole tree) against the CPU limit when the
// run had one (the competitions' rule), else wall seconds against the wall
// limit. The limit is 0 when the row does not record it.
func runTime(r results.Row) (t, limit float64) {
	if r.CPULimit > 0 {
		return r.User + r.Sys, r.CPULimit
	}
	return r.Seconds, r.WallLimit
}

// PARScore is the PAR-k score of a group of runs: the mean over the runs of
// the run's time when solved, else k times its limit. Runs without a
// recorded limit (files of an earlier schema) count unsolved ones at k times
// the largest time of the group. NaN for no runs.
func PARScore(runs []results.Row, k float64) float64 {
	if len(runs) == 0 {
		return math.NaN()
	}
	fallback := 0.0
	for _, r := range runs {
		t, _ := runTime(r)
		fallback = max(fallback, t)
	}
	sum := 0.0
	for _, r := range runs {
		t, limit := runTime(r)
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

// Score sums up one variant on one task over the task's instances (every
// instance of that task in the results, whichever variant ran it), as SAT
// and CP papers do. An instance counts as solved by the variant when more
// than half of its runs of it were solved; its time is then the median
// scored time of the solved runs (see runTime).
type Score struct {
	Task, Variant string
	// Solved of Instances.
	Solved, Instances int
	// PAR is the mean over the instances of the variant's PAR-k score on
	// each (an instance it never ran counts as unsolved at k times the
	// task's largest limit).
	PAR float64
	// Unique counts the instances only this variant solved; Best those on
	// which it matched the virtual best solver's time (ties count for
	// each); Contribution is Best over the instances the VBS solved.
	Unique, Best int
	Contribution float64
}

// VBS is the virtual best solver of one task: per instance, the fastest
// variant that solved it.
type VBS struct {
	Task              string
	Solved, Instances int
	// PAR is the PAR-k score of the best time per instance.
	PAR float64
	// Times are the best times of the solved instances, ascending.
	Times []float64
}

// Win counts, on one task, the instances where Variant beat Versus: solved
// it when Versus did not, or solved both faster. Ties are instances both
// solved in equal time, or neither solved.
type Win struct {
	Task, Variant, Versus string
	Wins, Losses, Ties    int
}

// cell is one variant's result on one instance.
type cell struct {
	solved bool
	time   float64 // median scored time of the solved runs
	par    float64
}

// Aggregates are the per-task scores of every variant, the VBS and the
// pairwise wins.
type Aggregates struct {
	Scores []Score
	VBS    []VBS
	Wins   []Win
}

// taskTable holds the cells of one task: instance -> variant -> cell.
type taskTable struct {
	task      string
	instances []string
	variants  []string
	cells     map[string]map[string]cell
	limit     float64 // the largest limit of the task's runs
}

// tables groups rows by task, in order of first appearance.
func tables(rows []results.Row, k float64) []*taskTable {
	var out []*taskTable
	byTask := map[string]*taskTable{}
	groups := map[[3]string][]results.Row{}
	var order [][3]string
	for _, r := range rows {
		tt := byTask[r.Task]
		if tt == nil {
			tt = &taskTable{task: r.Task, cells: map[string]map[string]cell{}}
			byTask[r.Task] = tt
			out = append(out, tt)
		}
		if !slices.Contains(tt.instances, r.Instance) {
			tt.instances = append(tt.instances, r.Instance)
		}
		if !slices.Contains(tt.variants, r.Variant) {
			tt.variants = append(tt.variants, r.Variant)
		}
		_, limit := runTime(r)
		tt.limit = max(tt.limit, limit)
		key := [3]string{r.Task, r.Instance, r.Variant}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], r)
	}
	for _, key := range order {
		g := groups[key]
		var times []float64
		for _, r := range g {
			if r.Solved() {
				t, _ := runTime(r)
				times = append(times, t)
			}
		}
		c := cell{solved: 2*len(times) > len(g), time: median(times), par: PARScore(g, k)}
		tt := byTask[key[0]]
		if tt.cells[key[1]] == nil {
			tt.cells[key[1]] = map[string]cell{}
		}
		tt.cells[key[1]][key[2]] = c
	}
	return out
}

// Aggregate computes the scores, VBS and pairwise wins of every task with
// PAR-k (k = DefaultPAR for PAR-2).
func Aggregate(rows []results.Row, k float64) Aggregates {
	var a Aggregates
	for _, tt := range tables(rows, k) {
		unran := k * tt.limit
		vbs := VBS{Task: tt.task, Instances: len(tt.instances)}
		best := map[string]float64{}
		parSum := 0.0
		for _, in := range tt.instances {
			b := math.Inf(1)
			for _, v := range tt.variants {
				if c, ok := tt.cells[in][v]; ok && c.solved {
					b = min(b, c.time)
				}
			}
			if math.IsInf(b, 1) {
				parSum += unran
				continue
			}
			best[in] = b
			vbs.Solved++
			vbs.Times = append(vbs.Times, b)
			parSum += b
		}
		sort.Float64s(vbs.Times)
		vbs.PAR = parSum / float64(max(len(tt.instances), 1))
		a.VBS = append(a.VBS, vbs)
		for _, v := range tt.variants {
			s := Score{Task: tt.task, Variant: v, Instances: len(tt.instances)}
			sum := 0.0
			for _, in := range tt.instances {
				c, ok := tt.cells[in][v]
				if !ok {
					sum += unran
					continue
				}
				sum += c.par
				if !c.solved {
					continue
				}
				s.Solved++
				if c.time == best[in] {
					s.Best++
				}
				others := 0
				for _, u := range tt.variants {
					if cu, ok := tt.cells[in][u]; ok && cu.solved && u != v {
						others++
					}
				}
				if others == 0 {
					s.Unique++
				}
			}
			s.PAR = sum / float64(max(len(tt.instances), 1))
			if vbs.Solved > 0 {
				s.Contribution = float64(s.Best) / float64(vbs.Solved)
			}
			a.Scores = append(a.Scores, s)
		}
		for i, v := range tt.variants {
			for _, u := range tt.variants[i+1:] {
				w := Win{Task: tt.task, Variant: v, Versus: u}
				for _, in := range tt.instances {
					cv, cu := tt.cells[in][v], tt.cells[in][u]
					switch {
					case cv.solved && (!cu.solved || cv.time < cu.time):
						w.Wins++
					case cu.solved && (!cv.solved || cu.time < cv.time):
						w.Losses++
					default:
						w.Ties++
					}
				}
				a.Wins = append(a.Wins, w)
			}
		}
	}
	return a
}
