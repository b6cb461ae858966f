package proof_test

// Adversarial tests of the DRAT checker and of Verify (DRAT checker, then
// the LRAT checker on its output): hand-made attacks (deletions of units
// and of reasons, of needed and of duplicate clauses, RAT candidates added
// later, the empty clause too early, bad binary encodings), proofs of a
// neighbouring formula, a random walk of generated DRAT proofs on small
// formulas, and random mutations of cadical's proofs, each verdict held
// to enumeration: nothing is verified for a formula that has a model.

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/proof/lrat"
)

// rtVerdict checks a proof with the DRAT checker alone (core and every
// lemma) and with Verify, fails the test when any of them verifies a
// proof of a formula with a model (or when the DRAT checker verifies and
// the LRAT checker then rejects), and returns Verify's verdict.
func rtVerdict(t *testing.T, f *proof.CNF, steps []proof.Step, what string) bool {
	t.Helper()
	rep, err := proof.VerifySteps(f.Vars, f.Clauses, steps, 0, proof.Options{})
	if err != nil {
		return false
	}
	core := proof.Check(f, steps, proof.CheckOptions{})
	all := proof.Check(f, steps, proof.CheckOptions{All: true})
	if (rep.Verified || core.Verified || all.Verified) && rtSatisfiable(f) {
		t.Fatalf("%s: verified (Verify %v, DRAT core %v, DRAT all %v) a proof of a satisfiable formula\nformula %v\nproof %v",
			what, rep.Verified, core.Verified, all.Verified, f.Clauses, steps)
	}
	if core.Verified != rep.Verified {
		t.Fatalf("%s: the DRAT checker says %v, Verify %v (%s)", what, core.Verified, rep.Verified, rep.Reason)
	}
	return rep.Verified
}

// rtModels caches satisfiable by formula (the tests do not change a
// formula once checked).
var rtModels = map[*proof.CNF]bool{}

func rtSatisfiable(f *proof.CNF) bool {
	s, ok := rtModels[f]
	if !ok {
		s = satisfiable(f)
		rtModels[f] = s
	}
	return s
}

// rtSteps reads an ASCII DRAT proof.
func rtSteps(t *testing.T, text string) []proof.Step {
	t.Helper()
	p, err := proof.ParseDRAT([]byte(text), proof.ASCII)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return p.Steps
}

