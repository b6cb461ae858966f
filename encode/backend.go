package encode

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/puzzle"
)

// Backend is the "sat" backend: it encodes an instance with the encoder and
// cardinality encoding named by --encoding and solves the formula with the
// solver named by --solver; counts are projected onto the puzzle's own
// variables, exact for every encoding.
type Backend struct{}

// CountModelsBackend is the "gophersat-count" backend: gophersat's built-in
// CountModels() on the same formula. It is known to over-count and is kept
// only so that cross-validation shows the disagreement: its answers are
// never ok (status error, the figure in the message).
type CountModelsBackend struct{}

func init() {
	puzzle.Backends.Add("sat", Backend{})
	puzzle.Backends.Add("gophersat-count", CountModelsBackend{})
}

// Name returns "sat".
func (Backend) Name() string { return "sat" }

// Family: a SAT encoding.
func (Backend) Family() puzzle.Family { return puzzle.FamilySAT }

// WritesProofs: its refutations are proved and checked under --certify.
func (Backend) WritesProofs() bool { return true }

// SolverDefinitions: --solver names a solver definition (solvers/solverdef).
func (Backend) SolverDefinitions() bool { return true }

// Family: a SAT encoding (gophersat's own model counter).
func (CountModelsBackend) Family() puzzle.Family { return puzzle.FamilySAT }

// KnownWrong says why the backend's counts are not trusted: compare leaves
// it out of "all" and calls its disagreements known.
func (CountModelsBackend) KnownWrong() string {
	return "gophersat v1.4.0's built-in CountModels over-counts (queens:8, pairwise: 103, not 92); kept to show it"
}

// Doc describes the backend.
func (Backend) Doc() string {
	return "SAT/PB encoding (--encoding MODEL+CARD) solved by --solver; exact projected counts"
}

// Choices lists every puzzle model and cardinality encoding (field
// "encoding") and every solver (field "solver", from the solver set).
func (Backend) Choices() []puzzle.Choice {
	return append(encodingChoices(), sat.Set().Choices()...)
}

// encodingChoices lists the puzzle models and the cardinality encodings.
func encodingChoices() []puzzle.Choice {
	var out []puzzle.Choice
	for _, p := range puzzle.Puzzles {
		for _, e := range Encoders(p) {
			ch := puzzle.Choice{Field: "encoding", Puzzle: p, Name: e.Name, Doc: e.Doc, Default: e.Default, Why: e.Why}
			if e.Default && e.DefaultCard != "" {
				ch.Why = "with " + e.DefaultCard + " unless --encoding names a card encoding; " + e.Why
			}
			out = append(out, ch)
		}
	}
	for _, c := range card.All() {
		ch := puzzle.Choice{Field: "encoding", Name: c.Name, Doc: c.Doc, Default: c.Name == DefaultCard}
		if ch.Default {
			ch.Why = DefaultCardWhy
		}
		out = append(out, ch)
	}
	return out
}

// SATMaxSquares bounds the boards the SAT backends accept, so that no
// accepted spec builds a formula past a few hundred MB (pieces:100x100:Q1
// encodes and solves in about 550 MB); larger boards are refused before
// anything is built.
const SATMaxSquares = 10000

// CheckBoard refuses, before anything is built, a spec whose board has
// more than SATMaxSquares squares; who names the refuser in the message
// ("the sat backend", "encode").
func CheckBoard(who string, spec puzzle.Spec) error {
	if n := puzzle.BoardOf(spec).Size(); n > SATMaxSquares {
		return fmt.Errorf("%s refuses boards of more than %d squares (%s has %d): the formulas grow with squares x attacks; the native backend counts large boards in flat memory",
			who, SATMaxSquares, spec, n)
	}
	return nil
}

// ErrUniqueRefused is the error of the SAT-side backends for task unique:
// they have no lex-leader constraints, and counting under their partial
// symmetry breaking would publish wrong numbers.
const ErrUniqueRefused = "the SAT backends do not do task unique: their symmetry breaking removes only mirror images (46 models for queens:8, not the 12 classes), so counting under it would be wrong; use --backend native for unique (dominate: or a lex-leader model, --encoding satunsat-lex+CARD)"

