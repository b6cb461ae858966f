package report

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PlotKinds lists the figures Plot draws.
var PlotKinds = []string{"cactus", "scaling", "scatter", "ecdf"}

// PlotFormats lists the figure file extensions understood.
var PlotFormats = []string{"svg", "png", "pdf"}

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
	// Left names the puzzles and tasks left out of a cactus or scaling
	// figure, having fewer than MinPanelInstances instances.
	Left []string
	// Note, if set, is printed in the figure under the legend, a line of
	// caption: which variants were chosen, by what rule.
	Note string
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

// styleText sets the text sizes of a panel, and its light axes.
func styleText(p *plot.Plot) {
	lightAxes(p)
	p.Title.TextStyle.Font.Size = vg.Points(labelPt)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(labelPt)
		a.Tick.Label.Font.Size = vg.Points(tickPt)
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

// MaxHeight is the tallest a figure may be: a page's text height less a
// caption (a column is 3.5 x 9 in at most, a page 7 x 9 in).
const MaxHeight = 9 * vg.Inch

// PNGDPI is the resolution of a PNG figure: print needs 300 dots an inch
// (the file records it, so that LaTeX and viewers size it right).
const PNGDPI = 300

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
	if !ok || err1 != nil || err2 != nil || w < 1 || w > 20 || h < 1 || h > float64(MaxHeight/vg.Inch) {
		return Size{}, fmt.Errorf("bad figure size %q: want column (3.5 in wide), page (7 in) or WxH in inches, W from 1 to 20 and H from 1 to 9 (a page's height), like 3.5x2.5", s)
	}
	return Size{W: vg.Length(w) * vg.Inch, H: vg.Length(h) * vg.Inch}, nil
}

// Layout of a figure at its print width.
const (
	minPanelW   = 1.6 * vg.Inch // a panel narrower than this packs its ticks
	minPanelH   = 1.2 * vg.Inch // a panel lower than this packs its ticks
	minSquareW  = 2.4 * vg.Inch // a scatter panel: two axes of tick labels
	maxPanelH   = 2.6 * vg.Inch // taller panels only spread the lines
	yLabelW     = 15            // points: the shared time label at the left, 2 pt clear of tick labels
	legendThumb = 20            // points: a legend entry's line and marker
	noteRowPt   = tickPt + 3    // points: a line of the note under the legend
	legendGapPt = 10            // points between legend columns
	legendPadPt = 3             // points between legend rows, beyond the text
)

// SaveFigure writes the figure at column width; see SaveFigureSize.
func SaveFigure(f *Figure, path string) error { return SaveFigureSize(f, path, ColumnSize) }

// SaveFigureSize writes the figure to path at its print size: panels as
// many to a row as the width takes at a readable size (at most Cols), each
// about 4:5 (scatter plots square), and the legend below them in as many
// columns as fit. The extension of path (.svg, .png or .pdf) picks the
// format; the file appears only when complete.
func SaveFigureSize(f *Figure, path string, size Size) error {
	return saveFigure(f, path, size, atomicfile.Options{Replace: true})
}

// SaveDefaultFigure writes the figure as SaveFigureSize does under the name
// boardsat chooses when none is given, DIR/BASE-KIND.EXT, and returns that
// name. A figure of that name is replaced, but a symbolic link there is
// refused, never written through: the name is boardsat's, not the user's.
func SaveDefaultFigure(f *Figure, dir, base, kind, ext string, size Size) (string, error) {
	name := filepath.Join(dir, base+"-"+kind+"."+ext)
	return name, saveFigure(f, name, size, atomicfile.Options{NoFollow: true, Replace: true})
}

