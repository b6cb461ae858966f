package sat

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/internal/inputfile"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
)

// Proofs of unsatisfiability. A context that carries a ProofSink (see
// WithProofs) turns every UNSAT answer this package gives into a
// refutation with a proof: the solver is asked for its proof (gophersat's
// RUP lines, cadical's DRAT), and the formula and the proof go to the sink,
// which checks them before the answer is used. An UNSAT whose proof the
// sink rejects is an Error result, never Unsat. A solver without proof
// output, or a formula with PB constraints (a DRAT proof covers clauses
// only), is refused up front: the error of a request that cannot run.
//
// Where one call does not prove one formula, the answer is proved by a
// fresh proof-giving call on the whole formula it rests on: an UNSAT of a
// kept solver (Session) is proved again from its full formula, the bounds
// added so far included as clauses; a count is proved complete by
// refuting its formula with one blocking clause per model counted (Count).

// Refutation is one formula a solver proved unsatisfiable, with its proof.
type Refutation struct {
	// Claim says in words what the refutation proves ("dominate:8x8:Q has
	// no dominating set of at most 4 pieces"), from WithClaim.
	Claim string
	// Formula is the formula refuted (clauses only).
	Formula *cnf.Formula
	// Solver names the solver that wrote the proof.
	Solver string
	// ProofFile is the proof, DRAT, in a temporary file that exists
	// while Refuted runs (the sink may copy it, not keep it).
	ProofFile string
	// Binary says the proof is in binary DRAT (the solver's definition
	// says drat-binary); else it is ASCII.
	Binary bool
	// SolveSeconds is the proof-giving call's wall time.
	SolveSeconds float64
}

// ProofSink receives every refutation made under a context that carries
// it. Refuted checks the proof; an error means it is not accepted (the
// message names the refutation and why), and the UNSAT answer becomes an
// Error. Calls may come from several goroutines.
type ProofSink interface {
	Refuted(ctx context.Context, r Refutation) error
}

// ProofNoter is a ProofSink that also records the steps of an answer
// that no refutation covers (an argument outside the formula).
type ProofNoter interface {
	Note(step string)
}

// Note tells the sink of ctx, if it keeps notes, of a step of the answer
// that rests on an argument outside the formulas refuted.
func Note(ctx context.Context, step string) {
	if n, ok := proofSinkOf(ctx).(ProofNoter); ok {
		n.Note(step)
	}
}

type proofsKey struct{}
type claimKey struct{}

// WithProofs returns a context under which every UNSAT answer of this
// package is proved and handed to sink.
func WithProofs(ctx context.Context, sink ProofSink) context.Context {
	return context.WithValue(ctx, proofsKey{}, sink)
}

// Proving reports whether ctx asks for proofs (WithProofs).
func Proving(ctx context.Context) bool { return proofSinkOf(ctx) != nil }

func proofSinkOf(ctx context.Context) ProofSink {
	s, _ := ctx.Value(proofsKey{}).(ProofSink)
	return s
}

// WithClaim returns a context whose refutations claim, in words, what
// they prove: the caller that builds a formula knows what its
// unsatisfiability means.
func WithClaim(ctx context.Context, claim string) context.Context {
	return context.WithValue(ctx, claimKey{}, claim)
}

// ClaimOf returns the claim set on ctx by WithClaim, or "".
func ClaimOf(ctx context.Context) string {
	c, _ := ctx.Value(claimKey{}).(string)
	return c
}

func claimOf(ctx context.Context, f *cnf.Formula) string {
	if c, _ := ctx.Value(claimKey{}).(string); c != "" {
		return c
	}
	return fmt.Sprintf("a formula of %d variables and %d clauses is unsatisfiable", f.NumVars(), f.NumClauses())
}

// ProofSolvers names the solvers that write proofs.
const ProofSolvers = "gophersat (its RUP lines) or cadical (its DRAT)"

// Provable returns an error when the named solver ("" for the default)
// writes no proof: a certified run is refused before it starts.
func Provable(solverName string) error {
	s, err := find(solverName)
	if err != nil {
		return err
	}
	if !s.Proofs {
		return fmt.Errorf("solver %s writes no proof of unsatisfiability (its definition says proof none), so it cannot certify: use %s, or a solver whose definition names its DRAT proof", s.Name, ProofSolvers)
	}
	return s.Available()
}

// errNoProofPB is the refusal of a formula with PB constraints.
func errNoProofPB(f *cnf.Formula) error {
	return fmt.Errorf("a certified run needs clausal formulas (a DRAT proof covers clauses only), and this one has %d pseudo-Boolean constraints: pick a clausal cardinality encoding (not native)", len(f.PBs()))
}

