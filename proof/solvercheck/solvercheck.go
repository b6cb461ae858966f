// Package solvercheck checks that an external solver keeps its protocol:
// it runs the solver, through the same path every run of the sat backend
// takes (package sat: its definition, its protocol read strictly, every
// model checked, an o value against the model's cost, a DRAT proof through
// the project's checkers), on a battery of tiny formulas whose answers are
// known, chosen by the solver's kind. "boardsat solvers check NAME" prints
// the table.
package solvercheck

import (
	"context"
	"fmt"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/proof/certify"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
)

// Row is one check: what was asked, the known answer, what the solver
// answered, and whether that conforms.
type Row struct {
	Check, Want, Got string
	OK               bool
}

// Timeout is each check's time limit: every formula is tiny.
const Timeout = 20 * time.Second

// Run runs the battery of the named solver's kind; the error is for a
// solver that cannot be checked (unknown, not installed, in-process).
func Run(ctx context.Context, name string) ([]Row, error) {
	s, err := sat.Lookup(name)
	if err != nil {
		return nil, err
	}
	d := s.Def
	if d.Name == "" {
		return nil, fmt.Errorf("solver %s runs in process: solvers check is for external solvers (their definitions)", name)
	}
	var rows []Row
	for _, c := range battery(d) {
		cctx, cancel := context.WithTimeout(ctx, Timeout)
		got, ok := c.run(cctx, d.Name)
		cancel()
		rows = append(rows, Row{Check: c.name, Want: c.want, Got: got, OK: ok})
	}
	return rows, nil
}

// check is one formula and its known answer.
type check struct {
	name, want string
	run        func(ctx context.Context, solver string) (got string, ok bool)
}

// battery returns the checks of d's kind.
func battery(d solverdef.Def) []check {
	switch d.Kind {
	case solverdef.KindMC:
		return []check{
			countCheck("count (mc)", satFormula(), 4),
			countCheck("count of an unsatisfiable formula", cnf.Pigeonhole(2), 0),
		}
	case solverdef.KindPMC:
		return []check{
			countCheck("projected count (pmc)", projected(), 3),
			countCheck("count (every variable projected)", satFormula(), 4),
			countCheck("count of an unsatisfiable formula", cnf.Pigeonhole(2), 0),
		}
	case solverdef.KindPB:
		return []check{
			solveCheck("satisfiable (PB constraints)", pbFormula(false), puzzle.OK, false),
			solveCheck("unsatisfiable (PB constraints)", pbFormula(true), puzzle.Unsat, false),
			optimumCheck("optimum", optimum(), 2),
		}
	case solverdef.KindMaxSAT:
		return []check{
			solveCheck("satisfiable", satFormula(), puzzle.OK, false),
			solveCheck("unsatisfiable", cnf.Pigeonhole(2), puzzle.Unsat, false),
			optimumCheck("optimum", optimum(), 2),
		}
	}
	out := []check{
		solveCheck("satisfiable", satFormula(), puzzle.OK, false),
		solveCheck("unsatisfiable (pigeons 3 into 2)", cnf.Pigeonhole(2), puzzle.Unsat, false),
		solveCheck("unsatisfiable by unit propagation", unitRefuted(), puzzle.Unsat, false),
	}
	if d.Proves() {
		out = append(out,
			solveCheck("unsatisfiable, its "+d.ProofFormat()+" proof checked", cnf.Pigeonhole(2), puzzle.Unsat, true),
			solveCheck("unsatisfiable by unit propagation, proof checked", unitRefuted(), puzzle.Unsat, true))
	}
	if d.Count != nil {
		out = append(out, countCheck("count (its own enumeration)", satFormula(), 4),
			countCheck("projected count (its own enumeration)", projected(), 3))
	}
	return out
}

