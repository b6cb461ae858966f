package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PlotKinds lists the figures Plot draws.
var PlotKinds = []string{"cactus", "scaling", "scatter", "ecdf"}

// VBSLabel labels the virtual best solver's line of a cactus plot: per
// instance, the fastest variant's median time.
const VBSLabel = "VBS (virtual best)"

// PlotFormats lists the figure file extensions understood.
var PlotFormats = []string{"svg", "png", "pdf"}

// TimeKinds lists the times a figure can plot: "solver", the seconds the
// solving process measured itself (solver_seconds: encoding and search,
// without process start-up), and "wall", the wall-clock seconds of the
// whole child process.
var TimeKinds = []string{"solver", "wall"}

// TimeFloor is the smallest time a figure shows: a median below it is
// drawn at it. Wall-clock times of small instances are dominated by process
// start-up (about 13 ms here, whatever the solver), which is why figures
// plot solver time by default; below a tenth of a millisecond solver times
// are timer and scheduling noise, so the floor keeps a dozen decades of
// meaningless differences off the axis.
const TimeFloor = 1e-4

// Figure is a set of panels (facets) sharing one legend, drawn below them
// in as many columns as the width takes, so that no entry hides data.
// Every series keeps one style (colour, marker, line) across panels.
type Figure struct {
	// Panels are laid out in rows of at most Cols (fewer when the print
	// width does not take Cols panels of a readable size).
	Panels []*plot.Plot
	Cols   int
	// labels and thumbs are the shared legend's entries; none for no
	// legend.
	labels []string
	thumbs [][]plot.Thumbnailer
	// square draws a single panel square (a scatter plot's diagonal at 45°).
	square bool
	// yLabel, if set, labels the y axes of every panel once, at the left.
	yLabel string
}

// addEntry adds a legend entry, once per label.
func (f *Figure) addEntry(label string, thumbs ...plot.Thumbnailer) {
	if !slices.Contains(f.labels, label) {
		f.labels = append(f.labels, label)
		f.thumbs = append(f.thumbs, thumbs)
	}
}

// Text sizes of a figure at its print size: 8-9 pt, as a paper's captions.
const (
	tickPt   = 8 // tick labels and legend entries
	labelPt  = 9 // axis labels and panel titles
	markerPt = 2.5
)

// styleText sets the text sizes of a panel.
func styleText(p *plot.Plot) {
	p.Title.TextStyle.Font.Size = vg.Points(labelPt)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(labelPt)
		a.Tick.Label.Font.Size = vg.Points(tickPt)
	}
}

// series is one labelled line of a panel.
type series struct {
	label string
	xy    plotter.XYs
}

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

