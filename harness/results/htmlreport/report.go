// Package htmlreport writes a results report as one self-contained HTML
// page for the screen: every style and script inside the file (no
// network), a sortable, filterable table of every run, the scores per
// puzzle and task, the pivots of medians with their spread, a cactus per
// puzzle and task and a scatter of two variants as SVG charts whose marks
// name their run on hover and whose legend hides a variant on click, and,
// given a second file, the comparison of the two. Every number is in one
// time measure; the aggregation is results/report's and the comparison
// results/comparison's, only the page is made here.
package htmlreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/results/comparison"
	"github.com/boardsat/boardsat/harness/results/report"
)

//go:embed assets/report.js
var script string

//go:embed assets/report.css
var style string

// Options are what a report shows beyond its rows.
type Options struct {
	Time   string  // time measure (report.TimeKinds)
	PAR    float64 // the PAR factor of the scores
	Spread string  // the pivots' spread: report.SpreadIQR or SpreadCI
	// Files names the input files in the heading.
	Files []string
	// X and Y are the scatter's variants; empty: report.ScatterPair's.
	X, Y string
	// B, when not nil, is compared with the rows (A), the sides named
	// LabelA and LabelB.
	B              []results.Row
	LabelA, LabelB string
}

// htmlTable is a table of the page.
type htmlTable struct {
	ID, Title string
	Sortable  bool
	Header    []string
	Numeric   []bool
	Rows      [][]htmlCell
}

type htmlCell struct {
	Text      string
	Bold, Num bool
	Msg       bool // a free-text cell, wrapped
}

// tableOf turns a report table into a page table; "**x**" (a pivot's
// best) becomes bold.
func tableOf(t report.Table, id string, sortable bool) htmlTable {
	h := htmlTable{ID: id, Title: t.Title, Sortable: sortable, Header: t.Header, Numeric: make([]bool, len(t.Header))}
	copy(h.Numeric, t.Numeric)
	for _, r := range t.Rows {
		var row []htmlCell
		for j, c := range r {
			cell := htmlCell{Text: c, Num: j < len(h.Numeric) && h.Numeric[j], Msg: t.Header[j] == "message"}
			if strings.HasPrefix(c, "**") {
				if k := strings.Index(c[2:], "**"); k >= 0 {
					cell.Text, cell.Bold = c[2:2+k]+c[4+k:], true
				}
			}
			row = append(row, cell)
		}
		h.Rows = append(h.Rows, row)
	}
	return h
}

// page is what the template fills.
type page struct {
	Title, TimeName, SpreadName string
	Files                       []string
	Runs, Variants              int
	CSS                         template.CSS
	JS                          template.JS
	Legend                      []legendKey
	Cactus                      []template.HTML
	Scatter                     template.HTML
	ScatterNote                 string
	RunsTable                   htmlTable
	Scores, Pivots, Status      []htmlTable
	Compare                     []htmlTable
	CompareChart                template.HTML
	CompareNote                 string
}

type legendKey struct{ Variant, Color, Dash string }

// palette is the variants' colours, in order (Okabe and Ito's eight, then
// more); beyond it they repeat with another line pattern (dashes).
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
	"#882255", "#44AA99", "#999933", "#AA4499", "#332288", "#117733", "#888888"}

// dashes are the line patterns of each round of the palette.
var dashes = []string{"", "6 3", "2 2", "8 3 2 3", "1 4"}

// look is one variant's colour and line pattern.
type look struct{ color, dash string }

