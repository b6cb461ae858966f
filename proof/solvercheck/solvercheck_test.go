package solvercheck

import (
	"context"
	"testing"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/solvers/solverdef"
)

// brute counts f's projected models over every assignment.
func brute(f *cnf.Formula) uint64 {
	seen := map[string]bool{}
	for m := 0; m < 1<<f.NumVars(); m++ {
		model := make([]bool, f.NumVars()+1)
		for v := 1; v <= f.NumVars(); v++ {
			model[v] = m&(1<<(v-1)) != 0
		}
		if f.Satisfied(model) {
			key := ""
			for _, v := range f.Projection() {
				key += map[bool]string{true: "1", false: "0"}[model[v]]
			}
			seen[key] = true
		}
	}
	return uint64(len(seen))
}

// TestBatteryAnswers: the battery's known answers are those of brute
// force (and, for clauses, of the independent test counter cnftest), not
// just written down.
func TestBatteryAnswers(t *testing.T) {
	for _, c := range []struct {
		name string
		f    *cnf.Formula
		want uint64
	}{{"sat", satFormula(), 4}, {"pigeons", cnf.Pigeonhole(2), 0}, {"unit", unitRefuted(), 0}, {"projected", projected(), 3},
		{"pb sat", pbFormula(false), 2}, {"pb unsat", pbFormula(true), 0}} {
		if got := brute(c.f); got != c.want {
			t.Errorf("%s: %d projected models by brute force, the battery says %d", c.name, got, c.want)
		}
		if len(c.f.PBs()) == 0 {
			if got := cnftest.New(c.f).CountUnder(nil, c.f.Projection(), 1<<20); got != c.want {
				t.Errorf("%s: %d projected models by cnftest, the battery says %d", c.name, got, c.want)
			}
		}
	}
	// The optimum: the least cost over every model, by brute force.
	f := optimum()
	lits, weights := f.Objective()
	best := int64(-1)
	for m := 0; m < 1<<f.NumVars(); m++ {
		model := make([]bool, f.NumVars()+1)
		for v := 1; v <= f.NumVars(); v++ {
			model[v] = m&(1<<(v-1)) != 0
		}
		if f.Satisfied(model) {
			if c := (sat.Objective{Lits: lits, Weights: weights}).Cost(model); best < 0 || c < best {
				best = c
			}
		}
	}
	if best != 2 {
		t.Errorf("optimum %d, the battery says 2", best)
	}
}

// TestBuiltinsConform: every installed built-in passes its battery.
func TestBuiltinsConform(t *testing.T) {
	for _, d := range solverdef.All() {
		if !d.Builtin() {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			if cnftest.MissingSolver(t, d.Program()) {
				return
			}
			rows, err := Run(context.Background(), d.Name)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) < 3 {
				t.Errorf("%d checks", len(rows))
			}
			for _, r := range rows {
				if !r.OK {
					t.Errorf("%s: want %s, got %s", r.Check, r.Want, r.Got)
				}
			}
		})
	}
}
