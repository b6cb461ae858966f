package results

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

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotKinds lists the figures Plot draws.
var PlotKinds = []string{"cactus", "scaling", "scatter"}

// PlotFormats lists the figure file extensions understood.
var PlotFormats = []string{"svg", "png", "pdf"}

// minSeconds keeps zero times off a log axis.
const minSeconds = 1e-6

// Figure is a plot ready to save, with its legend drawn beside the data
// (to the right) when it has one, so that no entry hides a line.
type Figure struct {
	Plot *plot.Plot
	// legend and labels are the outside legend; empty for none.
	legend plot.Legend
	labels []string
}

// series is one labelled line of a figure.
type series struct {
	label string
	xy    plotter.XYs
}

// seriesLabel names a variant and, when the file holds several tasks, its task.
func seriesLabel(s Summary, manyTasks bool) string {
	if manyTasks {
		return s.Variant + " (" + s.Task + ")"
	}
	return s.Variant
}

func manyTasks(sums []Summary) bool {
	if len(sums) == 0 {
		return false
	}
	for _, s := range sums {
		if s.Task != sums[0].Task {
			return true
		}
	}
	return false
}

// Tasks returns the distinct tasks of the summaries in order of first appearance.
func Tasks(sums []Summary) []string {
	var out []string
	for _, s := range sums {
		if !slices.Contains(out, s.Task) {
			out = append(out, s.Task)
		}
	}
	return out
}

// Cactus draws a cactus plot of one task: for each variant, its solved
// instances sorted by median seconds, so the point (k, t) says k instances
// were solved within t seconds each. Lines further right and lower are
// better.
func Cactus(sums []Summary, task string) (*Figure, error) {
	var ss []*series
	byLabel := map[string]*series{}
	for _, s := range sums {
		if s.Solved == 0 || s.Task != task {
			continue
		}
		se := byLabel[s.Variant]
		if se == nil {
			se = &series{label: s.Variant}
			byLabel[s.Variant] = se
			ss = append(ss, se)
		}
		se.xy = append(se.xy, plotter.XY{Y: max(s.Median, minSeconds)})
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("no solved %s runs to plot", task)
	}
	maxX := 0
	for _, se := range ss {
		sort.Slice(se.xy, func(i, j int) bool { return se.xy[i].Y < se.xy[j].Y })
		for i := range se.xy {
			se.xy[i].X = float64(i + 1)
		}
		maxX = max(maxX, len(se.xy))
	}
	p := plot.New()
	p.Title.Text = "Cactus plot (task " + task + "): instances solved vs time"
	p.X.Label.Text = "instances solved"
	p.Y.Label.Text = "median wall-clock seconds per instance (log)"
	logY(p)
	f := &Figure{Plot: p}
	if err := f.addLines(ss); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = 0, float64(maxX)+0.5
	p.X.Tick.Marker = integerTicks{}
	return f, nil
}

// integerTicks labels whole numbers only, at most about ten of them: an axis
// that counts instances has no half instances.
type integerTicks struct{}

// Ticks returns major ticks at whole-number steps between min and max.
func (integerTicks) Ticks(min, max float64) []plot.Tick {
	step := 1
	for (max-min)/float64(step) > 10 {
		step *= 2
	}
	var ts []plot.Tick
	for v := int(math.Ceil(min/float64(step))) * step; float64(v) <= max; v += step {
		ts = append(ts, plot.Tick{Value: float64(v), Label: strconv.Itoa(v)})
	}
	return ts
}

// Scaling draws, for one puzzle, median seconds against instance size
// (squares on the board), one line per variant, log y.
func Scaling(sums []Summary, puzzleName string) (*Figure, error) {
	var sel []Summary
	for _, s := range sums {
		if s.Puzzle == puzzleName {
			sel = append(sel, s)
		}
	}
	many := manyTasks(sel)
	var ss []*series
	byLabel := map[string]*series{}
	for _, s := range sel {
		if s.Solved == 0 {
			continue
		}
		l := seriesLabel(s, many)
		se := byLabel[l]
		if se == nil {
			se = &series{label: l}
			byLabel[l] = se
			ss = append(ss, se)
		}
		se.xy = append(se.xy, plotter.XY{X: float64(s.Squares), Y: max(s.Median, minSeconds)})
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("no solved %s runs to plot", puzzleName)
	}
	for _, se := range ss {
		// Several instances of one size (different pieces, say): keep each
		// point, ordered by size so the line reads left to right.
		sort.SliceStable(se.xy, func(i, j int) bool { return se.xy[i].X < se.xy[j].X })
	}
	p := plot.New()
	p.Title.Text = "Scaling: " + puzzleName
	p.X.Label.Text = "board squares"
	p.Y.Label.Text = "median wall-clock seconds (log)"
	logY(p)
	f := &Figure{Plot: p}
	if err := f.addLines(ss); err != nil {
		return nil, err
	}
	return f, nil
}

