package report

import (
	"math"
	"sort"
	"strings"

	"github.com/boardsat/boardsat/harness/results"
)

// DefaultMaxVariants is how many variants a cactus or scaling figure draws
// by default: more lines than eight colours cannot be told apart in print.
const DefaultMaxVariants = 8

// SelectionRule says in words which variants SelectVariants keeps, for a
// figure's note.
const SelectionRule = "in each puzzle and task, the best variant of each backend, then the next best of any, by instances solved and PAR-2"

// TopVariants ranks the variants of rows by the instances they solved
// (over every puzzle and task, most first), then by PAR-2 (summed over
// them, least first), then by name, times in the time measure, and returns
// the first n (every one for n <= 0) and the others, each in ranking order.
func TopVariants(rows []results.Row, n int, time string) (kept, left []string) {
	type rank struct {
		solved int
		par    float64
	}
	by := map[string]*rank{}
	var vs []string
	for _, s := range Aggregate(rows, DefaultPAR, time).Scores {
		r := by[s.Variant]
		if r == nil {
			r = &rank{}
			by[s.Variant] = r
			vs = append(vs, s.Variant)
		}
		r.solved += s.SolvedRan
		if !math.IsNaN(s.PAR) {
			r.par += s.PAR
		}
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

// SelectVariants returns the variants a cactus or scaling figure draws by
// default (see SelectionRule): first, in each puzzle and task of a panel
// (at least MinPanelInstances instances), the best
// variant of each backend that ran it (most instances solved, then least
// PAR-2 over those it ran), so that every panel compares every backend
// that ran; then the next best of any backend (TopVariants) up to n in all
// (every variant for n <= 0; the best of each backend of each panel even
// when they outnumber n); and the others. Both lists are in ranking order.
func SelectVariants(rows []results.Row, n int, time string) (kept, left []string) {
	ranked, _ := TopVariants(rows, 0, time)
	if n <= 0 || len(ranked) <= n {
		return ranked, nil
	}
	backend := map[string]string{}
	for _, r := range rows {
		backend[r.Variant] = BackendOf(r)
	}
	type pick struct {
		puzzle, task, backend string
	}
	best := map[pick]Score{}
	var order []pick
	agg := Aggregate(rows, DefaultPAR, time)
	// A panel is drawn for a puzzle and task of MinPanelInstances
	// instances in all (facets), however few every variant ran: with the
	// VBS's common instances instead, a variant refused on the larger
	// instances (the brute-force check) left whole puzzles without their
	// best of each backend, and a fresh quick suite's cactus drew no
	// native variant.
	drawn := map[[2]string]bool{}
	for _, s := range agg.Scores {
		drawn[[2]string{s.Puzzle, s.Task}] = s.Instances >= MinPanelInstances
	}
	for _, s := range agg.Scores {
		if !drawn[[2]string{s.Puzzle, s.Task}] {
			continue // no panel of its own (facets)
		}
		k := pick{s.Puzzle, s.Task, backend[s.Variant]}
		b, ok := best[k]
		if !ok {
			order = append(order, k)
		}
		if !ok || s.Solved > b.Solved || s.Solved == b.Solved && s.PAR < b.PAR {
			best[k] = s
		}
	}
	take := map[string]bool{}
	for _, k := range order {
		take[best[k].Variant] = true
	}
	for _, v := range ranked {
		if len(take) >= n {
			break
		}
		take[v] = true
	}
	for _, v := range ranked {
		if take[v] {
			kept = append(kept, v)
		} else {
			left = append(left, v)
		}
	}
	return kept, left
}

// BackendOf returns the backend of a run: the row's backend column, else
// the first part of its variant (sat/pairwise: sat).
func BackendOf(r results.Row) string {
	if r.Backend != "" {
		return r.Backend
	}
	b, _, _ := strings.Cut(r.Variant, "/")
	return b
}
