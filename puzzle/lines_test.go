package puzzle

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCliquesAreAttacks checks Board.Cliques (and Lines) against the
// checker's own geometry on every board up to 6x6 and every piece: two
// squares share a clique exactly when a piece on one threatens the other.
func TestCliquesAreAttacks(t *testing.T) {
	for _, b := range sweepBoards(6) {
		for k := range Kind(NumKinds) {
			share := make(map[[2]Square]bool)
			for _, c := range b.Cliques(k) {
				if len(c) < 2 {
					t.Fatalf("%s %c: clique %v of fewer than two squares", b, k.Letter(), c)
				}
				for i, s := range c {
					for _, u := range c[i+1:] {
						share[[2]Square{min(s, u), max(s, u)}] = true
					}
				}
			}
			for s := range Square(b.Size()) {
				for u := s + 1; u < Square(b.Size()); u++ {
					f1, r1 := b.FileRank(s)
					f2, r2 := b.FileRank(u)
					if got, want := share[[2]Square{s, u}], threatens(k, f1, r1, f2, r2); got != want {
						t.Fatalf("%s %c: %s and %s share a clique: %v, threaten each other: %v", b, k.Letter(), b.Name(s), b.Name(u), got, want)
					}
				}
			}
		}
	}
}

// TestIntervalCliques checks Intervals.Cliques on random instances: every
// clique overlaps pairwise, every overlapping pair shares a clique, and no
// clique holds another (they are the maximal ones).
func TestIntervalCliques(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + rng.IntN(12)
		items := make([]Interval, n)
		for i := range items {
			s := rng.Int64N(20)
			items[i] = Interval{Start: s, End: s + rng.Int64N(6), Value: 1}
		}
		if trial%3 == 0 {
			items = RandomIntervals(n, uint64(trial))
		}
		cl := Intervals{Items: items}.Cliques()
		share := map[[2]int]bool{}
		for ci, c := range cl {
			if !slices.IsSorted(c) {
				t.Fatalf("clique %v not sorted", c)
			}
			for i, a := range c {
				for _, b := range c[i+1:] {
					if !items[a].Overlaps(items[b]) {
						t.Fatalf("%v: clique %v holds %d and %d, which do not overlap", items, c, a, b)
					}
					share[[2]int{a, b}] = true
				}
			}
			for cj, d := range cl {
				if ci != cj && len(c) <= len(d) && subset(c, d) {
					t.Fatalf("%v: clique %v inside %v", items, c, d)
				}
			}
		}
		for a := range n {
			for b := a + 1; b < n; b++ {
				if items[a].Overlaps(items[b]) && !share[[2]int{a, b}] {
					t.Fatalf("%v: %d and %d overlap but share no clique %v", items, a, b, cl)
				}
			}
		}
	}
}

func subset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