// ErrValueRefused is the error of the SAT-side backends for task value: a
// game's value under best play alternates "some move" and "every reply"
// down the game (a quantified formula, QBF), which one SAT formula does not
// express; the native backend answers it.
const ErrValueRefused = "the SAT backends do not do task value: a game's value under best play is a quantified (QBF) question, not SAT; use --backend native (the sat backend counts and lists games: tasks count, first, all)"

// satPrepared is a request resolved and encoded.
type satPrepared struct {
	enc     Encoder
	card    card.Encoding
	inst    *Instance
	answer  puzzle.Answer // names and encode time filled in
	encoded bool          // false when the encoder's own Solve answered
}

// satResolve resolves the request's encoding.
func satResolve(req puzzle.Request) (Encoder, card.Encoding, error) {
	return ResolveTask(req.Spec.Puzzle(), req.Encoding, req.Task)
}

// satPrepare checks the task against encoder e and builds the formula with
// card encoding c (or runs the encoder's own Solve).
func satPrepare(ctx context.Context, backend string, req puzzle.Request, e Encoder, c card.Encoding, solverName string) (satPrepared, error) {
	if err := CheckBoard("the "+backend+" backend", req.Spec); err != nil {
		return satPrepared{}, err
	}
	if req.Task == puzzle.Unique && !slices.Contains(e.Tasks, puzzle.Unique) {
		// A model that lists Unique breaks every symmetry (one model per
		// class, e.g. dominate's lex-leader models); the others refuse.
		return satPrepared{}, errors.New(ErrUniqueRefused)
	}
	if req.Task == puzzle.Value {
		return satPrepared{}, errors.New(ErrValueRefused)
	}
	if !slices.Contains(e.Tasks, req.Task) {
		tasks := make([]string, len(e.Tasks))
		for i, t := range e.Tasks {
			tasks[i] = string(t)
		}
		return satPrepared{}, fmt.Errorf("the %s backend does not do task %s for %s with model %s (it does %s)",
			backend, req.Task, req.Spec.Puzzle(), e.Name, strings.Join(tasks, ", "))
	}
	pr := satPrepared{enc: e, card: c}
	pr.answer.Encoding = e.Name + "+" + c.Name
	pr.answer.Solver = solverName
	if e.Solve != nil {
		ans, err := e.Solve(ctx, req, c)
		if ans.Encoding == "" {
			ans.Encoding = pr.answer.Encoding
		}
		if ans.Solver == "" {
			ans.Solver = solverName
		}
		pr.answer = ans
		return pr, err
	}
	// Symmetry breaking only removes some solutions (for queens, those whose
	// rank-1 queen stands on the right half): sound for a first solution,
	// never for a count (queens:8 keeps 46 of 92 models, and 12 classes
	// exist), so Unique is refused above.
	// A certified run breaks no symmetry: a refutation then proves "no
	// solution" with nothing outside the formula.
	opt := Options{SymmetryBreaking: req.Task == puzzle.First && !sat.Proving(ctx)}
	start := time.Now()
	inst, err := e.Build(req.Spec, c, opt)
	pr.answer.EncodeSeconds = time.Since(start).Seconds()
	if err != nil {
		return satPrepared{}, err
	}
	pr.inst, pr.encoded = inst, true
	st := inst.Formula.Stats()
	pr.answer.Stats = map[string]int64{puzzle.StatVariables: int64(st.Variables),
		puzzle.StatClauses: int64(st.Clauses + st.PBConstraints)}
	return pr, nil
}

// satAddStats merges solver counters into an answer's stats.
func satAddStats(ans *puzzle.Answer, stats map[string]int64) {
	if ans.Stats == nil {
		ans.Stats = map[string]int64{}
	}
	for k, v := range stats {
		ans.Stats[k] += v
	}
}

// satDecode decodes a model and checks the solution with the independent
// checker: an encoding bug becomes an error, never a wrong answer.
func satDecode(spec puzzle.Spec, inst *Instance, model []bool) (puzzle.Solution, error) {
	sol, err := inst.Decode(model)
	if err != nil {
		return sol, fmt.Errorf("decoding a model: %v", err)
	}
	if err := puzzle.Check(spec, sol); err != nil {
		return sol, fmt.Errorf("a decoded model fails the checker (encoding bug): %v", err)
	}
	return sol, nil
}

