package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// commonRows are the cases, under a 2 s CPU limit: on dominate
// optimum cp/gecode ran 4 instances and solved 3, mip/glpk ran 7 and
// solved 6 (the 3 beyond cp/gecode's ladder all in about 1.9 s, near the
// limit); on kingpath count, cp/gecode alone ran kingpath:4x4:b1:5.
func commonRows() []results.Row {
	mk := func(in, v, st string, cpu float64) results.Row {
		r := row(in, v, map[bool]string{true: "optimum", false: "count"}[strings.HasPrefix(in, "dominate")], 1, st, cpu)
		r.User, r.Sys, r.CPULimit, r.WallLimit = cpu, 0, 2, 60
		if st == results.StatusTimeout {
			r.Limit = results.LimitCPU
		}
		return r
	}
	ok, to := results.StatusOK, results.StatusTimeout
	var rows []results.Row
	for i, gecode := range []float64{0.1, 0.2, 0.4, -1} {
		in := fmt.Sprintf("dominate:%dx%d:Q", i+4, i+4)
		rows = append(rows, mk(in, "mip/glpk", ok, 0.3*float64(i+1)))
		if gecode < 0 {
			rows = append(rows, mk(in, "cp/gecode", to, 2.01))
		} else {
			rows = append(rows, mk(in, "cp/gecode", ok, gecode))
		}
	}
	sk := mk("dominate:8x8:Q", "cp/gecode", results.StatusSkipped, 0)
	sk.Message = results.NotRunMessage("ladder stopped after a timeout or memout on dominate:7x7:Q")
	rows = append(rows, sk, mk("dominate:8x8:Q", "mip/glpk", ok, 1.9), mk("dominate:9x9:Q", "mip/glpk", ok, 1.9), mk("dominate:10x10:Q", "mip/glpk", to, 2.01))
	for _, in := range []string{"kingpath:3x3:b1:3", "kingpath:4x4:b1:4"} {
		rows = append(rows, mk(in, "cp/gecode", ok, 0.5), mk(in, "mip/glpk", ok, 0.4))
	}
	return append(rows, mk("kingpath:4x4:b1:5", "cp/gecode", ok, 1))
}

// TestScoresOverCommonInstances: a variant that ran fewer instances is
// scored over the instances every variant ran, not favoured by the ones it
// left (cp/gecode's 3 of 4 does not beat mip/glpk's 4 of 4 on the same 4),
// an instance only it ran makes it unique on nothing, and the table names
// it and says over how many instances the scores are.
func TestScoresOverCommonInstances(t *testing.T) {
	a := Aggregate(commonRows(), 2, TimeCPU)
	got := map[string]Score{}
	for _, s := range a.Scores {
		got[s.Puzzle+" "+s.Variant] = s
	}
	gecode, glpk := got["dominate cp/gecode"], got["dominate mip/glpk"]
	if gecode.Common != 4 || gecode.Solved != 3 || glpk.Solved != 4 || gecode.Ran != 4 || glpk.Ran != 7 || glpk.SolvedRan != 6 {
		t.Errorf("dominate: cp/gecode %+v, mip/glpk %+v; want both over the 4 common instances, 3 and 4 solved", gecode, glpk)
	}
	if !(glpk.PAR < gecode.PAR) {
		t.Errorf("dominate PAR-2: mip/glpk %g, cp/gecode %g; want mip/glpk better over the instances both ran", glpk.PAR, gecode.PAR)
	}
	if k := got["kingpath cp/gecode"]; k.Unique != 0 || k.Common != 2 || k.Ran != 3 {
		t.Errorf("kingpath cp/gecode: %+v; want unique 0 over the 2 common instances, 3 ran", k)
	}
	title := ScoreTable(a, 2).Title
	for _, want := range []string{"dominate optimum: scored over the 4 instances every variant ran, of 7; ran fewer: cp/gecode 4 of 7",
		"kingpath count: scored over the 2 instances every variant ran, of 3; ran fewer: mip/glpk 2 of 3"} {
		if !strings.Contains(title, want) {
			t.Errorf("scores title %q does not say %q", title, want)
		}
	}
}

