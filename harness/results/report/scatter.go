package report

import (
	"fmt"
	"image/color"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// pairPoint is one instance's times under two variants; a time of an
// unsolved instance is the limit.
type pairPoint struct {
	puzzle, task string
	x, y         float64
	unsolved     bool
}

// pairPoints returns, for every instance and task both variants ran, its
// two times (solved: the median; unsolved: limit), and limit, the largest
// limit of the two variants' runs in the time measure (see LimitName).
// bound is false when no run recorded a limit in that measure: limit is
// then the power of ten at or above twice the largest time plotted, a
// line that stands for "not solved", not a limit. A solved time is never
// moved to the limit: it is drawn where it was measured.
func pairPoints(sums []Summary, xVariant, yVariant, time string) (pts []pairPoint, limit float64, bound bool) {
	type it struct{ instance, task string }
	xs := map[it]Summary{}
	top := TimeFloor
	for _, s := range sums {
		if s.Variant == xVariant || s.Variant == yVariant {
			limit = max(limit, s.Limit)
			if s.Solved > 0 {
				top = max(top, seconds(s, time))
			}
		}
		if s.Variant == xVariant {
			xs[it{s.Instance, s.Task}] = s
		}
	}
	bound = limit > 0
	if !bound {
		// No limit recorded: the decade above twice the slowest time.
		_, limit = decades(2*top, 2*top)
	}
	at := func(s Summary) float64 {
		if s.Solved == 0 {
			return limit
		}
		return seconds(s, time)
	}
	for _, s := range sums {
		if s.Variant != yVariant {
			continue
		}
		x, ok := xs[it{s.Instance, s.Task}]
		if !ok {
			continue
		}
		pts = append(pts, pairPoint{puzzle: s.Puzzle, task: s.Task, x: at(x), y: at(s), unsolved: x.Solved == 0 || s.Solved == 0})
	}
	return pts, limit, bound
}

// Scatter draws one square panel: one point per instance and task both
// variants ran, at (median time of x, median time of y), on log-log axes
// with the diagonal, the 2x and 10x lines and the limit of the time
// measure (see LimitName; "not solved" when the runs had no limit in that
// measure). An instance a variant did not solve is drawn on the limit line
// (never dropped) as a cross, a marker no puzzle uses; a solved one is
// drawn at its own time, never on the limit. Points below the diagonal
// are instances where y is faster. Each puzzle has its own marker shape
// and colour (puzzleMarks); the title counts the tasks' points.
func Scatter(sums []Summary, xVariant, yVariant, time string) (*Figure, error) {
	if err := CheckTime(time); err != nil {
		return nil, err
	}
	pts, limit, bound := pairPoints(sums, xVariant, yVariant, time)
	if len(pts) == 0 {
		return nil, fmt.Errorf("variants %q and %q ran no instance in common", xVariant, yVariant)
	}
	lo, hi := limit, limit
	for _, q := range pts {
		lo, hi = min(lo, q.x, q.y), max(hi, q.x, q.y)
	}
	// The axes end at the limit, where the unsolved instances are.
	lo, _ = decades(lo, limit)
	var puzzles, tasks []string
	solved := 0
	for _, q := range pts {
		if !slices.Contains(puzzles, q.puzzle) {
			puzzles = append(puzzles, q.puzzle)
		}
		if !slices.Contains(tasks, q.task) {
			tasks = append(tasks, q.task)
		}
		if !q.unsolved {
			solved++
		}
	}
	if len(puzzles) > len(puzzleMarks) {
		return nil, fmt.Errorf("%d puzzles in one scatter plot, more than its %d markers tell apart: choose some with --puzzle", len(puzzles), len(puzzleMarks))
	}
	f := &Figure{Cols: 1, square: true}
	p := plot.New()
	taskWord := "task " + tasks[0]
	if len(tasks) > 1 {
		taskWord = fmt.Sprintf("%d tasks", len(tasks))
	}
	p.Title.Text = fmt.Sprintf("%s: %d of %d both solved (log-log)", taskWord, solved, len(pts))
	// The y axis is labelled by the figure, at its left (yLabel): gonum
	// leaves a gap under the title of a panel with a vertical label.
	unit := strings.TrimSuffix(TimeName(time), " seconds") + " s"
	p.X.Label.Text = xVariant + " (" + unit + ")"
	f.yLabel = yVariant + " (" + unit + ")"
	styleText(p)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Scale = plot.LogScale{}
		a.Tick.Marker = floorTicks{limit: hi}
	}
	p.Add(plotter.NewGrid())
	if err := scatterGuides(f, p, lo, hi, limit, bound, time); err != nil {
		return nil, err
	}
	if err := scatterPoints(f, p, pts, puzzles); err != nil {
		return nil, err
	}
	// The range last: adding a line widens the axes to hold it (the
	// 10x lines would run them a decade past the limit).
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi
	f.Panels = append(f.Panels, p)
	return f, nil
}

// scatterGuides adds the reference lines of a scatter panel over [lo, hi]
// (equal time, 2x and 10x) and the limit line at limit, with their legend
// entries: "CPU limit 2 s" when bound, else "not solved (no CPU limit)".
func scatterGuides(f *Figure, p *plot.Plot, lo, hi, limit float64, bound bool, time string) error {
	refs := []struct {
		label  string
		factor float64
		dashes []vg.Length
		gray   uint8
	}{
		{"y = x (equal time)", 1, []vg.Length{vg.Points(4), vg.Points(4)}, 90},
		{"2× faster or slower", 2, dotted, 140},
		{"10× faster or slower", 10, dashdot, 170},
	}
	for _, r := range refs {
		for _, k := range []float64{r.factor, 1 / r.factor} {
			l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo * k}, {X: hi, Y: hi * k}})
			if err != nil {
				return err
			}
			l.Color, l.Dashes = color.Gray{Y: r.gray}, r.dashes
			p.Add(l)
			if k >= 1 {
				f.addEntry(r.label, l)
			}
			if k == 1 {
				break
			}
		}
	}
	lim, err := plotter.NewLine(plotter.XYs{{X: lo, Y: limit}, {X: limit, Y: limit}, {X: limit, Y: lo}})
	if err != nil {
		return err
	}
	lim.Color, lim.Width = palette[1], vg.Points(1)
	p.Add(lim)
	f.addEntry(limitLabel(limit, bound, time), lim)
	return nil
}

