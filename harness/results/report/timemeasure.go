package report

import (
	"fmt"
	"slices"

	"github.com/boardsat/boardsat/harness/results"
)

// The time measures a report can be made of, one for every table, score
// and figure of a document (--time):
//   - solver: the seconds the solving process measured itself
//     (solver_seconds: encoding and search, without process start-up,
//     which is most of the CPU and wall time of a small instance);
//   - cpu: user + sys seconds of the run's whole process tree;
//   - wall: wall-clock seconds of the whole child process.
const (
	TimeSolver = "solver"
	TimeCPU    = "cpu"
	TimeWall   = "wall"
)

// TimeKinds lists the time measures, the default first.
var TimeKinds = []string{TimeSolver, TimeCPU, TimeWall}

// DefaultTime is the measure of results summarize, table and plot when
// --time is not given: the same for all three, so that a table and a
// figure made with their defaults show the same seconds.
const DefaultTime = TimeSolver

// CheckTime reports an unknown time measure.
func CheckTime(time string) error {
	if !slices.Contains(TimeKinds, time) {
		return fmt.Errorf("unknown --time %q: want solver, cpu or wall", time)
	}
	return nil
}

// TimeName names a measure's seconds for captions, headers and axes.
func TimeName(time string) string {
	switch time {
	case TimeCPU:
		return "CPU seconds"
	case TimeWall:
		return "wall-clock seconds"
	}
	return "solver seconds"
}

// runTime returns a run's seconds in the time measure, and the limit it
// ran under: the CPU limit when the run had one (the competitions' rule),
// else the wall limit; 0 when the row does not record it. An unsolved run
// is scored at a multiple of that limit whatever the measure.
func runTime(r results.Row, time string) (t, limit float64) {
	switch time {
	case TimeCPU:
		t = r.User + r.Sys
	case TimeWall:
		t = r.Seconds
	default:
		t = r.SolverSeconds
	}
	if r.CPULimit > 0 {
		return t, r.CPULimit
	}
	return t, r.WallLimit
}

// medianOf returns a summary's median time of the solved runs in the time
// measure (NaN when none was solved).
func medianOf(s Summary, time string) float64 {
	switch time {
	case TimeCPU:
		return s.CPUMedian
	case TimeWall:
		return s.WallMedian
	}
	return s.SolverMedian
}
