package comparison

import (
	"math"
	"slices"
	"sort"
)

// Alpha is the significance level of the comparisons: a difference is
// significant when the Mann-Whitney test's two-sided p-value is below it,
// as benchstat judges.
const Alpha = 0.05

// MinRepeats is the fewest runs on each side for which a difference is
// tested at all (benchstat's rule: with fewer, no p-value can fall below
// Alpha reliably).
const MinRepeats = 4

// exactLimit bounds the exact test: samples whose product of sizes is at
// most this, and that hold no ties, get the exact distribution of U; the
// others the normal approximation.
const exactLimit = 400

// MannWhitney tests whether x and y come from one distribution (the
// Mann-Whitney U test, or Wilcoxon rank-sum test), two-sided. It returns
// U of x (the number of pairs (xi, yj) with xi > yj, ties counting one
// half: the sum of x's ranks in the pooled sample, tied values given
// their mean rank, less n(n+1)/2) and the p-value: exact when there are no
// ties and the samples are small (the distribution of U counted over every
// way of splitting the ranks), else the normal approximation with the tie
// correction of the variance and a continuity correction. With an empty
// sample p is NaN.
func MannWhitney(x, y []float64) (u, p float64) {
	n1, n2 := len(x), len(y)
	if n1 == 0 || n2 == 0 {
		return math.NaN(), math.NaN()
	}
	type obs struct {
		v     float64
		fromX bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range x {
		all = append(all, obs{v, true})
	}
	for _, v := range y {
		all = append(all, obs{v, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	rankSum, tieTerm, ties := 0.0, 0.0, false
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		mean := float64(i+1+j) / 2 // ranks i+1 .. j
		for k := i; k < j; k++ {
			if all[k].fromX {
				rankSum += mean
			}
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	u = rankSum - float64(n1*(n1+1))/2
	if !ties && n1*n2 <= exactLimit {
		return u, exactP(n1, n2, u)
	}
	nn := float64(n1 + n2)
	mu := float64(n1*n2) / 2
	variance := float64(n1*n2) / 12 * ((nn + 1) - tieTerm/(nn*(nn-1)))
	if variance <= 0 {
		return u, 1 // every value tied: no evidence of a difference
	}
	z := max(math.Abs(u-mu)-0.5, 0) / math.Sqrt(variance)
	return u, min(1, math.Erfc(z/math.Sqrt2))
}

// exactP returns the two-sided exact p-value of U = u for samples of n1
// and n2 without ties: twice the smaller tail of U's distribution, which
// counts, for each u, the splits of the ranks 1..n1+n2 into n1 and n2
// that give it (c(m, n, u) = c(m-1, n, u-n) + c(m, n-1, u): the largest
// rank is either one of the m, beating all n, or one of the n).
func exactP(n1, n2 int, u float64) float64 {
	// count[m][n] is the distribution of U for sizes m and n.
	count := make([][][]float64, n1+1)
	for m := range count {
		count[m] = make([][]float64, n2+1)
		for n := range count[m] {
			c := make([]float64, m*n+1)
			switch {
			case m == 0 || n == 0:
				c[0] = 1
			default:
				for k := range c {
					if k-n >= 0 && k-n < len(count[m-1][n]) {
						c[k] += count[m-1][n][k-n]
					}
					if k < len(count[m][n-1]) {
						c[k] += count[m][n-1][k]
					}
				}
			}
			count[m][n] = c
		}
	}
	dist := count[n1][n2]
	total := 0.0
	for _, c := range dist {
		total += c
	}
	lo, hi := 0.0, 0.0
	for k, c := range dist {
		if float64(k) <= u {
			lo += c
		}
		if float64(k) >= u {
			hi += c
		}
	}
	return min(1, 2*min(lo, hi)/total)
}

// Significant reports whether x and y differ at level Alpha, and the
// p-value; false and NaN when either has fewer than MinRepeats values.
func Significant(x, y []float64) (bool, float64) {
	if len(x) < MinRepeats || len(y) < MinRepeats {
		return false, math.NaN()
	}
	_, p := MannWhitney(slices.Clone(x), slices.Clone(y))
	return p < Alpha, p
}
