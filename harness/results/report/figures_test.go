package report

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TestSelectVariantsEachBackend: in the fixture's queens count, the two
// native variants are the fastest; a plain top 2 would keep them alone and
// leave SAT out. The default selection keeps the best of each backend,
// even beyond n.
func TestSelectVariantsEachBackend(t *testing.T) {
	rows, err := results.ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	var qc []results.Row
	for _, r := range rows {
		if r.Puzzle == "queens" && r.Task == "count" {
			qc = append(qc, r)
		}
	}
	if top, _ := TopVariants(qc, 2, TimeSolver); !slices.Equal(top, []string{"native/bitboard", "native/plain"}) {
		t.Fatalf("the fixture's top 2 are %q: the test needs the natives first", top)
	}
	kept, left := SelectVariants(qc, 2, TimeSolver)
	if !slices.Equal(kept, []string{"native/bitboard", "sat/totalizer"}) || len(left) != 3 {
		t.Errorf("kept %q, left %q; want the best native and the best SAT variant", kept, left)
	}
	if kept, _ := SelectVariants(qc, 1, TimeSolver); len(kept) != 2 {
		t.Errorf("n = 1 kept %q: the best of each backend stays", kept)
	}
	if kept, left := SelectVariants(qc, 0, TimeSolver); len(kept) != 5 || left != nil {
		t.Errorf("n = 0 kept %q, left %q", kept, left)
	}
}

// TestSelectVariantsRefusedAside: a brute-force variant refused on two of
// three instances leaves one instance every variant ran; the panel is
// drawn all the same (three instances in all), so its best of each
// backend is kept. Chosen over the common instances, a fresh quick suite's
// cactus drew no native variant.
func TestSelectVariantsRefusedAside(t *testing.T) {
	var rows []results.Row
	for _, in := range []string{"queens:4", "queens:5", "queens:6"} {
		for _, v := range []struct {
			name string
			secs float64
		}{{"native/a", 0.02}, {"sat/b", 0.05}, {"sat/c", 0.04}, {"sat/d", 0.03}, {"check", 0.01}} {
			r := row(in, v.name, "count", 1, results.StatusOK, v.secs)
			if v.name == "check" && in != "queens:4" {
				r.Status, r.Message = results.StatusError, results.RefusedMessage("too large")
			}
			rows = append(rows, r)
		}
	}
	kept, _ := SelectVariants(rows, 2, TimeWall)
	for _, want := range []string{"native/a", "sat/d", "check"} {
		if !slices.Contains(kept, want) {
			t.Errorf("kept %q: no %s, the best of its backend", kept, want)
		}
	}
}

// TestFigureFitsPage: a cactus of many panels made for a column is never
// taller than MaxHeight (7.5 in): its panels get lower, and when they
// would get too low to read, it is refused with what to do; SplitFigure
// spreads such a figure over several, each of readable panels that fit.
func TestFigureFitsPage(t *testing.T) {
	var rows []results.Row
	for p := range 16 {
		for n := 4; n < 7; n++ {
			for _, v := range []string{"native/a", "sat/b"} {
				r := row(fmt.Sprintf("queens:%d", n), v, "count", 1, results.StatusOK, float64(n)/100)
				r.Puzzle = fmt.Sprintf("p%02d", p)
				r.Instance = r.Puzzle + ":" + r.Instance
				r.SolverSeconds = r.Seconds
				rows = append(rows, r)
			}
		}
	}
	dir := t.TempDir()
	for _, c := range []struct {
		panels int
		ok     bool
	}{{6, true}, {10, true}, {16, false}} {
		f, err := Cactus(Summarize(rows[:c.panels*6], TimeSolver), TimeSolver)
		if err != nil || len(f.Panels) != c.panels {
			t.Fatalf("%d panels: %v", c.panels, err)
		}
		path := filepath.Join(dir, fmt.Sprintf("c%d.svg", c.panels))
		err = SaveFigure(f, path)
		if !c.ok {
			if err == nil || !strings.Contains(err.Error(), "do not fit 3.5 x 7.5 in") {
				t.Errorf("%d panels: %v, want a refusal", c.panels, err)
			}
			if _, err := os.Stat(path); err == nil {
				t.Errorf("%d panels: a figure was written", c.panels)
			}
		} else if err != nil {
			t.Fatalf("%d panels: %v", c.panels, err)
		} else if w, h := svgSize(t, path); w != 252 || h > 7.5*72 {
			t.Errorf("%d panels: %g x %g pt, want 252 wide and at most 540 tall", c.panels, w, h)
		}
		parts := SplitFigure(f, ColumnSize)
		n := 0
		for i, part := range parts {
			n += len(part.Panels)
			p := SplitPath(filepath.Join(dir, fmt.Sprintf("s%d.svg", c.panels)), i)
			if err := SaveFigure(part, p); err != nil {
				t.Fatalf("%d panels, part %d: %v", c.panels, i+1, err)
			}
			if w, h := svgSize(t, p); w != 252 || h > 7.5*72 {
				t.Errorf("%d panels, part %d: %g x %g pt", c.panels, i+1, w, h)
			}
		}
		if n != c.panels || (c.panels == 16 && len(parts) < 2) || (c.panels == 6 && len(parts) != 1) {
			t.Errorf("%d panels split into %d figures of %d panels", c.panels, len(parts), n)
		}
	}
	if got := SplitPath("a/b.pdf", 2); got != "a/b-3.pdf" {
		t.Errorf("SplitPath: %s", got)
	}
	if _, err := ParseSize("3.5x12"); err == nil {
		t.Error("a 12 in tall size accepted")
	}
}

