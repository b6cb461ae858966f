package proof_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/proof/lrat"
	"github.com/boardsat/boardsat/puzzle"
)

// ratExample is the formula and DRAT proof of the DRAT papers (Wetzler,
// Heule and Hunt 2014): its first lemma, -1, is RAT but not RUP.
var ratExample = struct{ cnf, drat string }{
	cnf:  "p cnf 4 8\n1 2 -3 0\n-1 -2 3 0\n2 3 -4 0\n-2 -3 4 0\n1 3 4 0\n-1 -3 -4 0\n-1 2 4 0\n1 -2 -4 0\n",
	drat: "-1 0\nd -1 -2 3 0\nd -1 -3 -4 0\nd -1 2 4 0\n2 0\n0\n",
}

func readCNF(t *testing.T, text string) *proof.CNF {
	t.Helper()
	f, err := proof.ReadCNF(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func readDRAT(t *testing.T, text string) []proof.Step {
	t.Helper()
	p, err := proof.ParseDRAT([]byte(text), proof.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return p.Steps
}

// TestHandWrittenProofs checks small proofs whose verdict is worked out by
// hand, with both checkers (a verified DRAT proof's LRAT is checked too).
func TestHandWrittenProofs(t *testing.T) {
	// A formula UP cannot refute: lemma 2 needs the unit clause 1, whose
	// deletion is ignored.
	unitDel := "p cnf 4 5\n1 0\n-1 2 3 0\n-1 2 -3 0\n-1 -2 4 0\n-1 -2 -4 0\n"
	cases := []struct {
		name, cnf, drat string
		verified        bool
		lemma           int // the failing lemma
		rat, core       int // RAT lemmas and core lemmas when verified
		ignored         int // ignored deletions
	}{
		{"rat example", ratExample.cnf, ratExample.drat, true, 0, 1, 2, 0},
		{"rat example, ascii spacing", ratExample.cnf, "c a comment\n -1   0 d -1 -2 3 0\nd -1 -3 -4 0 d -1 2 4 0\n2\n0\n0\n", true, 0, 1, 2, 0},
		// Without -1 the top level does not conflict at the empty clause.
		{"rat example, RAT lemma dropped", ratExample.cnf, "d -1 -2 3 0\nd -1 -3 -4 0\nd -1 2 4 0\n2 0\n0\n", false, 2, 0, 0, 0},
		{"neither RUP nor RAT", "p cnf 4 6\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n3 4 0\n-3 4 0\n", "-4 0\n0\n", false, 1, 0, 0, 0},
		{"satisfiable, empty clause alone", "p cnf 2 2\n1 2 0\n-1 2 0\n", "0\n", false, 1, 0, 0, 0},
		{"satisfiable, a lemma then the empty clause", "p cnf 2 2\n1 2 0\n-1 2 0\n", "-2 0\n0\n", false, 1, 0, 0, 0},
		{"satisfiable, no empty clause", "p cnf 2 2\n1 2 0\n-1 2 0\n", "2 0\n", false, 0, 0, 0, 0},
		{"unit deletion ignored", unitDel, "d 1 0\n2 0\n0\n", true, 0, 0, 1, 1},
		{"tautological lemma", unitDel, "2 -2 0\n2 0\n0\n", true, 0, 0, 1, 0},
		{"refuted by the formula alone", "p cnf 1 2\n1 0\n-1 0\n", "0\n", true, 0, 0, 0, 0},
		{"empty clause in the formula", "p cnf 1 2\n1 0\n0\n", "1 0\n", true, 0, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := readCNF(t, c.cnf)
			for _, all := range []bool{false, true} {
				rep := verify(t, f, []byte(c.drat), proof.Options{All: all})
				if rep.Verified != c.verified || rep.Lemma != c.lemma {
					t.Fatalf("all=%v: verified %v lemma %d (%s), want %v lemma %d", all, rep.Verified, rep.Lemma, rep.Reason, c.verified, c.lemma)
				}
				if !c.verified {
					if want := fmt.Sprintf("lemma %d ", c.lemma); c.lemma > 0 && !strings.Contains(rep.Reason, want) {
						t.Errorf("reason %q does not name %q", rep.Reason, want)
					}
					continue
				}
				if rep.RATLemmas != c.rat || rep.IgnoredDeletions != c.ignored || (!all && rep.CoreLemmas != c.core) {
					t.Errorf("all=%v: RAT %d core %d ignored %d, want %d %d %d", all, rep.RATLemmas, rep.CoreLemmas, rep.IgnoredDeletions, c.rat, c.core, c.ignored)
				}
			}
		})
	}
}

// TestRATExampleLRAT checks the DRAT checker's LRAT for the RAT example: a
// RAT step with one hint group per clause holding 1, accepted by the LRAT
// checker, and the hand-written LRAT of the same proof too.
func TestRATExampleLRAT(t *testing.T) {
	f := readCNF(t, ratExample.cnf)
	res := proof.Check(f, readDRAT(t, ratExample.drat), proof.CheckOptions{})
	if !res.Verified {
		t.Fatal(res.Reason)
	}
	first := strings.SplitN(string(res.LRAT), "\n", 2)[0]
	// The RAT lemma -1 gets id 9; the clauses with 1 are 1, 5 and 8.
	if !strings.HasPrefix(first, "9 -1 0 ") || !strings.Contains(first, " -1 ") || !strings.Contains(first, " -5 ") || !strings.Contains(first, " -8 ") {
		t.Errorf("the RAT step is %q, want lemma 9 = -1 with groups -1, -5, -8", first)
	}
	clauses, err := lrat.ReadCNF(strings.NewReader(ratExample.cnf))
	if err != nil {
		t.Fatal(err)
	}
	lr, err := lrat.Check(clauses, bytes.NewReader(res.LRAT))
	if err != nil || !lr.Verified {
		t.Fatalf("the LRAT checker says %v %q on\n%s", err, lr.Reason, res.LRAT)
	}
}

// unsatInstances are the real formulas the cadical tests refute: pigeon
// holes, and boardsat's own encodings of instances with no solution.
func unsatInstances(t *testing.T) map[string]*proof.CNF {
	out := map[string]*proof.CNF{}
	for n := 2; n <= 6; n++ {
		out[fmt.Sprintf("php(%d,%d)", n+1, n)] = php(n+1, n)
	}
	// Instances with no solution: no queens placement, no placement of
	// the pieces, no knight's tour (3x3 open, 4x4 closed), no king path
	// through every square from the middle of a 1x5 board.
	for _, s := range []string{"queens:2", "queens:3", "pieces:3x3:K5", "pieces:4x4:N9", "tour:3x3:a1", "tour:4x4:a1:closed", "kingpath:1x5:a3:5"} {
		out[s] = encoded(t, s)
	}
	// A knight swap four moves below its published shortest plan (the
	// parity argument skips the horizons in between).
	swap := puzzle.MustParse("swap:4x3")
	shortest, ok := puzzle.KnownShortest(swap)
	if !ok {
		t.Fatal("no published shortest plan for swap:4x3")
	}
	out[fmt.Sprintf("swap:4x3 in %d moves", shortest-4)] = encodedWith(t, "swap:4x3", "", shortest-4)
	// Queen domination one queen below the published optimum (8x8, with
	// its larger proof, not under -short).
	top := 8
	if testing.Short() {
		top = 7
	}
	for n := 4; n <= top; n++ {
		s, err := puzzle.Parse(fmt.Sprintf("dominate:%dx%d:Q", n, n))
		if err != nil {
			t.Fatal(err)
		}
		g, ok := puzzle.KnownOptimum(s)
		if !ok {
			t.Fatalf("no published domination number for %s", s)
		}
		// The square model (a variable per square, a sequential
		// counter) and the default model.
		spec := fmt.Sprintf("dominate:%dx%d:Q:k=%d", n, n, g-1)
		out[spec+" satunsat+seqcounter"] = encodedWith(t, spec, "satunsat+seqcounter", 0)
		out[spec] = encoded(t, spec)
	}
	return out
}

// TestCadicalProofsVerified checks cadical's proofs, ASCII and binary, of
// every instance with both checkers, reading the format explicitly and by
// detection, core lemmas only and every lemma.
func TestCadicalProofsVerified(t *testing.T) {
	needCadical(t)
	for name, f := range unsatInstances(t) {
		t.Run(name, func(t *testing.T) {
			ascii := cadicalProof(t, f, false)
			binary := cadicalProof(t, f, true)
			pa, err := proof.ParseDRAT(ascii, proof.ASCII)
			if err != nil {
				t.Fatal(err)
			}
			pb, err := proof.ParseDRAT(binary, proof.Binary)
			if err != nil {
				t.Fatal(err)
			}
			// cadical is deterministic: both files hold the same proof.
			if !slices.EqualFunc(pa.Steps, pb.Steps, func(a, b proof.Step) bool { return a.Delete == b.Delete && slices.Equal(a.Lits, b.Lits) }) {
				t.Fatalf("the ASCII and binary proofs read differently")
			}
			if proof.Detect(ascii) != proof.ASCII || proof.Detect(binary) != proof.Binary {
				t.Errorf("format detection: %v %v", proof.Detect(ascii), proof.Detect(binary))
			}
			var core int
			runs := []struct {
				data []byte
				fmt  proof.Format
				all  bool
			}{{ascii, proof.Auto, false}, {binary, proof.Binary, true}, {ascii, proof.ASCII, true}, {binary, proof.Auto, false}}
			if len(pa.Steps) > 10000 {
				runs = runs[:2] // a large proof: each format and mode once
			}
			for _, c := range runs {
				rep := verify(t, f, c.data, proof.Options{Format: c.fmt, All: c.all})
				if !rep.Verified {
					t.Fatalf("%v all=%v: %s", c.fmt, c.all, rep.Reason)
				}
				if rep.Lemmas != len(lemmaSteps(pa.Steps)) || rep.Deletions != len(pa.Steps)-rep.Lemmas || rep.CoreLemmas > rep.Lemmas {
					t.Errorf("counts %d lemmas %d deletions %d core, proof has %d steps", rep.Lemmas, rep.Deletions, rep.CoreLemmas, len(pa.Steps))
				}
				if rep.Bytes != int64(len(c.data)) {
					t.Errorf("bytes %d, want %d", rep.Bytes, len(c.data))
				}
				if !c.all {
					core = rep.CoreLemmas
				} else if rep.CoreLemmas < core {
					t.Errorf("all lemmas: %d verified, fewer than the core %d", rep.CoreLemmas, core)
				}
			}
		})
	}
}

// TestCadicalRandom3SAT checks cadical's proofs of random 3-SAT formulas
// past the threshold (a seeded generator, 60 variables, 300 clauses): the
// unsatisfiable ones are verified in both modes, and the satisfiable ones
// (cadical answers with a model) get no verified proof from their partial
// DRAT files.
func TestCadicalRandom3SAT(t *testing.T) {
	needCadical(t)
	rng := rand.New(rand.NewPCG(29, 3))
	unsat, sat := 0, 0
	for range 24 {
		f := &proof.CNF{Vars: 60}
		for range 300 {
			var c []int
			for len(c) < 3 {
				l := rng.IntN(f.Vars) + 1
				if slices.Contains(c, l) || slices.Contains(c, -l) {
					continue
				}
				if rng.IntN(2) == 0 {
					l = -l
				}
				c = append(c, l)
			}
			f.Clauses = append(f.Clauses, c)
		}
		data, isUnsat := cadicalRun(t, f, rng.IntN(2) == 0)
		if !isUnsat {
			sat++
			if len(data) > 0 {
				if rep := verify(t, f, data, proof.Options{}); rep.Verified {
					t.Errorf("a satisfiable formula's partial proof was verified")
				}
			}
			continue
		}
		unsat++
		for _, all := range []bool{false, true} {
			if rep := verify(t, f, data, proof.Options{All: all}); !rep.Verified {
				t.Fatalf("all=%v: %s\n%s", all, rep.Reason, dimacs(f))
			}
		}
	}
	t.Logf("%d unsatisfiable, %d satisfiable", unsat, sat)
	if unsat < 12 {
		t.Errorf("only %d of 24 formulas unsatisfiable (%d satisfiable)", unsat, sat)
	}
}

// TestCadicalProofMutations breaks cadical's proofs in ways no sound
// checker may accept, and checks that both checkers reject them.
func TestCadicalProofMutations(t *testing.T) {
	needCadical(t)
	for _, name := range []string{"php(6,5)", "dominate:5x5:Q:k=2"} {
		t.Run(name, func(t *testing.T) {
			var f *proof.CNF
			if name == "php(6,5)" {
				f = php(6, 5)
			} else {
				f = encodedWith(t, name, "satunsat+seqcounter", 0)
			}
			data := cadicalProof(t, f, false)
			steps := readDRAT(t, string(data))
			all := verify(t, f, data, proof.Options{All: true})
			if !all.Verified {
				t.Fatal(all.Reason)
			}
			lemmas := lemmaSteps(steps)
			reach := all.CoreLemmas // lemmas before the refutation's conflict
			if reach < 4 {
				t.Fatalf("only %d lemmas", reach)
			}

			// A flipped literal and a dropped lemma, where the oracle
			// shows the lemma checked there can be neither RUP nor RAT.
			flips, drops := 0, 0
			for n := reach / 3; n < reach && (flips < 3 || drops < 3); n++ {
				k := lemmas[n]
				if flips < 3 && len(steps[k].Lits) >= 2 {
					mut := slices.Clone(steps)
					lits := slices.Clone(mut[k].Lits)
					lits[1] = -lits[1]
					mut[k].Lits = lits
					super, sure := bounds(f, mut, k)
					if mustReject(super, sure, lits) {
						flips++
						assertRejected(t, f, mut, n+1, fmt.Sprintf("lemma %d with literal %d flipped", n+1, steps[k].Lits[1]))
					}
				}
				if drops < 3 && n+1 < reach {
					mut := slices.Delete(slices.Clone(steps), k, k+1)
					next := lemmas[n+1] - 1 // the next lemma's step, shifted
					super, sure := bounds(f, mut, next)
					if mustReject(super, sure, mut[next].Lits) {
						drops++
						assertRejected(t, f, mut, n+1, fmt.Sprintf("lemma %d dropped", n+1))
					}
				}
			}
			if flips < 3 || drops < 3 {
				t.Fatalf("found %d flips and %d drops that must be rejected, want 3 each", flips, drops)
			}

			// Truncated in the middle of a step: a read error.
			cut := len(data) / 2
			for data[cut-1] < '1' || data[cut-1] > '9' {
				cut++ // end inside a number that is not 0
			}
			if _, err := proof.Verify(bytes.NewReader(dimacs(f)), bytes.NewReader(data[:cut]), proof.Options{}); err == nil {
				t.Errorf("a proof cut at byte %d read without error", cut)
			}
			// Truncated at a step: the first half cannot refute the
			// formula when unit propagation on every clause it can hold
			// finds no conflict.
			half := steps[:len(steps)/2]
			super, _ := bounds(f, half, len(half))
			if naiveRUP(super, nil) {
				t.Fatalf("the oracle finds the first half already refutes the formula")
			}
			assertRejected(t, f, half, 0, "the first half of the proof")

			// A needed clause deleted: the formula is minimally
			// unsatisfiable only for the pigeon holes, so check that
			// what is left has a model.
			if name == "php(6,5)" {
				small := php(5, 4)
				for _, c := range []int{0, len(small.Clauses) - 1} {
					rest := &proof.CNF{Vars: small.Vars, Clauses: slices.Delete(slices.Clone(small.Clauses), c, c+1)}
					if !satisfiable(rest) {
						t.Fatalf("php(5,4) without clause %d is unsatisfiable", c+1)
					}
					sp := readDRAT(t, string(cadicalProof(t, small, false)))
					mut := append([]proof.Step{{Delete: true, Lits: small.Clauses[c]}}, sp...)
					assertRejected(t, small, mut, -1, fmt.Sprintf("clause %d deleted", c+1))
				}
			}
		})
	}
}

// TestProofOfAnotherFormula checks proofs against formulas they do not
// refute: satisfiable ones (no proof of those may be accepted), and other
// unsatisfiable ones.
func TestProofOfAnotherFormula(t *testing.T) {
	needCadical(t)
	sat := php(4, 4)
	if !satisfiable(sat) {
		t.Fatal("php(4,4) has no model")
	}
	for _, src := range []*proof.CNF{php(5, 4), php(4, 3), encoded(t, "queens:3")} {
		data := cadicalProof(t, src, false)
		assertRejected(t, sat, readDRAT(t, string(data)), -1, "a proof for a satisfiable formula")
	}
	q4 := encoded(t, "queens:4")
	assertRejected(t, q4, readDRAT(t, string(cadicalProof(t, encoded(t, "queens:3"), false))), -1, "queens:3's proof for queens:4")
	// Another unsatisfiable formula: php(6,5)'s proof for php(5,4).
	assertRejected(t, php(5, 4), readDRAT(t, string(cadicalProof(t, php(6, 5), false))), -1, "php(6,5)'s proof for php(5,4)")
}

// assertRejected checks that both modes of the DRAT checker reject steps
// for f; lemma > 0 is the earliest lemma the failure may name (a later one
// may fail first, the backward pass checking later lemmas first), 0 asks
// for a failure that is no lemma's, -1 for any. The default mode may only
// reject (a lemma the refutation does not need is not checked) or accept
// with an LRAT proof that the LRAT checker accepts too; under All the
// rejection is certain.
func assertRejected(t *testing.T, f *proof.CNF, steps []proof.Step, lemma int, what string) {
	t.Helper()
	data := asciiDRAT(t, steps)
	rep := verify(t, f, data, proof.Options{All: true})
	if rep.Verified {
		t.Fatalf("%s: verified under All", what)
	}
	switch {
	case lemma > 0 && rep.Lemma < lemma:
		t.Errorf("%s: fails at lemma %d (%s), want %d or later", what, rep.Lemma, rep.Reason, lemma)
	case lemma == 0 && rep.Lemma != 0:
		t.Errorf("%s: fails at lemma %d (%s), want no lemma named", what, rep.Lemma, rep.Reason)
	}
	if !strings.HasPrefix(rep.Reason, "drat: ") {
		t.Errorf("%s: reason %q", what, rep.Reason)
	}
	if lemma == 0 || lemma == -1 {
		// No valid refutation exists here at all: the default
		// mode must reject too.
		if rep := verify(t, f, data, proof.Options{}); rep.Verified {
			t.Errorf("%s: verified by the default mode", what)
		}
	} else {
		verify(t, f, data, proof.Options{})
	}
}

// TestReadErrors checks that unreadable input is an error, never a
// verdict: a CNF whose header lies, empty and truncated proofs, a binary
// proof read as ASCII and the other way round.
func TestReadErrors(t *testing.T) {
	cnfs := []struct{ text, err string }{
		{"", "no header"},
		{"1 2 0\n", "expected the header"},
		{"p cnf 2 3\n1 2 0\n-1 0\n", "says 3 clauses, the file has 2"},
		{"p cnf 2 1\n1 2 0\n-1 0\n", "says 1 clauses, the file has 2"},
		{"p cnf 1 2\n1 2 0\n-1 0\n", "above the header's 1"},
		{"p cnf 2 2\n1 2 0\n-1\n", "does not end with 0"},
		{"p cnf 2 2\n1 x 0\n-1 0\n", "not a number"},
		{"p dnf 2 2\n", "not \"p cnf"},
		{"p cnf 2\n1 0\n", "not \"p cnf"},
		{"p cnf 2 1\n1 \x00 0\n", "not text"},
	}
	for _, c := range cnfs {
		_, err := proof.ReadCNF(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("cnf %q: error %v, want %q", c.text, err, c.err)
		}
		if _, err := lrat.ReadCNF(strings.NewReader(c.text)); err == nil {
			t.Errorf("lrat.ReadCNF %q: no error", c.text)
		}
	}
	var bin bytes.Buffer
	steps := readDRAT(t, ratExample.drat)
	if err := proof.WriteDRAT(&bin, steps, proof.Binary); err != nil {
		t.Fatal(err)
	}
	b := bin.Bytes()
	drats := []struct {
		data   []byte
		format proof.Format
		err    string
	}{
		{nil, proof.Auto, "empty"},
		{[]byte("c only a comment\n\n"), proof.Auto, "empty"},
		{[]byte("1 2 0\n-1"), proof.Auto, "does not end with 0"},
		{[]byte("1 2 0\nd 1"), proof.Auto, "does not end with 0"},
		{[]byte("1 2 0\n-"), proof.Auto, "not a number"},
		{[]byte("1 2 x 0\n"), proof.Auto, "not ASCII DRAT"},
		{b, proof.ASCII, "binary"},
		{b[:len(b)-1], proof.Auto, "does not end with 0"},
		{b[:len(b)-1], proof.ASCII, "binary"},
		{b[:len(b)-1], proof.Binary, "does not end with 0"},
		{[]byte(ratExample.drat), proof.Binary, "starts no binary step"},
		{[]byte("a\x80"), proof.Binary, "does not end with 0"},
		{[]byte("a\x01\x00"), proof.Binary, "invalid literal"},
		{[]byte("a\xff\xff\xff\xff\xff\x01\x00"), proof.Binary, "longer than 5 bytes"},
	}
	for _, c := range drats {
		_, err := proof.ParseDRAT(c.data, c.format)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("drat %q as %v: error %v, want %q", c.data, c.format, err, c.err)
		}
		_, err = proof.Verify(strings.NewReader(ratExample.cnf), bytes.NewReader(c.data), proof.Options{Format: c.format})
		if err == nil {
			t.Errorf("Verify of drat %q as %v: no error", c.data, c.format)
		}
	}
	// The binary proof reads back as written, by detection and by name.
	for _, f := range []proof.Format{proof.Auto, proof.Binary} {
		p, err := proof.ParseDRAT(b, f)
		if err != nil || p.Format != proof.Binary || !slices.EqualFunc(p.Steps, steps, func(a, b proof.Step) bool { return a.Delete == b.Delete && slices.Equal(a.Lits, b.Lits) }) {
			t.Errorf("binary round trip as %v: %v", f, err)
		}
	}
	if _, err := proof.VerifySteps(2, [][]int{{1, 3}}, steps, 0, proof.Options{}); err == nil {
		t.Error("VerifySteps took a literal above vars")
	}
	// The least int, whose absolute value overflows, is out of range too.
	if _, err := proof.VerifySteps(2, [][]int{{1, math.MinInt}}, steps, 0, proof.Options{}); err == nil {
		t.Error("VerifySteps took the least int as a literal")
	}
	if _, err := proof.VerifySteps(2, [][]int{{1}}, []proof.Step{{Lits: []int{math.MinInt}}}, 0, proof.Options{}); err == nil {
		t.Error("VerifySteps took the least int as a literal of a lemma")
	}
	if r := proof.Check(&proof.CNF{Vars: 1, Clauses: [][]int{{1}}}, []proof.Step{{Lits: []int{math.MinInt}}}, proof.CheckOptions{}); r.Verified || !strings.Contains(r.Reason, "invalid literal") {
		t.Errorf("Check of the least int as a literal: %+v", r)
	}
	// No steps: verified only when unit propagation refutes the formula.
	if rep, err := proof.VerifySteps(2, [][]int{{1}, {-1, 2}, {-2}}, nil, 0, proof.Options{}); err != nil || !rep.Verified {
		t.Errorf("no steps for a formula refuted by unit propagation: %v %+v", err, rep)
	}
	if rep, err := proof.VerifySteps(2, [][]int{{1, 2}, {-1, 2}, {1, -2}, {-1, -2}}, nil, 0, proof.Options{}); err != nil || rep.Verified || !strings.Contains(rep.Reason, "no conflict") {
		t.Errorf("no steps for a formula unit propagation does not refute: %v %+v", err, rep)
	}
}

// TestVerifyStepsMatchesVerify checks the in-memory entry against the one
// reading text.
func TestVerifyStepsMatchesVerify(t *testing.T) {
	f := readCNF(t, ratExample.cnf)
	steps := readDRAT(t, ratExample.drat)
	var out bytes.Buffer
	rep, err := proof.VerifySteps(f.Vars, f.Clauses, steps, 42, proof.Options{LRAT: &out})
	if err != nil || !rep.Verified || rep.Bytes != 42 || rep.RATLemmas != 1 || out.Len() == 0 || rep.Checker != proof.Checker {
		t.Fatalf("%v %+v", err, rep)
	}
	g := readCNF(t, "p cnf 4 6\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n3 4 0\n-3 4 0\n")
	bad := []proof.Step{{Lits: []int{-4}}, {}}
	if rep, err := proof.VerifySteps(g.Vars, g.Clauses, bad, 0, proof.Options{}); err != nil || rep.Verified || rep.Lemma != 1 {
		t.Fatalf("a wrong first lemma: %v %+v", err, rep)
	}
}

// TestWriteDRATRoundTrip writes random proofs in both formats and reads
// them back.
func TestWriteDRATRoundTrip(t *testing.T) {
	steps := []proof.Step{{Lits: []int{1, -2, 300000}}, {Delete: true, Lits: []int{-proof.MaxVar, 5}}, {Lits: nil}, {Lits: []int{127, -64, 63, 8191, -8192}}}
	for _, f := range []proof.Format{proof.ASCII, proof.Binary} {
		var b bytes.Buffer
		if err := proof.WriteDRAT(&b, steps, f); err != nil {
			t.Fatal(err)
		}
		p, err := proof.ParseDRAT(b.Bytes(), proof.Auto)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if p.Format != f {
			t.Errorf("%v: read as %v", f, p.Format)
		}
		for i := range steps {
			if p.Steps[i].Delete != steps[i].Delete || !slices.Equal(p.Steps[i].Lits, steps[i].Lits) {
				t.Errorf("%v: step %d reads %v, wrote %v", f, i, p.Steps[i], steps[i])
			}
		}
		// One variable more than MaxVar neither writes nor reads.
		if err := proof.WriteDRAT(&b, []proof.Step{{Lits: []int{proof.MaxVar + 1}}}, f); err == nil {
			t.Errorf("%v: a literal above MaxVar written", f)
		}
		if err := proof.WriteDRAT(&b, []proof.Step{{Lits: []int{0}}}, f); err == nil {
			t.Errorf("%v: the literal 0 written", f)
		}
		var over bytes.Buffer
		if f == proof.Binary {
			over.WriteString("a\x82\x80\x80\x04\x00") // 2*(MaxVar+1)
		} else {
			fmt.Fprintf(&over, "%d 0\n", proof.MaxVar+1)
		}
		if _, err := proof.ParseDRAT(over.Bytes(), f); err == nil {
			t.Errorf("%v: a literal above MaxVar read", f)
		}
	}
}