// Scatter draws one point per instance and task both variants solved, at
// (median seconds of x, median seconds of y), on log-log axes with the
// diagonal: points below it are instances where y is faster.
func Scatter(sums []Summary, xVariant, yVariant string) (*Figure, error) {
	type it struct{ instance, task string }
	xs := map[it]float64{}
	for _, s := range sums {
		if s.Variant == xVariant && s.Solved > 0 {
			xs[it{s.Instance, s.Task}] = max(s.Median, minSeconds)
		}
	}
	var pts plotter.XYs
	for _, s := range sums {
		if s.Variant != yVariant || s.Solved == 0 {
			continue
		}
		if x, ok := xs[it{s.Instance, s.Task}]; ok {
			pts = append(pts, plotter.XY{X: x, Y: max(s.Median, minSeconds)})
		}
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("variants %q and %q solved no instance in common", xVariant, yVariant)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		lo, hi = min(lo, q.X, q.Y), max(hi, q.X, q.Y)
	}
	lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo*1.0001 {
		hi = lo * 10
	}
	p := plot.New()
	p.Title.Text = "Scatter: median seconds per instance"
	p.X.Label.Text = xVariant + " (s, log)"
	p.Y.Label.Text = yVariant + " (s, log)"
	logY(p)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi
	diag, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
	if err != nil {
		return nil, err
	}
	diag.Color = color.Gray{Y: 110}
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	sc.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	sc.Shape = draw.CircleGlyph{}
	sc.Radius = vg.Points(3)
	p.Add(plotter.NewGrid(), diag, sc)
	p.Legend.Add("y = x", diag)
	p.Legend.Add(fmt.Sprintf("%d instances", len(pts)), sc)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), -vg.Points(8)
	return &Figure{Plot: p}, nil
}

func logY(p *plot.Plot) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
}

func (f *Figure) addLines(ss []*series) error {
	p := f.Plot
	p.Add(plotter.NewGrid())
	f.legend = plot.NewLegend()
	f.legend.Top, f.legend.Left = true, true
	f.legend.TextStyle.Font.Size = vg.Points(8)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for i, se := range ss {
		l, pts, err := plotter.NewLinePoints(se.xy)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7)
		pts.Color = plotutil.Color(i)
		pts.Shape = plotutil.Shape(i)
		p.Add(l, pts)
		f.legend.Add(se.label, l, pts)
		f.labels = append(f.labels, se.label)
		for _, q := range se.xy {
			ymin, ymax = min(ymin, q.Y), max(ymax, q.Y)
		}
	}
	// Log ticks need at least a decade in view to label anything.
	p.Y.Min = math.Pow(10, math.Floor(math.Log10(ymin)))
	p.Y.Max = math.Pow(10, math.Ceil(math.Log10(ymax)))
	if p.Y.Max <= p.Y.Min*1.0001 {
		p.Y.Max = p.Y.Min * 10
	}
	return nil
}

// SaveFigure writes the figure to path; the extension (.svg, .png or .pdf)
// picks the format. The file appears only when complete.
func SaveFigure(f *Figure, path string) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if !slices.Contains(PlotFormats, ext) {
		return fmt.Errorf("cannot tell the figure format of %q: want a .svg, .png or .pdf file", path)
	}
	w, h := 7*vg.Inch, 5*vg.Inch
	var legendW vg.Length
	if len(f.labels) > 0 {
		longest := 0
		for _, l := range f.labels {
			longest = max(longest, len(l))
		}
		legendW = vg.Points(float64(longest)*4.3 + 36)
		h = max(h, vg.Points(float64(len(f.labels))*10.5+60))
	}
	c, err := draw.NewFormattedCanvas(w+legendW, h, ext)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	f.Plot.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	if len(f.labels) > 0 {
		lc := draw.Crop(dc, w+vg.Points(6), 0, 0, -vg.Points(30))
		f.legend.Draw(lc)
	}
	return WriteFileAtomic(path, func(wr io.Writer) error {
		_, err := c.WriteTo(wr)
		return err
	})
}

// Puzzles returns the distinct puzzles of the summaries in order of first appearance.
func Puzzles(sums []Summary) []string {
	var out []string
	for _, s := range sums {
		if !slices.Contains(out, s.Puzzle) {
			out = append(out, s.Puzzle)
		}
	}
	return out
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
