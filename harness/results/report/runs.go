package report

import (
	"strconv"

	"github.com/boardsat/boardsat/harness/results"
)

// Outcome names what became of a run: its status, or "refused" for a
// request the backend refused and "not run" for a row of a ladder stopped
// before it (both are recorded as status error).
func Outcome(r results.Row) string {
	switch {
	case r.NotRun():
		return "not run"
	case r.Refused():
		return "refused"
	}
	return r.Status
}

// RunsTable lays out every run, one row each, in file order: its CPU
// (user + sys of the process tree), wall-clock and solver seconds, peak
// memory, outcome, answer, the limit that ended it and its message, side
// by side.
func RunsTable(rows []results.Row) Table {
	t := Table{
		Title: "Every run: CPU seconds (user + sys of the run's process tree), wall-clock seconds, the solver's own seconds, peak memory",
		Header: []string{"instance", "variant", "task", "rep", "status", "answer", "cpu_s", "wall_s", "solver_s", "maxrss_kb",
			"limit", "message"},
		Numeric: []bool{false, false, false, true, false, true, true, true, true, true, false, false},
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.Instance, r.Variant, r.Task, strconv.Itoa(r.Rep), Outcome(r), r.AnswerString(),
			fmtSec(r.User + r.Sys), fmtSec(r.Seconds), fmtSec(r.SolverSeconds), strconv.FormatInt(r.MaxRSSKB, 10),
			r.Limit, r.Message})
	}
	return t
}