// TestRedteamDRATAttacks checks hand-made DRAT proofs: attacks are not
// verified, valid but unusual proofs are.
func TestRedteamDRATAttacks(t *testing.T) {
	sat2 := [][]int{{1, 2}, {-1, 2}, {1, -2}} // one model: 1, 2 true
	unsat2 := [][]int{{1, 2}, {-1, 2}, {1, -2}, {-1, -2}}
	cases := []struct {
		name    string
		vars    int
		clauses [][]int
		proof   string
		want    bool
	}{
		// Valid, some unusual.
		{"plain RUP refutation", 2, unsat2, "2 0\n0\n", true},
		{"a unit-propagation refutation needs only the empty clause", 2, [][]int{{1}, {-1, 2}, {-2}}, "0\n", true},
		{"empty clause in the input", 1, [][]int{{1}, {}}, "0\n", true},
		{"only an empty clause, no variable", 0, [][]int{{}}, "0\n", true},
		{"extension variable by RAT, then its negation by RAT", 2, unsat2, "3 1 0\n-3 1 0\n1 0\n0\n", true},
		{"a tautology among the lemmas", 2, unsat2, "1 -1 0\n2 0\n0\n", true},
		{"duplicate literals in a lemma", 2, unsat2, "2 2 0\n0\n", true},
		{"one of two copies of a needed clause deleted", 2, append([][]int{{1, 2}}, unsat2...), "d 1 2 0\n2 0\n0\n", true},
		{"deleting a clause that is not there (ignored)", 2, unsat2, "d 1 -1 0\nd 2 0\n2 0\n0\n", true},
		{"lemmas after the refutation are not read", 2, unsat2, "2 0\n0\n-2 0\n", true},
		{"extended resolution: 3 <-> (1 and 2) by three RAT lemmas", 2, unsat2, "3 -1 -2 0\n-3 1 0\n-3 2 0\n-1 3 2 0\nd 3 -1 -2 0\n2 0\n0\n", true},
		{"a lemma added twice, one copy deleted", 2, unsat2, "2 1 0\n2 1 0\nd 1 2 0\nd 1 2 0\n2 0\n0\n", true},

		// Attacks on satisfiable formulas.
		{"empty clause at once", 2, sat2, "0\n", false},
		{"the unit -2, unjustified", 2, sat2, "-2 0\n0\n", false},
		{"a unit deleted, then its negation (unit deletions are ignored)", 1, [][]int{{1}}, "d 1 0\n-1 0\n0\n", false},
		{"a derived unit deleted, then its negation", 2, [][]int{{1}, {-1, 2}}, "2 0\nd 2 0\n-2 0\n0\n", false},
		{"a reason deleted, then the negation of its literal", 2, [][]int{{1}, {-1, 2}}, "d -1 2 0\n-2 0\n0\n", false},
		{"a reason deleted twice, then the negation of its literal", 2, [][]int{{1}, {-1, 2}}, "d -1 2 0\nd 2 -1 0\n-2 0\n0\n", false},
		{"a RAT lemma, then one whose candidate is that lemma", 3, [][]int{{1, 2}}, "-3 0\n3 0\n0\n", false},
		{"RAT only on the second literal, then its use", 2, sat2, "-1 -2 0\n0\n", false},
		{"a fresh-variable RAT unit, its negation, the empty clause", 2, sat2, "3 0\n-3 0\n0\n", false},
		{"the empty clause before any lemma, twice", 2, sat2, "0\n0\n", false},

		// Attacks on an unsatisfiable formula that a proof must not be
		// able to use unsoundly: a deletion of a needed clause.
		{"a needed clause deleted", 2, unsat2, "d 1 2 0\n2 0\n0\n", false},
		{"both copies of a needed clause deleted", 2, append([][]int{{1, 2}}, unsat2...), "d 1 2 0\nd 2 1 0\n2 0\n0\n", false},
		{"the empty clause first, not by propagation", 2, unsat2, "0\n", false},
	}
	for _, c := range cases {
		f := &proof.CNF{Vars: c.vars, Clauses: c.clauses}
		got := rtVerdict(t, f, rtSteps(t, c.proof), c.name)
		if got != c.want {
			t.Errorf("%s: verified %v, want %v", c.name, got, c.want)
		}
		if all := proof.Check(f, rtSteps(t, c.proof), proof.CheckOptions{All: true}); all.Verified != c.want {
			t.Errorf("%s: with every lemma checked, verified %v, want %v (%s)", c.name, all.Verified, c.want, all.Reason)
		}
		// The same through files, ASCII and binary.
		for _, format := range []proof.Format{proof.ASCII, proof.Binary} {
			var d bytes.Buffer
			if err := proof.WriteDRAT(&d, rtSteps(t, c.proof), format); err != nil {
				t.Fatal(err)
			}
			rep, err := proof.Verify(bytes.NewReader(dimacs(f)), &d, proof.Options{Format: format})
			if err != nil || rep.Verified != c.want {
				t.Errorf("%s (%s file): verified %v, error %v, want %v (%s)", c.name, format, rep.Verified, err, c.want, rep.Reason)
			}
		}
	}
}

// TestRedteamBinaryEncodings feeds bad and odd binary DRAT: each is an
// error or a proof that is not verified (the formula has a model), never
// a panic.
func TestRedteamBinaryEncodings(t *testing.T) {
	cnf := dimacs(&proof.CNF{Vars: 2, Clauses: [][]int{{1, 2}, {-1, 2}, {1, -2}}})
	for _, data := range []string{
		"a\x80\x00",                        // 0 written in two bytes: the end of an empty lemma
		"a\x01\x00",                        // code 1: the negation of variable 0
		"a\x00\x00",                        // a second 0 starts no step
		"a\x80\x80\x80\x80\x80\x80\x00",    // a literal of more than 5 bytes
		"a\xff\xff\xff\xff\x0f\x00",        // a variable beyond 2^22
		"a\x05",                            // truncated
		"a\x05\x80",                        // truncated inside a literal
		"d\x04\x00a\x00",                   // delete the unit 2 (absent), then the empty clause
		"a\x83\x00\x00a\x00",               // an overlong encoding of literal -1, then the empty clause
		"a\x05\x00a\x02\x00a\x00",          // -2, 1, empty: -2 unjustified
		"x\x02\x00",                        // no step starts with x
		"a\x02\x00\na\x00",                 // a newline between steps
		"a\x04\x00d\x04\x00d\x04\x00a\x00", // 2, its deletion twice, the empty clause
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%q: panic %v", data, r)
				}
			}()
			rep, err := proof.Verify(bytes.NewReader(cnf), bytes.NewReader([]byte(data)), proof.Options{Format: proof.Binary})
			if err == nil && rep.Verified {
				t.Errorf("%q: verified a proof of a satisfiable formula", data)
			}
		}()
	}
	// A binary proof is not read as ASCII, nor the reverse.
	if _, err := proof.ParseDRAT([]byte("a\x04\x00a\x00"), proof.ASCII); err == nil {
		t.Error("a binary proof read as ASCII")
	}
	if _, err := proof.ParseDRAT([]byte("2 0\n0\n"), proof.Binary); err == nil {
		t.Error("an ASCII proof read as binary")
	}
}

