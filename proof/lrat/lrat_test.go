package lrat_test

import (
	"strings"
	"testing"

	"github.com/boardsat/boardsat/proof/lrat"
)

// ratCNF is the formula of the DRAT papers' RAT example (Wetzler, Heule
// and Hunt 2014).
const ratCNF = "p cnf 4 8\n1 2 -3 0\n-1 -2 3 0\n2 3 -4 0\n-2 -3 4 0\n1 3 4 0\n-1 -3 -4 0\n-1 2 4 0\n1 -2 -4 0\n"

// handLRAT is an LRAT proof of ratCNF written by hand, step by step: the
// RAT lemma -1 (groups for clauses 1, 5 and 8, which hold 1), the
// deletion of the clauses with -1, the lemma 2, the empty clause.
const handLRAT = `9 -1 0 -1 6 7 -5 7 2 -8 2 6 0
9 d 2 6 7 0
10 2 0 9 1 5 3 0
11 0 9 10 8 4 5 0
`

// TestLRATMutations checks that the LRAT checker accepts the hand-written
// LRAT proof and rejects each broken copy of it.
func TestLRATMutations(t *testing.T) {
	clauses, err := lrat.ReadCNF(strings.NewReader(ratCNF))
	if err != nil {
		t.Fatal(err)
	}
	res, err := lrat.Check(clauses, strings.NewReader(handLRAT))
	if err != nil || !res.Verified || res.Added != 3 || res.Deleted != 1 {
		t.Fatalf("hand LRAT: %v %+v", err, res)
	}
	// drat-trim's LRAT style: a deletion line that deletes nothing, ids
	// with gaps.
	gaps := "8 d 0\n" + strings.NewReplacer("10 2 0 9", "12 2 0 9", "11 0 9 10", "20 0 9 12").Replace(handLRAT)
	if res, err := lrat.Check(clauses, strings.NewReader(gaps)); err != nil || !res.Verified {
		t.Fatalf("ids with gaps: %v %+v\n%s", err, res, gaps)
	}
	cases := []struct{ name, from, to, reason string }{
		{"wrong hint", "10 2 0 9 1 5 3 0", "10 2 0 9 1 5 4 0", "hint 4 is not unit"},
		{"missing hint", "10 2 0 9 1 5 3 0", "10 2 0 9 1 5 0", "the hints reach no conflict"},
		{"hint to a deleted clause", "10 2 0 9 1 5 3 0", "10 2 0 9 1 7 5 3 0", "hint 7 names no clause"},
		{"hint to an unknown clause", "10 2 0 9 1 5 3 0", "10 2 0 9 1 5 12 0", "hint 12 names no clause"},
		{"flipped literal", "10 2 0 9 1 5 3 0", "10 -2 0 9 1 5 3 0", "not unit"},
		{"RAT group missing", "-5 7 2 -8 2 6 0", "-5 7 2 0", "no hints for clause 8"},
		{"RAT group short", "-5 7 2 -8 2 6 0", "-5 7 2 -8 2 0", "clause 8: the hints reach no conflict"},
		{"RAT group for a clause without the pivot", "-5 7 2 -8 2 6 0", "-5 7 2 -8 2 6 -3 0", "not in the database with 1"},
		{"dropped lemma", "10 2 0 9 1 5 3 0\n", "", "hint 10 names no clause"},
		{"needed clause deleted", "9 d 2 6 7 0", "9 d 2 6 7 3 0", "hint 3 names no clause"},
		{"deleting a clause twice", "9 d 2 6 7 0", "9 d 2 6 7 6 0", "not in the database"},
		{"id not increasing", "10 2 0", "8 2 0", "not above every earlier id"},
		{"no empty clause", "11 0 9 10 8 4 5 0\n", "", "does not derive the empty clause"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(handLRAT, c.from, c.to, 1)
			if text == handLRAT {
				t.Fatalf("the mutation %q does not apply", c.from)
			}
			res, err := lrat.Check(clauses, strings.NewReader(text))
			if err != nil {
				t.Fatalf("read error %v, want a rejection", err)
			}
			if res.Verified || !strings.Contains(res.Reason, c.reason) {
				t.Fatalf("verified %v reason %q, want rejected: %q", res.Verified, res.Reason, c.reason)
			}
		})
	}
	// The formula of another proof: every step's hints are checked
	// against the clauses read.
	other, _ := lrat.ReadCNF(strings.NewReader("p cnf 4 8\n1 2 3 0\n-1 -2 3 0\n2 3 -4 0\n-2 -3 4 0\n1 3 4 0\n-1 -3 -4 0\n-1 2 4 0\n1 -2 -4 0\n"))
	if res, err := lrat.Check(other, strings.NewReader(handLRAT)); err != nil || res.Verified {
		t.Errorf("the proof of another formula: %v %+v", err, res)
	}
	for _, bad := range []string{"9 -1 0 1 2\n", "9 x 0 0\n", "9\n", "9 d 2 x 0\n", "9 d -2 0\n", "9 -1 0 1 0 7\n"} {
		if _, err := lrat.Check(clauses, strings.NewReader(bad)); err == nil {
			t.Errorf("lrat %q: no read error", bad)
		}
	}
}