// Write writes the report of rows (and, with o.B, their comparison with
// o.B) to w.
func Write(w io.Writer, rows []results.Row, o Options) error {
	if err := report.CheckTime(o.Time); err != nil {
		return err
	}
	if err := report.CheckSpread(o.Spread); err != nil {
		return err
	}
	if o.Spread == "" {
		o.Spread = report.SpreadCI
	}
	variants := report.Variants(append(slices.Clone(rows), o.B...))
	colors := map[string]look{}
	p := page{Title: "boardsat results: " + strings.Join(o.Files, ", "), TimeName: report.TimeName(o.Time), SpreadName: report.SpreadName(o.Spread),
		Files: o.Files, Runs: len(rows), Variants: len(variants), CSS: template.CSS(style), JS: template.JS(script)}
	for i, v := range variants {
		colors[v] = look{palette[i%len(palette)], dashes[(i/len(palette))%len(dashes)]}
		p.Legend = append(p.Legend, legendKey{v, colors[v].color, colors[v].dash})
	}
	sums := report.Summarize(rows, o.Time)
	for i, pn := range report.Panels(sums) {
		p.Cactus = append(p.Cactus, cactus(sums, pn, o.Time, fmt.Sprintf("cactus-%d", i)).svg(colors))
	}
	x, y := o.X, o.Y
	if x == "" {
		x, y, _ = report.ScatterPair(sums)
	}
	if x != "" {
		p.Scatter = scatter(sums, x, y, o.Time).svg(colors)
		p.ScatterNote = fmt.Sprintf("Each mark an instance and task both ran: median %s of %s (x) against %s (y); below the diagonal %s is faster; an instance one did not solve is a cross on the limit.",
			p.TimeName, x, y, y)
	}
	p.RunsTable = tableOf(report.RunsTable(rows), "runs", true)
	p.Scores = []htmlTable{tableOf(report.ScoreTable(report.Aggregate(rows, o.PAR, o.Time), o.PAR), "scores", true)}
	pivots, err := report.Pivots(rows, report.MeasureMedian, o.PAR, o.Time)
	if err != nil {
		return err
	}
	spreads, err := report.PivotSpreads(pivots, rows, o.Spread)
	if err != nil {
		return err
	}
	for i, pv := range pivots {
		p.Pivots = append(p.Pivots, tableOf(pv.WideSpread(spreads[i], o.Spread), fmt.Sprintf("pivot-%d", i), true))
	}
	if st := report.OptStatusTable(rows); len(st.Rows) > 0 {
		p.Status = []htmlTable{tableOf(st, "status", true)}
	}
	if o.B != nil {
		res := comparison.Compare(rows, o.B, o.Time)
		for i, t := range res.Tables(o.LabelA, o.LabelB) {
			p.Compare = append(p.Compare, tableOf(t, fmt.Sprintf("compare-%d", i), true))
		}
		p.CompareChart = compareChart(res, rows, o).svg(colors)
		p.CompareNote = fmt.Sprintf("Each mark an instance, variant and task both files ran: median %s in %s (x) against %s (y); below the diagonal B is faster; not solved: a cross on the limit.",
			p.TimeName, o.LabelA, o.LabelB)
	}
	return pageTemplate.Execute(w, p)
}

// mark names a mark for the hover: variant, instance, task and time.
func mark(variant, instance, task string, t float64) string {
	return fmt.Sprintf("%s · %s · %s · %s", variant, instance, task, fmtSec(t))
}

func fmtSec(t float64) string {
	if math.IsNaN(t) {
		return "not solved"
	}
	return fmt.Sprintf("%.4g s", t)
}

// solvedAt returns a group's median in the time measure when more than
// half of its runs were solved (as the scores count it), at least
// report.TimeFloor.
func solvedAt(s report.Summary) (float64, bool) {
	if 2*s.Solved <= s.Runs || math.IsNaN(s.Median) {
		return 0, false
	}
	return max(s.Median, report.TimeFloor), true
}