// TestRedteamInputErrors: literals beyond the header, 0 in an in-memory
// clause, a header that lies: errors, not verdicts.
func TestRedteamInputErrors(t *testing.T) {
	steps := []proof.Step{{}}
	for _, c := range []struct {
		vars    int
		clauses [][]int
	}{
		{1, [][]int{{1}, {-2}}},
		{2, [][]int{{1, 0}, {-1}}},
		{proof.MaxVar + 1, [][]int{{}}},
	} {
		if rep, err := proof.VerifySteps(c.vars, c.clauses, steps, 0, proof.Options{}); err == nil {
			t.Errorf("VerifySteps(%d, %v): no error (%+v)", c.vars, c.clauses, rep)
		}
	}
	for _, cnf := range []string{
		"p cnf 1 2\n1 0\n-2 0\n",
		"p cnf 2 3\n1 0\n-1 0\n",
		"p cnf 2 1\n1 0\n-1 0\n",
		"p cnf 1 2\n1 0\n-1\n",
		"p cnf 1 2\n1 0\n+1 0\n",
		"p cnf 1 2\n1 0\n-9223372036854775808 0\n",
		"1 0\n-1 0\n",
	} {
		if rep, err := proof.Verify(bytes.NewReader([]byte(cnf)), bytes.NewReader([]byte("0\n")), proof.Options{}); err == nil {
			t.Errorf("%q: no error (verified %v)", cnf, rep.Verified)
		}
	}
}

// rtLit is a random literal of vars variables.
func rtLit(rng *rand.Rand, vars int) int {
	l := 1 + rng.Intn(vars)
	if rng.Intn(2) == 0 {
		return -l
	}
	return l
}

// rtFormula is a random formula of clauses of 2 or 3 literals (a few
// units); with planted set, every clause is satisfied by the assignment
// making variable v true when v is odd, so the formula has a model.
func rtFormula(rng *rand.Rand, vars, m int, planted bool) *proof.CNF {
	f := &proof.CNF{Vars: vars}
	for len(f.Clauses) < m {
		k := 2 + rng.Intn(2)
		if rng.Intn(15) == 0 {
			k = 1
		}
		var c []int
		for range k {
			c = append(c, rtLit(rng, vars))
		}
		if planted && !slices.ContainsFunc(c, func(l int) bool { return (l > 0) == (abs(l)%2 == 1) }) {
			continue
		}
		f.Clauses = append(f.Clauses, c)
	}
	return f
}

// rt3SAT is a random 3-SAT formula: m clauses of three literals of
// distinct variables.
func rt3SAT(rng *rand.Rand, vars, m int) *proof.CNF {
	f := &proof.CNF{Vars: vars}
	for range m {
		var c []int
		for len(c) < 3 {
			l := rtLit(rng, vars)
			if !slices.Contains(c, l) && !slices.Contains(c, -l) {
				c = append(c, l)
			}
		}
		f.Clauses = append(f.Clauses, c)
	}
	return f
}

// rtResolvent resolves two clauses on a clashing literal, if any.
func rtResolvent(a, b []int) ([]int, bool) {
	for _, l := range a {
		if slices.Contains(b, -l) {
			var out []int
			for _, x := range a {
				if x != l {
					out = append(out, x)
				}
			}
			for _, x := range b {
				if x != -l && !slices.Contains(out, x) {
					out = append(out, x)
				}
			}
			return out, true
		}
	}
	return nil, false
}

