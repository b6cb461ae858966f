package comparison

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/results/report"
)

func run(instance, variant string, rep int, status string, wall float64) results.Row {
	return results.Row{Time: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Instance: instance, Puzzle: strings.Split(instance, ":")[0],
		Variant: variant, Backend: strings.Split(variant, "/")[0], Task: "count", Rep: rep, Status: status,
		Seconds: wall, User: wall, WallLimit: 10}
}

func runs(instance, variant, status string, walls ...float64) []results.Row {
	var out []results.Row
	for i, w := range walls {
		out = append(out, run(instance, variant, i+1, status, w))
	}
	return out
}

// TestCompare checks matching, ratios, significance and the geometric
// mean against values worked out by hand. queens:8 native/x: A 1,2,3,4 s,
// B 5,6,7,8 s: medians 2.5 and 6.5, ratio 2.6, exact p = 2/70, B
// significantly slower. queens:9: A 2 s, B 1 s (one run each: ratio 0.5,
// no test). queens:10: A solved, B timed out (only A). queens:11 only in
// A, queens:12 only in B. The geometric mean of 2.6 and 0.5 is
// sqrt(1.3) = 1.1402.
func TestCompare(t *testing.T) {
	var a, b []results.Row
	a = append(a, runs("queens:8", "native/x", results.StatusOK, 1, 2, 3, 4)...)
	b = append(b, runs("queens:8", "native/x", results.StatusOK, 5, 6, 7, 8)...)
	a = append(a, runs("queens:9", "native/x", results.StatusOK, 2)...)
	b = append(b, runs("queens:9", "native/x", results.StatusOK, 1)...)
	a = append(a, runs("queens:10", "native/x", results.StatusOK, 3)...)
	b = append(b, runs("queens:10", "native/x", results.StatusTimeout, 10)...)
	a = append(a, runs("queens:11", "native/x", results.StatusOK, 3)...)
	b = append(b, runs("queens:12", "native/x", results.StatusOK, 3)...)
	r := Compare(a, b, report.TimeWall)
	if len(r.Pairs) != 3 || r.OnlyA != 1 || r.OnlyB != 1 {
		t.Fatalf("pairs %d, only A %d, only B %d; want 3, 1, 1", len(r.Pairs), r.OnlyA, r.OnlyB)
	}
	p := r.Pairs[0]
	if p.A.Median != 2.5 || p.B.Median != 6.5 || math.Abs(p.Ratio-2.6) > 1e-12 || math.Abs(p.P-2.0/70) > 1e-12 || !p.Significant {
		t.Errorf("queens:8: %+v", p)
	}
	if q := r.Pairs[1]; q.Ratio != 0.5 || !math.IsNaN(q.P) || q.Significant {
		t.Errorf("queens:9: %+v", q)
	}
	if q := r.Pairs[2]; !math.IsNaN(q.Ratio) || q.B.Status != results.StatusTimeout {
		t.Errorf("queens:10: %+v", q)
	}
	if len(r.Means) != 2 {
		t.Fatalf("means %+v", r.Means)
	}
	for _, m := range r.Means {
		if m.N != 2 || math.Abs(m.GeoMean-math.Sqrt(1.3)) > 1e-12 || m.Slower != 1 || m.Faster != 0 || m.OnlyA != 1 || m.OnlyB != 0 ||
			!(m.Lo <= m.GeoMean && m.GeoMean <= m.Hi) || m.Lo < 0.5 || m.Hi > 2.6 {
			t.Errorf("mean %+v; want 2 instances, geomean 1.1402 within [0.5, 2.6], 1 slower, 1 only A", m)
		}
	}
	tabs := r.Tables("old", "new")
	if row := tabs[0].Rows[0]; strings.Join(row[10:], ",") != "2.6,0.02857,yes" {
		t.Errorf("per-instance row %q", row)
	}
	if !strings.Contains(tabs[0].Title, "A (old)") || tabs[1].Rows[1][0] != "all" {
		t.Errorf("tables %q / %q", tabs[0].Title, tabs[1].Rows)
	}
	f, err := Figure(a, b, report.TimeWall, "old", "new")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "s.svg")
	if err := report.SaveFigure(f, out); err != nil {
		t.Fatal(err)
	}
	if _, err := Figure(a, b, report.TimeWall, "x", "x"); err == nil {
		t.Error("two sides of one name accepted")
	}
}