// cactus is one puzzle and task's cactus: per variant, its solved
// instances' medians in ascending order against their number.
func cactus(sums []report.Summary, pn report.Panel, time, id string) chart {
	c := chart{id: id, title: pn.Puzzle + ", task " + pn.Task, xLabel: "instances solved", yLabel: "median " + report.TimeName(time) + " (log)", yLog: true, xInteger: true}
	byVariant := map[string][]report.Summary{}
	var order []string
	for _, s := range sums {
		if s.Puzzle != pn.Puzzle || s.Task != pn.Task {
			continue
		}
		c.limit = max(c.limit, s.Limit)
		if _, ok := byVariant[s.Variant]; !ok {
			order = append(order, s.Variant)
		}
		byVariant[s.Variant] = append(byVariant[s.Variant], s)
	}
	for _, v := range order {
		var solved []report.Summary
		for _, s := range byVariant[v] {
			if _, ok := solvedAt(s); ok {
				solved = append(solved, s)
			}
		}
		slices.SortStableFunc(solved, func(a, b report.Summary) int {
			ta, _ := solvedAt(a)
			tb, _ := solvedAt(b)
			return cmpFloat(ta, tb)
		})
		l := line{variant: v, joined: true}
		for i, s := range solved {
			t, _ := solvedAt(s)
			l.pts = append(l.pts, point{x: float64(i + 1), y: t, name: mark(v, s.Instance, s.Task, s.Median)})
		}
		c.lines = append(c.lines, l)
	}
	return c
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// scatter is x's median against y's per instance and task both ran; the
// marks belong to y's variant, so that the legend hides them with it.
func scatter(sums []report.Summary, x, y, time string) chart {
	c := chart{id: "scatter", title: y + " against " + x, xLabel: "median " + report.TimeName(time) + ", " + x, yLabel: "median " + report.TimeName(time) + ", " + y,
		xLog: true, yLog: true, diagonal: true}
	type key struct{ instance, task string }
	xs := map[key]report.Summary{}
	for _, s := range sums {
		if s.Variant == x || s.Variant == y {
			c.limit = max(c.limit, s.Limit)
		}
		if s.Variant == x {
			xs[key{s.Instance, s.Task}] = s
		}
	}
	l := line{variant: y}
	for _, s := range sums {
		xsum, ok := xs[key{s.Instance, s.Task}]
		if s.Variant != y || !ok {
			continue
		}
		l.pts = append(l.pts, pairMark(xsum, s, c.limit, fmt.Sprintf("%s · %s: %s %s, %s %s", s.Instance, s.Task, x, fmtSec(xsum.Median), y, fmtSec(s.Median))))
	}
	c.lines = []line{l}
	return c
}

// pairMark places one instance of two summaries, an unsolved one at the
// limit (or, without a recorded limit, at 10 s).
func pairMark(a, b report.Summary, limit float64, name string) point {
	if !(limit > 0) {
		limit = 10
	}
	ta, oka := solvedAt(a)
	tb, okb := solvedAt(b)
	if !oka {
		ta = limit
	}
	if !okb {
		tb = limit
	}
	return point{x: ta, y: tb, name: name, unsolved: !oka || !okb}
}

// compareChart is A's median against B's per instance, variant and task
// both ran, one series per variant.
func compareChart(res comparison.Result, rows []results.Row, o Options) chart {
	tn := report.TimeName(o.Time)
	c := chart{id: "compare", title: o.LabelB + " against " + o.LabelA, xLabel: "median " + tn + ", A: " + o.LabelA, yLabel: "median " + tn + ", B: " + o.LabelB,
		xLog: true, yLog: true, diagonal: true}
	limit := 0.0
	for _, r := range slices.Concat(rows, o.B) {
		_, l := report.Seconds(r, o.Time)
		limit = max(limit, l)
	}
	c.limit = limit
	idx := map[string]int{}
	for _, p := range res.Pairs {
		i, ok := idx[p.Variant]
		if !ok {
			i = len(c.lines)
			idx[p.Variant] = i
			c.lines = append(c.lines, line{variant: p.Variant})
		}
		a := report.Summary{Runs: p.A.Runs, Solved: p.A.Solved, Median: p.A.Median}
		b := report.Summary{Runs: p.B.Runs, Solved: p.B.Solved, Median: p.B.Median}
		name := fmt.Sprintf("%s · %s · %s: A %s, B %s", p.Variant, p.Instance, p.Task, fmtSec(p.A.Median), fmtSec(p.B.Median))
		if !math.IsNaN(p.Ratio) {
			name += fmt.Sprintf(", B/A %.3g", p.Ratio)
		}
		c.lines[i].pts = append(c.lines[i].pts, pairMark(a, b, limit, name))
	}
	return c
}
