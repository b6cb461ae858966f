package htmlreport

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// point is one mark of a chart: a run (or an instance's median) that the
// hover names.
type point struct {
	x, y     float64
	name     string // what the hover shows: the variant, instance and time
	unsolved bool   // drawn at the limit, as a cross
}

// line is one variant's marks, joined when joined is set (a cactus).
type line struct {
	variant string
	pts     []point
	joined  bool
}

// chart is one SVG panel with log or linear axes.
type chart struct {
	id, title, xLabel, yLabel string
	xLog, yLog                bool
	// xInteger keeps the x ticks on whole numbers (a count).
	xInteger bool
	lines    []line
	// diagonal draws y = x (a scatter); limit, when positive, a dotted
	// line at the time limit on the time axes.
	diagonal bool
	limit    float64
}

// The size of every chart, in SVG user units (CSS pixels).
const (
	chartW, chartH                     = 560, 340
	marginL, marginR, marginT, marginB = 64, 16, 28, 44
	plotW                              = chartW - marginL - marginR
	plotH                              = chartH - marginT - marginB
)

// axis maps data values to pixels.
type axis struct {
	lo, hi float64
	log    bool
	whole  bool    // ticks on whole numbers only
	from   float64 // pixel of lo
	length float64 // signed pixels from lo to hi
}

func (a axis) at(v float64) float64 {
	if a.log {
		v, lo, hi := math.Log10(v), math.Log10(a.lo), math.Log10(a.hi)
		return a.from + (v-lo)/(hi-lo)*a.length
	}
	return a.from + (v-a.lo)/(a.hi-a.lo)*a.length
}

// ticks returns the axis' tick values: each decade on a log axis (every
// other one beyond 8), about six round steps on a linear one.
func (a axis) ticks() []float64 {
	var out []float64
	if a.log {
		lo, hi := int(math.Floor(math.Log10(a.lo)+1e-9)), int(math.Ceil(math.Log10(a.hi)-1e-9))
		step := 1
		if hi-lo > 8 {
			step = 2
		}
		for k := lo; k <= hi; k += step {
			out = append(out, math.Pow(10, float64(k)))
		}
		return out
	}
	raw := (a.hi - a.lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	if a.whole && step < 1 {
		step = 1
	}
	for k := math.Ceil(a.lo / step); k*step <= a.hi+step*1e-9; k++ {
		out = append(out, k*step)
	}
	return out
}

// bounds returns the range of an axis over values vs: whole decades on a
// log axis (at least one), 0 to the largest on a linear one.
func bounds(vs []float64, log bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		lo, hi = min(lo, v), max(hi, v)
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1, 10
	}
	if !log {
		return 0, max(hi, 1)
	}
	lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	return lo, hi
}

func fmtTick(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func px(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// svg renders the chart; colors gives each variant's colour and line
// pattern. Every mark
// carries data-variant (the legend hides a variant by it) and data-name
// (the hover shows it); text is escaped.
func (c chart) svg(colors map[string]look) template.HTML {
	var xs, ys []float64
	for _, l := range c.lines {
		for _, p := range l.pts {
			xs, ys = append(xs, p.x), append(ys, p.y)
		}
	}
	if c.limit > 0 {
		ys = append(ys, c.limit)
		if c.diagonal {
			xs = append(xs, c.limit)
		}
	}
	if c.diagonal { // a square panel: one range on both axes
		xs = append(xs, ys...)
		ys = xs
	}
	xlo, xhi := bounds(xs, c.xLog)
	ylo, yhi := bounds(ys, c.yLog)
	x := axis{lo: xlo, hi: xhi, log: c.xLog, whole: c.xInteger, from: marginL, length: plotW}
	y := axis{lo: ylo, hi: yhi, log: c.yLog, from: marginT + plotH, length: -plotH}
	esc := template.HTMLEscapeString
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="%s" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`,
		esc(c.id), chartW, chartH, chartW, chartH, esc(c.title))
	fmt.Fprintf(&b, `<text class="title" x="%d" y="16">%s</text>`, marginL, esc(c.title))
	fmt.Fprintf(&b, `<rect class="frame" x="%d" y="%d" width="%d" height="%d"/>`, marginL, marginT, plotW, plotH)
	for _, t := range x.ticks() {
		fmt.Fprintf(&b, `<line class="grid" x1="%s" x2="%s" y1="%d" y2="%d"/><text class="tick" x="%s" y="%d" text-anchor="middle">%s</text>`,
			px(x.at(t)), px(x.at(t)), marginT, marginT+plotH, px(x.at(t)), marginT+plotH+14, fmtTick(t))
	}
	for _, t := range y.ticks() {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%d" y1="%s" y2="%s"/><text class="tick" x="%d" y="%s" text-anchor="end">%s</text>`,
			marginL, marginL+plotW, px(y.at(t)), px(y.at(t)), marginL-4, px(y.at(t)+3), fmtTick(t))
	}
	fmt.Fprintf(&b, `<text class="label" x="%d" y="%d" text-anchor="middle">%s</text>`, marginL+plotW/2, chartH-8, esc(c.xLabel))
	fmt.Fprintf(&b, `<text class="label" transform="translate(14 %d) rotate(-90)" text-anchor="middle">%s</text>`, marginT+plotH/2, esc(c.yLabel))
	if c.diagonal {
		fmt.Fprintf(&b, `<line class="diag" x1="%s" y1="%s" x2="%s" y2="%s"/>`, px(x.at(xlo)), px(y.at(xlo)), px(x.at(xhi)), px(y.at(xhi)))
	}
	if c.limit > 0 {
		fmt.Fprintf(&b, `<line class="limit" x1="%d" x2="%d" y1="%s" y2="%s"><title>limit %s s</title></line>`,
			marginL, marginL+plotW, px(y.at(c.limit)), px(y.at(c.limit)), fmtTick(c.limit))
	}
	for _, l := range c.lines {
		lk := colors[l.variant]
		fmt.Fprintf(&b, `<g class="series" data-variant="%s" style="color:%s">`, esc(l.variant), lk.color)
		if l.joined && len(l.pts) > 1 {
			var pts []string
			for _, p := range l.pts {
				pts = append(pts, px(x.at(p.x))+","+px(y.at(p.y)))
			}
			fmt.Fprintf(&b, `<polyline points="%s" stroke-dasharray="%s"/>`, strings.Join(pts, " "), lk.dash)
		}
		for _, p := range l.pts {
			cx, cy := x.at(p.x), y.at(p.y)
			if p.unsolved {
				fmt.Fprintf(&b, `<path class="mark unsolved" data-name="%s" d="M%s %sl8 8m0 -8l-8 8"/>`, esc(p.name), px(cx-4), px(cy-4))
				continue
			}
			fmt.Fprintf(&b, `<circle class="mark" data-name="%s" cx="%s" cy="%s" r="4"/>`, esc(p.name), px(cx), px(cy))
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