// Solve encodes the request's instance and answers it: First by one solver
// run and Decode, Count and Unique by an exact projected count, All by
// streaming every decoded solution to req.Emit. An unknown encoding or
// solver, an absent solver binary, an unsupported task, or an encoding that
// cannot express a constraint is an error.
func (Backend) Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	e, c, err := satResolve(req)
	if err != nil {
		return puzzle.Answer{}, err
	}
	var u sat.Unchecked
	ans, err := satSolveWith(sat.WithUnchecked(ctx, &u), req, e, c)
	ans.Unchecked = u.String()
	return ans, err
}

// satSolveWith is Solve with the encoder and card encoding resolved.
func satSolveWith(ctx context.Context, req puzzle.Request, e Encoder, c card.Encoding) (puzzle.Answer, error) {
	if e.GophersatOnly {
		if err := sat.GophersatOnly(req.Solver, "model "+e.Name); err != nil {
			return puzzle.Answer{}, err
		}
	}
	if e.OwnOptimiser {
		if err := sat.OwnOptimiser(req.Solver, "model "+e.Name); err != nil {
			return puzzle.Answer{}, err
		}
	}
	s, err := sat.Lookup(req.Solver)
	if err != nil {
		return puzzle.Answer{}, err
	}
	pr, err := satPrepare(ctx, "sat", req, e, c, s.Name)
	if err != nil || !pr.encoded {
		return pr.answer, err
	}
	ans, f := pr.answer, pr.inst.Formula
	if ctx.Err() != nil {
		ans.Status, ans.Message = puzzle.Timeout, "time limit reached while encoding"
		return ans, nil
	}
	start := time.Now()
	switch req.Task {
	case puzzle.First:
		r, err := sat.Solve(sat.WithClaim(ctx, fmt.Sprintf("%s has no solution (formula of model %s)", req.Spec, ans.Encoding)), f, s.Name)
		if err != nil {
			return puzzle.Answer{}, err
		}
		satAddStats(&ans, r.Stats)
		ans.Status, ans.Message = r.Status, r.Message
		if r.Status == puzzle.OK {
			sol, err := satDecode(req.Spec, pr.inst, r.Model)
			if err != nil {
				ans.Status, ans.Message = puzzle.Error, err.Error()
			} else {
				ans.Solution = &sol
			}
		}
		ans.SolveSeconds = time.Since(start).Seconds()
		return ans, nil
	default:
		return satCount(ctx, req, pr, s.Name, ans, start)
	}
}

// satCount answers Count, Unique and All tasks.
func satCount(ctx context.Context, req puzzle.Request, pr satPrepared, solver string, ans puzzle.Answer, start time.Time) (puzzle.Answer, error) {
	opt := sat.CountOptions{Solver: solver, Threads: req.Threads, Split: req.Split,
		Key: puzzle.SplitKey{Spec: req.Spec.String(), Task: string(req.Task),
			Strategy: "sat/" + ans.Encoding + "/" + solver}}
	if req.Split != nil && req.Split.Cubes > 0 {
		opt.Cubes, opt.CubeVars = req.Split.Cubes, pr.inst.CubeVars
	}
	var decodeErr error
	if sat.Proving(ctx) {
		if sat.ClaimOf(ctx) == "" {
			ctx = sat.WithClaim(ctx, fmt.Sprintf("the formula of %s (model %s)", req.Spec, ans.Encoding))
		}
		if req.Task != puzzle.All {
			// A certified count checks every model with the puzzle's checker.
			opt.Emit = func(model []bool) error {
				_, err := satDecode(req.Spec, pr.inst, model)
				if err != nil {
					decodeErr = err
				}
				return err
			}
		}
	}
	if req.Task == puzzle.All {
		opt.Emit = func(model []bool) error {
			sol, err := satDecode(req.Spec, pr.inst, model)
			if err != nil {
				decodeErr = err
				return err
			}
			if req.Emit != nil {
				return req.Emit(sol)
			}
			return nil
		}
	}
	r, err := sat.Count(ctx, pr.inst.Formula, opt)
	ans.SolveSeconds = time.Since(start).Seconds()
	ans.Method = r.Method
	satAddStats(&ans, r.Stats)
	switch {
	case decodeErr != nil:
		ans.Status, ans.Message = puzzle.Error, decodeErr.Error()
		return ans, nil
	case err != nil && r.Status == puzzle.Error && req.Task == puzzle.All:
		// Emit failed: the caller's error; the count stopped part way.
		ans.Status, ans.Message = puzzle.Error, r.Message
		return ans, err
	case err != nil:
		return puzzle.Answer{}, err
	}
	ans.Status, ans.Message = r.Status, r.Message
	if r.Status == puzzle.OK {
		ans.Count = r.Count
	}
	if r.Status == puzzle.Timeout && r.Found > 0 {
		ans.Found = new(big.Int).SetUint64(r.Found)
	}
	return ans, nil
}

