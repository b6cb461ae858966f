package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/boardsat/boardsat/harness/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// spreadColor draws the spread bars: a grey that reads in greyscale and
// hides no line.
var spreadColor = color.Gray{Y: 110}

// bars are points with their spread, for gonum's error bars: distances
// below and above each point.
type bars struct {
	plotter.XYs
	plotter.XErrors
	plotter.YErrors
}

// DrawSpread adds to a scaling or scatter figure (figKind), drawn from
// Summarize(rows, time), a grey bar through each solved point over the
// spread kind (SpreadIQR or SpreadCI) of its solved runs; on the scatter
// one bar per axis, for the variants x and y. The cactus has none: its
// points are the ranks of medians, not one instance's runs.
func DrawSpread(f *Figure, figKind string, rows []results.Row, kind, time, x, y string) error {
	bs, err := spreadBars(f, figKind, rows, kind, time, x, y)
	if err != nil {
		return err
	}
	for i, b := range bs {
		if err := addBars(f.Panels[i], b, figKind == "scatter"); err != nil {
			return err
		}
	}
	f.Note = strings.TrimSpace(f.Note + " Grey bars: the " + SpreadName(kind) + " of each point's solved runs.")
	return nil
}

// spreadBars returns DrawSpread's bars, one set per panel of f.
func spreadBars(f *Figure, figKind string, rows []results.Row, kind, time, x, y string) ([]bars, error) {
	if err := CheckSpread(kind); err != nil || kind == "" {
		return nil, fmt.Errorf("unknown --spread %q: want iqr or ci", kind)
	}
	var out []bars
	sp := spreads(rows, kind, time)
	sums := Summarize(rows, time)
	bound := func(k groupKey) (lo, hi float64) {
		b := sp[k]
		return max(b[0], TimeFloor), max(b[1], TimeFloor)
	}
	switch figKind {
	case "scaling":
		for _, p := range f.Panels {
			var b bars
			for _, s := range sums {
				if s.Solved == 0 || p.Title.Text != s.Puzzle+", task "+s.Task {
					continue
				}
				x, ok := f.pointX[pointKey{s.Puzzle, s.Task, s.Instance, s.Variant}]
				if !ok {
					continue
				}
				t := seconds(s, time)
				lo, hi := bound(groupKey{s.Instance, s.Variant, s.Task})
				b.XYs = append(b.XYs, plotter.XY{X: x, Y: t})
				b.YErrors = append(b.YErrors, struct{ Low, High float64 }{t - min(lo, t), max(hi, t) - t})
			}
			out = append(out, b)
		}
	case "scatter":
		xs := map[[2]string]Summary{}
		for _, s := range sums {
			if s.Variant == x && s.Solved > 0 {
				xs[[2]string{s.Instance, s.Task}] = s
			}
		}
		var b bars
		for _, s := range sums {
			xsum, ok := xs[[2]string{s.Instance, s.Task}]
			if s.Variant != y || s.Solved == 0 || !ok {
				continue
			}
			tx, ty := seconds(xsum, time), seconds(s, time)
			xlo, xhi := bound(groupKey{s.Instance, x, s.Task})
			ylo, yhi := bound(groupKey{s.Instance, y, s.Task})
			b.XYs = append(b.XYs, plotter.XY{X: tx, Y: ty})
			b.XErrors = append(b.XErrors, struct{ Low, High float64 }{tx - min(xlo, tx), max(xhi, tx) - tx})
			b.YErrors = append(b.YErrors, struct{ Low, High float64 }{ty - min(ylo, ty), max(yhi, ty) - ty})
		}
		if len(f.Panels) != 1 {
			return nil, fmt.Errorf("a scatter figure has one panel, not %d", len(f.Panels))
		}
		out = append(out, b)
	default:
		return nil, fmt.Errorf("--spread is drawn on scaling and scatter figures, not %s", figKind)
	}
	return out, nil
}

// addBars adds b's vertical bars (and horizontal ones, when both) to p,
// thin and grey over its lines and marks.
func addBars(p *plot.Plot, b bars, both bool) error {
	if len(b.XYs) == 0 {
		return nil
	}
	for _, v := range b.YErrors {
		if math.IsNaN(v.Low) || math.IsNaN(v.High) {
			return fmt.Errorf("a solved point without a spread")
		}
	}
	yb, err := plotter.NewYErrorBars(b)
	if err != nil {
		return err
	}
	yb.Color, yb.Width, yb.CapWidth = spreadColor, vg.Points(0.6), vg.Points(2.5)
	p.Add(yb)
	if both {
		xb, err := plotter.NewXErrorBars(b)
		if err != nil {
			return err
		}
		xb.Color, xb.Width, xb.CapWidth = spreadColor, vg.Points(0.6), vg.Points(2.5)
		p.Add(xb)
	}
	return nil
}
