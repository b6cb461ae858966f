package proof_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/proof/lrat"
	"github.com/boardsat/boardsat/puzzle"
)

// php is the pigeonhole formula PHP(p, h): p pigeons in h holes, variable
// i*h+j+1 puts pigeon i in hole j. It is unsatisfiable when p > h, and
// minimally so: without any one clause it has a model.
func php(p, h int) *proof.CNF {
	v := func(i, j int) int { return i*h + j + 1 }
	f := &proof.CNF{Vars: p * h}
	for i := range p {
		var c []int
		for j := range h {
			c = append(c, v(i, j))
		}
		f.Clauses = append(f.Clauses, c)
	}
	for j := range h {
		for a := range p {
			for b := a + 1; b < p; b++ {
				f.Clauses = append(f.Clauses, []int{-v(a, j), -v(b, j)})
			}
		}
	}
	return f
}

// encoded builds boardsat's CNF of spec (default model and cardinality
// encoding): the proof package does not know the encoders, its tests
// use them to get formulas from every family.
func encoded(t testing.TB, spec string) *proof.CNF { return encodedWith(t, spec, "", 0) }

// encodedWith is encoded with the model and cardinality encoding named
// as --encoding names them ("" for the default), and for a planning
// puzzle with plans of the given number of steps.
func encodedWith(t testing.TB, spec, encoding string, steps int) *proof.CNF {
	t.Helper()
	s, err := puzzle.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	model, enc, err := encode.Resolve(s.Puzzle(), encoding)
	if err != nil {
		t.Fatal(err)
	}
	in, err := model.Build(s, enc, encode.Options{Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	fm := in.Formula
	if len(fm.PBs()) > 0 {
		t.Fatalf("%s: the encoding keeps PB constraints", spec)
	}
	f := &proof.CNF{Vars: fm.NumVars()}
	for i := range fm.NumClauses() {
		var c []int
		for _, l := range fm.Clause(i) {
			c = append(c, int(l))
		}
		f.Clauses = append(f.Clauses, c)
	}
	return f
}

// dimacs writes f as DIMACS text.
func dimacs(f *proof.CNF) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "p cnf %d %d\n", f.Vars, len(f.Clauses))
	for _, c := range f.Clauses {
		for _, l := range c {
			fmt.Fprintf(&b, "%d ", l)
		}
		b.WriteString("0\n")
	}
	return b.Bytes()
}

// needCadical returns cadical's path, skipping the test when it is absent
// (failing it when CI=true).
func needCadical(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("cadical")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("cadical is not installed (apt-get install cadical); CI=true requires it")
		}
		t.Skip("cadical is not installed (apt-get install cadical): skipping the proofs of a real solver")
	}
	return path
}

// cadicalProof runs cadical on f and returns its DRAT proof (ASCII or
// binary), failing unless cadical answers unsatisfiable.
func cadicalProof(t testing.TB, f *proof.CNF, binary bool) []byte {
	t.Helper()
	data, unsat := cadicalRun(t, f, binary)
	if !unsat {
		t.Fatal("cadical did not answer unsatisfiable (exit 20)")
	}
	return data
}