// saveFigure is SaveFigureSize, written with atomicfile's options o.
func saveFigure(f *Figure, path string, size Size, o atomicfile.Options) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if !slices.Contains(PlotFormats, ext) {
		return fmt.Errorf("cannot tell the figure format of %q: want a .svg, .png or .pdf file", path)
	}
	lay, err := f.layout(size)
	if err != nil {
		return err
	}
	var c vg.CanvasWriterTo
	switch ext {
	case "svg":
		c = &outlineText{CanvasWriterTo: vgsvg.New(lay.w, lay.h), all: true}
	case "pdf":
		c = &outlineText{CanvasWriterTo: vgpdf.New(lay.w, lay.h)}
	default:
		c = pngCanvas{vgimg.NewWith(vgimg.UseWH(lay.w, lay.h), vgimg.UseDPI(PNGDPI))}
	}
	dc := f.drawCaption(draw.New(c), lay)
	f.drawPanels(dc, lay)
	if ot, ok := c.(*outlineText); ok && ot.err != nil {
		return ot.err
	}
	return atomicfile.WriteWith(path, o, func(wr io.Writer) error {
		_, err := c.WriteTo(wr)
		return err
	})
}

// figureLayout is where a figure's parts go at its print size.
type figureLayout struct {
	w, h           vg.Length // the page
	cols, rows     int       // of panels
	panelW, panelH vg.Length
	legend         plot.Legend // its style
	lcols, lrows   int         // of legend entries
	legendH, noteH vg.Length
	noteLines      []string
	noteSty        draw.TextStyle
}

// layout places the figure's panels, legend and note at size, or refuses
// a figure taller than a page.
func (f *Figure) layout(size Size) (figureLayout, error) {
	lay := figureLayout{w: size.W}
	w := size.W
	minW := minPanelW
	if f.square {
		minW = minSquareW
	}
	lay.cols = max(1, min(max(f.Cols, 1), len(f.Panels), int((w-vg.Points(yLabelW))/minW)))
	if len(f.Panels) == 4 && lay.cols == 3 {
		lay.cols = 2
	}
	lay.rows = (len(f.Panels) + lay.cols - 1) / lay.cols
	lg := plot.NewLegend()
	lg.Top, lg.Left = true, true
	lg.TextStyle.Font.Size = vg.Points(tickPt)
	lg.ThumbnailWidth = vg.Points(legendThumb)
	lay.legend = lg
	longest := vg.Length(0)
	for _, l := range f.labels {
		longest = max(longest, lg.TextStyle.Rectangle(" "+l).Max.X)
	}
	entryW := vg.Points(legendThumb) + longest + vg.Points(legendGapPt)
	lay.lcols = max(1, min(len(f.labels), int(w/entryW)))
	lay.lrows = (len(f.labels) + lay.lcols - 1) / lay.lcols
	// A legend row is as tall as gonum draws it: its tallest entry's text
	// above the baseline, and the padding between rows.
	entryH := vg.Length(0)
	for _, l := range f.labels {
		entryH = max(entryH, lg.TextStyle.Rectangle(l).Max.Y)
	}
	if lay.lrows > 0 {
		lay.legendH = vg.Length(lay.lrows)*(entryH+vg.Points(legendPadPt)) + vg.Points(8)
	}
	lay.noteSty = lg.TextStyle
	lay.noteLines = wrapText(lay.noteSty, f.Note, w-vg.Points(8))
	lay.noteH = vg.Points(float64(len(lay.noteLines) * noteRowPt))
	if len(lay.noteLines) > 0 {
		lay.noteH += vg.Points(4)
	}
	lay.panelW = (w - vg.Points(yLabelW)) / vg.Length(lay.cols)
	lay.panelH = min(lay.panelW*0.8, maxPanelH)
	if f.square {
		lay.panelH = min(lay.panelW*0.9, maxPanelH+vg.Inch/2)
	}
	lay.h = size.H
	if lay.h == 0 {
		// Never taller than a page: lower panels, down to a readable
		// height, then a refusal naming what to do.
		lay.panelH = min(lay.panelH, (MaxHeight-lay.legendH-lay.noteH)/vg.Length(lay.rows))
		if lay.panelH < minPanelH {
			return lay, fmt.Errorf("%d panels in %d rows do not fit %.3g x %.3g in (the most a page takes): draw fewer (--puzzle, --task) or print wider (--size page)",
				len(f.Panels), lay.rows, float64(w/vg.Inch), float64(MaxHeight/vg.Inch))
		}
		lay.h = lay.panelH*vg.Length(lay.rows) + lay.legendH + lay.noteH
	}
	return lay, nil
}

