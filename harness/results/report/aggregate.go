package report

import (
	"math"
	"slices"
	"sort"

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
// limit (see runTime). Runs without a recorded limit (files of an earlier
// schema) count unsolved ones at k times the largest time of the group.
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

// Score sums up one variant on one puzzle and task over the instances it
// ran, as SAT and CP papers do, never over another puzzle's instances: an
// instance of the puzzle and task that other variants ran and this one did
// not (or only refused, or a ladder stopped before) is not run, never
// unsolved. An instance counts as solved by the variant when more than half
// of its runs of it were solved; its time is then the median time of the
// solved runs in the time measure.
type Score struct {
	Puzzle, Task, Variant string
	// Solved of Ran; NotRun of the Instances of the puzzle and task (any
	// variant's) the variant did not run.
	Solved, Ran, NotRun, Instances int
	// PAR is the mean over the instances it ran of the variant's PAR-k
	// score on each; NaN when it ran none.
	PAR float64
	// Unique counts the instances only this variant solved; Best those on
	// which it matched the virtual best solver's time (ties count for
	// each); Contribution is Best over the instances the VBS solved.
	Unique, Best int
	Contribution float64
}

// VBS is the virtual best solver of one puzzle and task: per instance,
// the fastest variant that solved it.
type VBS struct {
	Puzzle, Task      string
	Solved, Instances int
	// PAR is the PAR-k score of the best time per instance (k times the
	// largest limit where no variant solved it).
	PAR float64
	// Times are the best times of the solved instances, ascending.
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
	limit        float64 // the largest limit of the runs
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
		_, limit := runTime(r, time)
		tt.limit = max(tt.limit, limit)
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
// (see TimeKinds).
func Aggregate(rows []results.Row, k float64, time string) Aggregates {
	a := Aggregates{Time: time}
	for _, tt := range tables(rows, k, time) {
		vbs := VBS{Puzzle: tt.puzzle, Task: tt.task, Instances: len(tt.instances)}
		best := map[string]float64{}
		parSum := 0.0
		for _, in := range tt.instances {
			b := math.Inf(1)
			for _, v := range tt.variants {
				if c := tt.cells[in][v]; c.solved {
					b = min(b, c.time)
				}
			}
			if math.IsInf(b, 1) {
				parSum += k * tt.limit
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
			s := Score{Puzzle: tt.puzzle, Task: tt.task, Variant: v, Instances: len(tt.instances)}
			sum := 0.0
			for _, in := range tt.instances {
				c := tt.cells[in][v]
				if !c.ran {
					s.NotRun++
					continue
				}
				s.Ran++
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
					if tt.cells[in][u].solved && u != v {
						others++
					}
				}
				if others == 0 {
					s.Unique++
				}
			}
			s.PAR = math.NaN()
			if s.Ran > 0 {
				s.PAR = sum / float64(s.Ran)
			}
			if vbs.Solved > 0 {
				s.Contribution = float64(s.Best) / float64(vbs.Solved)
			}
			a.Scores = append(a.Scores, s)
		}
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
				a.Wins = append(a.Wins, w)
			}
		}
	}
	return a
}
