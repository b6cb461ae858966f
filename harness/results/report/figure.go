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
	"gonum.org/v1/plot/plotter"
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
	// timedOut are the points drawn as crosses at the time limit (a
	// scaling figure's timed-out instances), over all panels.
	timedOut []plotter.XY
	// pointX is where a scaling figure draws each point along x (its
	// instance's size, set a little apart per variant: dodge).
	pointX map[pointKey]float64
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

// MaxHeight is the tallest a figure is drawn by itself: a two-column
// article's text height (550 pt) less room for a caption of three lines,
// at the 0.91 it is scaled by to the article's column (IEEE's and ACM's
// pages are taller). A size given as WxH may be up to 9 in.
const MaxHeight = 7.5 * vg.Inch

// maxSizeH is the tallest size ParseSize takes.
const maxSizeH = 9 * vg.Inch

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
	if !ok || err1 != nil || err2 != nil || w < 1 || w > 20 || h < 1 || h > float64(maxSizeH/vg.Inch) {
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
	yLabelW     = 15            // points: the shared time label at the left
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

// SaveDefaultFigure writes the figure as SaveFigureSize does under a name
// boardsat chose (DefaultFigurePath, or a further file of a split figure).
// A figure of that name is replaced, but a symbolic link there is refused,
// never written through: the name is boardsat's, not the user's.
func SaveDefaultFigure(f *Figure, path string, size Size) error {
	return saveFigure(f, path, size, atomicfile.Options{NoFollow: true, Replace: true})
}

// DefaultFigurePath is the name boardsat gives a figure when none is
// given: DIR/BASE-KIND.EXT.
func DefaultFigurePath(dir, base, kind, ext string) string {
	return filepath.Join(dir, base+"-"+kind+"."+ext)
}

// saveFigure is SaveFigureSize, written with atomicfile's options o.
func saveFigure(f *Figure, path string, size Size, o atomicfile.Options) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if !slices.Contains(PlotFormats, ext) {
		return fmt.Errorf("cannot tell the figure format of %q: want a .svg, .png or .pdf file", path)
	}
	lay, err := layout(f, size)
	if err != nil {
		return err
	}
	w, h, cols, rows, panelW, panelH := size.W, lay.h, lay.cols, lay.rows, lay.panelW, lay.panelH
	lg, lcols, lrows, legendH, noteSty, noteLines, noteH := *lay.legend, lay.lcols, lay.lrows, lay.legendH, lay.legend.TextStyle, lay.noteLines, lay.noteH
	var c vg.CanvasWriterTo
	switch ext {
	case "svg":
		c = &outlineText{CanvasWriterTo: vgsvg.New(w, h), all: true}
	case "pdf":
		c = &outlineText{CanvasWriterTo: vgpdf.New(w, h)}
	default:
		c = pngCanvas{vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI))}
	}
	dc := draw.New(c)
	if len(noteLines) > 0 {
		for i, line := range noteLines {
			dc.FillText(noteSty, vg.Point{X: vg.Points(4), Y: noteH - vg.Points(float64((i+1)*noteRowPt))}, line)
		}
		dc = draw.Crop(dc, 0, 0, noteH, 0)
	}
	if len(lay.labels) > 0 {
		// The legend below the panels, column by column.
		below := draw.Crop(dc, 0, 0, 0, -(h - noteH - legendH))
		colW := w / vg.Length(lcols)
		for k := range lcols {
			part := plot.NewLegend()
			part.Top, part.Left = true, true
			part.TextStyle, part.ThumbnailWidth = lg.TextStyle, lg.ThumbnailWidth
			// Rows a line of 8 pt text apart: gonum spaces them by the
			// ascent alone, which lets descenders touch the row below.
			part.Padding = vg.Points(legendPadPt)
			for i := k * lrows; i < min((k+1)*lrows, len(lay.labels)); i++ {
				part.Add(lay.labels[i], lay.thumbs[i]...)
			}
			part.Draw(draw.Crop(below, vg.Length(k)*colW+vg.Points(4), -(w - vg.Length(k+1)*colW), 0, -vg.Points(4)))
		}
		dc = draw.Crop(dc, 0, 0, legendH, 0)
	}
	if side := panelH / 0.9; f.square && cols == 1 && panelW > side {
		// A square panel stays square on a wide page: centred, its axes
		// as long as each other, the diagonal at 45°, its label beside it.
		dc = draw.Crop(dc, (panelW-side)/2, -(panelW-side)/2, 0, 0)
	}
	if f.yLabel != "" {
		sty := plot.New().Y.Label.TextStyle
		sty.Font.Size = vg.Points(labelPt)
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		dc.FillText(sty, vg.Point{X: dc.Min.X + vg.Points(yLabelW/2), Y: dc.Min.Y + (dc.Max.Y-dc.Min.Y)/2}, f.yLabel)
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
				restore := fitTickLabels(p, canvases[r][k])
				p.Draw(canvases[r][k])
				restore()
			}
		}
	}
	if ot, ok := c.(*outlineText); ok && ot.err != nil {
		return ot.err
	}
	return atomicfile.WriteWith(path, o, func(wr io.Writer) error {
		_, err := c.WriteTo(wr)
		return err
	})
}

