package proof_test

import (
	"strings"
	"testing"

	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/proof/lrat"
)

// TestMinusZeroRefused: "-0" neither names a literal nor ends a clause:
// both DIMACS readers (this package's and lrat's, which share no code)
// refuse it, naming the token, where "-0" was taken as a terminator.
func TestMinusZeroRefused(t *testing.T) {
	text := "p cnf 2 1\n1 2 -0\n"
	if _, err := proof.ReadCNF(strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), `"-0"`) {
		t.Errorf("ReadCNF: %v; want a refusal of -0", err)
	}
	if _, err := lrat.ReadCNF(strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), `"-0"`) {
		t.Errorf("lrat.ReadCNF: %v; want a refusal of -0", err)
	}
}
