package competition

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestLog10: the estimate line, exact where log10 is, for counts beyond
// float64's range too.
func TestLog10(t *testing.T) {
	ten40, _ := new(big.Int).SetString("1"+strings.Repeat("0", 40), 10)
	big400, _ := new(big.Int).SetString("2"+strings.Repeat("0", 400), 10)
	for _, c := range []struct {
		n    *big.Int
		want string
	}{
		{big.NewInt(0), "-inf"},
		{big.NewInt(1), "0"},
		{big.NewInt(10), "1"},
		{big.NewInt(92), "1.96378782734556"},
		{ten40, "40"},
		{big400, "400.301029995664"},
	} {
		if got := Log10(c.n); got != c.want {
			t.Errorf("Log10(%s) = %s, want %s", c.n, got, c.want)
		}
	}
}

// TestFormulaProjection: mc projects on every variable, pmc on the shown
// ones; the count follows.
func TestFormulaProjection(t *testing.T) {
	in, err := Read(strings.NewReader("c t pmc\np cnf 4 2\nc p show 2 0\nc p show 3 2 0\n1 2 0\n-1 4 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if in.Type != TypePMC || len(in.Show) != 2 || in.Show[0] != 2 || in.Show[1] != 3 {
		t.Fatalf("read %q %v", in.Type, in.Show)
	}
	f := in.Formula()
	for v, want := range map[int]bool{1: false, 2: true, 3: true, 4: false} {
		if f.Primary(v) != want {
			t.Errorf("variable %d primary %v", v, f.Primary(v))
		}
	}
	// Over 2 and 3 every assignment extends (x1 = 1, x4 = 1 always works).
	c, err := Count(context.Background(), in, 1)
	if err != nil || c.Status != puzzle.OK || c.Count != 4 {
		t.Fatalf("pmc count %+v %v, want 4", c, err)
	}
	in.Type, in.Show = TypeMC, nil
	// mc over x1..x4: x1=0 forces x2 (x3, x4 free: 4 models), x1=1
	// forces x4 (x2, x3 free: 4 models).
	if c, err := Count(context.Background(), in, 1); err != nil || c.Count != 8 {
		t.Fatalf("mc count %+v %v, want 8", c, err)
	}
}

// TestSolveProof: an UNSAT comes with a proof the checkers verified; the
// check itself rejects proofs broken on purpose (a lemma that does not
// follow at once, a proof of another formula, text that is not DRAT).
func TestSolveProof(t *testing.T) {
	// (1 or 2), (1 or not 2), (not 1 or 2), (not 1 or not 2).
	text := "p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n"
	in, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Solve(context.Background(), in, true)
	if err != nil || s.Result.Status != puzzle.Unsat || len(s.Proof) == 0 {
		t.Fatalf("%+v %v", s, err)
	}
	if last := s.Proof[len(s.Proof)-1]; last.Delete || len(last.Lits) != 0 {
		t.Errorf("the proof does not end with the empty clause: %+v", last)
	}
	if _, err := checkProof([]byte(text), []byte("1 0\n0\n")); err != nil {
		t.Errorf("a correct proof rejected: %v", err)
	}
	for _, bad := range []struct{ cnf, drat string }{
		{text, "0\n"},                      // the empty clause does not follow at once
		{"p cnf 2 1\n1 2 0\n", "1 0\n0\n"}, // a satisfiable formula
		{text, "1 x 0\n"},                  // not DRAT
	} {
		if _, err := checkProof([]byte(bad.cnf), []byte(bad.drat)); !errors.Is(err, ErrProofRejected) {
			t.Errorf("proof %q of %q: %v, want a rejection", bad.drat, bad.cnf, err)
		}
	}
}