// solveProving is Solve under a ProofSink: one proof-giving run of s on
// f; an UNSAT goes to the sink with its proof, and is Unsat only when the
// sink accepts it.
func solveProving(ctx context.Context, s Solver, f *cnf.Formula, sink ProofSink) (Result, error) {
	if !s.Proofs {
		return Result{}, Provable(s.Name)
	}
	if len(f.PBs()) > 0 {
		return Result{}, errNoProofPB(f)
	}
	dir, err := os.MkdirTemp("", "boardsat-proof-")
	if err != nil {
		return Result{Status: puzzle.Error, Message: err.Error()}, nil
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "proof.drat")
	binary := s.Def.ProofFormat() == solverdef.ProofDRATBinary
	start := time.Now()
	var r Result
	if s.Binary == "" {
		r = gophersatProve(ctx, f, path)
	} else {
		r = s.prove(ctx, f, path)
		if r.Status == puzzle.Unsat {
			end := endWithEmptyClause
			if binary {
				end = endWithEmptyClauseBinary
			}
			if err := end(path); err != nil {
				return Result{Status: puzzle.Error, Stats: r.Stats, Message: fmt.Sprintf("reading %s's proof: %v", s.Name, err)}, nil
			}
		}
	}
	took := time.Since(start).Seconds()
	if r.Status != puzzle.Unsat {
		return r, nil
	}
	if err := sink.Refuted(ctx, Refutation{Claim: claimOf(ctx, f), Formula: f, Solver: s.Name, ProofFile: path, Binary: binary, SolveSeconds: took}); err != nil {
		return Result{Status: puzzle.Error, Stats: r.Stats, Message: err.Error()}, nil
	}
	return r, nil
}

// gophersatProve solves f with gophersat asking for its RUP certificate,
// written to path as ASCII DRAT (one lemma a line, the empty clause last;
// gophersat deletes nothing). A model is returned checked, as by Solve.
func gophersatProve(ctx context.Context, f *cnf.Formula, path string) Result {
	var r searchResult
	if f.NumVars() == 0 {
		// Nothing to search (gophersat needs a variable): the formula is
		// unsatisfiable only by an empty clause, which the empty lemma
		// follows from at once.
		if f.Satisfied([]bool{false}) {
			return Result{Status: puzzle.OK, Model: []bool{false}, Stats: map[string]int64{}}
		}
		r = searchResult{Verdict: "unsat", Stats: map[string]int64{}}
	} else {
		r = searchOne(ctx, modeCertify, f)
	}
	switch {
	case r.Timeout:
		return timeoutResult(nil)
	case r.Err != "":
		return Result{Status: puzzle.Error, Stats: r.Stats, Message: r.Err}
	case r.Verdict == "sat":
		return checkModel("gophersat", f, r.Model, r.Stats)
	case r.Verdict != "unsat":
		return Result{Status: puzzle.Error, Stats: r.Stats, Message: "gophersat ended without a verdict (" + r.Verdict + ")"}
	}
	if err := writeRUP(path, r.Cert); err != nil {
		return Result{Status: puzzle.Error, Stats: r.Stats, Message: "writing gophersat's proof: " + err.Error()}
	}
	return Result{Status: puzzle.Unsat, Stats: r.Stats}
}

// writeRUP writes gophersat's certificate lines ("l1 l2 0") as an ASCII
// DRAT file, adding the empty clause when gophersat refuted the formula
// before learning anything (its last line is then not "0").
func writeRUP(path string, lines []string) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(fh, 1<<16)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	if len(lines) == 0 || lines[len(lines)-1] != "0" {
		bw.WriteString("0\n")
	}
	err = bw.Flush()
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// proveSession proves an UNSAT of a kept solver: its whole formula (the
// base and every clause added since) is refuted by a fresh proof-giving
// gophersat call. The kept solver's own search leaves no proof that
// covers the clauses appended between its calls, so the answer rests on
// this second call alone.
func proveSession(ctx context.Context, f *cnf.Formula, sink ProofSink, r Result) Result {
	s, _ := Solvers.Lookup(DefaultSolver)
	pr, err := solveProving(ctx, s, f, sink)
	if err != nil {
		return Result{Status: puzzle.Error, Message: err.Error()}
	}
	switch pr.Status {
	case puzzle.Unsat:
		for k, v := range pr.Stats {
			if r.Stats == nil {
				r.Stats = map[string]int64{}
			}
			r.Stats[k] += v
		}
		return r
	case puzzle.OK:
		return Result{Status: puzzle.Error, Message: "the kept solver answered unsat, and a fresh gophersat call found a model: solver bug"}
	}
	return pr
}

// CertifiedCountLimit bounds a certified count: each model counted becomes
// a blocking clause of the formula that the final refutation refutes, and
// past about a million of them that formula outgrows what a proof check
// can take here.
const CertifiedCountLimit = 1_000_000

// ErrCountTooLarge is the refusal of a certified count past
// CertifiedCountLimit.
var ErrCountTooLarge = fmt.Errorf("a certified count stops at %d models (each becomes a blocking clause of the refuted formula), and this one has more: run it without --certify", CertifiedCountLimit)

