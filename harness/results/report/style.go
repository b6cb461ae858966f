package report

import (
	"github.com/boardsat/boardsat/puzzle"
	"image/color"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

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

// variantGlyphs are the markers of a figure's variants, in the order
// they are handed out: shapes and fills alternating, so that neighbours in
// that order differ in both; none is the cross, which marks the runs a
// scatter plot's variant did not solve (unsolvedGlyph). Their strokes are
// thick enough to survive print and greyscale.
var (
	variantGlyphs = []draw.GlyphDrawer{
		shapeGlyph{sides: 0, filled: true}, shapeGlyph{sides: 4}, shapeGlyph{sides: 3, filled: true}, shapeGlyph{sides: 4, diamond: true},
		shapeGlyph{sides: 3, down: true, filled: true}, shapeGlyph{sides: 5}, shapeGlyph{sides: 0}, shapeGlyph{sides: 4, filled: true},
		shapeGlyph{sides: 3}, shapeGlyph{sides: 4, diamond: true, filled: true}, shapeGlyph{sides: 3, down: true}, shapeGlyph{sides: 5, filled: true},
		shapeGlyph{plus: true}, shapeGlyph{star: true},
	}
	unsolvedGlyph = draw.CrossGlyph{}
)

// shapeGlyph is a marker: a circle (sides 0), a regular polygon of sides
// corners (point up, or down; a square stood on its corner with diamond),
// a plus or a six-armed star, open or filled, stroked 0.9 pt wide.
type shapeGlyph struct {
	sides                 int
	filled, down, diamond bool
	plus, star            bool
}

// DrawGlyph draws the marker at pt.
func (g shapeGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.9)})
	var p vg.Path
	switch {
	case g.plus || g.star:
		arms := 4
		if g.star {
			arms = 6
		}
		r *= 1.3
		for k := range arms {
			a := math.Pi / 2 * float64(k)
			if g.star {
				a = math.Pi/2 + math.Pi/3*float64(k)
			}
			p.Move(pt)
			p.Line(vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y + r*vg.Length(math.Sin(a))})
		}
		c.Stroke(p)
		return
	case g.sides == 0:
		p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		p.Arc(pt, r, 0, 2*math.Pi)
	default:
		start := math.Pi / 2
		if g.down {
			start = -math.Pi / 2
		}
		if g.sides == 4 && !g.diamond {
			start = math.Pi / 4
		}
		rr := r * 1.25
		for k := range g.sides {
			a := start + 2*math.Pi*float64(k)/float64(g.sides)
			q := vg.Point{X: pt.X + rr*vg.Length(math.Cos(a)), Y: pt.Y + rr*vg.Length(math.Sin(a))}
			if k == 0 {
				p.Move(q)
			} else {
				p.Line(q)
			}
		}
	}
	p.Close()
	if g.filled {
		c.SetColor(sty.Color)
		c.Fill(p)
	}
	c.Stroke(p)
}

// mark is a scatter plot's look of one puzzle: shape and colour.
type mark struct {
	glyph draw.GlyphDrawer
	color color.Color
}

// puzzleMarks are the looks of a scatter plot's puzzles, in order: each
// differs from every other in shape and in colour (so two puzzles never
// differ in shade alone), and none is the unsolved cross.
var puzzleMarks = []mark{
	{draw.RingGlyph{}, palette[0]},
	{draw.SquareGlyph{}, palette[1]},
	{draw.TriangleGlyph{}, palette[2]},
	{shapeGlyph{sides: 4, diamond: true}, palette[3]},
	{draw.CircleGlyph{}, palette[4]},
	{draw.BoxGlyph{}, palette[6]},
	{draw.PyramidGlyph{}, palette[5]},
	{draw.PlusGlyph{}, palette[7]},
	{shapeGlyph{sides: 4, diamond: true, filled: true}, palette[0]},
}

// dashes: one line pattern a backend (see backendLooks).
var (
	solid    []vg.Length
	dashed   = []vg.Length{vg.Points(5), vg.Points(2.5)}
	dotted   = []vg.Length{vg.Points(1.5), vg.Points(2)}
	dashdot  = []vg.Length{vg.Points(7), vg.Points(2), vg.Points(1.5), vg.Points(2)}
	longDash = []vg.Length{vg.Points(9), vg.Points(3)}
)

// backendLooks give each backend its hue and line pattern: a reader tells
// the backends apart by colour (and in greyscale by the line), the
// variants of one backend by shade and marker.
var backendLooks = []struct {
	backend string
	hue     color.RGBA
	dashes  []vg.Length
}{
	{"native", color.RGBA{0, 114, 178, 255}, solid},   // blue
	{"sat", color.RGBA{213, 94, 0, 255}, dashed},      // vermillion
	{"cp", color.RGBA{0, 158, 115, 255}, dotted},      // bluish green
	{"mip", color.RGBA{204, 121, 167, 255}, dashdot},  // reddish purple
	{"check", color.RGBA{230, 159, 0, 255}, longDash}, // orange
	{"", color.RGBA{100, 100, 100, 255}, longDash},    // any other: grey
}

