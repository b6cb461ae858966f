package sat

import (
	"context"
	"fmt"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
	gs "github.com/crillab/gophersat/solver"
)

// Session is one gophersat solver kept alive across calls, for a search
// that only ever tightens its formula: a SAT-UNSAT descent that adds "at
// most k" on a totalizer's outputs, then "at most k-1", and so on. Each
// Solve hands the constraints added since the last one to gophersat's
// AppendClause (the way gophersat's own Minimize tightens its cost bound)
// and solves again, so learnt clauses, variable activities and phases are
// kept from call to call.
//
// Bounds are permanent: gophersat v1.4.0's Assume is not used, because it
// clears the whole trail (top-level units of the problem included) and
// records the assumed literals as permanent level-1 units, so an
// assumption can never be retracted. A search that needs to loosen a bound
// (UNSAT-SAT ascent, bisection) cannot use a Session.
//
// Under a context that asks for proofs (WithProofs), every UNSAT of the
// kept solver is proved by a fresh proof-giving call on the whole formula
// (proveSession): the kept solver's own learning spans formulas that
// differ from call to call.
//
// The time limit stops a Session like any other gophersat call: with a
// context that can end, the solver lives in a child process of its own
// (not the shared worker of searchOne), killed when the context ends,
// after which the Session answers Timeout. With a context that cannot
// end, the solver lives in this process and each Solve holds the
// gophersat lock to its end.
type Session struct {
	f      *cnf.Formula // everything added so far: models are checked against it
	sent   int          // clauses of f the solver has
	sentPB int          // PB constraints of f the solver has
	here   *gs.Solver   // the in-process solver, or nil
	w      *worker      // the child process, or nil
	opened bool         // the child has the base formula
	dead   *Result      // the answer of every Solve once the session is over
	last   *Result      // the last answer, while nothing was added since
}

// NewSession starts a session on a copy of f (f itself is not changed):
// in this process when ctx cannot end, in a child process of its own
// otherwise (started at the first Solve). Close it when done.
func NewSession(ctx context.Context, f *cnf.Formula) *Session {
	s := &Session{f: cloneFormula(f)}
	if ctx.Done() == nil {
		s.here = gs.New(gophersatProblem(s.f, nil))
		s.sent, s.sentPB = s.f.NumClauses(), len(s.f.PBs())
	}
	return s
}

// Add adds a clause over the session's variables, sent to the solver at
// the next Solve.
func (s *Session) Add(clause ...cnf.Lit) { s.f.Add(clause...) }

// AddPB adds a PB constraint over the session's variables (weights nil
// for all 1), sent to the solver at the next Solve.
func (s *Session) AddPB(lits []cnf.Lit, weights []int, op cnf.Op, k int) {
	s.f.AddPB(lits, weights, op, k)
}

// Formula returns the session's formula: the one it started from and
// everything added since. It must not be changed but through Add and
// AddPB.
func (s *Session) Formula() *cnf.Formula { return s.f }

