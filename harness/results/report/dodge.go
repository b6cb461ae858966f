package report

import (
	"math"
	"slices"
)

// dodgeWidth is the share of the least gap between two sizes of a panel
// that a scaling panel's variants are spread over, side by side.
const dodgeWidth = 0.25

// dodge sets each variant of a scaling panel a little apart along x, in a
// slot of its own (ggplot's position_dodge): points of equal size and
// time, such as two variants timing out on one instance, would otherwise
// hide one another. The slots span dodgeWidth of the least gap between
// two sizes, centred on the size, in log10 units on a log axis; the VBS
// keeps the centre.
type dodge struct {
	slot map[string]float64
	log  bool
}

// newDodge gives each variant of the series (in order, the VBS aside) its
// slot; xs are the panel's sizes, log whether its axis is logarithmic.
func newDodge(ss []*series, xs []float64, log bool) dodge {
	d := dodge{slot: map[string]float64{}, log: log}
	var labels []string
	for _, se := range ss {
		if se.label != VBSLabel && !slices.Contains(labels, se.label) {
			labels = append(labels, se.label)
		}
	}
	if len(labels) < 2 {
		return d
	}
	var u []float64
	for _, x := range xs {
		if log {
			x = math.Log10(x)
		}
		u = append(u, x)
	}
	slices.Sort(u)
	u = slices.Compact(u)
	gap := math.Inf(1)
	for i := 1; i < len(u); i++ {
		gap = min(gap, u[i]-u[i-1])
	}
	if math.IsInf(gap, 1) { // one size: a unit (0.3 decade on a log axis)
		gap = map[bool]float64{false: 1, true: 0.3}[log]
	}
	step := dodgeWidth * gap / float64(len(labels)-1)
	for k, l := range labels {
		d.slot[l] = (float64(k) - float64(len(labels)-1)/2) * step
	}
	return d
}

// x is where variant's point of size x is drawn.
func (d dodge) x(variant string, x float64) float64 {
	o := d.slot[variant]
	if d.log {
		return x * math.Pow(10, o)
	}
	return x + o
}

// apply moves every point of the series to its variant's slot.
func (d dodge) apply(ss []*series) {
	for _, se := range ss {
		for i := range se.xy {
			se.xy[i].X = d.x(se.label, se.xy[i].X)
		}
	}
}

// first and last are the variants in the leftmost and rightmost slots
// ("" when none is moved).
func (d dodge) first() string { return d.edge(-1) }
func (d dodge) last() string  { return d.edge(1) }

func (d dodge) edge(sign float64) string {
	best, at := "", 0.0
	for l, o := range d.slot {
		if sign*o > at || (sign*o == at && best != "" && l < best) {
			best, at = l, sign*o
		}
	}
	return best
}
