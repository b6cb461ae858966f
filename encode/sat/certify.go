package sat

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// Certificate is gophersat's verdict on a clausal formula together with the
// certificate it wrote while searching.
type Certificate struct {
	// Status is Unsat (Lemmas is a refutation, the empty clause last), OK
	// (satisfiable: no refutation), Timeout, or Error (Message says why,
	// a gophersat panic included).
	Status puzzle.Status
	// Lemmas are the learned clauses in reverse-unit-propagation (RUP)
	// notation, in the order gophersat learned them.
	Lemmas [][]int
	// Message explains an Error or Timeout.
	Message string
}

// Certify solves f (clauses only, no PB constraints) with gophersat asking
// for its RUP certificate, holding the package's gophersat lock like every
// other gophersat call, so it may run beside counts in the same process.
// With a cancellable ctx it runs in a child process (see searchOne).
// Checking the certificate is the caller's business: it is only gophersat's
// claim.
func Certify(ctx context.Context, f *cnf.Formula) Certificate {
	if len(f.PBs()) > 0 {
		return Certificate{Status: puzzle.Error, Message: fmt.Sprintf("a certificate needs a clausal formula, and this one has %d PB constraints", len(f.PBs()))}
	}
	clauses := make([][]int, 0, f.NumClauses())
	for i := range f.NumClauses() {
		c := f.Clause(i)
		lits := make([]int, len(c))
		for j, l := range c {
			lits[j] = int(l)
		}
		clauses = append(clauses, lits)
	}
	r := searchOne(ctx, modeCertify, f)
	switch {
	case r.Timeout:
		return Certificate{Status: puzzle.Timeout, Message: "time limit reached"}
	case r.Err != "":
		return Certificate{Status: puzzle.Error, Message: r.Err}
	}
	lines := r.Cert
	lemmas := make([][]int, 0, len(lines))
	for _, line := range lines {
		var lemma []int
		for _, field := range strings.Fields(line) {
			x, err := strconv.Atoi(field)
			if err != nil {
				return Certificate{Status: puzzle.Error, Message: fmt.Sprintf("bad certificate line %q", line)}
			}
			if x != 0 {
				lemma = append(lemma, x)
			}
		}
		lemmas = append(lemmas, lemma)
	}
	switch r.Verdict {
	case "unsat":
		if len(lemmas) == 0 || len(lemmas[len(lemmas)-1]) != 0 {
			// Refuted while parsing, before any learning: the empty clause
			// must then follow by unit propagation alone (the checker's job).
			lemmas = append(lemmas, []int{})
		}
		return Certificate{Status: puzzle.Unsat, Lemmas: lemmas}
	case "sat":
		return Certificate{Status: puzzle.OK, Lemmas: lemmas}
	}
	return Certificate{Status: puzzle.Error, Message: "gophersat ended without a verdict (" + r.Verdict + ")"}
}
