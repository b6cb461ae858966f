// Package sat runs SAT and pseudo-Boolean solvers on a cnf.Formula and counts
// its models projected onto the formula's primary variables.
//
// Solvers are named values in Solvers: "gophersat" runs in-process (the
// default, and it takes PB constraints natively); the others are external
// binaries fed through temporary DIMACS (or OPB) files. Every model a solver
// reports is checked against the formula, and anything a solver prints that
// is not a well-formed, correct answer becomes status Error, never a wrong
// answer.
//
// Usage, for code with its own formula f:
//
//	res, err := sat.Solve(ctx, f, "")  // "" = gophersat; err: unknown solver, absent binary, PB for a CNF-only solver
//	switch res.Status {                // OK (res.Model[v], v = 1..f.NumVars(), checked), Unsat, Timeout, Error (res.Message)
//	}
//	cr, err := sat.Count(ctx, f, sat.CountOptions{Solver: "", Threads: 0})
//	// cr.Count (valid only when cr.Status == puzzle.OK) is the number of
//	// assignments of f.Projection() that extend to a model, whatever aux vars.
//	// CountOptions.Emit streams one full, checked model per counted assignment.
//	// res.Stats / cr.Stats use the puzzle.Stat* keys; merge them into Answer.Stats.
//
// gophersat is not safe for concurrent use within one process (a shared
// buffer in its learning code); this package serialises every gophersat
// call, so call gophersat only through it.
package sat

import (
	"context"
	"fmt"
	"strings"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
	"github.com/boardsat/boardsat/solvers/solverproc"
)

// Result is the outcome of one solver run on a formula.
type Result struct {
	// Status is OK (a model was found and checked), Unsat, Timeout or Error.
	Status puzzle.Status
	// Model holds Model[v] for v = 1..NumVars (Model[0] unused) when Status is OK.
	Model []bool
	// Stats holds the solver's counters under puzzle.Stat* keys, those it reports.
	Stats map[string]int64
	// Message explains an Error or Timeout status.
	Message string
	// Optimal says the solver answered s OPTIMUM FOUND for a formula with
	// an objective (PB and MaxSAT solvers): the model is least by its word.
	Optimal bool
}

// Solver is one SAT (or PB) solver boardsat can run.
type Solver struct {
	// Name selects it with --solver.
	Name string
	// Doc says in one line what it is.
	Doc string
	// PB is true when the solver accepts pseudo-Boolean constraints (the
	// card encoding "native"); the others take CNF only.
	PB bool
	// Binary is the executable an external solver runs; "" for in-process.
	Binary string
	// Proofs is true when the solver writes a proof of unsatisfiability
	// that a certified run checks (gophersat's RUP lines, cadical's DRAT).
	Proofs bool
	// Def is an external solver's definition (zero for the in-process
	// ones): its kind, command line, protocol and proof format.
	Def solverdef.Def

	run func(ctx context.Context, f *cnf.Formula) Result
	// prove runs an external solver that writes its DRAT proof (ASCII) to
	// the file proof; nil for the others.
	prove func(ctx context.Context, f *cnf.Formula, proof string) Result
}

// Available reports why the solver cannot run here (its binary is not on
// PATH), or nil when it can (always for an in-process one).
func (s Solver) Available() error {
	if d := s.Def; d.Name != "" && !d.Builtin() {
		// A user's definition: what is wrong with its program, and where
		// the definition came from.
		if err := d.Installed(); err != nil {
			return fmt.Errorf("solver %s (%s): %v", s.Name, d.Source, err)
		}
		return nil
	}
	return solverproc.Available(s.Name, s.Binary)
}

// listing is how the solver is listed for --solver (solverproc.Set).
func (s Solver) listing() solverproc.Listing {
	return solverproc.Listing{Name: s.Name, Binary: s.Binary, Doc: s.Doc}
}

// Set returns every solver, installed or not, as the sat backend's
// solver set (solverproc.Set): the default (gophersat) first, the
// in-process ones, then every definition's, as All orders them. The
// backend's --solver choices come from it, through the one helper every
// backend's do.
func Set() solverproc.Set[Solver] {
	return solverproc.Set[Solver]{Backend: "sat", Solvers: All(), List: Solver.listing}
}

// Solvers is the registry of solvers, in the order boardsat lists them.
var Solvers = puzzle.NewRegistry[Solver]("solver")

// DefaultSolver is the solver used when none is named.
const DefaultSolver = "gophersat"

