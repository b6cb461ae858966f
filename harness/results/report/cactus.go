package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/puzzle"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// VBSLabel labels the virtual best solver's line of a cactus plot: per
// instance, the fastest variant's median time.
const VBSLabel = "VBS (virtual best)"

// series is one labelled line of a panel.
type series struct {
	label string
	xy    plotter.XYs
	// timedOut marks the instances the variant timed out on, drawn as
	// crosses at the time limit.
	timedOut bool
}

// TimedOutLabel is the legend entry of a scaling figure's crosses.
const TimedOutLabel = "timed out (at the limit)"

// Panel is one facet: the results of one puzzle and one task.
type Panel struct{ Puzzle, Task string }

// Panels returns the distinct (puzzle, task) pairs of the summaries, in
// order of first appearance.
func Panels(sums []Summary) []Panel {
	var out []Panel
	for _, s := range sums {
		p := Panel{s.Puzzle, s.Task}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Puzzles returns the distinct puzzles of the summaries in order of first appearance.
func Puzzles(sums []Summary) []string {
	return distinct(sums, func(s Summary) string { return s.Puzzle })
}

// distinct returns the distinct values of field over xs (summaries or
// rows), in order of first appearance.
func distinct[T any](xs []T, field func(T) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if v := field(x); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// Cactus draws one cactus panel per puzzle and task: for each variant, its
// solved instances sorted by median time, so the point (k, t) says k
// instances were solved within t seconds each, and the virtual best
// solver's line (per instance the fastest variant). Lines further right and
// lower are better. time is one of TimeKinds.
func Cactus(sums []Summary, time string) (*Figure, error) {
	return facets(sums, time, "instances solved", func(p *plot.Plot, sel []Summary) []*series {
		ss := seriesBy(sel, func(s Summary) plotter.XY { return plotter.XY{Y: seconds(s, time)} })
		best := map[string]float64{}
		for _, s := range sel {
			if s.Solved == 0 {
				continue
			}
			if b, ok := best[s.Instance]; !ok || seconds(s, time) < b {
				best[s.Instance] = seconds(s, time)
			}
		}
		if len(ss) > 1 {
			vbs := &series{label: VBSLabel}
			for _, b := range best {
				vbs.xy = append(vbs.xy, plotter.XY{Y: b})
			}
			ss = append(ss, vbs)
		}
		maxX := 0
		for _, se := range ss {
			sort.Slice(se.xy, func(i, j int) bool { return se.xy[i].Y < se.xy[j].Y })
			for i := range se.xy {
				se.xy[i].X = float64(i + 1)
			}
			maxX = max(maxX, len(se.xy))
		}
		p.X.Min, p.X.Max = 0.5, float64(maxX)+0.5
		p.X.Tick.Marker = integerTicks{}
		return ss
	})
}

// Scaling draws one panel per puzzle and task: median time against
// instance size, one line per variant, log y. The x axis is the puzzle's
// own size measure (puzzle.Descriptor.Size: board side, number of
// intervals, path length...), log when it spans a decade or more; the
// instances a variant timed out on are crosses at the time limit.
func Scaling(sums []Summary, time string) (*Figure, error) {
	sizes := map[string]float64{}
	at := map[pointKey]float64{}
	f, err := facets(sums, time, "board squares", func(p *plot.Plot, sel []Summary) []*series {
		name := ""
		size := func(s Summary) float64 {
			v, ok := sizes[s.Instance]
			if !ok {
				v, name = instanceSize(s)
				sizes[s.Instance] = v
			}
			return v
		}
		ss := seriesBy(sel, func(s Summary) plotter.XY { return plotter.XY{X: size(s), Y: seconds(s, time)} })
		out := map[string]*series{}
		for _, s := range sel {
			if s.Solved == 0 && s.Statuses[results.StatusTimeout] > s.NotRun && s.Limit > 0 {
				if out[s.Variant] == nil {
					out[s.Variant] = &series{label: s.Variant, timedOut: true}
					ss = append(ss, out[s.Variant])
				}
				out[s.Variant].xy = append(out[s.Variant].xy, plotter.XY{X: size(s), Y: s.Limit})
			}
		}
		if name == "" && len(sel) > 0 {
			_, name = instanceSize(sel[0])
		}
		p.X.Label.Text = name
		var xs []float64
		for _, se := range ss {
			// Several instances of one size (different pieces, say): keep
			// each point, ordered by size so the line reads left to right.
			sort.SliceStable(se.xy, func(i, j int) bool { return se.xy[i].X < se.xy[j].X })
			for _, q := range se.xy {
				xs = append(xs, q.X)
			}
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		if len(xs) > 0 {
			lo, hi = slices.Min(xs), slices.Max(xs)
		}
		log := lo > 0 && hi >= 10*lo
		d := newDodge(ss, xs, log)
		d.apply(ss)
		for _, s := range sel {
			at[pointKey{s.Puzzle, s.Task, s.Instance, s.Variant}] = d.x(s.Variant, size(s))
		}
		dlo, dhi := d.x(d.first(), lo), d.x(d.last(), hi)
		if log {
			p.X.Scale = plot.LogScale{}
			p.X.Min, p.X.Max = decades(lo, hi)
			p.X.Min, p.X.Max = min(p.X.Min, dlo), max(p.X.Max, dhi)
			p.X.Tick.Marker = floorTicks{ratio: true}
			return ss
		}
		pad := max((hi-lo)*0.05, 1)
		p.X.Min, p.X.Max = min(lo-pad, dlo), max(hi+pad, dhi)
		p.X.Tick.Marker = integerTicks{}
		return ss
	})
	if f != nil {
		f.pointX = at
	}
	return f, err
}

// pointKey names a point of a scaling figure: puzzle, task, instance and
// variant.
type pointKey struct{ puzzle, task, instance, variant string }

// instanceSize is an instance's size in its puzzle's measure, and the
// measure's name; the board's squares when the instance does not parse
// (an intervals file no longer there, say).
func instanceSize(s Summary) (float64, string) {
	if spec, err := puzzle.Parse(s.Instance); err == nil {
		if m := puzzle.Describe(spec).Size; m.Of != nil {
			return m.Of(spec), m.Name
		}
	}
	return float64(s.Squares), "board squares"
}

// seriesBy groups the solved summaries into one series per variant, in
// order of first appearance, with point(s) as each point.
func seriesBy(sel []Summary, point func(Summary) plotter.XY) []*series {
	var ss []*series
	byLabel := map[string]*series{}
	for _, s := range sel {
		if s.Solved == 0 {
			continue
		}
		se := byLabel[s.Variant]
		if se == nil {
			se = &series{label: s.Variant}
			byLabel[s.Variant] = se
			ss = append(ss, se)
		}
		se.xy = append(se.xy, point(s))
	}
	return ss
}

// MinPanelInstances is the fewest instances a cactus or scaling panel
// draws: a puzzle and task with fewer has no curve to read (its numbers
// are in the scores table), and its panel is left out of the figure and
// named in Figure.Left.
const MinPanelInstances = 3

// facets draws one panel per (puzzle, task) of at least MinPanelInstances
// instances with fill adding its series, all panels on one shared log time
// axis range and one legend. The axis fits the data; the time limit is
// its top when it lies within the data's last decade, else the axis label
// names it.
func facets(sums []Summary, time, xLabel string, fill func(p *plot.Plot, sel []Summary) []*series) (*Figure, error) {
	if err := CheckTime(time); err != nil {
		return nil, err
	}
	f := &Figure{}
	// The looks and legend labels of the variants of the panels drawn.
	instances := map[Panel]map[string]bool{}
	for _, s := range sums {
		pn := Panel{s.Puzzle, s.Task}
		if instances[pn] == nil {
			instances[pn] = map[string]bool{}
		}
		instances[pn][s.Instance] = true
	}
	styles := newStyles(slices.DeleteFunc(slices.Clone(sums), func(s Summary) bool {
		return len(instances[Panel{s.Puzzle, s.Task}]) < MinPanelInstances
	}))
	timedOut := false
	var used []string
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, pn := range Panels(sums) {
		var sel []Summary
		var instances []string
		for _, s := range sums {
			if s.Puzzle == pn.Puzzle && s.Task == pn.Task {
				sel = append(sel, s)
				if !slices.Contains(instances, s.Instance) {
					instances = append(instances, s.Instance)
				}
			}
		}
		if len(instances) < MinPanelInstances {
			f.Left = append(f.Left, fmt.Sprintf("%s %s (%d instance%s)", pn.Puzzle, pn.Task, len(instances), map[bool]string{true: "s"}[len(instances) > 1]))
			continue
		}
		p := plot.New()
		p.X.Label.Text = xLabel
		ss := fill(p, sel)
		if len(ss) == 0 {
			continue // nothing solved here
		}
		p.Title.Text = pn.Puzzle + ", task " + pn.Task
		// The time axis is labelled once for the whole figure (yLabel):
		// gonum pads a panel whose vertical label is longer than its data
		// area, leaving a gap under the title.
		styleText(p)
		p.Y.Scale = plot.LogScale{}
		p.Add(plotter.NewGrid())
		for _, se := range ss {
			l, pts, err := plotter.NewLinePoints(se.xy)
			if err != nil {
				return nil, err
			}
			switch {
			case se.timedOut:
				sc, err := plotter.NewScatter(se.xy)
				if err != nil {
					return nil, err
				}
				sc.Color, sc.Shape, sc.Radius = styles.byVariant[se.label].color, unsolvedGlyph, vg.Points(markerPt+0.5)
				p.Add(sc)
				timedOut = true
				f.timedOut = append(f.timedOut, se.xy...)
			case se.label == VBSLabel:
				vbsStyle(l)
				p.Add(l)
			default:
				styles.apply(se.label, l, pts)
				p.Add(l, pts)
			}
			if !slices.Contains(used, se.label) {
				used = append(used, se.label)
			}
			for _, q := range se.xy {
				ymin, ymax = min(ymin, q.Y), max(ymax, q.Y)
			}
		}
		f.Panels = append(f.Panels, p)
	}
	if len(f.Panels) == 0 {
		if len(f.Left) > 0 {
			return nil, fmt.Errorf("no puzzle and task with at least %d instances solved to plot (%s: see results table --what scores)", MinPanelInstances, strings.Join(f.Left, ", "))
		}
		return nil, fmt.Errorf("no solved runs to plot")
	}
	f.shareTimeAxis(sums, time, ymin, ymax)
	f.Cols = min(len(f.Panels), 3)
	if len(f.Panels) == 4 {
		f.Cols = 2
	}
	f.facetLegend(sums, styles, used, timedOut)
	return f, nil
}

// shareTimeAxis gives every panel of f one y range, so panels compare at a
// glance: the whole decades around the data (ymin to ymax; log ticks need
// one in view to label anything), ending at the time limit of the axis's
// measure when it lies in the top decade; the label names the measure and
// the limit once.
func (f *Figure) shareTimeAxis(sums []Summary, time string, ymin, ymax float64) {
	lo, hi := decades(ymin, ymax)
	// The limit is the one of the axis's measure (see LimitName): the
	// label names the measure once, to stay within the panels' height.
	f.yLabel = timeLabel(time) + " (log; no limit)"
	if limit := timeLimit(sums); limit > 0 {
		f.yLabel = fmt.Sprintf("%s (log; limit %s s)", timeLabel(time), fmtSec(limit))
		if limit >= ymax && limit < hi {
			hi = limit
		}
	}
	for _, p := range f.Panels {
		p.Y.Min, p.Y.Max = lo, hi
		p.Y.Tick.Marker = floorTicks{limit: hi}
	}
}

// facetLegend adds the legend of the variants used (with what each ran
// where it ran fewer instances), the VBS and the timed-out mark.
func (f *Figure) facetLegend(sums []Summary, styles *styles, used []string, timedOut bool) {
	for v, note := range notRunNotes(sums) {
		if _, ok := styles.label[v]; ok {
			styles.label[v] += " (" + note + ")"
		}
	}
	styles.addEntries(f, used)
	if slices.Contains(used, VBSLabel) {
		l, _ := plotter.NewLine(plotter.XYs{{}})
		vbsStyle(l)
		f.addEntry(VBSLabel, l)
	}
	if timedOut {
		sc, _ := plotter.NewScatter(plotter.XYs{{}})
		sc.Color, sc.Shape, sc.Radius = color.Black, unsolvedGlyph, vg.Points(markerPt+0.5)
		f.addEntry(TimedOutLabel, sc)
	}
}

// timeLimit returns the largest limit of the summaries' runs in their
// time measure (0 when none recorded one: see LimitName).
func timeLimit(sums []Summary) float64 {
	limit := 0.0
	for _, s := range sums {
		limit = max(limit, s.Limit)
	}
	return limit
}

// notRunNotes says, per variant that did not run every instance of a
// drawn panel's puzzle and task (one of MinPanelInstances or more), how
// many it ran ("ran 4 of 7", with the puzzle and task when the figure has
// several panels), so that the legend tells a line that ends early
// because the variant was not run (a ladder stopped, a request refused)
// from one whose instances went unsolved.
func notRunNotes(sums []Summary) map[string]string {
	type panelRuns struct {
		pn  Panel
		all map[string]bool            // instances
		ran map[string]map[string]bool // variant -> instances it ran
	}
	var drawn []panelRuns
	for _, pn := range Panels(sums) {
		p := panelRuns{pn: pn, all: map[string]bool{}, ran: map[string]map[string]bool{}}
		for _, s := range sums {
			if s.Puzzle != pn.Puzzle || s.Task != pn.Task {
				continue
			}
			p.all[s.Instance] = true
			if p.ran[s.Variant] == nil {
				p.ran[s.Variant] = map[string]bool{}
			}
			if s.Ran > 0 {
				p.ran[s.Variant][s.Instance] = true
			}
		}
		if len(p.all) >= MinPanelInstances {
			drawn = append(drawn, p)
		}
	}
	notes := map[string][]string{}
	for _, p := range drawn {
		for _, v := range variantsOf(sums) {
			if in, ok := p.ran[v]; ok && len(in) < len(p.all) {
				n := fmt.Sprintf("%d of %d", len(in), len(p.all))
				if len(drawn) > 1 {
					n += " " + p.pn.Puzzle + " " + p.pn.Task
				}
				notes[v] = append(notes[v], n)
			}
		}
	}
	out := map[string]string{}
	for v, ns := range notes {
		out[v] = "ran " + strings.Join(ns, ", ")
	}
	return out
}