// TestRedteamRandomDRAT generates DRAT proofs on small random formulas,
// half of them with a planted model: resolvents (RUP), resolvents with a
// literal dropped, random clauses (over two variables beyond the
// formula's too), units, deletions of random clauses (units included),
// the empty clause last. Every verdict of the DRAT checker (core and
// every lemma) and of Verify is held to enumeration.
func TestRedteamRandomDRAT(t *testing.T) {
	rng := rand.New(rand.NewSource(271828))
	trials := 300
	if testing.Short() {
		trials = 100
	}
	verified, satTried := 0, 0
	for trial := range trials {
		vars := 4 + rng.Intn(7)
		planted := trial%2 == 0
		f := rtFormula(rng, vars, vars*(2+rng.Intn(4)), planted)
		if satisfiable(f) {
			satTried++
		}
		live := slices.Clone(f.Clauses)
		var steps []proof.Step
		for range 5 + rng.Intn(30) {
			var lemma []int
			switch r := rng.Intn(10); {
			case r < 2 && len(live) > 0:
				i := rng.Intn(len(live))
				steps = append(steps, proof.Step{Delete: true, Lits: slices.Clone(live[i])})
				live = slices.Delete(live, i, i+1)
				continue
			case r < 6:
				a, b := live[rng.Intn(len(live))], live[rng.Intn(len(live))]
				res, ok := rtResolvent(a, b)
				if !ok {
					continue
				}
				lemma = res
				if r == 5 && len(lemma) > 0 {
					lemma = slices.Delete(lemma, 0, 1) // maybe not implied
				}
			case r < 8:
				for range 1 + rng.Intn(3) {
					lemma = append(lemma, rtLit(rng, vars+2))
				}
			default:
				lemma = []int{rtLit(rng, vars+2)}
			}
			if len(lemma) == 0 {
				continue
			}
			if len(lemma) > 1 && rng.Intn(3) == 0 {
				j := rng.Intn(len(lemma))
				lemma[0], lemma[j] = lemma[j], lemma[0] // another pivot
			}
			steps = append(steps, proof.Step{Lits: lemma})
			live = append(live, lemma)
		}
		steps = append(steps, proof.Step{})
		if rtVerdict(t, f, steps, fmt.Sprintf("trial %d", trial)) {
			verified++
		}
	}
	t.Logf("%d trials (%d satisfiable formulas), %d proofs verified", trials, satTried, verified)
	if verified == 0 || satTried == 0 {
		t.Errorf("the walk is too weak: %d verified, %d satisfiable formulas", verified, satTried)
	}
}

// rtCadical runs cadical on f (ASCII proof) and returns the proof's steps
// and whether cadical answered unsatisfiable.
func rtCadical(t *testing.T, exe string, f *proof.CNF) ([]proof.Step, bool) {
	t.Helper()
	dir := t.TempDir()
	cnf, drat := filepath.Join(dir, "f.cnf"), filepath.Join(dir, "f.drat")
	if err := os.WriteFile(cnf, dimacs(f), 0o644); err != nil {
		t.Fatal(err)
	}
	err := exec.Command(exe, "-q", "--no-binary", cnf, drat).Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 10 && code != 20 {
		t.Fatalf("cadical: %v", err)
	}
	data, err := os.ReadFile(drat)
	if err != nil {
		t.Fatal(err)
	}
	if code == 10 {
		return nil, false
	}
	p, err := proof.ParseDRAT(data, proof.ASCII)
	if err != nil {
		t.Fatalf("cadical's proof: %v", err)
	}
	return p.Steps, true
}