// BlockingSolver is gophersat with MethodBlocking as its counting method,
// selectable by name where only a solver name can be given (--solver).
const BlockingSolver = "gophersat-blocking"

func init() {
	Solvers.Add("gophersat", Solver{Name: "gophersat", PB: true, Proofs: true,
		Doc: "gophersat v1.4.0 in-process CDCL solver, PB constraints native; counts with boardsat's projected enumerator", run: gophersatSolve})
	Solvers.Add(BlockingSolver, Solver{Name: BlockingSolver, PB: true, Proofs: true,
		Doc: "gophersat, counting by incremental Solve + one blocking clause per model (slower; for comparison)", run: gophersatSolve})
	solverdef.Reserve(Solvers.Names()...)
}

// Lookup returns the named solver ("" for the default) after checking that
// it can run here: an unknown name or an absent binary is an error. The
// in-process solvers come first, then every solver definition (built in
// or the user's: package solverdef).
func Lookup(name string) (Solver, error) {
	s, err := find(name)
	if err != nil {
		return s, err
	}
	return s, s.Available()
}

// find returns the named solver ("" for the default), installed or not.
func find(name string) (Solver, error) {
	if name == "" {
		name = DefaultSolver
	}
	if d, ok := solverdef.Lookup(name); ok {
		return defSolver(d), nil
	}
	s, err := Solvers.Lookup(name)
	if err != nil {
		return s, fmt.Errorf("unknown solver %q: want one of %s (or a solver definition: --solvers PATH)", name, strings.Join(names(), ", "))
	}
	return s, nil
}

// names lists every solver's name, as All orders them.
func names() []string {
	var out []string
	for _, s := range All() {
		out = append(out, s.Name)
	}
	return out
}

// All returns every solver, installed or not: the in-process ones in
// registry order, then every definition's.
func All() []Solver {
	var out []Solver
	for _, n := range Solvers.Names() {
		s, _ := Solvers.Lookup(n)
		out = append(out, s)
	}
	for _, d := range solverdef.All() {
		out = append(out, defSolver(d))
	}
	return out
}

// Solve runs the named solver ("" for the default) on f until it answers or
// ctx is done. The error is for a request that cannot run at all (unknown
// solver, absent binary, PB constraints for a CNF-only solver); failures of
// the run itself are Results with status Error or Timeout. A model in an OK
// result has been checked against every clause and PB constraint of f.
func Solve(ctx context.Context, f *cnf.Formula, solverName string) (Result, error) {
	s, err := Lookup(solverName)
	if err != nil {
		return Result{}, err
	}
	if err := s.accepts(f); err != nil {
		return Result{}, err
	}
	if s.Def.Counter() {
		return Result{}, fmt.Errorf("solver %s is a model counter (kind %s): it answers task count, not a search for one model", s.Name, s.Def.Kind)
	}
	if ctx.Err() != nil {
		return Result{Status: puzzle.Timeout, Message: "time limit reached before solving"}, nil
	}
	if sink := proofSinkOf(ctx); sink != nil {
		return solveProving(ctx, s, f, sink)
	}
	return s.run(ctx, f), nil
}

// accepts returns an error when the solver cannot take f's constraints.
func (s Solver) accepts(f *cnf.Formula) error {
	if !s.PB && len(f.PBs()) > 0 {
		return fmt.Errorf("solver %s takes CNF only, and this formula has %d pseudo-Boolean constraints (card encoding native): pick a CNF encoding or the solver gophersat or minisat+", s.Name, len(f.PBs()))
	}
	return nil
}

// checkModel turns a claimed model into a Result: OK when it satisfies f,
// Error naming the solver otherwise.
func checkModel(who string, f *cnf.Formula, model []bool, stats map[string]int64) Result {
	if len(model) != f.NumVars()+1 {
		return Result{Status: puzzle.Error, Stats: stats, Message: fmt.Sprintf("%s returned a model of %d variables, want %d", who, len(model)-1, f.NumVars())}
	}
	if !f.Satisfied(model) {
		return Result{Status: puzzle.Error, Stats: stats, Message: fmt.Sprintf("%s returned a model that violates the formula", who)}
	}
	return Result{Status: puzzle.OK, Model: model, Stats: stats}
}

// timeoutResult is the Result of a run cut short by ctx.
func timeoutResult(stats map[string]int64) Result {
	return Result{Status: puzzle.Timeout, Stats: stats, Message: "time limit reached"}
}
