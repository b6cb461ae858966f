package report

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// tickLabelGapPt is the least room, in points, between two tick labels of
// an axis: closer, "10" and "100" read as "10100".
const tickLabelGapPt = 3

// roomTicks thins the labels of another ticker to those an axis of a
// given length holds apart: the ticks stay, every k-th label is kept
// (the least k for which no two kept labels come within tickLabelGapPt).
// A figure's panel widths are known only when it is laid out at its print
// size, so saveFigure wraps each panel's x ticks in one (fitTickLabels);
// a log axis of sizes from 10 to 100000 in half a column labels 10, 1000
// and 100000 rather than five labels run together.
type roomTicks struct {
	inner plot.Ticker
	// room is the axis's length on the page; log whether its scale is.
	room vg.Length
	log  bool
	sty  draw.TextStyle
}

// Ticks returns the inner ticker's ticks, labels thinned to fit the room.
func (rt roomTicks) Ticks(min, max float64) []plot.Tick {
	ts := rt.inner.Ticks(min, max)
	pos := func(v float64) vg.Length {
		if rt.log {
			return rt.room * vg.Length((math.Log10(v)-math.Log10(min))/(math.Log10(max)-math.Log10(min)))
		}
		return rt.room * vg.Length((v-min)/(max-min))
	}
	var labelled []int
	for i, t := range ts {
		if t.Label != "" {
			labelled = append(labelled, i)
		}
	}
	for k := 1; k <= len(labelled); k++ {
		var keep []int
		for n, i := range labelled {
			if n%k == 0 {
				keep = append(keep, i)
			}
		}
		if rt.apart(ts, keep, pos) || len(keep) <= 1 {
			out := make([]plot.Tick, len(ts))
			copy(out, ts)
			for n, i := range labelled {
				if n%k != 0 {
					out[i].Label = ""
				}
			}
			return out
		}
	}
	return ts
}

// apart reports whether the labels of ts at the indices keep (in order
// along the axis) leave tickLabelGapPt between neighbours.
func (rt roomTicks) apart(ts []plot.Tick, keep []int, pos func(float64) vg.Length) bool {
	for n := 1; n < len(keep); n++ {
		a, b := ts[keep[n-1]], ts[keep[n]]
		need := (rt.sty.Width(a.Label)+rt.sty.Width(b.Label))/2 + vg.Points(tickLabelGapPt)
		if pos(b.Value)-pos(a.Value) < need {
			return false
		}
	}
	return true
}

// fitTickLabels thins the x tick labels of panel p, drawn on c, to those
// its data area's width holds apart (roomTicks), and returns what puts
// the panel's own ticker back (a figure saved again, at another size,
// fits its labels afresh).
// Ticks given one by one (plot.ConstantTicks) are drawn as given.
func fitTickLabels(p *plot.Plot, c draw.Canvas) (restore func()) {
	inner := p.X.Tick.Marker
	if _, ok := inner.(plot.ConstantTicks); ok {
		return func() {}
	}
	da := p.DataCanvas(c)
	_, log := p.X.Scale.(plot.LogScale)
	p.X.Tick.Marker = roomTicks{inner: inner, room: da.Max.X - da.Min.X, log: log, sty: p.X.Tick.Label}
	return func() { p.X.Tick.Marker = inner }
}
