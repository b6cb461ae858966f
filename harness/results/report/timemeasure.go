package report

import (
	"fmt"
	"slices"

	"github.com/boardsat/boardsat/harness/results"
)

// The time measures a report can be made of, one for every table, score
// and figure of a document (--time):
//   - cpu: user + sys seconds of the run's whole process tree (workers and
//     external solvers included, process start-up too), as the row records
//     them: what --cpu-limit limits, and what stays stable under load;
//   - wall: wall-clock seconds of the whole child process;
//   - solver: the wall-clock seconds the solving process measured itself
//     (solver_seconds: encoding and search, without process start-up).
//
// The rows record no CPU time without process start-up, so cpu includes
// it (about 10 ms a run here).
const (
	TimeCPU    = "cpu"
	TimeWall   = "wall"
	TimeSolver = "solver"
)

// TimeKinds lists the time measures, the default first.
var TimeKinds = []string{TimeCPU, TimeWall, TimeSolver}

// DefaultTime is the measure of results summarize, table and plot when
// --time is not given: the same for all three, so that a table and a
// figure made with their defaults show the same seconds. It is CPU time,
// the measure the CPU limit binds.
const DefaultTime = TimeCPU

// CheckTime reports an unknown time measure.
func CheckTime(time string) error {
	if !slices.Contains(TimeKinds, time) {
		return fmt.Errorf("unknown --time %q: want cpu, wall or solver", time)
	}
	return nil
}

// TimeName names a measure's seconds for captions, headers and axes.
func TimeName(time string) string {
	switch time {
	case TimeWall:
		return "wall-clock seconds"
	case TimeSolver:
		return "solver seconds"
	}
	return "CPU seconds"
}

// LimitName names the limit that binds a measure: the CPU-time limit
// for cpu, the wall-clock limit for wall and solver (solver seconds are
// wall-clock time inside the run, which the run's wall limit bounds).
func LimitName(time string) string {
	if time == TimeCPU {
		return "CPU limit"
	}
	return "wall-clock limit"
}

// runTime returns a run's seconds in the time measure, and the run's
// limit in that same measure (see LimitName): 0 when the run had none in
// it (a CPU measure of runs under a wall limit only), or the row does not
// record it. A limit of one measure is never applied to seconds of
// another: an unsolved run is scored at a multiple of its own measure's
// limit, and a solved run compared with it.
func runTime(r results.Row, time string) (t, limit float64) {
	switch time {
	case TimeWall:
		return r.Seconds, r.WallLimit
	case TimeSolver:
		return r.SolverSeconds, r.WallLimit
	}
	return r.User + r.Sys, r.CPULimit
}

// medianOf returns a summary's median time of the solved runs in the time
// measure (NaN when none was solved).
func medianOf(s Summary, time string) float64 {
	switch time {
	case TimeWall:
		return s.WallMedian
	case TimeSolver:
		return s.SolverMedian
	}
	return s.CPUMedian
}