// solveCheck solves f, under certify when proved (each refutation's proof
// checked by the DRAT and LRAT checkers).
func solveCheck(name string, f *cnf.Formula, want puzzle.Status, proved bool) check {
	return check{name: name, want: string(want), run: func(ctx context.Context, solver string) (string, bool) {
		var rec certify.Recorder
		if proved {
			ctx = sat.WithProofs(ctx, &rec)
		}
		r, err := sat.Solve(ctx, f, solver)
		if err != nil {
			return "refused: " + err.Error(), false
		}
		if r.Status != want {
			return got(r.Status, r.Message), false
		}
		if proved && !rec.Certified() {
			return "unsat, proof not verified: " + rec.Failure(), false
		}
		return string(r.Status), true
	}}
}

// optimumCheck solves f with its objective: the model's cost (which the
// reader has checked against the solver's o line) must be the optimum.
func optimumCheck(name string, f *cnf.Formula, opt int64) check {
	return check{name: name, want: fmt.Sprintf("cost %d", opt), run: func(ctx context.Context, solver string) (string, bool) {
		r, err := sat.Solve(ctx, f, solver)
		if err != nil {
			return "refused: " + err.Error(), false
		}
		if r.Status != puzzle.OK {
			return got(r.Status, r.Message), false
		}
		lits, weights := f.Objective()
		c := sat.Objective{Lits: lits, Weights: weights}.Cost(r.Model)
		return fmt.Sprintf("cost %d", c), c == opt
	}}
}

// countCheck counts f's models projected on its primary variables.
func countCheck(name string, f *cnf.Formula, want uint64) check {
	return check{name: name, want: fmt.Sprintf("count %d", want), run: func(ctx context.Context, solver string) (string, bool) {
		r, err := sat.Count(ctx, f, sat.CountOptions{Solver: solver})
		if err != nil {
			return "refused: " + err.Error(), false
		}
		if r.Status != puzzle.OK {
			return got(r.Status, r.Message), false
		}
		return fmt.Sprintf("count %d", r.Count), r.Count == want
	}}
}

// got is a status with its message.
func got(s puzzle.Status, msg string) string {
	if msg == "" {
		return string(s)
	}
	return string(s) + ": " + msg
}

// satFormula is (x1 or x2 or x3), (not x1 or not x2), (not x2 or not
// x3): 4 models (100, 010, 001, 101).
func satFormula() *cnf.Formula {
	f := cnf.New()
	x1, x2, x3 := f.Var("x1"), f.Var("x2"), f.Var("x3")
	f.Add(x1, x2, x3)
	f.Add(-x1, -x2)
	f.Add(-x2, -x3)
	return f
}

// unitRefuted is refuted by unit propagation alone (a solver may then
// write a proof without the empty clause).
func unitRefuted() *cnf.Formula {
	f := cnf.New()
	x, y := f.Var("x"), f.Var("y")
	f.Add(x)
	f.Add(-x, y)
	f.Add(-y)
	return f
}

// projected has primary variables a, b and an auxiliary t with t <-> (a
// and b), and a or b: 3 projected models (ab = 01, 10, 11).
func projected() *cnf.Formula {
	f := cnf.New()
	a, b := f.Var("a"), f.Var("b")
	t := f.Aux("t")
	f.Add(-t, a)
	f.Add(-t, b)
	f.Add(t, -a, -b)
	f.Add(a, b)
	return f
}

// pbFormula: 2a + b + c >= 3 with a + b + c <= 1 (unsat) or <= 2 (sat).
func pbFormula(unsat bool) *cnf.Formula {
	f := cnf.New()
	a, b, c := f.Var("a"), f.Var("b"), f.Var("c")
	f.AddPB([]cnf.Lit{a, b, c}, []int{2, 1, 1}, cnf.AtLeast, 3)
	k := 2
	if unsat {
		k = 1
	}
	f.AddPB([]cnf.Lit{a, b, c}, []int{1, 1, 1}, cnf.AtMost, k)
	return f
}

// optimum: clauses (a or b), (b or c), (c or d); minimise a + 2b + c + 2d:
// the least cost is 2 (a and c).
func optimum() *cnf.Formula {
	f := cnf.New()
	a, b, c, d := f.Var("a"), f.Var("b"), f.Var("c"), f.Var("d")
	f.Add(a, b)
	f.Add(b, c)
	f.Add(c, d)
	f.Minimize([]cnf.Lit{a, b, c, d}, []int{1, 2, 1, 2})
	return f
}