// figLayout is where a figure's parts go at a print size.
type figLayout struct {
	cols, rows, lcols, lrows int
	legend                   *plot.Legend
	legendH, noteH           vg.Length
	noteLines                []string
	panelW, panelH, h        vg.Length
	// labels and thumbs are the legend's lines (legendLines).
	labels []string
	thumbs [][]plot.Thumbnailer
}

// layout places the figure's panels, legend and note at size: panels as
// many to a row as the width takes, lowered (down to a readable height)
// to keep the figure under MaxHeight; an error when even that does not.
func layout(f *Figure, size Size) (figLayout, error) {
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
	labels, thumbs := legendLines(f.labels, f.thumbs, lg.TextStyle, w)
	longest := vg.Length(0)
	for _, l := range labels {
		longest = max(longest, lg.TextStyle.Rectangle(" "+l).Max.X)
	}
	entryW := vg.Points(legendThumb) + longest + vg.Points(legendGapPt)
	lcols := max(1, min(len(labels), int(w/entryW)))
	if len(labels) > len(f.labels) {
		lcols = 1 // a wrapped entry's lines stay together
	}
	lrows := (len(labels) + lcols - 1) / lcols
	// A legend row is as tall as gonum draws it: its tallest entry's text
	// above the baseline, and the padding between rows.
	entryH := vg.Length(0)
	for _, l := range labels {
		entryH = max(entryH, lg.TextStyle.Rectangle(l).Max.Y)
	}
	legendH := vg.Length(0)
	if lrows > 0 {
		legendH = vg.Length(lrows)*(entryH+vg.Points(legendPadPt)) + vg.Points(8)
	}
	noteSty := lg.TextStyle
	noteLines := wrapText(noteSty, f.Note, w-vg.Points(8))
	noteH := vg.Points(float64(len(noteLines) * noteRowPt))
	if len(noteLines) > 0 {
		noteH += vg.Points(4)
	}
	panelW := (w - vg.Points(yLabelW)) / vg.Length(cols)
	panelH := min(panelW*0.8, maxPanelH)
	if f.square {
		panelH = min(panelW*0.9, maxPanelH+vg.Inch/2)
	}
	h := size.H
	if h == 0 {
		// Never taller than a page: lower panels, down to a readable
		// height, then a refusal naming what to do.
		panelH = min(panelH, (MaxHeight-legendH-noteH)/vg.Length(rows))
		if panelH < minPanelH {
			return figLayout{}, fmt.Errorf("%d panels in %d rows do not fit %.3g x %.3g in (the most a page takes): draw fewer (--puzzle, --task) or print wider (--size page)",
				len(f.Panels), rows, float64(w/vg.Inch), float64(MaxHeight/vg.Inch))
		}
		h = panelH*vg.Length(rows) + legendH + noteH
	}
	return figLayout{cols: cols, rows: rows, lcols: lcols, lrows: lrows, legend: &lg, legendH: legendH, noteH: noteH, noteLines: noteLines,
		panelW: panelW, panelH: panelH, h: h, labels: labels, thumbs: thumbs}, nil
}

// legendLines returns the legend's entries as the lines drawn at a figure
// width w: an entry whose text is wider than the width leaves beside its
// sample is wrapped, its sample on the first line, the others without
// (a label such as "sat/x (ran 3 of 9 tour first, ...)" would otherwise
// run off the page).
func legendLines(labels []string, thumbs [][]plot.Thumbnailer, sty draw.TextStyle, w vg.Length) ([]string, [][]plot.Thumbnailer) {
	room := w - vg.Points(legendThumb+legendGapPt+8)
	var ls []string
	var ts [][]plot.Thumbnailer
	for i, l := range labels {
		lines := []string{l}
		if sty.Width(" "+l) > room {
			lines = wrapText(sty, l, room)
		}
		for k, line := range lines {
			ls = append(ls, line)
			if k == 0 {
				ts = append(ts, thumbs[i])
			} else {
				ts = append(ts, nil)
			}
		}
	}
	return ls, ts
}

// readablePanelH is the height a panel of a figure split over files
// (SplitFigure) keeps: lower ones only pack more rows into a file.
const readablePanelH = 1.6 * vg.Inch

// SplitFigure returns the figure as it is when its panels fit MaxHeight at
// size, each at least readablePanelH tall; else as several figures of
// as many rows of panels as fit, each with the whole legend and note.
func SplitFigure(f *Figure, size Size) []*Figure {
	lay, err := layout(&Figure{Panels: f.Panels[:1], Cols: f.Cols, labels: f.labels, thumbs: f.thumbs, square: f.square, Note: f.Note}, size)
	if err != nil {
		return []*Figure{f}
	}
	cols := max(1, min(max(f.Cols, 1), int((size.W-vg.Points(yLabelW))/minPanelW)))
	if f.Cols == 4 && cols == 3 {
		cols = 2
	}
	fitRows := max(1, int((MaxHeight-lay.legendH-lay.noteH)/readablePanelH))
	per := fitRows * cols
	if len(f.Panels) <= per {
		return []*Figure{f}
	}
	var out []*Figure
	for i := 0; i < len(f.Panels); i += per {
		part := *f
		part.Panels = f.Panels[i:min(i+per, len(f.Panels))]
		out = append(out, &part)
	}
	return out
}

// SplitPath names part k (from 0) of a figure split over files: path
// itself, then NAME-2.EXT, NAME-3.EXT...
func SplitPath(path string, k int) string {
	if k == 0 {
		return path
	}
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), k+1, ext)
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
