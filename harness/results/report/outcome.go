package report

import (
	"strings"

	"github.com/boardsat/boardsat/harness/results"
)

// The outcomes of a table cell without a value: why no time (or score)
// stands there. Each has its own mark, explained under the table, so that
// one dash never stands for two outcomes.
const (
	OutcomeTimeout = "timeout"
	OutcomeMemout  = "memout"
	OutcomeWrong   = "wrong"
	OutcomeError   = "error"
	OutcomeRefused = "refused"
	// OutcomeNotRun is a run not run: status skipped (a ladder stopped
	// before it; results.Row.NotRun), or no row at all.
	OutcomeNotRun = "not run"
)

// outcomeMarks are the marks of the outcomes, in footnote order, with
// what each means.
var outcomeMarks = []struct{ outcome, mark, meaning string }{
	{OutcomeTimeout, "t/o", "most runs hit the time limit"},
	{OutcomeMemout, "m/o", "most runs hit the memory limit"},
	{OutcomeWrong, "wrong", "most runs gave a wrong answer"},
	{OutcomeError, "err", "most runs failed (the backend or its process)"},
	{OutcomeRefused, "ref", "refused by the backend (beyond its limits)"},
	{OutcomeNotRun, "n/r", "not run (a ladder stopped at a smaller instance, or the variant has no run of it)"},
}

// outcomeMark returns the mark of an outcome.
func outcomeMark(outcome string) string {
	for _, m := range outcomeMarks {
		if m.outcome == outcome {
			return m.mark
		}
	}
	return "?"
}

// outcomeNote explains the marks of the outcomes used, in footnote order,
// as "t/o: most runs hit the time limit; ref: ...".
func outcomeNote(used map[string]bool) string {
	var parts []string
	for _, m := range outcomeMarks {
		if used[m.outcome] {
			parts = append(parts, m.mark+": "+m.meaning)
		}
	}
	return strings.Join(parts, "; ")
}

// cellOutcome says why the runs g of one instance and variant give no
// value: none ran it (every row not run, or no row), every run refused,
// or else the commonest way the attempted runs ended unsolved
// (timeout before memout before wrong before error on a tie).
func cellOutcome(g []results.Row) string {
	count := map[string]int{}
	for _, r := range g {
		switch {
		case r.NotRun():
			count[OutcomeNotRun]++
		case r.Refused():
			count[OutcomeRefused]++
		case !r.Solved():
			count[r.Status]++
		}
	}
	best, n := OutcomeNotRun, 0
	for _, o := range []string{OutcomeTimeout, OutcomeMemout, OutcomeWrong, OutcomeError} {
		if count[o] > n {
			best, n = o, count[o]
		}
	}
	if n > 0 {
		return best
	}
	for _, o := range []string{OutcomeRefused} {
		if count[o] > 0 {
			return o
		}
	}
	return OutcomeNotRun
}
