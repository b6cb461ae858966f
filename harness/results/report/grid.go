package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/boardsat/boardsat/harness/results"
)

// gridTitle says what the cells of a Grid hold, in the time measure.
func gridTitle(time string) string {
	other := map[bool]string{true: "wall", false: "CPU"}[time == TimeCPU]
	return "Median " + TimeName(time) + " per instance, task and variant. \"> L s\": the runs hit the " + LimitName(time) + " L (\"> L s " + other + "\": the " + other + " limit); " +
		"n/r: not run (a ladder stopped at a smaller instance); an empty cell: no run of it; \"refused\": beyond the backend's limits; memout: most runs hit the memory limit; wrong: most runs gave a wrong answer; error: most runs failed; skipped: not attempted; \"(1 run)\", \"(2 of 3)\": fewer runs than the most of any cell, or runs solved of those run"
}

// Grid lays out several tasks side by side, the table a note on methods
// prints: one row per instance (by puzzle, then board size, then first
// appearance), and per task, in order of first appearance, a column with
// the answer of its solved runs and one column per variant that ran it,
// each cell the median time of the solved runs in the time measure,
// "> L s" where most runs hit the limit L, "n/r" where the runs were not run
// (a ladder stopped earlier), and a note where a cell has fewer runs than
// the most of any cell or not every run solved.
func Grid(rows []results.Row, time string) Table {
	type key struct{ task, instance, variant string }
	var tasks, instances []string
	variants := map[string][]string{}
	groups := map[key][]results.Row{}
	first := map[string]int{}
	puzzleOrder := map[string]int{}
	squares := map[string]int{}
	for i, r := range rows {
		if !slices.Contains(tasks, r.Task) {
			tasks = append(tasks, r.Task)
		}
		if _, ok := first[r.Instance]; !ok {
			first[r.Instance] = i
			instances = append(instances, r.Instance)
			squares[r.Instance] = r.Squares
			if _, ok := puzzleOrder[r.Puzzle]; !ok {
				puzzleOrder[r.Puzzle] = len(puzzleOrder)
			}
		}
		if !slices.Contains(variants[r.Task], r.Variant) {
			variants[r.Task] = append(variants[r.Task], r.Variant)
		}
		k := key{r.Task, r.Instance, r.Variant}
		groups[k] = append(groups[k], r)
	}
	puzzleOf := map[string]string{}
	for _, r := range rows {
		puzzleOf[r.Instance] = r.Puzzle
	}
	sort.SliceStable(instances, func(i, j int) bool {
		a, b := instances[i], instances[j]
		if pa, pb := puzzleOrder[puzzleOf[a]], puzzleOrder[puzzleOf[b]]; pa != pb {
			return pa < pb
		}
		if squares[a] != squares[b] {
			return squares[a] < squares[b]
		}
		return first[a] < first[b]
	})
	most := 0
	for _, g := range groups {
		most = max(most, len(ran(g)))
	}
	t := Table{Title: gridTitle(time), Label: "grid", Header: []string{"instance"}, Numeric: []bool{false}}
	for _, task := range tasks {
		t.Header = append(t.Header, task+": answer")
		t.Numeric = append(t.Numeric, true)
		for _, v := range variants[task] {
			t.Header = append(t.Header, task+": "+v)
			t.Numeric = append(t.Numeric, true)
		}
	}
	for _, in := range instances {
		line := []string{in}
		for _, task := range tasks {
			var answers []string
			for _, v := range variants[task] {
				for _, r := range groups[key{task, in, v}] {
					if a := r.AnswerString(); r.Solved() && a != "" && !slices.Contains(answers, a) {
						answers = append(answers, a)
					}
				}
			}
			line = append(line, strings.Join(answers, " / "))
			for _, v := range variants[task] {
				line = append(line, gridCell(groups[key{task, in, v}], most, time))
			}
		}
		t.Rows = append(t.Rows, line)
	}
	return t
}

// ran returns the runs of g that ran (not the rows of a stopped ladder).
func ran(g []results.Row) []results.Row {
	var out []results.Row
	for _, r := range g {
		if !r.NotRun() {
			out = append(out, r)
		}
	}
	return out
}

// gridCell is one cell of Grid: the runs of one instance, task and
// variant; most is the most runs of any cell; times in the time measure.
func gridCell(g []results.Row, most int, time string) string {
	if len(g) == 0 {
		return ""
	}
	runs := ran(g)
	if len(runs) == 0 {
		return outcomeMark(OutcomeNotRun)
	}
	var times []float64
	for _, r := range runs {
		if r.Solved() {
			t, _ := runTime(r, time)
			times = append(times, t)
		}
	}
	solved := len(times)
	if 2*solved > len(runs) {
		c := fmtCell(median(times))
		switch {
		case solved < len(runs):
			c += fmt.Sprintf(" (%d of %d)", solved, len(runs))
		case len(runs) < most && len(runs) == 1:
			c += " (1 run)"
		case len(runs) < most:
			c += fmt.Sprintf(" (%d runs)", len(runs))
		}
		return c
	}
	// The first run that hit a limit says which; else the first unsolved.
	var u results.Row
	for _, r := range runs {
		if !r.Solved() && (u.Status == "" || u.Status != results.StatusTimeout && r.Status == results.StatusTimeout) {
			u = r
		}
	}
	c := u.Status
	switch {
	case u.Status == results.StatusTimeout:
		c = limitCell(u, time)
	case u.Refused():
		c = "refused"
	}
	if solved > 0 {
		c += fmt.Sprintf(" (%d of %d solved)", solved, len(runs))
	}
	return c
}

// limitCell writes the limit a timed-out run hit, in the measure it
// binds: "> L s" when that is the table's measure, else marked with its
// own ("> L s CPU", "> L s wall"), so that a CPU limit is never read
// against wall seconds, nor the other way round; "timeout" when the row
// does not say which limit.
func limitCell(u results.Row, time string) string {
	cpu := u.Limit == results.LimitCPU || u.Limit == "" && u.CPULimit > 0 && u.WallLimit == 0
	switch {
	case cpu && u.CPULimit > 0 && time == TimeCPU:
		return "> " + fmtCell(u.CPULimit) + " s"
	case cpu && u.CPULimit > 0:
		return "> " + fmtCell(u.CPULimit) + " s CPU"
	case !cpu && u.WallLimit > 0 && time != TimeCPU:
		return "> " + fmtCell(u.WallLimit) + " s"
	case !cpu && u.WallLimit > 0:
		return "> " + fmtCell(u.WallLimit) + " s wall"
	}
	return results.StatusTimeout
}

// fmtCell writes seconds for a reader: 3 significant digits (never a
// time of 0.00).
func fmtCell(s float64) string { return sigDigits(s, 3) }