// Solve solves the formula with everything added so far, reusing the
// solver. A model in an OK result has been checked against the whole
// formula; Stats are this call's (StatSolverCalls 1). Once a Solve has
// timed out or failed, the session is over and every later Solve gives
// that answer again.
func (s *Session) Solve(ctx context.Context) Result {
	if s.dead != nil {
		return *s.dead
	}
	if s.last != nil && (s.last.Status == puzzle.Unsat || s.sent == s.f.NumClauses() && s.sentPB == len(s.f.PBs())) {
		// Nothing added: the same formula, the same answer. Or unsat
		// already: adding constraints keeps it unsat.
		r := *s.last
		r.Stats = map[string]int64{}
		if sink := proofSinkOf(ctx); sink != nil && r.Status == puzzle.Unsat && s.sent != s.f.NumClauses() {
			// Unsat again, of a larger formula: proved afresh.
			s.sent, s.sentPB = s.f.NumClauses(), len(s.f.PBs())
			return proveSession(ctx, s.f, sink, r)
		}
		return r
	}
	if sink := proofSinkOf(ctx); sink != nil && len(s.f.PBs()) > 0 {
		return s.end(Result{Status: puzzle.Error, Message: errNoProofPB(s.f).Error()})
	}
	if ctx.Err() != nil {
		return timeoutResult(nil)
	}
	clauses := make([][]cnf.Lit, 0, s.f.NumClauses()-s.sent)
	for i := s.sent; i < s.f.NumClauses(); i++ {
		clauses = append(clauses, s.f.Clause(i))
	}
	pbs := s.f.PBs()[s.sentPB:]
	var r searchResult
	switch {
	case s.here != nil:
		err := withGophersat(ctx, func() {
			r = appendKept(s.here, clauses, pbs)
			if r.Err == "" && r.Verdict == "" {
				r = solveKept(s.here, s.f.NumVars())
			}
		})
		if err != nil {
			r = searchResult{Err: err.Error()}
			if ctx.Err() != nil {
				r = searchResult{Timeout: true}
			}
		}
	default:
		if s.w == nil {
			w, err := startWorker()
			if err != nil {
				return s.end(Result{Status: puzzle.Error, Message: "cannot start a gophersat child process: " + err.Error()})
			}
			s.w = w
		}
		job := searchJob{Mode: modeIncSolve, NumVars: s.f.NumVars(), Clauses: clauses, PBs: pbs}
		if !s.opened {
			job = searchJob{Mode: modeIncOpen, NumVars: s.f.NumVars(), Clauses: formulaClauses(s.f), PBs: s.f.PBs()}
		}
		var killed bool
		r, killed = s.w.roundTrip(ctx, job, nil)
		if killed {
			s.w = nil
		}
		s.opened = true
	}
	s.sent, s.sentPB = s.f.NumClauses(), len(s.f.PBs())
	var res Result
	switch {
	case r.Timeout:
		return s.end(timeoutResult(nil))
	case r.Err != "":
		return s.end(Result{Status: puzzle.Error, Stats: r.Stats, Message: r.Err})
	case r.Verdict == "unsat":
		res = Result{Status: puzzle.Unsat, Stats: r.Stats}
		if sink := proofSinkOf(ctx); sink != nil {
			if res = proveSession(ctx, s.f, sink, res); res.Status != puzzle.Unsat {
				return s.end(res)
			}
		}
	case r.Verdict == "sat":
		res = checkModel("gophersat", s.f, r.Model, r.Stats)
		if res.Status != puzzle.OK {
			return s.end(res)
		}
	default:
		return s.end(Result{Status: puzzle.Error, Stats: r.Stats, Message: "gophersat ended without a verdict (" + r.Verdict + ")"})
	}
	s.last = &res
	return res
}

// end records the answer that ends the session, stopping its child.
func (s *Session) end(r Result) Result {
	s.dead = &r
	s.Close()
	return r
}

// Close stops the session's child process, if any. A closed session
// answers no more.
func (s *Session) Close() {
	if s.w != nil {
		s.w.kill()
		s.w = nil
	}
	if s.dead == nil {
		s.dead = &Result{Status: puzzle.Error, Message: "the solver session is closed"}
	}
}

// appendKept appends clauses and PB constraints to a kept solver, the
// way gophersat's own Minimize adds its cost bounds (AppendClause). A
// panic inside gophersat becomes an error.
func appendKept(s *gs.Solver, clauses [][]cnf.Lit, pbs []cnf.PB) (r searchResult) {
	defer func() {
		if p := recover(); p != nil {
			r = searchResult{Err: fmt.Sprintf("gophersat failed: %v", p)}
		}
	}()
	var constrs []gs.PBConstr
	var buf []cnf.Lit
	for _, c := range clauses {
		constrs, buf = appendClauseConstr(constrs, buf, c)
	}
	for _, p := range pbs {
		constrs = append(constrs, pbConstrs(p)...)
	}
	for _, c := range constrs {
		if c.AtLeast <= 0 {
			continue // always holds
		}
		if c.Weights == nil && c.AtLeast == 1 {
			lits := make([]gs.Lit, len(c.Lits))
			for i, l := range c.Lits {
				lits[i] = gs.IntToLit(int32(l))
			}
			if len(lits) == 0 {
				// The empty clause: AppendClause's unsat test covers it
				// only with a cardinality, so say it here.
				return searchResult{Verdict: "unsat", Stats: map[string]int64{puzzle.StatSolverCalls: 1}}
			}
			s.AppendClause(gs.NewClause(lits))
			continue
		}
		if c.WeightSum() < c.AtLeast {
			return searchResult{Verdict: "unsat", Stats: map[string]int64{puzzle.StatSolverCalls: 1}}
		}
		s.AppendClause(c.Clause())
	}
	return searchResult{}
}

