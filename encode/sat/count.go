package sat

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/internal/progress"
	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
	gs "github.com/crillab/gophersat/solver"
)

// Counting methods for CountOptions.Method.
const (
	// MethodEnum is the projected DPLL enumerator (the default with gophersat).
	MethodEnum = "enum"
	// MethodBlocking is incremental gophersat: Solve, then one blocking
	// clause over the projection per model. Correct but slow, and serial.
	MethodBlocking = "blocking"
)

// CountOptions say how Count runs.
type CountOptions struct {
	// Solver is "" or "gophersat" for the in-process methods, or an external
	// solver: a model counter (kind mc or pmc) counts by itself, a solver
	// whose definition says how it counts (clasp's projected enumeration)
	// does so when Emit is nil, the others count by a blocking-clause loop
	// that re-runs the binary per model (correct, slow: for small
	// instances).
	Solver string
	// Method picks the in-process method: MethodEnum ("" too) or MethodBlocking.
	Method string
	// Threads caps the goroutines of MethodEnum (the search is split into
	// cubes they pull); 0 means one per core. The other methods run one
	// solver at a time.
	Threads int
	// Emit, if set, receives one full model (model[v], v = 1..NumVars,
	// checked against the formula) per counted projected assignment. Calls
	// are serialised; an error from Emit stops the count and is returned.
	Emit func(model []bool) error
	// Split, if set, runs MethodEnum's cubes as subproblems of the shared
	// pool with its shard, checkpoint and progress options (package
	// subproblem); Key names the count (spec, task, strategy: Count fills
	// in the partition and version). Other methods do not split, and leave
	// Split.Ran nil.
	Split *puzzle.SplitOptions
	Key   puzzle.SplitKey
	// Cubes, for a certified count (a context with a ProofSink), splits
	// the count into the 2^Cubes cubes over Cubes variables, each counted
	// and proved on its own as a subproblem of Split (cube-and-conquer:
	// cubes.go); CubeVars are the variables the model would split on
	// first. Without proofs both are ignored.
	Cubes    int
	CubeVars []cnf.Lit
}

// CountResult is the outcome of a projected count.
type CountResult struct {
	// Status is OK, Timeout or Error. Count is meaningful only when OK: a
	// count cut short is never reported as one.
	Status puzzle.Status
	// Count is the number of assignments of the projection (f.Projection())
	// that extend to a model of f.
	Count uint64
	// Stats holds solver counters under puzzle.Stat* keys.
	Stats map[string]int64
	// Message explains an Error or Timeout status.
	Message string
	// Found is, for a count a time limit or a signal stopped (Timeout), the
	// models counted before it stopped: a lower bound of the count.
	Found uint64
	// Method names the counting method that ran (clasp's enumeration mode,
	// a blocking-clause loop, boardsat's projected enumerator).
	Method string
}

// The counting methods CountResult.Method names.
const (
	MethodNameEnum        = "projected enumeration (boardsat)"
	MethodNameBlocking    = "gophersat, one blocking clause per model"
	MethodNameClaspDIMACS = "clasp -n 0 on DIMACS (every variable projected)"
	MethodNameClaspASPIF  = "clasp -n 0 --project=show on aspif"
)

// Count counts the models of f projected onto its primary variables:
// assignments of f.Projection() that extend to a model, each counted once
// however many auxiliary assignments extend it. It is exact for any formula.
// The error is for a request that cannot run (unknown solver or method,
// absent binary, PB constraints for a CNF-only solver) or an error from Emit.
//
// Under a context that asks for proofs (WithProofs), the count is
// certified (countProving): every model is passed to Emit and kept, and
// the formula with a clause blocking each is refuted with a checked proof;
// past CertifiedCountLimit models it stops with ErrCountTooLarge.
func Count(ctx context.Context, f *cnf.Formula, opt CountOptions) (CountResult, error) {
	if sink := proofSinkOf(ctx); sink != nil {
		countWith := countProving
		if opt.Cubes > 0 {
			countWith = countCubes
		}
		r, method, err := countWith(ctx, f, opt, sink)
		r.Method = method
		return r, err
	}
	r, method, err := count(ctx, f, opt)
	r.Method = method
	return r, err
}