// limitLabel names the limit line of a figure in the time measure: "CPU
// limit 2 s", or "not solved (no CPU limit)" when the runs had no limit
// in that measure.
func limitLabel(limit float64, bound bool, time string) string {
	if !bound {
		return "not solved (no " + LimitName(time) + ")"
	}
	return fmt.Sprintf("%s %s s", LimitName(time), fmtSec(limit))
}

// scatterPoints adds the points of a scatter panel, one marker per
// puzzle, the unsolved ones as crosses on the limit.
func scatterPoints(f *Figure, p *plot.Plot, pts []pairPoint, puzzles []string) error {
	var crosses []*plotter.Scatter
	for i, pz := range puzzles {
		var xy, out plotter.XYs
		for _, q := range pts {
			if q.puzzle != pz {
				continue
			}
			if q.unsolved {
				out = append(out, plotter.XY{X: q.x, Y: q.y})
			} else {
				xy = append(xy, plotter.XY{X: q.x, Y: q.y})
			}
		}
		m := puzzleMarks[i]
		if len(xy) > 0 {
			sc, err := plotter.NewScatter(xy)
			if err != nil {
				return err
			}
			sc.Color, sc.Shape, sc.Radius = m.color, m.glyph, vg.Points(markerPt)
			p.Add(sc)
			f.addEntry(pz, sc)
		}
		if len(out) > 0 {
			sc, err := plotter.NewScatter(out)
			if err != nil {
				return err
			}
			sc.Color, sc.Shape, sc.Radius = m.color, unsolvedGlyph, vg.Points(markerPt)
			p.Add(sc)
			crosses = append(crosses, sc)
		}
	}
	if len(crosses) > 0 {
		sc, _ := plotter.NewScatter(plotter.XYs{{}})
		sc.Color, sc.Shape, sc.Radius = color.Black, unsolvedGlyph, vg.Points(markerPt)
		f.addEntry("not solved by one (on the limit)", sc)
	}
	return nil
}

// ECDF draws one panel: per task, a line of the empirical distribution
// of the runtime ratio y / x over the instances both variants solved: the
// fraction of instances (y axis) whose ratio is at most r (x axis, log).
// Left of 1, y is faster. Tasks differ in colour and line pattern.
func ECDF(sums []Summary, xVariant, yVariant, time string) (*Figure, error) {
	if err := CheckTime(time); err != nil {
		return nil, err
	}
	pts, _, _ := pairPoints(sums, xVariant, yVariant, time)
	var tasks []string
	ratios := map[string][]float64{}
	lo, hi := 1.0, 1.0
	for _, q := range pts {
		if q.unsolved {
			continue
		}
		if !slices.Contains(tasks, q.task) {
			tasks = append(tasks, q.task)
		}
		r := q.y / q.x
		ratios[q.task] = append(ratios[q.task], r)
		lo, hi = min(lo, r), max(hi, r)
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("variants %q and %q solved no instance in common", xVariant, yVariant)
	}
	lo, hi = decades(lo, hi)
	f := &Figure{Cols: 1}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s / %s", yVariant, xVariant)
	p.X.Label.Text = "time ratio (" + TimeName(time) + ", log)"
	p.Y.Label.Text = "fraction of instances"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = floorTicks{ratio: true}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, 0, 1
	styleText(p)
	one, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, err
	}
	one.Color, one.Dashes = color.Gray{Y: 110}, []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(plotter.NewGrid(), one)
	f.addEntry("ratio 1 (equal time)", one)
	patterns := [][]vg.Length{solid, dashed, dotted, dashdot}
	for i, task := range tasks {
		rs := ratios[task]
		sort.Float64s(rs)
		xy := plotter.XYs{{X: lo, Y: 0}}
		for k, r := range rs {
			xy = append(xy, plotter.XY{X: r, Y: float64(k+1) / float64(len(rs))})
		}
		xy = append(xy, plotter.XY{X: hi, Y: 1})
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.StepStyle = plotter.PostStep
		l.Color, l.Width, l.Dashes = palette[i%len(palette)], vg.Points(1.5), patterns[i%len(patterns)]
		p.Add(l)
		f.addEntry(fmt.Sprintf("task %s: %d both solved", task, len(rs)), l)
	}
	f.Panels = append(f.Panels, p)
	return f, nil
}

// ScatterPair picks two variants for a default scatter plot: the pair that
// solved the most instances in common (ties: earliest in the file). ok is
// false when fewer than two variants solved anything in common.
func ScatterPair(sums []Summary) (x, y string, ok bool) {
	vs := variantsOf(sums)
	solved := map[string]map[string]bool{}
	for _, s := range sums {
		if s.Solved > 0 {
			if solved[s.Variant] == nil {
				solved[s.Variant] = map[string]bool{}
			}
			solved[s.Variant][s.Instance+"\x00"+s.Task] = true
		}
	}
	best := 0
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			n := 0
			for k := range solved[vs[i]] {
				if solved[vs[j]][k] {
					n++
				}
			}
			if n > best {
				best, x, y = n, vs[i], vs[j]
			}
		}
	}
	return x, y, best > 0
}