// solveKept solves a kept solver again, the caller holding the gophersat
// lock, and reports this call's counters (gophersat's are cumulative).
func solveKept(s *gs.Solver, n int) searchResult {
	before := gophersatStats(s)
	st := s.Solve()
	r := searchResult{Stats: gophersatStats(s)}
	for k, v := range before {
		r.Stats[k] -= v
	}
	r.Stats[puzzle.StatSolverCalls] = 1
	switch st {
	case gs.Sat:
		m, err := gophersatModel(s, n)
		if err != nil {
			return searchResult{Err: err.Error(), Stats: r.Stats}
		}
		r.Verdict, r.Model = "sat", m
	case gs.Unsat:
		r.Verdict = "unsat"
	default:
		r.Verdict = "indet"
	}
	return r
}

// optimalHere runs gophersat's own optimisation on f with cost obj
// (Problem.SetCostFunc, then Solver.Optimal: solve, add "cost below the
// model's" as a PB constraint with AppendClause, solve again, with the
// objective's literals false by default and their activity raised by
// their weights), holding the gophersat lock to its end. Each improved
// model goes to progress as it is found (Verdict "improved"); the result
// is "sat" with the optimal model, or "unsat".
func optimalHere(ctx context.Context, f *cnf.Formula, obj Objective, progress func(searchResult)) searchResult {
	pb := gophersatProblem(f, nil)
	lits := make([]gs.Lit, len(obj.Lits))
	for i, l := range obj.Lits {
		lits[i] = gs.IntToLit(int32(l))
	}
	weights := append([]int(nil), obj.Weights...)
	pb.SetCostFunc(lits, weights)
	s := gs.New(pb)
	n := f.NumVars()
	results := make(chan gs.Result)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for r := range results {
			if r.Status == gs.Sat && progress != nil {
				m := make([]bool, n+1)
				copy(m[1:], r.Model)
				progress(searchResult{Verdict: verdictImproved, Model: m})
			}
		}
	}()
	var final gs.Result
	started := false
	err := withGophersat(ctx, func() {
		started = true
		final = s.Optimal(results, nil) // closes results, even in a panic
	})
	if !started {
		close(results)
	}
	if err != nil {
		<-drained
		if ctx.Err() != nil {
			return searchResult{Timeout: true}
		}
		return searchResult{Err: err.Error()}
	}
	<-drained
	r := searchResult{Stats: gophersatStats(s)}
	r.Stats[puzzle.StatSolverCalls] = 1
	switch final.Status {
	case gs.Sat:
		r.Verdict = "sat"
		r.Model = make([]bool, n+1)
		copy(r.Model[1:], final.Model)
	case gs.Unsat:
		r.Verdict = "unsat"
	default:
		r.Verdict = "indet"
	}
	return r
}

// searchOptimal runs optimalHere in this process when ctx cannot end, and
// otherwise in the shared worker process, killed when ctx ends; progress
// gets each improved model either way.
func searchOptimal(ctx context.Context, f *cnf.Formula, obj Objective, progress func(searchResult)) searchResult {
	if err := ctx.Err(); err != nil {
		return searchResult{Timeout: true}
	}
	if ctx.Done() == nil {
		return optimalHere(ctx, f, obj, progress)
	}
	return sharedRoundTrip(ctx, searchJob{Mode: modeOptimal, NumVars: f.NumVars(), Clauses: formulaClauses(f), PBs: f.PBs(), Cost: obj}, progress)
}