// drawCaption draws the note at the foot of the figure and the legend
// above it, column by column, and returns the canvas left for the panels.
func (f *Figure) drawCaption(dc draw.Canvas, lay figureLayout) draw.Canvas {
	if len(lay.noteLines) > 0 {
		for i, line := range lay.noteLines {
			dc.FillText(lay.noteSty, vg.Point{X: vg.Points(4), Y: lay.noteH - vg.Points(float64((i+1)*noteRowPt))}, line)
		}
		dc = draw.Crop(dc, 0, 0, lay.noteH, 0)
	}
	if len(f.labels) == 0 {
		return dc
	}
	// The legend below the panels, column by column.
	below := draw.Crop(dc, 0, 0, 0, -(lay.h - lay.noteH - lay.legendH))
	colW := lay.w / vg.Length(lay.lcols)
	for k := range lay.lcols {
		part := plot.NewLegend()
		part.Top, part.Left = true, true
		part.TextStyle, part.ThumbnailWidth = lay.legend.TextStyle, lay.legend.ThumbnailWidth
		// Rows a line of 8 pt text apart: gonum spaces them by the
		// ascent alone, which lets descenders touch the row below.
		part.Padding = vg.Points(legendPadPt)
		for i := k * lay.lrows; i < min((k+1)*lay.lrows, len(f.labels)); i++ {
			part.Add(f.labels[i], f.thumbs[i]...)
		}
		part.Draw(draw.Crop(below, vg.Length(k)*colW+vg.Points(4), -(lay.w - vg.Length(k+1)*colW), 0, -vg.Points(4)))
	}
	return draw.Crop(dc, 0, 0, lay.legendH, 0)
}

// drawPanels draws the shared y label and the panels, aligned in a grid.
func (f *Figure) drawPanels(dc draw.Canvas, lay figureLayout) {
	if side := lay.panelH / 0.9; f.square && lay.cols == 1 && lay.panelW > side {
		// A square panel stays square on a wide page: centred, its axes
		// as long as each other, the diagonal at 45°, its label beside it.
		dc = draw.Crop(dc, (lay.panelW-side)/2, -(lay.panelW-side)/2, 0, 0)
	}
	if f.yLabel != "" {
		sty := plot.New().Y.Label.TextStyle
		sty.Font.Size = vg.Points(labelPt)
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		dc.FillText(sty, vg.Point{X: dc.Min.X + vg.Points(yLabelW/2), Y: dc.Min.Y + (dc.Max.Y-dc.Min.Y)/2}, f.yLabel)
	}
	dc = draw.Crop(dc, vg.Points(yLabelW), 0, 0, 0)
	grid := make([][]*plot.Plot, lay.rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, lay.cols)
		for k := range lay.cols {
			if i := r*lay.cols + k; i < len(f.Panels) {
				grid[r][k] = f.Panels[i]
			}
		}
	}
	tiles := draw.Tiles{Rows: lay.rows, Cols: lay.cols, PadX: vg.Points(8), PadY: vg.Points(8),
		PadTop: vg.Points(3), PadBottom: vg.Points(3), PadLeft: vg.Points(2), PadRight: vg.Points(6)}
	canvases := plot.Align(grid, tiles, dc)
	for r := range grid {
		for k, p := range grid[r] {
			if p != nil {
				p.Draw(canvases[r][k])
			}
		}
	}
}

// wrapText breaks s into lines no wider than w in the text style (none for
// an empty s).
func wrapText(sty draw.TextStyle, s string, w vg.Length) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && sty.Width(line+" "+word) > w {
			lines = append(lines, line)
			line = word
			continue
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
