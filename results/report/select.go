package report

import (
	"sort"

	"github.com/boardsat/boardsat/results"
)

// DefaultMaxVariants is how many variants a cactus or scaling figure draws
// by default: more lines than eight colours cannot be told apart in print.
const DefaultMaxVariants = 8

// TopVariants ranks the variants of rows by the instances they solved
// (over every task, most first), then by PAR-2 (summed over the tasks,
// least first), then by name, and returns the first n (every one for
// n <= 0) and the others, each in ranking order.
func TopVariants(rows []results.Row, n int) (kept, left []string) {
	type rank struct {
		solved int
		par    float64
	}
	by := map[string]*rank{}
	var vs []string
	for _, s := range Aggregate(rows, DefaultPAR).Scores {
		r := by[s.Variant]
		if r == nil {
			r = &rank{}
			by[s.Variant] = r
			vs = append(vs, s.Variant)
		}
		r.solved += s.Solved
		r.par += s.PAR
	}
	sort.SliceStable(vs, func(i, j int) bool {
		a, b := by[vs[i]], by[vs[j]]
		if a.solved != b.solved {
			return a.solved > b.solved
		}
		if a.par != b.par {
			return a.par < b.par
		}
		return vs[i] < vs[j]
	})
	if n <= 0 || len(vs) <= n {
		return vs, nil
	}
	return vs[:n], vs[n:]
}