// cadicalRun runs cadical on f and returns its DRAT proof (ASCII or
// binary) and whether it answered unsatisfiable (exit 20, rather than
// satisfiable, exit 10).
func cadicalRun(t testing.TB, f *proof.CNF, binary bool) ([]byte, bool) {
	t.Helper()
	exe := needCadical(t)
	dir := t.TempDir()
	cnf, drat := filepath.Join(dir, "f.cnf"), filepath.Join(dir, "f.drat")
	if err := os.WriteFile(cnf, dimacs(f), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-q", cnf, drat}
	if !binary {
		args = append([]string{"--no-binary"}, args...)
	}
	err := exec.Command(exe, args...).Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 20 && ee.ExitCode() != 10 {
		t.Fatalf("cadical answered neither satisfiable nor unsatisfiable: %v", err)
	}
	data, err := os.ReadFile(drat)
	if err != nil {
		t.Fatal(err)
	}
	return data, ee.ExitCode() == 20
}

// verify runs proof.Verify from text, failing on a read error, and checks
// that a verified proof's LRAT is accepted by the LRAT checker reading the
// formula itself.
func verify(t testing.TB, f *proof.CNF, drat []byte, opts proof.Options) proof.Report {
	t.Helper()
	var out bytes.Buffer
	opts.LRAT = &out
	cnf := dimacs(f)
	rep, err := proof.Verify(bytes.NewReader(cnf), bytes.NewReader(drat), opts)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if rep.Verified {
		clauses, err := lrat.ReadCNF(bytes.NewReader(cnf))
		if err != nil {
			t.Fatal(err)
		}
		res, err := lrat.Check(clauses, bytes.NewReader(out.Bytes()))
		if err != nil || !res.Verified {
			t.Fatalf("verified, but the LRAT checker says %v %q", err, res.Reason)
		}
		if res.Added != rep.CoreLemmas+1 {
			t.Errorf("LRAT adds %d clauses, want the %d core lemmas and the empty clause", res.Added, rep.CoreLemmas)
		}
	} else if out.Len() > 0 {
		t.Errorf("an LRAT proof was written for a proof not verified")
	}
	return rep
}

// satisfiable decides a small formula by trying every assignment.
func satisfiable(f *proof.CNF) bool {
	if f.Vars > 24 {
		panic("too many variables to enumerate")
	}
	for m := 0; m < 1<<f.Vars; m++ {
		ok := true
		for _, c := range f.Clauses {
			sat := false
			for _, l := range c {
				v := l
				if v < 0 {
					v = -v
				}
				if (m>>(v-1)&1 == 1) == (l > 0) {
					sat = true
					break
				}
			}
			if !sat {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// naiveRUP reports whether clause c follows from db by unit propagation,
// by the plainest means: repeated scans of every clause. The mutation tests
// use it as an oracle independent of both checkers.
func naiveRUP(db [][]int, c []int) bool {
	val := map[int]bool{} // val[l]: literal l is true
	for _, l := range c {
		if val[l] {
			return true // a tautology
		}
		val[-l] = true
	}
	for changed := true; changed; {
		changed = false
		for _, d := range db {
			unit, free, sat := 0, 0, false
			for _, l := range d {
				if val[l] {
					sat = true
					break
				}
				if !val[-l] && l != unit {
					free++
					unit = l
				}
			}
			switch {
			case sat:
			case free == 0:
				return true
			case free == 1:
				val[unit] = true
				changed = true
			}
		}
	}
	return false
}

// mustReject reports whether lemma can be neither RUP nor RAT against any
// database between sure and super (sure clauses are certainly present, super
// holds every clause that may be): it is not RUP in super, and some sure
// clause with its pivot's negation gives a resolvent not RUP in super.
func mustReject(super, sure [][]int, lemma []int) bool {
	if naiveRUP(super, lemma) {
		return false
	}
	if len(lemma) == 0 {
		return true
	}
	p := lemma[0]
	for _, d := range sure {
		if !slices.Contains(d, -p) {
			continue
		}
		res := slices.Clone(lemma)
		for _, l := range d {
			if l != -p {
				res = append(res, l)
			}
		}
		if !naiveRUP(super, res) {
			return true
		}
	}
	return false
}

// bounds returns, before step k of steps, the clauses that may be present
// (the formula and every earlier lemma, deletions ignored) and those that
// certainly are (the formula's clauses that no earlier step deletes).
func bounds(f *proof.CNF, steps []proof.Step, k int) (super, sure [][]int) {
	deleted := map[string]bool{}
	super = slices.Clone(f.Clauses)
	for _, st := range steps[:k] {
		if st.Delete {
			deleted[key(st.Lits)] = true
		} else {
			super = append(super, st.Lits)
		}
	}
	for _, c := range f.Clauses {
		if !deleted[key(c)] {
			sure = append(sure, c)
		}
	}
	return super, sure
}

// key names a clause's literal set.
func key(c []int) string {
	s := slices.Clone(c)
	slices.Sort(s)
	return fmt.Sprint(slices.Compact(s))
}

// lemmaSteps returns the indices of the lemma steps.
func lemmaSteps(steps []proof.Step) []int {
	var out []int
	for i, st := range steps {
		if !st.Delete {
			out = append(out, i)
		}
	}
	return out
}

// asciiDRAT writes steps as ASCII DRAT.
func asciiDRAT(t testing.TB, steps []proof.Step) []byte {
	var b bytes.Buffer
	if err := proof.WriteDRAT(&b, steps, proof.ASCII); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
