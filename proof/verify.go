package proof

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/boardsat/boardsat/proof/lrat"
)

// Checker names the checkers behind a Report.
const Checker = "boardsat-drat (backward, core-first) + boardsat-lrat"

// MaxInputBytes bounds a formula or a proof that boardsat reads (proof
// check, a certified run's proofs): a larger file is refused in one line
// rather than read until memory runs out. DRAT proofs of the puzzles
// boardsat certifies are far below it.
const MaxInputBytes int64 = 16 << 30

// Options tune Verify.
type Options struct {
	// Format is the DRAT proof's format (Auto detects it).
	Format Format
	// All verifies every lemma, not only those the refutation needs.
	All bool
	// LRAT, when set, receives the LRAT proof once both checkers accept.
	LRAT io.Writer
}

// Report is the verdict on a DRAT proof: Verified only when the DRAT
// checker accepts it and the LRAT checker accepts the LRAT proof the DRAT
// checker wrote.
type Report struct {
	Verified bool
	// Reason says why the proof was not verified, naming the lemma.
	Reason string
	// Lemma is the failing lemma (1-based among the proof's lemmas), 0
	// when none is to blame.
	Lemma int
	// Lemmas, Deletions, CoreLemmas, RATLemmas, IgnoredDeletions and
	// MissingDeletions are the DRAT checker's counts (see Result).
	Lemmas, Deletions, CoreLemmas, RATLemmas int
	IgnoredDeletions, MissingDeletions       int
	// Bytes is the DRAT proof's size, LRATBytes the LRAT proof's.
	Bytes, LRATBytes int64
	// Seconds is the whole check's wall time; DRATSeconds the DRAT check
	// (with writing the LRAT), LRATSeconds the LRAT check.
	Seconds, DRATSeconds, LRATSeconds float64
	// Checker names the checkers.
	Checker string
}

// Verify reads a DIMACS CNF and a DRAT proof of its unsatisfiability and
// checks the proof with both checkers. The error is for input that cannot
// be read: an unreadable, empty or truncated proof, a CNF whose header does
// not match its clauses, a binary proof read as ASCII. A proof that reads
// but does not refute the formula gives Verified false and the reason.
func Verify(cnf, drat io.Reader, opts Options) (Report, error) {
	start := time.Now()
	text, err := io.ReadAll(cnf)
	if err != nil {
		return Report{}, fmt.Errorf("cnf: %w", err)
	}
	f, err := ReadCNF(bytes.NewReader(text))
	if err != nil {
		return Report{}, err
	}
	// The LRAT checker reads the formula itself, trusting nothing here.
	clauses, err := lrat.ReadCNF(bytes.NewReader(text))
	if err != nil {
		return Report{}, fmt.Errorf("lrat: %w", err)
	}
	p, err := ReadDRAT(drat, opts.Format)
	if err != nil {
		return Report{}, err
	}
	rep, err := check(f, clauses, p.Steps, opts)
	rep.Bytes = p.Bytes
	rep.Seconds = time.Since(start).Seconds()
	return rep, err
}

// VerifySteps is Verify on a formula and a proof held in memory: vars
// variables, the clauses (literals v or -v), the steps. bytes is recorded
// as the proof's size. Unlike a proof file, the steps may be none (a
// solver that found the formula refuted before its first decision may
// write nothing): the formula must then be refuted by unit propagation.
func VerifySteps(vars int, clauses [][]int, steps []Step, bytes int64, opts Options) (Report, error) {
	start := time.Now()
	if vars > MaxVar {
		return Report{}, fmt.Errorf("cnf: %d variables, more than the %d this checker takes", vars, MaxVar)
	}
	for i, cl := range clauses {
		for _, l := range cl {
			if l == 0 || l > vars || l < -vars {
				return Report{}, fmt.Errorf("cnf: clause %d: literal %d is not one of %d variables", i+1, l, vars)
			}
		}
	}
	for i, st := range steps {
		for _, l := range st.Lits {
			if l == 0 || l > MaxVar || l < -MaxVar {
				return Report{}, fmt.Errorf("drat: step %d holds the literal %d", i+1, l)
			}
		}
	}
	rep, err := check(&CNF{Vars: vars, Clauses: clauses}, clauses, steps, opts)
	rep.Bytes = bytes
	rep.Seconds = time.Since(start).Seconds()
	return rep, err
}

// check runs the DRAT checker, then the LRAT checker on its output.
// The error is for an LRAT proof that could not be written to opts.LRAT.
func check(f *CNF, clauses [][]int, steps []Step, opts Options) (Report, error) {
	t0 := time.Now()
	res := Check(f, steps, CheckOptions{All: opts.All})
	rep := Report{
		Reason: res.Reason, Lemma: res.Lemma,
		Lemmas: res.Lemmas, Deletions: res.Deletions, CoreLemmas: res.CoreLemmas, RATLemmas: res.RATLemmas,
		IgnoredDeletions: res.IgnoredDeletions, MissingDeletions: res.MissingDeletions,
		DRATSeconds: time.Since(t0).Seconds(),
		Checker:     Checker,
	}
	if !res.Verified {
		rep.Reason = "drat: " + rep.Reason
		return rep, nil
	}
	rep.LRATBytes = int64(len(res.LRAT))
	t1 := time.Now()
	lr, err := lrat.CheckText(clauses, res.LRAT)
	rep.LRATSeconds = time.Since(t1).Seconds()
	switch {
	case err != nil:
		rep.Reason = "lrat: the LRAT the DRAT checker wrote does not read: " + err.Error()
	case !lr.Verified:
		rep.Reason = "lrat: the LRAT checker rejects the DRAT checker's proof: " + lr.Reason
	default:
		rep.Verified = true
		if opts.LRAT != nil {
			if _, err := opts.LRAT.Write(res.LRAT); err != nil {
				return rep, fmt.Errorf("writing the LRAT proof: %w", err)
			}
		}
	}
	return rep, nil
}
