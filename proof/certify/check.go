package certify

import (
	"context"
	"io"
	"os"
	"syscall"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/internal/inputfile"
	"github.com/boardsat/boardsat/proof"
)

// checkerName names the checkers before any refutation has been checked.
const checkerName = proof.Checker

// verdict is the checkers' verdict on one refutation.
type verdict struct {
	Verified                        bool
	Reason                          string
	Lemma, Lemmas, Deletions, Bytes int64
	Checker                         string
}

// check checks the DRAT proof in proofPath (in format, ASCII or binary) against f with the proof
// package: its backward DRAT checker, then the small LRAT checker on the
// LRAT proof the first one writes (Verified only when both accept). A
// proof that cannot be read is not verified, with the reason.
func check(ctx context.Context, f *cnf.Formula, proofPath string, format proof.Format) verdict {
	// The solver's file: read only when it is a regular file and no link.
	fh, err := inputfile.OpenFile(proofPath, os.O_RDONLY|syscall.O_NOFOLLOW)
	if err != nil {
		return verdict{Reason: "reading the proof: " + err.Error(), Checker: proof.Checker}
	}
	data, err := io.ReadAll(inputfile.Limit(fh, proofPath, proof.MaxInputBytes))
	fh.Close()
	if err != nil {
		return verdict{Reason: "reading the proof: " + err.Error(), Checker: proof.Checker}
	}
	p, err := proof.ParseDRAT(data, format)
	if err != nil {
		return verdict{Reason: err.Error(), Bytes: int64(len(data)), Checker: proof.Checker}
	}
	clauses := make([][]int, f.NumClauses())
	for i := range clauses {
		c := f.Clause(i)
		lits := make([]int, len(c))
		for j, l := range c {
			lits[j] = int(l)
		}
		clauses[i] = lits
	}
	rep, err := proof.VerifySteps(f.NumVars(), clauses, p.Steps, p.Bytes, proof.Options{})
	v := verdict{Verified: rep.Verified && err == nil, Reason: rep.Reason, Lemma: int64(rep.Lemma),
		Lemmas: int64(rep.Lemmas), Deletions: int64(rep.Deletions), Bytes: p.Bytes, Checker: proof.Checker}
	if err != nil {
		v.Reason = err.Error()
	}
	return v
}