// distinct returns the distinct values of field over the summaries, in
// order of first appearance.
func distinct(sums []Summary, field func(Summary) string) []string {
	var out []string
	for _, s := range sums {
		if v := field(s); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// seconds returns the median time of a summary that a figure plots, at
// least TimeFloor.
func seconds(s Summary, time string) float64 {
	t := s.Median
	if time != "wall" {
		t = s.SolverMedian
	}
	if math.IsNaN(t) || t < TimeFloor {
		return TimeFloor
	}
	return t
}

// timeLabel describes the plotted time on an axis.
func timeLabel(time string) string {
	if time == "wall" {
		return "median wall-clock seconds"
	}
	return "median solver seconds"
}

// Cactus draws one cactus panel per puzzle and task: for each variant, its
// solved instances sorted by median time, so the point (k, t) says k
// instances were solved within t seconds each, and the virtual best
// solver's line (per instance the fastest variant). Lines further right and
// lower are better. time is "solver" or "wall" (see TimeKinds).
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
// instance size (squares on the board), one line per variant, log y.
func Scaling(sums []Summary, time string) (*Figure, error) {
	return facets(sums, time, "board squares", func(p *plot.Plot, sel []Summary) []*series {
		ss := seriesBy(sel, func(s Summary) plotter.XY { return plotter.XY{X: float64(s.Squares), Y: seconds(s, time)} })
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, se := range ss {
			// Several instances of one size (different pieces, say): keep
			// each point, ordered by size so the line reads left to right.
			sort.SliceStable(se.xy, func(i, j int) bool { return se.xy[i].X < se.xy[j].X })
			for _, q := range se.xy {
				lo, hi = min(lo, q.X), max(hi, q.X)
			}
		}
		pad := max((hi-lo)*0.05, 1)
		p.X.Min, p.X.Max = lo-pad, hi+pad
		p.X.Tick.Marker = integerTicks{}
		return ss
	})
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

// facets draws one panel per (puzzle, task) with fill adding its
// series, all panels on one shared log time axis range and one legend.
func facets(sums []Summary, time, xLabel string, fill func(p *plot.Plot, sel []Summary) []*series) (*Figure, error) {
	if !slices.Contains(TimeKinds, time) {
		return nil, fmt.Errorf("unknown time %q: want solver or wall", time)
	}
	f := &Figure{yLabel: timeLabel(time) + " (log scale)"}
	styles := newStyles(sums)
	var used []string
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, pn := range Panels(sums) {
		var sel []Summary
		for _, s := range sums {
			if s.Puzzle == pn.Puzzle && s.Task == pn.Task {
				sel = append(sel, s)
			}
		}
		p := plot.New()
		ss := fill(p, sel)
		if len(ss) == 0 {
			continue // nothing solved here
		}
		p.Title.Text = pn.Puzzle + ", task " + pn.Task
		p.X.Label.Text = xLabel
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
			if se.label == VBSLabel {
				vbsStyle(l)
				p.Add(l)
			} else {
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
		return nil, fmt.Errorf("no solved runs to plot")
	}
	// One y range for every panel, so panels compare at a glance: from a
	// whole decade (log ticks need one in view to label anything) up to
	// the runs' time limit, where every unsolved run would be.
	lo, hi := decades(ymin, ymax)
	if limit := timeLimit(sums); limit >= ymax {
		hi = limit
	}
	for _, p := range f.Panels {
		p.Y.Min, p.Y.Max = lo, hi
		p.Y.Tick.Marker = floorTicks{limit: hi}
	}
	f.Cols = min(len(f.Panels), 3)
	if len(f.Panels) == 4 {
		f.Cols = 2
	}
	styles.addEntries(f, used)
	if slices.Contains(used, VBSLabel) {
		l, _ := plotter.NewLine(plotter.XYs{{}})
		vbsStyle(l)
		f.addEntry(VBSLabel, l)
	}
	return f, nil
}

// timeLimit returns the largest time limit of the summaries' runs (0 when
// none recorded one).
func timeLimit(sums []Summary) float64 {
	limit := 0.0
	for _, s := range sums {
		limit = max(limit, s.Limit)
	}
	return limit
}

// vbsStyle draws the virtual best solver: a thick black line.
func vbsStyle(l *plotter.Line) {
	l.Color, l.Width, l.Dashes = color.Black, vg.Points(2.2), nil
}

// decades widens [lo, hi] to whole decades (log ticks need at least one
// decade in view to label anything), exactly: math.Pow10 of an integer.
func decades(lo, hi float64) (float64, float64) {
	a, b := int(math.Floor(math.Log10(lo)+1e-9)), int(math.Ceil(math.Log10(hi)-1e-9))
	if b <= a {
		b = a + 1
	}
	return math.Pow10(a), math.Pow10(b)
}

// floorTicks are log ticks, a labelled one at each power of ten and
// unlabelled ones between, whose label at TimeFloor reads "≤0.0001": the
// points there stand for every time at or below the floor; an axis that
// ends at a time limit that is no power of ten gets a labelled tick there.
// (plot.LogTicks misses the lowest decade when min is below 1:
// int(Log10(1e-4)) is -3.)
type floorTicks struct{ limit float64 }

// Ticks returns the ticks between min and max.
func (ft floorTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for e := int(math.Floor(math.Log10(min) + 1e-9)); e <= int(math.Ceil(math.Log10(max)-1e-9)); e++ {
		v := math.Pow10(e)
		if v > max*(1+1e-9) {
			break
		}
		label := strconv.FormatFloat(v, 'f', -1, 64)
		if math.Abs(v-TimeFloor) < TimeFloor*1e-6 {
			label = "≤" + label
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
		for k := 2; k < 10; k++ {
			if float64(k)*v <= max {
				ts = append(ts, plot.Tick{Value: float64(k) * v})
			}
		}
	}
	if l := ft.limit; l > 0 && math.Abs(math.Log10(l)-math.Round(math.Log10(l))) > 1e-9 {
		ts = append(ts, plot.Tick{Value: l, Label: fmtSec(l)})
	}
	return ts
}

// integerTicks labels whole numbers only, at most about eight of them: an
// axis that counts instances or squares has no fractions.
type integerTicks struct{}

// Ticks returns major ticks at whole-number steps (1, 2 or 5 times a power
// of ten) between min and max.
func (integerTicks) Ticks(min, max float64) []plot.Tick {
	step := 1
	for i := 0; (max-min)/float64(step) > 8; i++ {
		step = []int{1, 2, 5}[(i+1)%3] * int(math.Pow(10, float64((i+1)/3)))
	}
	var ts []plot.Tick
	for v := int(math.Ceil(min/float64(step))) * step; float64(v) <= max; v += step {
		ts = append(ts, plot.Tick{Value: float64(v), Label: strconv.Itoa(v)})
	}
	return ts
}

// pairPoint is one instance's times under two variants; a time of an
// unsolved instance is the limit.
type pairPoint struct {
	puzzle, task string
	x, y         float64
	unsolved     bool
}

// pairPoints returns, for every instance and task both variants ran, its
// two times (solved: the median; unsolved: limit), and limit, the largest
// limit of the two variants' runs (when no run recorded one, the power of ten
// at or above twice the largest time plotted).
func pairPoints(sums []Summary, xVariant, yVariant, time string) (pts []pairPoint, limit float64) {
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
	if limit == 0 {
		// No limit recorded: the decade above twice the slowest time.
		_, limit = decades(2*top, 2*top)
	}
	at := func(s Summary) float64 {
		if s.Solved == 0 {
			return limit
		}
		return min(seconds(s, time), limit)
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
	return pts, limit
}

// Scatter draws, one panel per task, one point per instance both variants
// ran, at (median time of x, median time of y), on log-log axes with the
// diagonal, the 2x and 10x lines and the limit: an instance a variant did
// not solve is drawn on the limit line (never dropped), with its own
// marker. Points below the diagonal are instances where y is faster.
// Points of each puzzle share a marker and colour.
func Scatter(sums []Summary, xVariant, yVariant, time string) (*Figure, error) {
	if !slices.Contains(TimeKinds, time) {
		return nil, fmt.Errorf("unknown time %q: want solver or wall", time)
	}
	pts, limit := pairPoints(sums, xVariant, yVariant, time)
	if len(pts) == 0 {
		return nil, fmt.Errorf("variants %q and %q ran no instance in common", xVariant, yVariant)
	}
	lo := limit
	for _, q := range pts {
		lo = min(lo, q.x, q.y)
	}
	// The axes end at the limit, where the unsolved instances are.
	lo, _ = decades(lo, limit)
	hi := limit
	var puzzles, tasks []string
	for _, q := range pts {
		if !slices.Contains(puzzles, q.puzzle) {
			puzzles = append(puzzles, q.puzzle)
		}
		if !slices.Contains(tasks, q.task) {
			tasks = append(tasks, q.task)
		}
	}
	f := &Figure{Cols: min(len(tasks), 3), square: true}
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
	limitLabel := fmt.Sprintf("limit %s s: not solved", fmtSec(limit))
	for _, task := range tasks {
		p := plot.New()
		n := 0
		for _, q := range pts {
			if q.task == task && !q.unsolved {
				n++
			}
		}
		p.Title.Text = fmt.Sprintf("task %s: %d both solved", task, n)
		p.X.Label.Text = xVariant + " (s, log)"
		p.Y.Label.Text = yVariant + " (s, log)"
		styleText(p)
		for _, a := range []*plot.Axis{&p.X, &p.Y} {
			a.Scale = plot.LogScale{}
			a.Tick.Marker = floorTicks{limit: hi}
		}
		p.Add(plotter.NewGrid())
		for _, r := range refs {
			for _, k := range []float64{r.factor, 1 / r.factor} {
				l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo * k}, {X: hi, Y: hi * k}})
				if err != nil {
					return nil, err
				}
				l.Color, l.Dashes = color.Gray{Y: r.gray}, r.dashes
				p.Add(l)
				if task == tasks[0] && k >= 1 {
					f.addEntry(r.label, l)
				}
				if k == 1 {
					break
				}
			}
		}
		lim, err := plotter.NewLine(plotter.XYs{{X: lo, Y: limit}, {X: limit, Y: limit}, {X: limit, Y: lo}})
		if err != nil {
			return nil, err
		}
		lim.Color, lim.Width = palette[1], vg.Points(1)
		p.Add(lim)
		if task == tasks[0] {
			f.addEntry(limitLabel, lim)
		}
		for i, pz := range puzzles {
			var xy, out plotter.XYs
			for _, q := range pts {
				if q.task == task && q.puzzle == pz {
					if q.unsolved {
						out = append(out, plotter.XY{X: q.x, Y: q.y})
					} else {
						xy = append(xy, plotter.XY{X: q.x, Y: q.y})
					}
				}
			}
			for j, set := range []plotter.XYs{xy, out} {
				if len(set) == 0 {
					continue
				}
				sc, err := plotter.NewScatter(set)
				if err != nil {
					return nil, err
				}
				sc.Color = palette[(i+2*j)%len(palette)]
				sc.Shape = openGlyphs[i%len(openGlyphs)]
				if j == 1 {
					sc.Shape = draw.CrossGlyph{}
				}
				sc.Radius = vg.Points(markerPt)
				p.Add(sc)
				label := pz
				if j == 1 {
					label = pz + ", not solved by one"
				}
				f.addEntry(label, sc)
			}
		}
		// The range last: adding a line widens the axes to hold it (the
		// 10x lines would run them a decade past the limit).
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi
		f.Panels = append(f.Panels, p)
	}
	return f, nil
}

// ECDF draws, one panel per task, the empirical distribution of the
// runtime ratio y / x over the instances both variants solved: the
// fraction of instances (y axis) whose ratio is at most r (x axis, log).
// Left of 1, y is faster.
func ECDF(sums []Summary, xVariant, yVariant, time string) (*Figure, error) {
	if !slices.Contains(TimeKinds, time) {
		return nil, fmt.Errorf("unknown time %q: want solver or wall", time)
	}
	pts, _ := pairPoints(sums, xVariant, yVariant, time)
	var tasks []string
	ratios := map[string][]float64{}
	for _, q := range pts {
		if q.unsolved {
			continue
		}
		if !slices.Contains(tasks, q.task) {
			tasks = append(tasks, q.task)
		}
		ratios[q.task] = append(ratios[q.task], q.y/q.x)
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("variants %q and %q solved no instance in common", xVariant, yVariant)
	}
	f := &Figure{Cols: min(len(tasks), 3)}
	for _, task := range tasks {
		rs := ratios[task]
		sort.Float64s(rs)
		lo, hi := decades(min(rs[0], 1), max(rs[len(rs)-1], 1))
		xy := plotter.XYs{{X: lo, Y: 0}}
		for i, r := range rs {
			xy = append(xy, plotter.XY{X: r, Y: float64(i+1) / float64(len(rs))})
		}
		xy = append(xy, plotter.XY{X: hi, Y: 1})
		p := plot.New()
		p.Title.Text = fmt.Sprintf("task %s: %d both solved", task, len(rs))
		p.X.Label.Text = "time " + yVariant + " / time " + xVariant + " (log)"
		p.Y.Label.Text = "fraction of instances"
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, 0, 1
		styleText(p)
		one, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			return nil, err
		}
		one.Color, one.Dashes = color.Gray{Y: 110}, []vg.Length{vg.Points(4), vg.Points(4)}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.StepStyle = plotter.PostStep
		l.Color, l.Width = palette[0], vg.Points(1.5)
		p.Add(plotter.NewGrid(), one, l)
		if task == tasks[0] {
			f.addEntry("ratio 1 (equal time)", one)
			f.addEntry(yVariant+" / "+xVariant, l)
		}
		f.Panels = append(f.Panels, p)
	}
	return f, nil
}

// palette is the Okabe-Ito colour-blind-safe palette without its yellow
// (too faint on white), plus grey: eight colours told apart in print.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{120, 120, 120, 255}, // grey
}

// Markers: filled ones for native searches, open ones for SAT variants.
var (
	filledGlyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}
	openGlyphs   = []draw.GlyphDrawer{draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
)

// dashes: solid for native searches, dashed for SAT, dotted for the rest;
// a second round of colours in a family gets a longer dash.
var (
	solid   []vg.Length
	dashed  = []vg.Length{vg.Points(5), vg.Points(2.5)}
	dotted  = []vg.Length{vg.Points(1.5), vg.Points(2)}
	dashdot = []vg.Length{vg.Points(7), vg.Points(2), vg.Points(1.5), vg.Points(2)}
)

// style is one series' look.
type style struct {
	color  color.Color
	glyph  draw.GlyphDrawer
	dashes []vg.Length
}

// styles gives every variant of a figure one look, the same in every
// panel: the family (native, SAT, other) picks marker fill and line
// pattern; colour and marker shape come from the first style index that no
// variant of the same family sharing a panel with it has taken, so the
// lines of one panel always differ. Variants drawn in only one puzzle's
// panels, when the figure has several puzzles, carry the puzzle in their
// legend label, since another puzzle's variant may share their look.
type styles struct {
	byVariant map[string]style
	label     map[string]string
	order     []string
}

func family(variant string) int {
	switch strings.SplitN(variant, "/", 2)[0] {
	case "native":
		return 0
	case "sat":
		return 1
	}
	return 2
}

func newStyles(sums []Summary) *styles {
	st := &styles{byVariant: map[string]style{}, label: map[string]string{}}
	var vs []string
	panelsOf := map[string][]Panel{}
	puzzlesOf := map[string][]string{}
	for _, s := range sums {
		if !slices.Contains(vs, s.Variant) {
			vs = append(vs, s.Variant)
		}
		if p := (Panel{s.Puzzle, s.Task}); !slices.Contains(panelsOf[s.Variant], p) {
			panelsOf[s.Variant] = append(panelsOf[s.Variant], p)
		}
		if !slices.Contains(puzzlesOf[s.Variant], s.Puzzle) {
			puzzlesOf[s.Variant] = append(puzzlesOf[s.Variant], s.Puzzle)
		}
	}
	manyPuzzles := len(Puzzles(sums)) > 1
	sort.SliceStable(vs, func(i, j int) bool { return family(vs[i]) < family(vs[j]) })
	index := map[string]int{}
	for _, v := range vs {
		taken := map[int]bool{}
		for _, u := range st.order {
			if family(u) == family(v) && slices.ContainsFunc(panelsOf[u], func(p Panel) bool { return slices.Contains(panelsOf[v], p) }) {
				taken[index[u]] = true
			}
		}
		i := 0
		for taken[i] {
			i++
		}
		index[v] = i
		s := style{color: palette[i%len(palette)]}
		switch family(v) {
		case 0:
			s.glyph, s.dashes = filledGlyphs[i%len(filledGlyphs)], solid
		case 1:
			s.glyph, s.dashes = openGlyphs[i%len(openGlyphs)], dashed
		default:
			s.glyph, s.dashes = openGlyphs[(i+2)%len(openGlyphs)], dotted
		}
		if i >= len(palette) {
			s.dashes = dashdot
		}
		st.byVariant[v] = s
		st.order = append(st.order, v)
		st.label[v] = v
		if manyPuzzles && len(puzzlesOf[v]) == 1 {
			st.label[v] = v + " (" + puzzlesOf[v][0] + ")"
		}
	}
	return st
}

func (st *styles) apply(variant string, l *plotter.Line, pts *plotter.Scatter) {
	s := st.byVariant[variant]
	l.Color, l.Dashes, l.Width = s.color, s.dashes, vg.Points(1.2)
	pts.Color, pts.Shape, pts.Radius = s.color, s.glyph, vg.Points(markerPt)
}

// addEntries adds the used variants to f's legend, in style order (native
// first, then SAT, then the rest).
func (st *styles) addEntries(f *Figure, used []string) {
	for _, v := range st.order {
		if !slices.Contains(used, v) {
			continue
		}
		l, pts, _ := plotter.NewLinePoints(plotter.XYs{{}})
		st.apply(v, l, pts)
		f.addEntry(st.label[v], l, pts)
	}
}

// Size is the print size of a figure: its width, and its height (0: what
// its panels and legend take at that width).
type Size struct{ W, H vg.Length }

// The print widths of a paper: a column (3.5 in, the default) and the
// page (7 in).
var (
	ColumnSize = Size{W: 3.5 * vg.Inch}
	PageSize   = Size{W: 7 * vg.Inch}
)

// ParseSize reads a figure size: column, page, or WxH in inches (3.5x2.5),
// each side from 1 to 20 inches.
func ParseSize(s string) (Size, error) {
	switch s {
	case "column":
		return ColumnSize, nil
	case "page":
		return PageSize, nil
	}
	ws, hs, ok := strings.Cut(s, "x")
	w, err1 := strconv.ParseFloat(ws, 64)
	h, err2 := strconv.ParseFloat(hs, 64)
	if !ok || err1 != nil || err2 != nil || w < 1 || w > 20 || h < 1 || h > 20 {
		return Size{}, fmt.Errorf("bad figure size %q: want column (3.5 in wide), page (7 in) or WxH in inches from 1 to 20, like 3.5x2.5", s)
	}
	return Size{W: vg.Length(w) * vg.Inch, H: vg.Length(h) * vg.Inch}, nil
}

// Layout of a figure at its print width.
const (
	minPanelW   = 1.6 * vg.Inch // a panel narrower than this packs its ticks
	minSquareW  = 2.4 * vg.Inch // a scatter panel: two axes of tick labels
	maxPanelH   = 2.6 * vg.Inch // taller panels only spread the lines
	yLabelW     = 12            // points: the shared time label at the left
	legendThumb = 20            // points: a legend entry's line and marker
	legendRowPt = tickPt + 3    // points: a legend row
	legendGapPt = 10            // points between legend columns
)

// SaveFigure writes the figure at column width; see SaveFigureSize.
func SaveFigure(f *Figure, path string) error { return SaveFigureSize(f, path, ColumnSize) }

// SaveFigureSize writes the figure to path at its print size: panels as
// many to a row as the width takes at a readable size (at most Cols), each
// about 4:5 (scatter plots square), and the legend below them in as many
// columns as fit. The extension of path (.svg, .png or .pdf) picks the
// format; the file appears only when complete.
func SaveFigureSize(f *Figure, path string, size Size) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if !slices.Contains(PlotFormats, ext) {
		return fmt.Errorf("cannot tell the figure format of %q: want a .svg, .png or .pdf file", path)
	}
	w := size.W
	minW := minPanelW
	if f.square {
		minW = minSquareW
	}
	cols := max(1, min(max(f.Cols, 1), len(f.Panels), int((w-vg.Points(yLabelW))/minW)))
	if len(f.Panels) == 4 && cols == 3 {
		cols = 2
	}
	rows := (len(f.Panels) + cols - 1) / cols
	lg := plot.NewLegend()
	lg.Top, lg.Left = true, true
	lg.TextStyle.Font.Size = vg.Points(tickPt)
	lg.ThumbnailWidth = vg.Points(legendThumb)
	longest := vg.Length(0)
	for _, l := range f.labels {
		longest = max(longest, lg.TextStyle.Rectangle(" "+l).Max.X)
	}
	entryW := vg.Points(legendThumb) + longest + vg.Points(legendGapPt)
	lcols := max(1, min(len(f.labels), int(w/entryW)))
	lrows := (len(f.labels) + lcols - 1) / lcols
	legendH := vg.Length(0)
	if lrows > 0 {
		legendH = vg.Points(float64(lrows*legendRowPt) + 8)
	}
	panelW := (w - vg.Points(yLabelW)) / vg.Length(cols)
	panelH := min(panelW*0.8, maxPanelH)
	if f.square {
		panelH = min(panelW*0.9, maxPanelH+vg.Inch/2)
	}
	h := size.H
	if h == 0 {
		h = panelH*vg.Length(rows) + legendH
	}
	var c vg.CanvasWriterTo
	switch ext {
	case "svg":
		c = &outlineText{CanvasWriterTo: vgsvg.New(w, h), all: true}
	case "pdf":
		c = &outlineText{CanvasWriterTo: vgpdf.New(w, h)}
	default:
		var err error
		if c, err = draw.NewFormattedCanvas(w, h, ext); err != nil {
			return err
		}
	}
	dc := draw.New(c)
	if len(f.labels) > 0 {
		// The legend below the panels, column by column.
		below := draw.Crop(dc, 0, 0, 0, -(h - legendH))
		colW := w / vg.Length(lcols)
		for k := range lcols {
			part := plot.NewLegend()
			part.Top, part.Left = true, true
			part.TextStyle, part.ThumbnailWidth = lg.TextStyle, lg.ThumbnailWidth
			for i := k * lrows; i < min((k+1)*lrows, len(f.labels)); i++ {
				part.Add(f.labels[i], f.thumbs[i]...)
			}
			part.Draw(draw.Crop(below, vg.Length(k)*colW+vg.Points(4), -(w - vg.Length(k+1)*colW), 0, -vg.Points(4)))
		}
		dc = draw.Crop(dc, 0, 0, legendH, 0)
	}
	if f.yLabel != "" {
		sty := plot.New().Y.Label.TextStyle
		sty.Font.Size = vg.Points(labelPt)
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		dc.FillText(sty, vg.Point{X: vg.Points(yLabelW / 2), Y: dc.Min.Y + (dc.Max.Y-dc.Min.Y)/2}, f.yLabel)
	}
	dc = draw.Crop(dc, vg.Points(yLabelW), 0, 0, 0)
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
		for k := range cols {
			if i := r*cols + k; i < len(f.Panels) {
				grid[r][k] = f.Panels[i]
			}
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(8), PadY: vg.Points(8),
		PadTop: vg.Points(3), PadBottom: vg.Points(3), PadLeft: vg.Points(2), PadRight: vg.Points(6)}
	canvases := plot.Align(grid, tiles, dc)
	for r := range grid {
		for k, p := range grid[r] {
			if p != nil {
				p.Draw(canvases[r][k])
			}
		}
	}
	if ot, ok := c.(*outlineText); ok && ot.err != nil {
		return ot.err
	}
	return atomicfile.Write(path, func(wr io.Writer) error {
		_, err := c.WriteTo(wr)
		return err
	})
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
