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
	for i := 0; i < f.NumClauses(); i++ {
		constrs, buf = appendClauseConstr(constrs, buf, f.Clause(i))
	}
	for _, c := range extra {
		constrs, buf = appendClauseConstr(constrs, buf, c)
	}
	for _, p := range f.PBs() {
		constrs = append(constrs, pbConstrs(p)...)
	}
	return gs.ParsePBConstrs(constrs)
}

// appendClauseConstr appends clause c to constrs as a gophersat
// constraint, cleaned (buf is scratch space, returned for reuse); a
// tautology is left out.
func appendClauseConstr(constrs []gs.PBConstr, buf, c []cnf.Lit) ([]gs.PBConstr, []cnf.Lit) {
	var taut bool
	buf, taut = cleanClause(buf[:0], c)
	if taut {
		return constrs, buf
	}
	lits := make([]int, len(buf))
	for i, l := range buf {
		lits[i] = int(l)
	}
	return append(constrs, gs.PropClause(lits...)), buf
}

// pbConstrs returns p as gophersat constraints (two for Exactly).
func pbConstrs(p cnf.PB) []gs.PBConstr {
	// gophersat gets distinct variables and positive weights.
	nl, nw, k := normalizePB(p)
	lits := make([]int, len(nl))
	w := make([]int, len(nw))
	for i := range nl {
		lits[i], w[i] = int(nl[i]), int(nw[i])
	}
	switch p.Op {
	case cnf.AtLeast:
		return []gs.PBConstr{gs.GtEq(lits, w, int(k))}
	case cnf.AtMost:
		return []gs.PBConstr{gs.LtEq(lits, w, int(k))}
	}
	return gs.Eq(lits, w, int(k))
}

// cleanClause appends c to buf without repeated literals, in c's order;
// taut reports a clause holding a literal and its negation. A long clause
// is cleaned through a set, in time linear in its length (a clause of
// 200,000 literals took minutes by pairwise comparison).
func cleanClause(buf, c []cnf.Lit) (out []cnf.Lit, taut bool) {
	if len(c) > 32 {
		seen := make(map[cnf.Lit]struct{}, len(c))
		for _, l := range c {
			if _, neg := seen[-l]; neg {
				return buf, true
			}
			if _, dup := seen[l]; !dup {
				seen[l] = struct{}{}
				buf = append(buf, l)
			}
		}
		return buf, false
	}
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
// returned wrong counts in 24 of 30 runs. Every gophersat call of the
// project goes through this package (TestGophersatImportedOnlyHere) and runs
// inside withGophersat.
//
// gophersat cannot interrupt a search either, so no call here is ever
// abandoned while it holds the lock: a call runs to its end, and the
// context is checked before the lock is taken and between calls. A single
// search that must stop at a time limit (Solve, CountBuiltin, Certify with
// a cancellable context) runs in a child process instead (child.go), which
// is killed at the limit; it never takes this process's lock.
var gophersatSem = make(chan struct{}, 1)

// acquireGophersat takes gophersatSem, checking ctx first: a cancelled
// context never takes the lock.
func acquireGophersat(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case gophersatSem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		<-gophersatSem
		return err
	}
	return nil
}

// withGophersat runs fn, any gophersat call, holding gophersatSem, to its
// end (gophersat cannot be stopped; see gophersatSem). A panic inside
// gophersat becomes an error and releases the lock.
func withGophersat(ctx context.Context, fn func()) (err error) {
	if err := acquireGophersat(ctx); err != nil {
		return err
	}
	defer func() { <-gophersatSem }()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gophersat failed: %v", r)
		}
	}()
	fn()
	return nil
}

// gophersatRunHook is the Solve call of the counters; tests replace it to
// plant solver verdicts (Indet) that must never pass for a finished count.
var gophersatRunHook = gophersatRun

// gophersatRun calls s.Solve under withGophersat.
func gophersatRun(ctx context.Context, s *gs.Solver) (gs.Status, error) {
	st := gs.Indet
	err := withGophersat(ctx, func() { st = s.Solve() })
	return st, err
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

// gophersatSolve solves f with gophersat (in a child process when ctx can
// end; see searchOne).
func gophersatSolve(ctx context.Context, f *cnf.Formula) Result {
	if f.NumVars() == 0 {
		// Nothing to search: satisfied unless it holds an empty clause.
		if f.Satisfied([]bool{false}) {
			return Result{Status: puzzle.OK, Model: []bool{false}, Stats: map[string]int64{}}
		}
		return Result{Status: puzzle.Unsat, Stats: map[string]int64{}}
	}
	r := searchOne(ctx, modeSolve, f)
	switch {
	case r.Timeout:
		return timeoutResult(nil)
	case r.Err != "":
		return Result{Status: puzzle.Error, Stats: r.Stats, Message: r.Err}
	case r.Verdict == "unsat":
		return Result{Status: puzzle.Unsat, Stats: r.Stats}
	case r.Verdict == "sat":
		return checkModel("gophersat", f, r.Model, r.Stats)
	}
	return Result{Status: puzzle.Error, Stats: r.Stats, Message: "gophersat ended without a verdict (" + r.Verdict + ")"}
}

// CountBuiltin returns gophersat's own CountModels() on f. It is known to be
// wrong (it over-counts: 103 for the 92 models of queens:8 with the pairwise
// encoding, as `boardsat compare` shows) and counts total models, not
// projected ones; it exists so that cross-validation can show the
// disagreement. Never take it as truth.
func CountBuiltin(ctx context.Context, f *cnf.Formula) CountResult {
	r := searchOne(ctx, modeCount, f)
	switch {
	case r.Timeout:
		return CountResult{Status: puzzle.Timeout, Message: "time limit reached"}
	case r.Err != "":
		return CountResult{Status: puzzle.Error, Message: r.Err}
	}
	return CountResult{Status: puzzle.OK, Count: uint64(r.Count), Stats: r.Stats}
}