// backendLook returns the index in backendLooks of a variant's backend
// (the part of its name before "/"). A backend without a look of its own
// takes the look of the family it declares (puzzle.FamilyOf: a native
// search, a SAT backend), any other the grey one.
func backendLook(variant string) int {
	b := strings.SplitN(variant, "/", 2)[0]
	for i, l := range backendLooks {
		if l.backend == b {
			return i
		}
	}
	switch puzzle.FamilyOf(b) {
	case puzzle.FamilySearch:
		return 0
	case puzzle.FamilySAT:
		return 1
	}
	return len(backendLooks) - 1
}

// shade returns the k-th shade of a hue: itself, then darker and lighter
// in turn, so that a backend's variants differ in lightness (and grey).
func shade(c color.RGBA, k int) color.RGBA {
	mix := func(to, f float64) color.RGBA {
		m := func(v uint8) uint8 { return uint8(float64(v)*(1-f) + to*f) }
		return color.RGBA{m(c.R), m(c.G), m(c.B), 255}
	}
	switch k % 5 {
	case 1:
		return mix(0, 0.45)
	case 2:
		return mix(255, 0.45)
	case 3:
		return mix(0, 0.7)
	case 4:
		return mix(255, 0.7)
	}
	return c
}

// style is one series' look.
type style struct {
	color  color.Color
	glyph  draw.GlyphDrawer
	dashes []vg.Length
}

// styles gives every variant of a figure one look, the same in every
// panel: the hue and line pattern of its backend, a shade of that hue by
// its rank among the backend's variants, and a marker no other variant
// of a panel it is drawn in has (the first of variantGlyphs free in all
// its panels), so that every legend entry differs, in greyscale too.
// Variants drawn in some panels only, when the figure has several, carry
// the puzzles and tasks of their panels in their legend label.
type styles struct {
	byVariant map[string]style
	label     map[string]string
	order     []string
}

func newStyles(sums []Summary) *styles {
	st := &styles{byVariant: map[string]style{}, label: map[string]string{}}
	var vs []string
	panelsOf := map[string][]Panel{}
	for _, s := range sums {
		if !slices.Contains(vs, s.Variant) {
			vs = append(vs, s.Variant)
		}
		if p := (Panel{s.Puzzle, s.Task}); !slices.Contains(panelsOf[s.Variant], p) {
			panelsOf[s.Variant] = append(panelsOf[s.Variant], p)
		}
	}
	panels := len(Panels(sums))
	sort.SliceStable(vs, func(i, j int) bool { return backendLook(vs[i]) < backendLook(vs[j]) })
	glyphOf, rank := map[string]int{}, map[int]int{}
	for _, v := range vs {
		taken := map[int]bool{}
		for _, u := range st.order {
			if slices.ContainsFunc(panelsOf[u], func(p Panel) bool { return slices.Contains(panelsOf[v], p) }) {
				taken[glyphOf[u]] = true
			}
		}
		g := 0
		for taken[g] {
			g++
		}
		glyphOf[v] = g
		b := backendLook(v)
		look := backendLooks[b]
		s := style{color: shade(look.hue, rank[b]), glyph: variantGlyphs[g%len(variantGlyphs)], dashes: look.dashes}
		rank[b]++
		st.byVariant[v] = s
		st.order = append(st.order, v)
		st.label[v] = v
		if panels > 1 && len(panelsOf[v]) < panels {
			st.label[v] = v + " (" + panelsIn(panelsOf[v], Panels(sums)) + ")"
		}
	}
	return st
}

// panelsIn says which of all the panels ps are, the shorter way: "queens
// count; tour first" or "all but intervals optimum, count".
func panelsIn(ps, all []Panel) string {
	in := panelNames(ps)
	var out []Panel
	for _, p := range all {
		if !slices.Contains(ps, p) {
			out = append(out, p)
		}
	}
	if but := "all but " + panelNames(out); len(out) > 0 && len(but) < len(in) {
		return but
	}
	return in
}

// panelNames names panels by puzzle and task: "queens count", "queens
// count, first; knights tour".
func panelNames(ps []Panel) string {
	var puzzles []string
	tasks := map[string][]string{}
	for _, p := range ps {
		if !slices.Contains(puzzles, p.Puzzle) {
			puzzles = append(puzzles, p.Puzzle)
		}
		tasks[p.Puzzle] = append(tasks[p.Puzzle], p.Task)
	}
	parts := make([]string, len(puzzles))
	for i, p := range puzzles {
		parts[i] = p + " " + strings.Join(tasks[p], ", ")
	}
	return strings.Join(parts, "; ")
}

func (st *styles) apply(variant string, l *plotter.Line, pts *plotter.Scatter) {
	s := st.byVariant[variant]
	l.Color, l.Dashes, l.Width = s.color, s.dashes, vg.Points(1)
	pts.Color, pts.Shape, pts.Radius = s.color, s.glyph, vg.Points(markerPt)
}

// addEntries adds the used variants to f's legend, in style order (by
// backend).
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

// vbsStyle draws the virtual best solver so that it hides no variant's
// line: thin, dashed, dark grey, drawn over the others.
func vbsStyle(l *plotter.Line) {
	l.Color, l.Width, l.Dashes = color.Gray{Y: 40}, vg.Points(0.7), []vg.Length{vg.Points(3), vg.Points(1.5)}
}