// count is Count, and names the method it ran.
func count(ctx context.Context, f *cnf.Formula, opt CountOptions) (CountResult, string, error) {
	s, err := Lookup(opt.Solver)
	if err != nil {
		return CountResult{}, "", err
	}
	if err := s.accepts(f); err != nil {
		return CountResult{}, "", err
	}
	threads := opt.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	if s.Binary != "" {
		if opt.Method != "" {
			return CountResult{}, "", fmt.Errorf("counting method %q is for gophersat; external solvers count by their own means", opt.Method)
		}
		d := s.Def
		switch {
		case d.Counter():
			if opt.Emit != nil {
				return CountResult{}, "", fmt.Errorf("solver %s is a model counter: it gives a count, not the models that this task needs (task all, or a certified count)", s.Name)
			}
			if d.Kind == solverdef.KindMC && len(f.Projection()) < f.NumVars() {
				return CountResult{}, "", fmt.Errorf("solver %s is an mc counter, which counts every variable, and this formula is counted on %d of its %d variables (c t pmc): define it as kind pmc if it reads c p show", s.Name, len(f.Projection()), f.NumVars())
			}
			return countWithCounter(ctx, d, f), d.Name + " (" + d.Kind + " counter)", nil
		case d.Count != nil && opt.Emit == nil && len(f.PBs()) == 0:
			r, method := countOwn(ctx, d, f)
			return r, method, nil
		}
		r, err := countExternalLoop(ctx, f, s, opt.Emit)
		return r, s.Name + ", one blocking clause per model", err
	}
	method := opt.Method
	if s.Name == BlockingSolver {
		if method != "" && method != MethodBlocking {
			return CountResult{}, "", fmt.Errorf("solver %s counts by method %s only", s.Name, MethodBlocking)
		}
		method = MethodBlocking
	}
	switch method {
	case "", MethodEnum:
		r, err := countEnum(ctx, f, threads, opt)
		return r, MethodNameEnum, err
	case MethodBlocking:
		r, err := countBlocking(ctx, f, opt.Emit)
		return r, MethodNameBlocking, err
	}
	return CountResult{}, "", fmt.Errorf("unknown counting method %q: want %s or %s", opt.Method, MethodEnum, MethodBlocking)
}

// emitter serialises Emit calls and checks each model first.
type emitter struct {
	mu   sync.Mutex
	f    *cnf.Formula
	emit func([]bool) error
}

var errBadModel = errors.New("internal error: the enumerator produced a model that violates the formula")

// emitError wraps an error returned by CountOptions.Emit.
type emitError struct{ err error }

func (e emitError) Error() string { return e.err.Error() }

