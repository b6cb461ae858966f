package puzzle

import (
	"cmp"
	"slices"
)

// Cliques returns the maximal sets of pairwise overlapping intervals of s
// (indices in input order, increasing): a selection is non-overlapping
// exactly when it takes at most one interval of each. Intervals are
// closed, so the intervals holding a point overlap pairwise, and every
// maximal such set is the set holding some interval's start; the one at
// start p is maximal when an interval holding p ends before the next start
// after p. There are at most N of them, and the matrix "interval i in
// clique c" has consecutive ones (the cliques in order of p), which makes
// the integer program of the weighted intervals totally unimodular.
func (s Intervals) Cliques() [][]int {
	n := len(s.Items)
	byStart := make([]int, n)
	for i := range byStart {
		byStart[i] = i
	}
	slices.SortStableFunc(byStart, func(a, b int) int { return cmp.Compare(s.Items[a].Start, s.Items[b].Start) })
	var out [][]int
	var active []int // intervals started so far that have not ended
	for i := 0; i < n; {
		p := s.Items[byStart[i]].Start
		// Drop what ended before p; add every interval starting at p.
		active = slices.DeleteFunc(active, func(j int) bool { return s.Items[j].End < p })
		for ; i < n && s.Items[byStart[i]].Start == p; i++ {
			active = append(active, byStart[i])
		}
		maximal := i == n
		for _, j := range active {
			if maximal || s.Items[j].End < s.Items[byStart[i]].Start {
				maximal = true
				break
			}
		}
		if maximal {
			c := slices.Clone(active)
			slices.Sort(c)
			out = append(out, c)
		}
	}
	return out
}
