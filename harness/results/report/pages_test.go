package report

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
)

// TestPivotPages: a pivot of 50 variants and 60 instances does not go out
// as one table: its LaTeX is page-sized tables, each at most as wide as
// the text width (TextWidthPt) allows and PageRows long, that together hold every cell
// once, with distinct labels, the best per instance marked over all 50
// variants; a small pivot stays one table.
func TestPivotPages(t *testing.T) {
	p := Pivot{Task: "count", Measure: MeasureMedian}
	for j := range 50 {
		p.Variants = append(p.Variants, fmt.Sprintf("sat/encoding-%02d", j))
	}
	for i := range 60 {
		p.Instances = append(p.Instances, fmt.Sprintf("pieces:7x%d:K3Q1B2R2N3", i+1))
		row := make([]float64, 50)
		for j := range row {
			row[j] = float64(1+(i*7+j*13)%97) / 100 // the best of row i at one variant
		}
		row[(i*3)%50] = 0.001
		if i%5 == 0 {
			row[7] = math.NaN()
		}
		p.Values = append(p.Values, row)
	}
	pages := p.Pages()
	if len(pages) < 2 {
		t.Fatalf("%d pages", len(pages))
	}
	var b strings.Builder
	for _, q := range pages {
		if len(q.Instances) > PageRows {
			t.Errorf("a page of %d instances", len(q.Instances))
		}
		if err := q.LaTeX(&b); err != nil {
			t.Fatal(err)
		}
	}
	out := b.String()
	tables := strings.Count(out, "\\begin{table}") + strings.Count(out, "\\begin{table*}")
	if tables != len(pages) {
		t.Errorf("%d tables for %d pages", tables, len(pages))
	}
	for _, m := range regexp.MustCompile(`\\begin\{tabular\}\{@\{\}l((?:S\[[^]]*\])+)@`).FindAllStringSubmatch(out, -1) {
		n := strings.Count(m[1], "S[")
		if width := smallTextPt(p.Instances[59]) + float64(n)*(smallTextPt("0.00100")+2*pivotSepPt); width > TextWidthPt {
			t.Errorf("a table of %d variant columns, about %.0f pt wide", n, width)
		}
	}
	labels := regexp.MustCompile(`\\label\{([^}]*)\}`).FindAllStringSubmatch(out, -1)
	seen := map[string]bool{}
	for _, l := range labels {
		if seen[l[1]] {
			t.Errorf("label %s twice", l[1])
		}
		seen[l[1]] = true
	}
	// Every cell once: 60 x 50 less the 12 missing, each best (0.0010) in bold.
	if n := strings.Count(out, " & 0.") + strings.Count(out, " & \\bfseries 0."); n != 60*50-12 {
		t.Errorf("%d cells, want %d", n, 60*50-12)
	}
	if n := strings.Count(out, "\\bfseries 0.00100"); n != 60 {
		t.Errorf("%d best cells in bold, want 60 (one per instance)", n)
	}
	small := Pivot{Task: "count", Measure: MeasureMedian, Instances: p.Instances[:3], Variants: p.Variants[:4], Values: [][]float64{p.Values[0][:4], p.Values[1][:4], p.Values[2][:4]}}
	if got := small.Pages(); len(got) != 1 || got[0].part != "" {
		t.Errorf("a 3x4 pivot split into %d pages", len(got))
	}
}
