package sat

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
	gs "github.com/crillab/gophersat/solver"
)

// gophersatProblem translates f into gophersat's constraints, with extra
// clauses appended (unit clauses of a cube, say). Clauses are cleaned of
// repeated literals and tautologies, which gophersat's watch lists do not
// expect. Every variable of f is declared, used or not.
func gophersatProblem(f *cnf.Formula, extra [][]cnf.Lit) *gs.Problem {
	n := f.NumVars()
	constrs := make([]gs.PBConstr, 0, f.NumClauses()+len(f.PBs())+len(extra)+1)
	// A trivially true constraint over every variable sizes the problem.
	all := make([]int, n)
	for i := range all {
		all[i] = i + 1
	}
	constrs = append(constrs, gs.PBConstr{Lits: all, AtLeast: 0})
	var buf []cnf.Lit
	addClause := func(c []cnf.Lit) {
		var taut bool
		buf, taut = cleanClause(buf[:0], c)
		if taut {
			return
		}
		lits := make([]int, len(buf))
		for i, l := range buf {
			lits[i] = int(l)
		}
		constrs = append(constrs, gs.PropClause(lits...))
	}
	for i := 0; i < f.NumClauses(); i++ {
		addClause(f.Clause(i))
	}
	for _, c := range extra {
		addClause(c)
	}
	for _, p := range f.PBs() {
		// gophersat gets distinct variables and positive weights.
		nl, nw, k := normalizePB(p)
		lits := make([]int, len(nl))
		w := make([]int, len(nw))
		for i := range nl {
			lits[i], w[i] = int(nl[i]), int(nw[i])
		}
		switch p.Op {
		case cnf.AtLeast:
			constrs = append(constrs, gs.GtEq(lits, w, int(k)))
		case cnf.AtMost:
			constrs = append(constrs, gs.LtEq(lits, w, int(k)))
		default:
			constrs = append(constrs, gs.Eq(lits, w, int(k))...)
		}
	}
	return gs.ParsePBConstrs(constrs)
}

// cleanClause appends c to buf without repeated literals; taut reports a
// clause holding a literal and its negation.
func cleanClause(buf, c []cnf.Lit) (out []cnf.Lit, taut bool) {
	for _, l := range c {
		dup := false
		for _, m := range buf {
			if m == l {
				dup = true
				break
			}
			if m == -l {
				return buf, true
			}
		}
		if !dup {
			buf = append(buf, l)
		}
	}
	return buf, false
}

// gophersatStats reads the counters gophersat keeps.
func gophersatStats(s *gs.Solver) map[string]int64 {
	return map[string]int64{
		puzzle.StatConflicts: int64(s.Stats.NbConflicts),
		puzzle.StatDecisions: int64(s.Stats.NbDecisions),
		puzzle.StatRestarts:  int64(s.Stats.NbRestarts),
	}
}

// gophersatSem serialises every use of gophersat in the process.
// gophersat v1.4.0 is not safe for concurrent use even with one Solver per
// goroutine: learnClause fills a package-level buffer (solver/learn.go,
// bufLits), so two solvers learning at once corrupt each other's learned
// clauses. Seen here: two concurrent blocking-clause counts of 8-queens
// returned wrong counts in 24 of 30 runs. Hold it for every call that can
// search: Solve, CountModels, AppendClause.
var gophersatSem = make(chan struct{}, 1)

// withGophersat runs fn holding gophersatSem, in its own goroutine so that
// ctx can end the wait. gophersat has no way to interrupt a search: on
// timeout fn is abandoned and finishes in the background (still holding the
// semaphore until it does), its result discarded. A panic inside gophersat
// becomes an error.
func withGophersat(ctx context.Context, fn func()) error {
	select {
	case gophersatSem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	done := make(chan error, 1)
	go func() {
		defer func() { <-gophersatSem }()
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("gophersat failed: %v", r)
			}
		}()
		fn()
		done <- nil
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// gophersatRun calls s.Solve under withGophersat.
func gophersatRun(ctx context.Context, s *gs.Solver) (gs.Status, error) {
	var st gs.Status
	err := withGophersat(ctx, func() { st = s.Solve() })
	if err != nil {
		return gs.Indet, err
	}
	return st, nil
}

// gophersatModel returns gophersat's last model as model[v], v = 1..n.
func gophersatModel(s *gs.Solver, n int) (model []bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gophersat failed: %v", r)
		}
	}()
	m := s.Model()
	model = make([]bool, n+1)
	copy(model[1:], m)
	return model, nil
}

// gophersatSolve solves f in-process.
func gophersatSolve(ctx context.Context, f *cnf.Formula) Result {
	if f.NumVars() == 0 {
		// Nothing to search: satisfied unless it holds an empty clause.
		if f.Satisfied([]bool{false}) {
			return Result{Status: puzzle.OK, Model: []bool{false}, Stats: map[string]int64{}}
		}
		return Result{Status: puzzle.Unsat, Stats: map[string]int64{}}
	}
	s := gs.New(gophersatProblem(f, nil))
	st, err := gophersatRun(ctx, s)
	if ctx.Err() != nil {
		return timeoutResult(nil)
	}
	stats := gophersatStats(s)
	stats[puzzle.StatSolverCalls] = 1
	if err != nil {
		return Result{Status: puzzle.Error, Stats: stats, Message: err.Error()}
	}
	switch st {
	case gs.Unsat:
		return Result{Status: puzzle.Unsat, Stats: stats}
	case gs.Sat:
		model, err := gophersatModel(s, f.NumVars())
		if err != nil {
			return Result{Status: puzzle.Error, Stats: stats, Message: err.Error()}
		}
		return checkModel("gophersat", f, model, stats)
	}
	return Result{Status: puzzle.Error, Stats: stats, Message: fmt.Sprintf("gophersat ended with status %v", st)}
}

// CountBuiltin returns gophersat's own CountModels() on f. It is known to be
// wrong (it over-counts: 109 for the 92 models of 8-queens' pairwise CNF)
// and counts total models, not projected ones; it exists so that
// cross-validation can show the disagreement. Never take it as truth.
func CountBuiltin(ctx context.Context, f *cnf.Formula) CountResult {
	s := gs.New(gophersatProblem(f, nil))
	var n int
	err := withGophersat(ctx, func() { n = s.CountModels() })
	switch {
	case ctx.Err() != nil:
		return CountResult{Status: puzzle.Timeout, Message: "time limit reached"}
	case err != nil:
		return CountResult{Status: puzzle.Error, Message: err.Error()}
	}
	stats := gophersatStats(s)
	stats[puzzle.StatSolverCalls] = 1
	return CountResult{Status: puzzle.OK, Count: uint64(n), Stats: stats}
}
