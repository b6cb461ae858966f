package compare

import (
	"bytes"
	"context"
	"testing"

	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	_ "github.com/boardsat/boardsat/paradigm/cpsolve"  // the cp backend
	_ "github.com/boardsat/boardsat/paradigm/mipsolve" // the mip backend
	"github.com/boardsat/boardsat/puzzle"
)

// TestParadigmsAgree runs the CP and MIP backends beside native on small
// instances of every puzzle they model, for each task they do: every
// answer must agree with the others and with the published value where
// one is known. cp and mip run only when named, never in "all".
func TestParadigmsAgree(t *testing.T) {
	for _, bin := range []string{"minizinc", "cbc", "glpsol"} {
		cnftest.NeedSolver(t, bin)
	}
	for _, name := range []string{"cp", "mip"} {
		for _, v := range Expand(mustList(t, "all"), "queens") {
			if v.Backend == name {
				t.Errorf("%s is in all", name)
			}
		}
	}
	list := "native,cp/gecode,mip/cbc,mip/glpk"
	for _, tc := range []struct {
		spec      string
		task      puzzle.Task
		published bool
	}{
		{"queens:6", puzzle.Count, true},
		{"queens:8", puzzle.First, true},
		{"queens:3", puzzle.First, true},
		{"pieces:4x4:R2N4", puzzle.Count, true},
		{"pieces:4x4:R2N4", puzzle.First, true},
		{"tour:5x5:a1", puzzle.Count, true},
		{"tour:5x5:a1", puzzle.First, true},
		{"tour:3x10:a1:closed", puzzle.Count, true},
		{"tour:3x10:a1:closed", puzzle.First, true},
		{"kingpath:4x4:b1:5", puzzle.Count, true},
		{"kingpath:4x4:*:6", puzzle.Count, false},
		{"dominate:5x5:Q", puzzle.Count, true},
		{"dominate:6x6:Q", puzzle.Optimum, true},
		{"dominate:5x5:N:independent", puzzle.Optimum, false},
		{"dominate:4x4:K:independent", puzzle.Count, false},
		{"intervals:random:40:seed=3", puzzle.Optimum, false},
		{"intervals:random:40:seed=3", puzzle.Count, false},
		{"swap:3x3:w=a3:b=a1:rule=none:turns=free", puzzle.Shortest, false},
		{"swap:3x3:w=a3:b=c1:rule=none:turns=alternate", puzzle.Count, false},
	} {
		spec := puzzle.MustParse(tc.spec)
		r := Run(context.Background(), spec, tc.task, Expand(mustList(t, list), spec.Puzzle()), opt)
		var buf bytes.Buffer
		r.Print(&buf)
		answered := 0
		for _, o := range r.Outcomes {
			if o.Answer.Status == puzzle.OK || o.Answer.Status == puzzle.Unsat {
				answered++
			}
		}
		want := 4 // native, cp, and both MIP solvers
		if tc.task == puzzle.Count {
			want = 2 // native and cp: mip does not count
		}
		if !r.OK() || answered != want || (tc.published && r.RefSource != "published") {
			t.Errorf("%s %s: ok=%v, %d answers (want %d), reference %s (%s)\n%s", tc.spec, tc.task, r.OK(), answered, want, r.Reference, r.RefSource, buf.String())
		}
	}
}