// randomRows is a random result set: 1 to 2 puzzles, 2 to 4 variants, up
// to 6 instances, 1 to 3 runs each of random status and time, some
// instances not run by some variants, some runs refused or skipped, with
// or without a CPU limit.
func randomRows(rng *rand.Rand) []results.Row {
	var rows []results.Row
	statuses := []string{results.StatusOK, results.StatusOK, results.StatusUnsat, results.StatusTimeout, results.StatusMemout, results.StatusError, results.StatusSkipped}
	limit := []float64{0, 1, 10}[rng.IntN(3)]
	for p := range 1 + rng.IntN(2) {
		nv := 2 + rng.IntN(3)
		for i := range 1 + rng.IntN(6) {
			in := fmt.Sprintf("queens:%d", 4+i+10*p)
			for v := range nv {
				if rng.IntN(4) == 0 {
					continue // not run
				}
				for rep := range 1 + rng.IntN(3) {
					r := row(in, fmt.Sprintf("v%d", v), "count", rep+1, statuses[rng.IntN(len(statuses))], 0)
					r.Puzzle = fmt.Sprintf("p%d", p)
					r.User, r.Sys, r.CPULimit, r.WallLimit = rng.Float64()*12, 0, limit, 60
					if r.Status == results.StatusError && rng.IntN(2) == 0 {
						r.Message = results.RefusedMessage("too large")
					}
					rows = append(rows, r)
				}
			}
		}
	}
	return rows
}

// TestVBSNeverWorse: over random result sets, the virtual best solver is
// never worse than any variant, on any instance every variant ran (its
// score there at most each variant's, computed by the same statistic) nor
// in aggregate (PAR-2 at most, solved at least, each variant's).
func TestVBSNeverWorse(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 1))
	for trial := range 2000 {
		rows := randomRows(rng)
		for _, tt := range tables(rows, 2, TimeCPU) {
			common := tt.common()
			_, best := tt.vbs(common)
			for _, in := range common {
				for _, v := range tt.variants {
					if c := tt.cells[in][v]; c.par < best[in] {
						t.Fatalf("trial %d: %s %s %s: variant %s scores %g, the VBS %g", trial, tt.puzzle, tt.task, in, v, c.par, best[in])
					}
				}
			}
		}
		a := Aggregate(rows, 2, TimeCPU)
		for _, v := range a.VBS {
			for _, s := range a.Scores {
				if s.Puzzle != v.Puzzle || s.Task != v.Task {
					continue
				}
				if s.Solved > v.Solved || s.PAR < v.PAR-1e-9 || math.IsNaN(s.PAR) != math.IsNaN(v.PAR) {
					t.Fatalf("trial %d: %s %s: variant %s solved %d, PAR-2 %g; the VBS %d, %g", trial, v.Puzzle, v.Task, s.Variant, s.Solved, s.PAR, v.Solved, v.PAR)
				}
			}
		}
	}
}

// TestCactusNotRun: a cactus line that ends early because its variant was
// not run (a ladder stopped) says so in the legend, "ran 4 of 7", unlike
// a variant that ran every instance.
func TestCactusNotRun(t *testing.T) {
	var rows []results.Row
	for _, r := range commonRows() {
		if r.Puzzle == "dominate" {
			rows = append(rows, r)
		}
	}
	f, err := Cactus(Summarize(rows, TimeCPU), TimeCPU)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(f.labels, "cp/gecode (ran 4 of 7)") || !slices.Contains(f.labels, "mip/glpk") {
		t.Errorf("legend %q: want cp/gecode marked as having run 4 of 7, mip/glpk not", f.labels)
	}
}
