package report

import (
	"slices"
	"strconv"

	"github.com/boardsat/boardsat/harness/results"
)

// OptimisationTasks are the tasks that ask for a best value (a shortest
// plan, an optimum): their runs are also reported in the MiniZinc
// Challenge's statuses (OptStatus).
var OptimisationTasks = []string{"shortest", "optimum"}

// The MiniZinc Challenge's statuses of an optimisation run, and the one
// it has no name for.
const (
	OptOPT     = "OPT"     // optimal value found and proved: boardsat ok
	OptUNSAT   = "UNSAT"   // proved to have no solution: boardsat unsat
	OptSAT     = "SAT"     // a solution, its optimality not proved: a timeout, memout or error that still reported an answer
	OptUNKNOWN = "UNKNOWN" // nothing found nor proved: a timeout, memout or error without an answer
	OptWRONG   = "WRONG"   // an answer that disagrees with the reference: boardsat wrong (the challenge scores it as an error)
)

// OptStatuses lists them in table order.
var OptStatuses = []string{OptOPT, OptSAT, OptUNSAT, OptUNKNOWN, OptWRONG}

// OptStatus returns the MiniZinc Challenge status of a run of an
// optimisation task (see the Opt* constants for the mapping), or "" for a
// run that was refused or not run (it is not an attempt).
func OptStatus(r results.Row) string {
	switch {
	case r.NotRun() || r.Refused():
		return ""
	case r.Status == results.StatusOK:
		return OptOPT
	case r.Status == results.StatusUnsat:
		return OptUNSAT
	case r.Status == results.StatusWrong:
		return OptWRONG
	case r.AnswerString() != "":
		return OptSAT
	}
	return OptUNKNOWN
}

// OptStatusTable counts, per puzzle, optimisation task and variant, the
// runs in each MiniZinc Challenge status, and those refused or not run; it
// has no rows when the rows hold no optimisation task.
func OptStatusTable(rows []results.Row) Table {
	t := Table{
		Title: "Optimisation runs by MiniZinc Challenge status (OPT: boardsat ok; UNSAT: unsat; SAT: a timeout, memout or error with an answer; " +
			"UNKNOWN: one without; WRONG: wrong)",
		Header:  []string{"puzzle", "task", "variant", "runs", "OPT", "SAT", "UNSAT", "UNKNOWN", "WRONG", "not_attempted"},
		Numeric: []bool{false, false, false, true, true, true, true, true, true, true},
	}
	type key struct{ puzzle, task, variant string }
	var order []key
	counts := map[key]map[string]int{}
	for _, r := range rows {
		if !slices.Contains(OptimisationTasks, r.Task) {
			continue
		}
		k := key{r.Puzzle, r.Task, r.Variant}
		if counts[k] == nil {
			counts[k] = map[string]int{}
			order = append(order, k)
		}
		counts[k][OptStatus(r)]++
		counts[k]["runs"]++
	}
	for _, k := range order {
		c := counts[k]
		row := []string{k.puzzle, k.task, k.variant, strconv.Itoa(c["runs"])}
		for _, s := range OptStatuses {
			row = append(row, strconv.Itoa(c[s]))
		}
		t.Rows = append(t.Rows, append(row, strconv.Itoa(c[""])))
	}
	return t
}
