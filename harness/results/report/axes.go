package report

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// TimeFloor is the smallest time a figure shows: a median below it is
// drawn at it. Below a tenth of a millisecond (solver seconds, --time
// solver, reach that low; CPU and wall seconds include process start-up)
// times are timer and scheduling noise, so the floor keeps a dozen decades
// of meaningless differences off the axis.
const TimeFloor = 1e-4

// seconds returns the median time of a summary in the time measure that
// a figure plots, at least TimeFloor.
func seconds(s Summary, time string) float64 {
	t := medianOf(s, time)
	if math.IsNaN(t) || t < TimeFloor {
		return TimeFloor
	}
	return t
}

// timeLabel describes the plotted time on an axis.
func timeLabel(time string) string { return "median " + TimeName(time) }

// decades widens [lo, hi] to whole decades (log ticks need at least one
// decade in view to label anything), exactly: math.Pow10 of an integer.
func decades(lo, hi float64) (float64, float64) {
	a, b := int(math.Floor(math.Log10(lo)+1e-9)), int(math.Ceil(math.Log10(hi)-1e-9))
	if b <= a {
		b = a + 1
	}
	return math.Pow10(a), math.Pow10(b)
}

// floorTicks are log ticks, a labelled one at each power of ten and light
// unlabelled ones at 2 and 5 times it (only when the axis spans at most
// minorDecades decades: more would pack into a comb), whose label at
// TimeFloor reads "≤0.0001": the points there stand for every time at or
// below the floor. An axis that ends at a time limit that is no power of
// ten gets a labelled tick there, and a power of ten too close to it to
// hold a label of its own (labelGap) keeps its tick but not its label, so
// that labels never run together ("10" and "20" as "1020").
// (plot.LogTicks misses the lowest decade when min is below 1:
// int(Log10(1e-4)) is -3.)
// An axis of fewer than minLabels labelled decades labels its 2 and 5
// ticks too, so that a reader has three labels to read a log axis by.
// ratio marks an axis of ratios, not times: no floor label.
type floorTicks struct {
	limit float64
	ratio bool
}

// minLabels is the fewest labels a log axis shows.
const minLabels = 3

// minorDecades is the most decades an axis spans with minor ticks drawn;
// labelGap the least distance, in decades, between two labelled ticks.
const (
	minorDecades = 4
	labelGap     = 0.45
)

// Ticks returns the ticks between min and max.
func (ft floorTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	limit := ft.limit
	if limit <= 0 || limit > max*(1+1e-9) || math.Abs(math.Log10(limit)-math.Round(math.Log10(limit))) < 1e-9 {
		limit = 0 // no label of its own: off the axis, or a power of ten
	}
	minor := math.Log10(max)-math.Log10(min) <= minorDecades+1e-9
	for e := int(math.Floor(math.Log10(min) + 1e-9)); e <= int(math.Ceil(math.Log10(max)-1e-9)); e++ {
		v := math.Pow10(e)
		if v > max*(1+1e-9) {
			break
		}
		label := strconv.FormatFloat(v, 'f', -1, 64)
		if !ft.ratio && math.Abs(v-TimeFloor) < TimeFloor*1e-6 {
			label = "≤" + label
		}
		if limit > 0 && math.Abs(math.Log10(v)-math.Log10(limit)) < labelGap {
			label = ""
		}
		if v >= min*(1-1e-9) {
			ts = append(ts, plot.Tick{Value: v, Label: label})
		}
		for _, k := range []float64{2, 5} {
			if minor && k*v <= max && k*v >= min {
				ts = append(ts, plot.Tick{Value: k * v})
			}
		}
	}
	if limit > 0 {
		ts = append(ts, plot.Tick{Value: limit, Label: fmtSec(limit)})
	}
	labelled := 0
	for _, t := range ts {
		if t.Label != "" {
			labelled++
		}
	}
	if labelled < minLabels {
		for i, t := range ts {
			if t.Label == "" && (limit <= 0 || math.Abs(math.Log10(t.Value)-math.Log10(limit)) >= labelGap/2) && !nearPow10(t.Value) {
				ts[i].Label = strconv.FormatFloat(t.Value, 'f', -1, 64)
			}
		}
	}
	return ts
}

// nearPow10 reports whether v is a power of ten (whose label, if it has
// none, was taken off to keep clear of the limit's).
func nearPow10(v float64) bool {
	l := math.Log10(v)
	return math.Abs(l-math.Round(l)) < 1e-9
}

// lightAxes draws a panel's axes and ticks the light way papers print
// them: thin grey lines, short ticks.
func lightAxes(p *plot.Plot) {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.LineStyle.Width = vg.Points(0.5)
		a.LineStyle.Color = color.Gray{Y: 80}
		a.Tick.LineStyle.Width = vg.Points(0.4)
		a.Tick.LineStyle.Color = color.Gray{Y: 110}
		a.Tick.Length = vg.Points(3)
	}
}

// integerTicks labels whole numbers only, at most about five of them (two
// digits a label run together in a panel of a column's half; three of
// four digits or more: "1000 2000 3000 4000" ran together), since an
// axis that counts instances or squares has no fractions.
type integerTicks struct{}

// Ticks returns major ticks at whole-number steps (1, 2 or 5 times a power
// of ten) between min and max.
func (integerTicks) Ticks(min, max float64) []plot.Tick {
	// Four-digit labels and wider take more room: three of them at most.
	most := 5.0
	if max >= 1000 {
		most = 3
	}
	step := 1
	for i := 0; (max-min)/float64(step) > most; i++ {
		step = []int{1, 2, 5}[(i+1)%3] * int(math.Pow(10, float64((i+1)/3)))
	}
	var ts []plot.Tick
	for v := int(math.Ceil(min/float64(step))) * step; float64(v) <= max; v += step {
		ts = append(ts, plot.Tick{Value: float64(v), Label: strconv.Itoa(v)})
	}
	return ts
}
