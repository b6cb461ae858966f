package report

import (
	"fmt"
	"image"
	"image/color"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// legendGrey renders legend entry i of f (its line and marker, as the
// legend draws them) at 300 dpi and returns it in greyscale.
func legendGrey(f *Figure, i int) *image.Gray {
	c := vgimg.NewWith(vgimg.UseWH(vg.Points(legendThumb), vg.Points(tickPt+4)), vgimg.UseDPI(PNGDPI))
	dc := draw.New(c)
	dc.SetColor(color.White)
	var p vg.Path
	p.Move(vg.Point{})
	p.Line(vg.Point{X: dc.Max.X})
	p.Line(dc.Max)
	p.Line(vg.Point{Y: dc.Max.Y})
	p.Close()
	dc.Fill(p)
	for _, th := range f.thumbs[i] {
		th.Thumbnail(&dc)
	}
	img := c.Image()
	grey := image.NewGray(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			grey.Set(x, y, color.GrayModel.Convert(img.At(x, y)))
		}
	}
	return grey
}

// greyDiff is the share of pixels of a and b whose grey levels differ by
// more than 24 of 255.
func greyDiff(a, b *image.Gray) float64 {
	n := 0
	for i := range a.Pix {
		if d := int(a.Pix[i]) - int(b.Pix[i]); d > 24 || d < -24 {
			n++
		}
	}
	return float64(n) / float64(len(a.Pix))
}

// TestLegendGreyscale: in a cactus of every backend (the fixture's native
// and SAT variants, the mixed file's CP and MIP ones, and a check
// variant), each legend entry, rendered in greyscale, differs from every
// other in at least 2% of its pixels; no marker is drawn for two
// variants of a panel; the backends' hues differ, and a legend entry of a
// variant drawn in some panels only names their puzzle and task.
func TestLegendGreyscale(t *testing.T) {
	rows, err := results.ReadFiles(fixtureCSV, mixedCSV)
	if err != nil {
		t.Fatal(err)
	}
	var extra []results.Row
	for _, r := range rows {
		if r.Variant == "native/plain" && r.Puzzle == "queens" && r.Task == "count" {
			r.Variant, r.Backend = "check/brute", "check"
			extra = append(extra, r)
		}
	}
	sums := Summarize(append(rows, extra...), TimeCPU)
	f, err := Cactus(sums, TimeCPU)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.labels) < 8 {
		t.Fatalf("%d legend entries: %q", len(f.labels), f.labels)
	}
	imgs := make([]*image.Gray, len(f.labels))
	for i := range f.labels {
		imgs[i] = legendGrey(f, i)
	}
	for i := range imgs {
		for j := range i {
			if d := greyDiff(imgs[i], imgs[j]); d < 0.02 {
				t.Errorf("legend entries %q and %q differ in %.1f%% of their pixels in greyscale", f.labels[j], f.labels[i], 100*d)
			}
		}
	}
	st := newStyles(sums)
	for _, pn := range Panels(sums) {
		seen := map[string]string{}
		for _, s := range sums {
			if s.Puzzle != pn.Puzzle || s.Task != pn.Task {
				continue
			}
			g := fmt.Sprintf("%#v", st.byVariant[s.Variant].glyph)
			if u, ok := seen[g]; ok && u != s.Variant {
				t.Errorf("%v: %s and %s share a marker", pn, u, s.Variant)
			}
			seen[g] = s.Variant
		}
	}
	hues := map[color.Color]string{}
	for _, v := range []string{"native/plain", "sat/pairwise", "cp/gecode", "mip/cbc", "check/brute"} {
		c := st.byVariant[v].color
		if u, ok := hues[c]; ok {
			t.Errorf("%s and %s have one colour", u, v)
		}
		hues[c] = v
	}
	if got := st.label["check/brute"]; got != "check/brute (queens count)" {
		t.Errorf("legend label %q, want the puzzle and the task", got)
	}
}

// TestLogAxesLabelled: every log axis of every figure kind, of the
// fixture and of the mixed file, has at least three labels (the cactus
// of the fixture had two, 0.01 and 0.1; the ECDF none left of 1).
func TestLogAxesLabelled(t *testing.T) {
	for _, file := range []string{fixtureCSV, mixedCSV} {
		rows, err := results.ReadFiles(file)
		if err != nil {
			t.Fatal(err)
		}
		sums := Summarize(rows, TimeCPU)
		x, y, ok := ScatterPair(sums)
		if !ok {
			t.Fatalf("%s: no scatter pair", file)
		}
		kinds := map[string]func() (*Figure, error){
			"cactus":  func() (*Figure, error) { return Cactus(sums, TimeCPU) },
			"scaling": func() (*Figure, error) { return Scaling(sums, TimeCPU) },
			"scatter": func() (*Figure, error) { return Scatter(sums, x, y, TimeCPU) },
			"ecdf":    func() (*Figure, error) { return ECDF(sums, x, y, TimeCPU) },
		}
		for kind, make := range kinds {
			f, err := make()
			if err != nil {
				t.Fatalf("%s %s: %v", file, kind, err)
			}
			for i, p := range f.Panels {
				for name, a := range map[string]*plot.Axis{"x": &p.X, "y": &p.Y} {
					if _, log := a.Scale.(plot.LogScale); !log {
						continue
					}
					var labels []string
					for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
						if tk.Label != "" {
							labels = append(labels, tk.Label)
						}
					}
					if len(labels) < 3 {
						t.Errorf("%s %s panel %d: the log %s axis has the labels %q, want 3 at least", file, kind, i+1, name, labels)
					}
				}
			}
		}
	}
}