// TestRedteamProofOfNeighbour takes random 3-SAT formulas with a planted
// model, adds random clauses until cadical refutes them, and checks
// cadical's proof of that formula against the one with the planted model
// (and against it with all added clauses but one, when that has a
// model): never verified. The proof is verified for the formula it
// refutes.
func TestRedteamProofOfNeighbour(t *testing.T) {
	exe := needCadical(t)
	rng := rand.New(rand.NewSource(31415))
	checked := 0
	trials := 6
	if testing.Short() {
		trials = 2
	}
	for trial := range trials {
		vars := 12 + rng.Intn(5)
		f := rtFormula(rng, vars, 3*vars, true)
		g := &proof.CNF{Vars: vars, Clauses: slices.Clone(f.Clauses)}
		var steps []proof.Step
		for {
			for range vars / 2 {
				g.Clauses = append(g.Clauses, []int{rtLit(rng, vars), rtLit(rng, vars), rtLit(rng, vars)})
			}
			var unsat bool
			if steps, unsat = rtCadical(t, exe, g); unsat {
				break
			}
		}
		if !rtVerdict(t, g, steps, "the refuted formula") {
			t.Fatalf("trial %d: cadical's proof of the formula it refutes is not verified", trial)
		}
		if rtVerdict(t, f, steps, fmt.Sprintf("trial %d, the planted formula", trial)) {
			t.Fatalf("trial %d: verified for the planted formula", trial)
		}
		checked++
		for drop := len(f.Clauses); drop < len(g.Clauses); drop++ {
			h := &proof.CNF{Vars: vars, Clauses: slices.Delete(slices.Clone(g.Clauses), drop, drop+1)}
			if satisfiable(h) {
				checked++
				if rtVerdict(t, h, steps, fmt.Sprintf("trial %d, clause %d dropped", trial, drop+1)) {
					t.Fatalf("trial %d: verified with clause %d dropped, which has a model", trial, drop+1)
				}
			}
		}
	}
	t.Logf("%d proofs checked against satisfiable neighbours", checked)
}

// TestRedteamCadicalMutations mutates cadical's proofs of random 3-SAT
// formulas (flip a literal, drop a step, swap two steps, insert a random
// lemma, insert a deletion of a formula clause, repeat a deletion, turn a
// lemma into a deletion) and, half the time, weakens the formula too
// (drops one to six clauses, so that it may have a model); every verdict is held to
// enumeration, and the unmutated proofs must be verified.
func TestRedteamCadicalMutations(t *testing.T) {
	exe := needCadical(t)
	rng := rand.New(rand.NewSource(16180))
	const vars = 14
	var proofs []*proof.CNF
	var stepsOf [][]proof.Step
	for len(proofs) < 8 {
		f := rt3SAT(rng, vars, 66)
		steps, unsat := rtCadical(t, exe, f)
		if !unsat {
			continue
		}
		if !rtVerdict(t, f, steps, "cadical's proof") {
			t.Fatalf("cadical's proof of %v is not verified", f.Clauses)
		}
		proofs = append(proofs, f)
		stepsOf = append(stepsOf, steps)
	}
	mutations := 600
	if testing.Short() {
		mutations = 150
	}
	verified, satTried := 0, 0
	for m := range mutations {
		k := rng.Intn(len(proofs))
		f := proofs[k]
		steps := slices.Clone(stepsOf[k])
		for i := range steps {
			steps[i].Lits = slices.Clone(steps[i].Lits)
		}
		for range 1 + rng.Intn(3) {
			i := rng.Intn(len(steps))
			switch rng.Intn(7) {
			case 0:
				if len(steps[i].Lits) > 0 {
					j := rng.Intn(len(steps[i].Lits))
					steps[i].Lits[j] = -steps[i].Lits[j]
				}
			case 1:
				steps = slices.Delete(steps, i, i+1)
			case 2:
				j := rng.Intn(len(steps))
				steps[i], steps[j] = steps[j], steps[i]
			case 3:
				var lemma []int
				for range rng.Intn(4) {
					lemma = append(lemma, rtLit(rng, vars+1))
				}
				steps = slices.Insert(steps, i, proof.Step{Lits: lemma})
			case 4:
				c := f.Clauses[rng.Intn(len(f.Clauses))]
				steps = slices.Insert(steps, i, proof.Step{Delete: true, Lits: slices.Clone(c)})
			case 5:
				if steps[i].Delete {
					steps = slices.Insert(steps, i, steps[i])
				}
			case 6:
				steps[i].Delete = !steps[i].Delete
			}
			if len(steps) == 0 {
				steps = []proof.Step{{}}
			}
		}
		g := f
		if rng.Intn(2) == 0 {
			g = &proof.CNF{Vars: vars, Clauses: slices.Clone(f.Clauses)}
			for range 1 + rng.Intn(6) {
				i := rng.Intn(len(g.Clauses))
				g.Clauses = slices.Delete(g.Clauses, i, i+1)
			}
			if rtSatisfiable(g) {
				satTried++
			}
		}
		if rtVerdict(t, g, steps, fmt.Sprintf("mutation %d", m)) {
			verified++
		}
	}
	t.Logf("%d mutations (%d of formulas with a model): %d verified", mutations, satTried, verified)
	if satTried == 0 || verified == 0 {
		t.Errorf("the mutations are too weak: %d on formulas with a model, %d verified", satTried, verified)
	}
}