func (m *emitter) send(model []bool) error {
	if !m.f.Satisfied(model) {
		return errBadModel
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.emit(model); err != nil {
		return emitError{err}
	}
	return nil
}

// cubeDepth is how many decisions the enumerator's cube generator makes
// before handing a branch to a worker.
const cubeDepth = 10

// countEnum runs the projected enumerator on threads goroutines: a
// generator cuts the search into cubes (cubeDepth decisions), which the
// shared pool runs as subproblems; the models the generator completes
// itself are one more subproblem. With one thread and no split options, or
// a small projection, one engine searches everything.
func countEnum(ctx context.Context, f *cnf.Formula, threads int, opt CountOptions) (CountResult, error) {
	c := compileEnum(f)
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	var em *emitter
	if opt.Emit != nil {
		em = &emitter{f: f, emit: opt.Emit}
	}
	newE := func() *engine {
		e := newEngine(ctx, c, &stop)
		if em != nil {
			e.onModel = em.send
		}
		return e
	}
	var (
		engines []*engine
		runErr  error
		errMu   sync.Mutex
		total   uint64
	)
	setErr := func(err error) {
		errMu.Lock()
		if runErr == nil || runErr == errStopped {
			runErr = err
		}
		errMu.Unlock()
		stop.Store(true)
	}
	if (threads == 1 && opt.Split == nil) || c.nProj < 16 {
		e := newE()
		engines = append(engines, e)
		runErr = e.run(0, nil)
		total = e.count
	} else {
		gen := newE()
		engines = append(engines, gen)
		var cubes [][]int32
		if err := gen.run(cubeDepth, func(cube []int32) error {
			cubes = append(cubes, cube)
			return nil
		}); err != nil {
			setErr(err)
		}
		if runErr == nil {
			key := opt.Key
			key.Partition = fmt.Sprintf("enum cubes of %d decisions: %d subproblems", cubeDepth, len(cubes)+1)
			key.Version = subproblem.Version()
			res, err := subproblem.Run(ctx, subproblem.Job{Key: key, Total: len(cubes) + 1, Threads: threads}, opt.Split, func() subproblem.Solver {
				w := newE()
				errMu.Lock()
				engines = append(engines, w)
				errMu.Unlock()
				return func(id int) (uint64, bool) {
					if id == len(cubes) {
						return gen.count, true
					}
					w.reset()
					before := w.count
					if w.fix(cubes[id]) {
						if err := w.run(0, nil); err != nil {
							setErr(err)
							return 0, false
						}
					}
					return w.count - before, true
				}
			})
			switch {
			case err != nil:
				return CountResult{}, err
			case !res.Complete && runErr == nil:
				runErr = errStopped
			case res.Complete:
				if !res.Count.IsUint64() {
					return CountResult{}, fmt.Errorf("projected count %s exceeds 64 bits", res.Count)
				}
				total = res.Count.Uint64()
			}
		}
	}
	if runErr != nil {
		// Stopped or failed: the models counted so far, for the message
		// (finishCount reports no count of a search cut short).
		total = 0
		for _, e := range engines {
			total += e.count
		}
	}
	res := CountResult{Count: total}
	var decisions, props, conflicts, calls int64 = 0, 0, 0, 1
	for _, e := range engines {
		decisions += e.decisions
		props += e.props
		conflicts += e.conflicts
		calls += e.extCalls
	}
	res.Stats = map[string]int64{puzzle.StatDecisions: decisions, puzzle.StatPropagations: props,
		puzzle.StatConflicts: conflicts, puzzle.StatSolverCalls: calls}
	return finishCount(ctx, res, runErr)
}

// finishCount turns a finished, stopped or failed count into its result.
func finishCount(ctx context.Context, res CountResult, err error) (CountResult, error) {
	switch {
	case ctx.Err() != nil:
		return CountResult{Status: puzzle.Timeout, Stats: res.Stats, Found: res.Count,
			Message: fmt.Sprintf("time limit reached after %d projected models", res.Count)}, nil
	case err == errStopped:
		return CountResult{Status: puzzle.Timeout, Stats: res.Stats, Found: res.Count, Message: "stopped"}, nil
	case err != nil:
		var ee emitError
		if errors.As(err, &ee) {
			return CountResult{Status: puzzle.Error, Stats: res.Stats, Message: ee.err.Error()}, ee.err
		}
		return CountResult{Status: puzzle.Error, Stats: res.Stats, Message: err.Error()}, nil
	}
	res.Status = puzzle.OK
	return res, nil
}

// countBlocking counts with incremental gophersat: Solve, check the model,
// add a clause blocking its projection, repeat. It runs one solver: gophersat
// cannot run two solvers at once in one process (see gophersatSem), so
// splitting into cubes would buy nothing.
func countBlocking(ctx context.Context, f *cnf.Formula, emit func([]bool) error) (CountResult, error) {
	proj := f.Projection()
	var em *emitter
	if emit != nil {
		em = &emitter{f: f, emit: emit}
	}
	s := gs.New(gophersatProblem(f, nil))
	var n, calls int64
	stats := func() map[string]int64 {
		if ctx.Err() != nil {
			// An abandoned search may still be running: leave its counters.
			return map[string]int64{puzzle.StatSolverCalls: calls}
		}
		st := gophersatStats(s)
		st[puzzle.StatSolverCalls] = calls
		return st
	}
	for {
		st, err := gophersatRunHook(ctx, s)
		calls++
		if ctx.Err() != nil {
			return CountResult{Status: puzzle.Timeout, Stats: stats(), Message: fmt.Sprintf("time limit reached after %d projected models", n)}, nil
		}
		if err != nil {
			return CountResult{Status: puzzle.Error, Stats: stats(), Message: err.Error()}, nil
		}
		if st == gs.Unsat {
			break // no model left: the count is complete
		}
		if st != gs.Sat {
			// Anything but a verdict (Indet) would leave a partial count.
			return CountResult{Status: puzzle.Error, Stats: stats(), Message: fmt.Sprintf("gophersat ended with status %v after %d projected models", st, n)}, nil
		}
		model, err := gophersatModel(s, f.NumVars())
		if err == nil && !f.Satisfied(model) {
			err = errors.New("gophersat returned a model that violates the formula")
		}
		if err != nil {
			return CountResult{Status: puzzle.Error, Stats: stats(), Message: err.Error()}, nil
		}
		n++
		progress.Notef(ctx, "%d projected models, one blocking clause each", n)
		if em != nil {
			if err := em.send(model); err != nil {
				var ee emitError
				if errors.As(err, &ee) {
					return CountResult{Status: puzzle.Error, Stats: stats(), Message: err.Error()}, ee.err
				}
				return CountResult{Status: puzzle.Error, Stats: stats(), Message: err.Error()}, nil
			}
		}
		if len(proj) == 0 {
			break
		}
		block := make([]gs.Lit, len(proj))
		for i, v := range proj {
			block[i] = gs.IntToLit(int32(v))
			if model[v] {
				block[i] = gs.IntToLit(-int32(v))
			}
		}
		if err := withGophersat(ctx, func() { s.AppendClause(gs.NewClause(block)) }); err != nil && ctx.Err() == nil {
			return CountResult{Status: puzzle.Error, Stats: stats(), Message: err.Error()}, nil
		}
	}
	return CountResult{Status: puzzle.OK, Count: uint64(n), Stats: stats()}, nil
}
