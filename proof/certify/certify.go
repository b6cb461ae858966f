// Package certify makes an answer of the SAT backends checkable: it is the
// proof sink of a certified run (sat.WithProofs), which checks every
// refutation the answer rests on with the proof package's checkers as it
// is made, keeps what it proved in words, and can write each refutation's
// formula and proof as files (DIMACS CNF and ASCII DRAT) with a MANIFEST
// that says what each proves and how to check it elsewhere.
//
// A certified answer is one whose every refutation was checked: the
// proofs cover the formulas as encoded (the encoding itself is trusted,
// and cross-validated against the native searches), and any step an
// answer takes outside the formulas (lex-leader symmetry breaking, orbit
// arithmetic) is listed in the certificate's arguments.
package certify

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/internal/atomicfile"
	"github.com/boardsat/boardsat/internal/inputfile"
	"github.com/boardsat/boardsat/proof"
)

// Record is one refutation of a certified run and its check.
type Record struct {
	// Index numbers the refutations of a run from 1, in the order made.
	Index int
	// Claim says in words what the refutation proves.
	Claim string
	// Solver wrote the proof.
	Solver string
	// Vars and Clauses size the refuted formula.
	Vars, Clauses int
	// Lemmas and Deletions count the proof's lines; Bytes is its size.
	Lemmas, Deletions int64
	Bytes             int64
	// SolveSeconds is the proof-giving solver call; CheckSeconds the
	// check's wall time, CheckCPUSeconds the CPU this process spent
	// meanwhile (the check's own when nothing else runs beside it).
	SolveSeconds, CheckSeconds, CheckCPUSeconds float64
	// Verified is the checkers' verdict; Reason and Lemma say why not
	// (Lemma, from 1, the first proof line that failed; 0 if none).
	Verified bool
	Reason   string
	Lemma    int64
	// Checker names the checkers that ran.
	Checker string
	// CNF and Proof are the file names in the proof directory ("" without).
	CNF, Proof string
}

// Recorder is the proof sink of one certified run (sat.ProofSink and
// sat.ProofNoter). The zero value checks and keeps no files; set Dir to
// write them. Safe for concurrent use.
type Recorder struct {
	// Dir, if set, receives each refutation's CNF and DRAT proof and the
	// MANIFEST (see PrepareDir and WriteManifest).
	Dir string
	// Mutate, if set, rewrites refutation i's proof (i from 1) before it
	// is checked: the hook by which tests show that a corrupted proof
	// makes the answer an error.
	Mutate func(i int, proof []byte) []byte

	mu         sync.Mutex
	records    []Record
	notes      []string
	failed     *Record
	incomplete bool
}

// Refuted checks one refutation (sat.ProofSink): the proof is checked
// against the formula, and the refutation recorded. A proof that is not
// verified is an error naming the refutation, its claim and the lemma.
func (r *Recorder) Refuted(ctx context.Context, ref sat.Refutation) error {
	r.mu.Lock()
	rec := Record{Index: len(r.records) + 1, Claim: ref.Claim, Solver: ref.Solver,
		Vars: ref.Formula.NumVars(), Clauses: ref.Formula.NumClauses(), SolveSeconds: ref.SolveSeconds}
	r.records = append(r.records, rec)
	r.mu.Unlock()

	proofPath := ref.ProofFile
	if r.Mutate != nil {
		data, err := os.ReadFile(proofPath)
		if err != nil {
			return r.fail(rec, fmt.Sprintf("reading the proof: %v", err), 0)
		}
		if err := os.WriteFile(proofPath, r.Mutate(rec.Index, data), 0o644); err != nil {
			return r.fail(rec, fmt.Sprintf("rewriting the proof: %v", err), 0)
		}
	}
	if r.Dir != "" {
		base := fmt.Sprintf("%03d", rec.Index)
		rec.CNF, rec.Proof = base+".cnf", base+".drat"
		if err := atomicfile.WriteWith(filepath.Join(r.Dir, rec.CNF), dirFile, ref.Formula.WriteDIMACSCommentsFirst); err != nil {
			return r.fail(rec, err.Error(), 0)
		}
		if err := copyFile(filepath.Join(r.Dir, rec.Proof), proofPath); err != nil {
			return r.fail(rec, err.Error(), 0)
		}
	}
	start, cpu := time.Now(), processCPU()
	format := proof.ASCII
	if ref.Binary {
		format = proof.Binary
	}
	v := check(ctx, ref.Formula, proofPath, format)
	rec.CheckSeconds, rec.CheckCPUSeconds = time.Since(start).Seconds(), processCPU()-cpu
	rec.Lemmas, rec.Deletions, rec.Bytes, rec.Checker = v.Lemmas, v.Deletions, v.Bytes, v.Checker
	if !v.Verified {
		return r.fail(rec, v.Reason, v.Lemma)
	}
	rec.Verified = true
	r.set(rec)
	return nil
}

// fail records rec as not verified and returns the error that names it.
func (r *Recorder) fail(rec Record, reason string, lemma int64) error {
	rec.Verified, rec.Reason, rec.Lemma = false, reason, lemma
	r.set(rec)
	r.mu.Lock()
	if r.failed == nil {
		f := rec
		r.failed = &f
	}
	r.mu.Unlock()
	return fmt.Errorf("%s", failure(rec))
}

