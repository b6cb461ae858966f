package report

import (
	"image/color"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/boardsat/boardsat/puzzle"
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

// Markers: filled ones for native searches, open ones for SAT variants;
// none is the cross, which marks the runs a scatter plot's variant did not
// solve (unsolvedGlyph).
var (
	filledGlyphs  = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, diamondGlyph{filled: true}}
	openGlyphs    = []draw.GlyphDrawer{draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, diamondGlyph{}, draw.PlusGlyph{}}
	unsolvedGlyph = draw.CrossGlyph{}
)

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
	{diamondGlyph{}, palette[3]},
	{draw.CircleGlyph{}, palette[4]},
	{draw.BoxGlyph{}, palette[6]},
	{draw.PyramidGlyph{}, palette[5]},
	{draw.PlusGlyph{}, palette[7]},
	{diamondGlyph{filled: true}, palette[0]},
}

// diamondGlyph is a square stood on its corner, open or filled: a shape
// gonum lacks, so that nine markers differ in shape.
type diamondGlyph struct{ filled bool }

// DrawGlyph draws the diamond at pt.
func (g diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.3
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	if g.filled {
		c.SetColor(sty.Color)
		c.Fill(p)
		return
	}
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.5)})
	c.Stroke(p)
}

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

// family is the look of a variant's backend: the family it declares
// (puzzle.FamilyOf: native search, SAT, other).
func family(variant string) puzzle.Family {
	return puzzle.FamilyOf(strings.SplitN(variant, "/", 2)[0])
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
		case puzzle.FamilySearch:
			s.glyph, s.dashes = filledGlyphs[i%len(filledGlyphs)], solid
		case puzzle.FamilySAT:
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

// vbsStyle draws the virtual best solver: a thick black line.
func vbsStyle(l *plotter.Line) {
	l.Color, l.Width, l.Dashes = color.Black, vg.Points(2.2), nil
}
