package comparison

import (
	"math"
	"testing"
)

// TestMannWhitney checks U and the p-value against values worked out by
// hand.
//
//   - 1,2,3,4 against 5,6,7,8: U = 0, and only one of the C(8,4) = 70
//     splits of the ranks gives U <= 0: exact two-sided p = 2/70.
//   - 1,2,3,5 against 4,6,7,8: U = 1 (5 beats 4); U <= 1 for two splits
//     (U = 0 and this one): p = 4/70.
//   - 1,2,3 against 4,5,6: p = 2/C(6,3) = 2/20 = 0.1.
//   - 1,2,2,3 against 2,3,4,5 (ties: the normal approximation): pooled
//     ranks 1; 3,3,3 for the 2s; 5.5,5.5 for the 3s; 7; 8. x's rank sum
//     1+3+3+5.5 = 12.5, U = 12.5 - 10 = 2.5; mean 8; tie groups of 3 and
//     2, sum(t^3-t) = 30; variance 16/12 * (9 - 30/56) = 11.2857;
//     z = (|2.5-8| - 0.5)/3.35942 = 1.48835; p = erfc(z/sqrt 2) = 0.13666
//     (R's wilcox.test gives W = 2.5, p-value = 0.1366).
//   - every value equal: p = 1.
func TestMannWhitney(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		u, p float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 0, 2.0 / 70},
		{[]float64{5, 6, 7, 8}, []float64{1, 2, 3, 4}, 16, 2.0 / 70},
		{[]float64{1, 2, 3, 5}, []float64{4, 6, 7, 8}, 1, 4.0 / 70},
		{[]float64{3, 1, 2}, []float64{6, 4, 5}, 0, 0.1},
		{[]float64{1, 2, 2, 3}, []float64{2, 3, 4, 5}, 2.5, 0.1366582477},
		{[]float64{1, 1, 1, 1}, []float64{1, 1, 1, 1}, 8, 1},
	} {
		u, p := MannWhitney(c.x, c.y)
		if u != c.u || math.Abs(p-c.p) > 1e-9 {
			t.Errorf("MannWhitney(%v, %v) = U %g, p %.10f; want U %g, p %.10f", c.x, c.y, u, p, c.u, c.p)
		}
	}
	// The exact distribution is symmetric and sums to one: the p-value of
	// the middle U (n1 n2 / 2 = 8 of 16) is 1.
	if _, p := MannWhitney([]float64{1, 4, 5, 8}, []float64{2, 3, 6, 7}); p != 1 {
		t.Errorf("U at the middle: p %g, want 1", p)
	}
	if ok, p := Significant([]float64{1, 2, 3}, []float64{4, 5, 6}); ok || !math.IsNaN(p) {
		t.Errorf("3 repeats a side: tested (%v, %g); want no test", ok, p)
	}
	if ok, p := Significant([]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}); !ok || p >= Alpha {
		t.Errorf("4 against 4 apart: significant %v, p %g", ok, p)
	}
}