// countProving is Count under a ProofSink. Every model the counter
// reports is kept (its projection, checked against f and distinct from
// the others) and passed on to opt.Emit, which a caller that can check
// solutions uses to check each; when the count is complete, f together
// with one clause blocking each model's projection is refuted by a
// proof-giving call of the named solver. So the count is exactly the
// number of projected models of f: each counted one is a model, no two are
// the same, and no other exists.
func countProving(ctx context.Context, f *cnf.Formula, opt CountOptions, sink ProofSink) (CountResult, string, error) {
	s, err := Lookup(opt.Solver)
	if err != nil {
		return CountResult{}, "", err
	}
	if !s.Proofs {
		return CountResult{}, "", Provable(s.Name)
	}
	if len(f.PBs()) > 0 {
		return CountResult{}, "", errNoProofPB(f)
	}
	if opt.Split != nil && !opt.Split.Shard.Whole() {
		return CountResult{}, "", fmt.Errorf("a certified count runs whole, or split into cubes (--cubes): one shard of its enumeration cannot be refuted complete")
	}
	proj := f.Projection()
	seen := map[string]bool{}
	var blocks [][]cnf.Lit
	emit := opt.Emit
	key := make([]byte, (len(proj)+7)/8)
	opt.Emit = func(model []bool) error {
		if len(blocks) >= CertifiedCountLimit {
			return ErrCountTooLarge
		}
		clear(key)
		block := make([]cnf.Lit, len(proj))
		for i, v := range proj {
			block[i] = cnf.Lit(v)
			if model[v] {
				key[i/8] |= 1 << (i % 8)
				block[i] = -cnf.Lit(v)
			}
		}
		if seen[string(key)] {
			return fmt.Errorf("the counter reported one projected model twice (counter bug)")
		}
		seen[string(key)] = true
		blocks = append(blocks, block)
		if emit != nil {
			return emit(model)
		}
		return nil
	}
	// The counter runs without proofs: its own UNSAT answers are not what
	// the count rests on.
	r, method, err := count(context.WithValue(ctx, proofsKey{}, nil), f, opt)
	if err != nil || r.Status != puzzle.OK {
		return r, method, err
	}
	if uint64(len(blocks)) != r.Count {
		return CountResult{Status: puzzle.Error, Stats: r.Stats, Message: fmt.Sprintf("the counter counted %d models and reported %d (counter bug)", r.Count, len(blocks))}, method, nil
	}
	g := cloneFormula(f)
	for _, b := range blocks {
		g.Add(b...)
	}
	claim := claimOf(ctx, f)
	what := fmt.Sprintf("%s has no model", claim)
	if len(blocks) > 0 {
		what = fmt.Sprintf("%s has no model beyond the %d counted (refuted with one clause blocking each)", claim, len(blocks))
	}
	pctx := WithClaim(ctx, what)
	pr, err := solveProving(pctx, s, g, sink)
	if err != nil {
		return CountResult{}, method, err
	}
	for k, v := range pr.Stats {
		if r.Stats == nil {
			r.Stats = map[string]int64{}
		}
		r.Stats[k] += v
	}
	switch pr.Status {
	case puzzle.Unsat:
		return r, method, nil
	case puzzle.OK:
		return CountResult{Status: puzzle.Error, Stats: r.Stats, Message: fmt.Sprintf("the formula has a model beyond the %d counted (counter bug)", len(blocks))}, method, nil
	}
	return CountResult{Status: pr.Status, Stats: r.Stats, Message: pr.Message}, method, nil
}

// endWithEmptyClause appends the empty clause to an ASCII DRAT proof that
// does not state it: a solver that finds its input refuted by unit
// propagation alone (an empty clause after parsing) may write a proof
// without it, and a checker wants the refutation stated.
//
// The proof is the solver's file, so it is opened only when it is a
// regular file and no link (a solver that left a FIFO or a link at its
// proof's name gets an error, not a hang or a write through the link).
func endWithEmptyClause(path string) error {
	fh, err := inputfile.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	found := false
	for sc.Scan() && !found {
		found = strings.TrimSpace(sc.Text()) == "0"
	}
	err = sc.Err()
	fh.Close()
	if err != nil || found {
		return err
	}
	fh, err = inputfile.OpenFile(path, os.O_APPEND|os.O_WRONLY|syscall.O_NOFOLLOW)
	if err != nil {
		return err
	}
	_, err = fh.WriteString("0\n")
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// endWithEmptyClauseBinary appends the empty clause (the bytes 'a' and 0)
// to a binary DRAT proof: whether the proof already states it cannot be
// told from its last bytes alone, and a second one changes nothing.
func endWithEmptyClauseBinary(path string) error {
	fh, err := inputfile.OpenFile(path, os.O_APPEND|os.O_WRONLY|syscall.O_NOFOLLOW)
	if err != nil {
		return err
	}
	_, err = fh.Write([]byte{'a', 0})
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}