// Name returns "gophersat-count".
func (CountModelsBackend) Name() string { return "gophersat-count" }

// Doc describes the backend, and warns.
func (CountModelsBackend) Doc() string {
	return "gophersat's built-in CountModels() on the sat backend's formula: KNOWN TO OVER-COUNT, not trustworthy: its figure is reported as an error, never ok; count task only, for cross-validation"
}

// Choices lists the encodings it accepts.
func (CountModelsBackend) Choices() []puzzle.Choice { return encodingChoices() }

// Solve counts with gophersat's CountModels(), which counts total (not
// projected) models and over-counts even so: a finished count is answered
// as status error with the figure in its message (CountModelsMessage).
func (CountModelsBackend) Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	if req.Task != puzzle.Count {
		return puzzle.Answer{}, fmt.Errorf("the gophersat-count backend does only task count, not %s", req.Task)
	}
	if req.Solver != "" && req.Solver != sat.DefaultSolver {
		return puzzle.Answer{}, fmt.Errorf("the gophersat-count backend runs gophersat only, not solver %s", req.Solver)
	}
	const solverName = "gophersat-countmodels"
	e, c, err := satResolve(req)
	if err != nil {
		return puzzle.Answer{}, err
	}
	pr, err := satPrepare(ctx, "gophersat-count", req, e, c, solverName)
	if err != nil {
		return puzzle.Answer{}, err
	}
	if !pr.encoded {
		return puzzle.Answer{}, fmt.Errorf("the gophersat-count backend cannot count with model %s, which solves by its own means", pr.enc.Name)
	}
	ans := pr.answer
	start := time.Now()
	r := sat.CountBuiltin(ctx, pr.inst.Formula)
	ans.SolveSeconds = time.Since(start).Seconds()
	satAddStats(&ans, r.Stats)
	ans.Status, ans.Message = r.Status, r.Message
	if r.Status == puzzle.OK {
		// A finished CountModels is still no answer: the contract's ok
		// is a count that was checked, and this one is known to be wrong.
		// The figure goes into the message, where compare shows it
		// beside the exact counts.
		ans.Status, ans.Message = puzzle.Error, CountModelsMessage(r.Count)
	}
	return ans, nil
}

// CountModelsMessage is the message of every finished gophersat-count
// answer: the figure gophersat's own CountModels() gave, and why it is not
// an ok count.
func CountModelsMessage(n uint64) string {
	return fmt.Sprintf("gophersat's own CountModels() counted %d models; it is known to over-count (queens:8 pairwise: 103, not 92), so the count is never ok: use --backend sat for the exact projected count", n)
}

// Describe names the model+card encoding and the solver req runs, as its
// answer would (puzzle.Describer); "" for what does not resolve.
func (Backend) Describe(req puzzle.Request) (heuristic, encoding, solver string) {
	if e, c, err := satResolve(req); err == nil {
		encoding = e.Name + "+" + c.Name
	}
	if s, err := sat.Lookup(req.Solver); err == nil {
		solver = s.Name
	}
	return "", encoding, solver
}