// TestRedteamLRATOutputIDs: the LRAT the DRAT checker writes never gives
// a lemma an id of the formula, and names only clauses it holds (the LRAT
// checker, reading the formula itself, agrees on a formula with duplicate
// clauses and deletions of the duplicates).
func TestRedteamLRATOutputIDs(t *testing.T) {
	f := &proof.CNF{Vars: 2, Clauses: [][]int{{1, 2}, {1, 2}, {-1, 2}, {-1, 2}, {1, -2}, {-1, -2}}}
	steps := rtSteps(t, "d 1 2 0\nd -1 2 0\nd 2 1 0\nd 1 2 0\n-1 2 1 0\n2 0\n0\n")
	res := proof.Check(f, steps, proof.CheckOptions{})
	if res.Verified {
		// Both copies of (1 2) were deleted: the proof needs one.
		t.Fatalf("verified with both copies of (1 2) deleted:\n%s", res.LRAT)
	}
	steps = rtSteps(t, "d 1 2 0\nd -1 2 0\n2 0\n0\n")
	res = proof.Check(f, steps, proof.CheckOptions{})
	if !res.Verified {
		t.Fatalf("one copy of each deleted: %s", res.Reason)
	}
	lr, err := lrat.CheckText(f.Clauses, res.LRAT)
	if err != nil || !lr.Verified {
		t.Fatalf("LRAT rejected: %v %s\n%s", err, lr.Reason, res.LRAT)
	}
}

// TestRedteamCNFReadersAgree: the LRAT checker reads the formula with its
// own reader, so a file that the two readers read as two formulas would
// let the DRAT checker and the LRAT checker judge different formulas.
// Mutated DIMACS texts (bytes changed, inserted, deleted, from a set of
// troublesome ones) must be read alike whenever both readers accept them.
func TestRedteamCNFReadersAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(5772))
	seeds := []string{
		"p cnf 3 3\n1 -2 0\n2 3 0\n-1 0\n",
		"c comment\np cnf 2 2\n 1 2\n0 c\n-1 0\n",
		"p cnf 2 2\r\n1 2 0\r\nc x\r\n-1 -2 0\r\n",
		"p cnf 4 2\n1 2 3\n4 0 -1\n-2 0\n",
	}
	alphabet := []byte("0123456789-+ \t\r\n\v\fcpnfd%\x00\xc2\xa0")
	agreed, both := 0, 0
	n := 8000
	if testing.Short() {
		n = 2000
	}
	for range n {
		b := []byte(seeds[rng.Intn(len(seeds))])
		for range 1 + rng.Intn(3) {
			i := rng.Intn(len(b) + 1)
			c := alphabet[rng.Intn(len(alphabet))]
			switch rng.Intn(3) {
			case 0:
				if i < len(b) {
					b[i] = c
				}
			case 1:
				b = slices.Insert(b, i, c)
			case 2:
				if i < len(b) {
					b = slices.Delete(b, i, i+1)
				}
			}
		}
		f, err1 := proof.ReadCNF(bytes.NewReader(b))
		g, err2 := lrat.ReadCNF(bytes.NewReader(b))
		if err1 != nil || err2 != nil {
			continue
		}
		both++
		if len(f.Clauses) != len(g) {
			t.Fatalf("%q: the readers disagree: %v and %v", b, f.Clauses, g)
		}
		for i := range g {
			if !slices.Equal(f.Clauses[i], g[i]) && !(len(f.Clauses[i]) == 0 && len(g[i]) == 0) {
				t.Fatalf("%q: the readers disagree on clause %d: %v and %v", b, i+1, f.Clauses[i], g[i])
			}
		}
		agreed++
	}
	t.Logf("%d texts read by both readers, all alike", agreed)
	if both == 0 {
		t.Error("no mutated text was read by both readers")
	}
}