// svgSize reads the width and height of an SVG gonum wrote, in points.
func svgSize(t *testing.T, path string) (w, h float64) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<svg[^>]* width="([0-9.]+)pt" height="([0-9.]+)pt"`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s: no size", path)
	}
	w, _ = strconv.ParseFloat(string(m[1]), 64)
	h, _ = strconv.ParseFloat(string(m[2]), 64)
	return w, h
}

// TestPNGResolution: a PNG figure is 300 dpi and says so (pHYs), so a
// column-wide figure is 1050 pixels wide.
func TestPNGResolution(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.png")
	f, err := Cactus(Summarize(aggRows(), TimeWall), TimeWall)
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveFigure(f, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != 1050 {
		t.Errorf("%d pixels wide, want 1050 (3.5 in at 300 dpi)", w)
	}
	i := bytes.Index(data, []byte("pHYs"))
	if i < 0 {
		t.Fatal("no pHYs chunk: the PNG does not say its resolution")
	}
	x, y, unit := binary.BigEndian.Uint32(data[i+4:]), binary.BigEndian.Uint32(data[i+8:]), data[i+12]
	if x != 11811 || y != 11811 || unit != 1 {
		t.Errorf("pHYs %d x %d per unit %d, want 11811 dots a metre (300 dpi)", x, y, unit)
	}
}

// TestTickLabelsApart: an axis ending at a limit of 20 s labels 20 and not
// 10 (they would run together as "1020"), at 3 s both 1 and 3; minor ticks
// are drawn over a few decades only.
func TestTickLabelsApart(t *testing.T) {
	for _, c := range []struct {
		min, max, limit float64
		want            []string
		minor           bool
	}{
		{0.1, 20, 20, []string{"0.1", "1", "20"}, true},
		{0.001, 3, 3, []string{"0.001", "0.01", "0.1", "1", "3"}, true},
		{0.0001, 100, 100, []string{"≤0.0001", "0.001", "0.01", "0.1", "1", "10", "100"}, false},
	} {
		var got []string
		minor := 0
		for _, tk := range (floorTicks{limit: c.limit}).Ticks(c.min, c.max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			} else if !slices.Contains([]float64{1e-4, 1e-3, 1e-2, 0.1, 1, 10, 100}, tk.Value) {
				minor++
			}
		}
		if !slices.Equal(got, c.want) || (minor > 0) != c.minor {
			t.Errorf("%g..%g, limit %g: labels %q, %d minor ticks; want %q, minor %v", c.min, c.max, c.limit, got, minor, c.want, c.minor)
		}
	}
}

// TestMarkersApart: the scatter plot's puzzle markers differ pairwise in
// shape and in colour, and none is the cross of the unsolved runs; nor is
// any variant's marker.
func TestMarkersApart(t *testing.T) {
	for i, a := range puzzleMarks {
		if fmt.Sprintf("%T", a.glyph) == fmt.Sprintf("%T", unsolvedGlyph) {
			t.Errorf("puzzle marker %d is the unsolved cross", i)
		}
		for j, b := range puzzleMarks[:i] {
			if fmt.Sprintf("%#v", a.glyph) == fmt.Sprintf("%#v", b.glyph) {
				t.Errorf("puzzle markers %d and %d have one shape", j, i)
			}
			if i < len(palette) && a.color == b.color {
				t.Errorf("puzzle markers %d and %d have one colour", j, i)
			}
		}
	}
	for _, g := range variantGlyphs {
		if _, cross := g.(draw.CrossGlyph); cross {
			t.Errorf("a variant marker is the unsolved cross")
		}
	}
}

// TestRoomTicksThin: decade labels 10 to 100000 on a log axis 80 pt long
// (half a column's panel) are thinned so that no two come within
// tickLabelGapPt, every tick kept; on 400 pt all five stay.
func TestRoomTicksThin(t *testing.T) {
	p := plot.New()
	styleText(p)
	for _, c := range []struct {
		room   vg.Length
		labels int
	}{{vg.Points(80), 3}, {vg.Points(400), 5}} {
		inner := floorTicks{ratio: true}
		rt := roomTicks{inner: inner, room: c.room, log: true, sty: p.X.Tick.Label}
		ts := rt.Ticks(10, 1e5)
		if len(ts) != len(inner.Ticks(10, 1e5)) {
			t.Errorf("room %v: %d ticks, want every one of the inner ticker's", c.room, len(ts))
		}
		var kept []plot.Tick
		for _, tk := range ts {
			if tk.Label != "" {
				kept = append(kept, tk)
			}
		}
		if len(kept) != c.labels {
			t.Errorf("room %v: labels %v, want %d", c.room, kept, c.labels)
		}
		for i := 1; i < len(kept); i++ {
			a, b := kept[i-1], kept[i]
			gap := c.room*vg.Length((math.Log10(b.Value)-math.Log10(a.Value))/4) - (rt.sty.Width(a.Label)+rt.sty.Width(b.Label))/2
			if gap < vg.Points(tickLabelGapPt) {
				t.Errorf("room %v: %q and %q %.1f pt apart", c.room, a.Label, b.Label, gap.Points())
			}
		}
	}
}