// failure is the message of a refutation whose proof was not verified.
func failure(rec Record) string {
	at := ""
	if rec.Lemma > 0 {
		at = fmt.Sprintf(" at lemma %d", rec.Lemma)
	}
	return fmt.Sprintf("refutation %d (%s) NOT VERIFIED%s: %s", rec.Index, rec.Claim, at, rec.Reason)
}

func (r *Recorder) set(rec Record) {
	r.mu.Lock()
	r.records[rec.Index-1] = rec
	r.mu.Unlock()
}

// Note records a step of the answer that no refutation covers
// (sat.ProofNoter).
func (r *Recorder) Note(step string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range r.notes {
		if n == step {
			return
		}
	}
	r.notes = append(r.notes, step)
}

// Uncovered records a part of the answer that this run did not prove
// (subproblems taken from a checkpoint, proved by an earlier run): it is
// named in the arguments, and the answer is not certified.
func (r *Recorder) Uncovered(what string) {
	r.Note(what)
	r.mu.Lock()
	r.incomplete = true
	r.mu.Unlock()
}

// Records returns the refutations so far.
func (r *Recorder) Records() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Record(nil), r.records...)
}

// Failure returns the message naming the first refutation whose proof was
// not verified, or "" when none failed.
func (r *Recorder) Failure() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed == nil {
		return ""
	}
	return failure(*r.failed)
}

// notVerified says of a refutation without a verified proof what it
// claimed and why it proves nothing: the failure, or that its check did
// not end.
func notVerified(rec Record) string {
	if rec.Reason == "" {
		return fmt.Sprintf("%s (its proof was not checked to the end)", rec.Claim)
	}
	return failure(rec)
}

// Certificate returns the run's certificate so far: the claims of the
// refutations whose proofs were verified, and apart from them (Failed)
// those whose proofs were not.
func (r *Recorder) Certificate() answer.Certificate {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := answer.Certificate{Format: "DRAT", Claims: []string{}, Arguments: append([]string{}, r.notes...)}
	for _, rec := range r.records {
		c.Refutations++
		c.Lemmas += rec.Lemmas
		c.Bytes += rec.Bytes
		c.CheckSeconds += rec.CheckSeconds
		c.CheckCPUSeconds += rec.CheckCPUSeconds
		if rec.Checker != "" {
			c.Checker = rec.Checker
		}
		if rec.Verified {
			c.Claims = append(c.Claims, rec.Claim)
		} else {
			c.Failed = append(c.Failed, notVerified(rec))
		}
	}
	if c.Checker == "" {
		c.Checker = checkerName
	}
	return c
}

// Certified reports whether every refutation made was verified, and no
// part of the answer went unproved (Uncovered).
func (r *Recorder) Certified() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.incomplete {
		return false
	}
	for _, rec := range r.records {
		if !rec.Verified {
			return false
		}
	}
	return true
}

// PrepareDir makes dir ready for a run's proofs: created when missing,
// and refused when it holds anything unless force is set (a run never
// overwrites another's proofs by accident).
func PrepareDir(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("cannot create the proof directory %s: %v", dir, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("cannot use %s as the proof directory: %v", dir, err)
	case len(entries) > 0 && !force:
		return fmt.Errorf("the proof directory %s is not empty: pick another, or add --force to write over it", dir)
	}
	return nil
}

// dirFile is how the files of the proof directory are written: their
// names are boardsat's, so a link there is refused, never written through;
// a file there is replaced (the directory was empty, or --force was given).
var dirFile = atomicfile.Options{NoFollow: true, Replace: true}

// WriteManifest writes dir/MANIFEST: a header naming the run (command,
// the answer), then one line per refutation, tab-separated: the CNF and
// proof files, the verdict, the solver, lemmas, bytes, the claim in words,
// and the command that checks it with drat-trim.
func (r *Recorder) WriteManifest(command, answer string) error {
	if r.Dir == "" {
		return nil
	}
	recs := r.Records()
	cert := r.Certificate()
	return atomicfile.WriteWith(filepath.Join(r.Dir, "MANIFEST"), dirFile, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		fmt.Fprintf(bw, "# boardsat proofs of: %s\n", command)
		fmt.Fprintf(bw, "# answer: %s\n", answer)
		fmt.Fprintf(bw, "# %d refutations; each line: cnf, proof (ASCII DRAT), verdict of boardsat's checkers, solver, lemmas, bytes, what it proves, a command that checks it\n", len(recs))
		for _, a := range cert.Arguments {
			fmt.Fprintf(bw, "# not covered by the proofs: %s\n", a)
		}
		fmt.Fprintln(bw, "cnf\tproof\tverdict\tsolver\tlemmas\tbytes\tclaim\tcheck")
		for _, rec := range recs {
			verdict := "VERIFIED"
			if !rec.Verified {
				verdict = "NOT-VERIFIED"
			}
			fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\tdrat-trim %s %s\n", rec.CNF, rec.Proof, verdict, rec.Solver,
				rec.Lemmas, rec.Bytes, strings.ReplaceAll(rec.Claim, "\t", " "), rec.CNF, rec.Proof)
		}
		return bw.Flush()
	})
}

// copyFile copies src, a solver's proof, to dst, a file of the proof
// directory, whole (atomicfile): src only when it is a regular file and
// no link, dst never through a link.
func copyFile(dst, src string) error {
	in, err := inputfile.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW)
	if err != nil {
		return err
	}
	defer in.Close()
	return atomicfile.WriteWith(dst, dirFile, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}
