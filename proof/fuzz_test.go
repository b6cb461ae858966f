package proof_test

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/proof/lrat"
)

// FuzzReadDRAT reads arbitrary bytes as a DRAT proof in every format: no
// panic, and a proof that reads writes back to the same steps.
func FuzzReadDRAT(f *testing.F) {
	var bin bytes.Buffer
	steps, _ := proof.ParseDRAT([]byte(ratExample.drat), proof.ASCII)
	proof.WriteDRAT(&bin, steps.Steps, proof.Binary)
	for _, s := range []string{ratExample.drat, bin.String(), "", "0\n", "d 1 0\n", "1 2", "a\x80", "a\x02\x00", "c x\n1 0\n", "d1 0\n", "-\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []proof.Format{proof.Auto, proof.ASCII, proof.Binary} {
			p, err := proof.ParseDRAT(data, format)
			if err != nil {
				continue
			}
			if len(p.Steps) == 0 || p.Bytes != int64(len(data)) || (format != proof.Auto && p.Format != format) {
				t.Fatalf("%v: %d steps, %d bytes, format %v", format, len(p.Steps), p.Bytes, p.Format)
			}
			var out bytes.Buffer
			if err := proof.WriteDRAT(&out, p.Steps, p.Format); err != nil {
				t.Fatal(err)
			}
			q, err := proof.ParseDRAT(out.Bytes(), p.Format)
			if err != nil || !slices.EqualFunc(p.Steps, q.Steps, func(a, b proof.Step) bool { return a.Delete == b.Delete && slices.Equal(a.Lits, b.Lits) }) {
				t.Fatalf("%v: written %q reads back as %v, %v", format, out.Bytes(), q, err)
			}
		}
	})
}

// FuzzReadCNF reads arbitrary text with both CNF readers: no panic, and
// when both accept, the same clauses.
func FuzzReadCNF(f *testing.F) {
	for _, s := range []string{ratExample.cnf, "", "p cnf 0 0\n", "p cnf 2 1\n1 -2 0\n", "c x\np cnf 1 1\n1\n0\n", "p cnf 1 1\n2 0\n", "p cnf 1 2\n1 0\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, errA := proof.ReadCNF(strings.NewReader(text))
		b, errB := lrat.ReadCNF(strings.NewReader(text))
		if errA != nil || errB != nil {
			return
		}
		if !slices.EqualFunc(a.Clauses, b, slices.Equal[[]int]) {
			t.Fatalf("the readers disagree: %v and %v", a.Clauses, b)
		}
	})
}

// fuzzFormula decodes bytes into a formula of at most 6 variables (so
// that its satisfiability can be decided by enumeration) and a list of
// clauses after it (proof steps). Byte 0 gives the variables, byte 1 the
// clauses of the formula; then each byte with low nibble 0 ends a clause
// (bit 4 marks the next one a deletion), any other byte is the literal
// nibble (modulo the variables; two more in the proof, for RAT's fresh
// variables; all 15 when raw), negative when bit 7 is set.
func fuzzFormula(data []byte, raw bool) (*proof.CNF, []proof.Step) {
	if len(data) < 2 {
		return nil, nil
	}
	nv := int(data[0]%6) + 1
	nc := int(data[1]%16) + 1
	f := &proof.CNF{Vars: nv}
	var steps []proof.Step
	var cur []int
	del := false
	for _, b := range data[2:] {
		if b&0x0f == 0 {
			if len(f.Clauses) < nc {
				f.Clauses = append(f.Clauses, cur)
			} else {
				steps = append(steps, proof.Step{Delete: del, Lits: cur})
			}
			cur, del = nil, b&0x10 != 0
			continue
		}
		mod := nv
		if len(f.Clauses) == nc {
			mod = nv + 2
			if raw {
				mod = 15
			}
		}
		l := int(b&0x0f-1)%mod + 1
		if b&0x80 != 0 {
			l = -l
		}
		cur = append(cur, l)
	}
	if len(f.Clauses) < nc {
		return nil, nil
	}
	return f, steps
}

// fuzzBytes is fuzzFormula's inverse, for seeds.
func fuzzBytes(f *proof.CNF, steps []proof.Step) []byte {
	out := []byte{byte(f.Vars - 1), byte(len(f.Clauses) - 1)}
	put := func(c []int, next bool) {
		for _, l := range c {
			b := byte(abs(l))
			if l < 0 {
				b |= 0x80
			}
			out = append(out, b)
		}
		if next {
			out = append(out, 0x10)
		} else {
			out = append(out, 0)
		}
	}
	for i, c := range f.Clauses {
		put(c, i == len(f.Clauses)-1 && len(steps) > 0 && steps[0].Delete)
	}
	for i, st := range steps {
		put(st.Lits, i+1 < len(steps) && steps[i+1].Delete)
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// FuzzCheckSound checks the DRAT checker and the LRAT checker against
// enumeration on tiny formulas: a verified proof's formula has no model,
// the LRAT of every verified proof is accepted, and a proof verified with
// every lemma checked is verified on its core too.
func FuzzCheckSound(f *testing.F) {
	rat, _ := proof.ReadCNF(strings.NewReader(ratExample.cnf))
	ratSteps, _ := proof.ParseDRAT([]byte(ratExample.drat), proof.ASCII)
	f.Add(fuzzBytes(rat, ratSteps.Steps))
	p32 := php(3, 2)
	p32.Clauses = p32.Clauses[:len(p32.Clauses)-1] // satisfiable
	f.Add(fuzzBytes(p32, []proof.Step{{Lits: []int{-1}}, {Lits: []int{-3}}, {}}))
	f.Add(fuzzBytes(&proof.CNF{Vars: 2, Clauses: [][]int{{1, 2}, {-1, 2}}}, []proof.Step{{Lits: []int{-2}}, {}}))
	f.Add(fuzzBytes(&proof.CNF{Vars: 2, Clauses: [][]int{{1, 2}, {-1, 2}, {1, -2}, {-1, -2}}}, []proof.Step{{Lits: []int{3, 1}}, {Delete: true, Lits: []int{1, 2}}, {Lits: []int{-3}}, {Lits: []int{1}}, {}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		cnf, steps := fuzzFormula(data, false)
		if cnf == nil || len(steps) == 0 || len(steps) > 64 {
			return
		}
		core := proof.Check(cnf, steps, proof.CheckOptions{})
		all := proof.Check(cnf, steps, proof.CheckOptions{All: true})
		for _, r := range []proof.Result{core, all} {
			if !r.Verified {
				continue
			}
			if satisfiable(cnf) {
				t.Fatalf("verified a proof of a satisfiable formula %v: %v", cnf.Clauses, steps)
			}
			lr, err := lrat.Check(cnf.Clauses, bytes.NewReader(r.LRAT))
			if err != nil || !lr.Verified {
				t.Fatalf("the LRAT checker rejects the DRAT checker's LRAT (%v %s):\n%s", err, lr.Reason, r.LRAT)
			}
		}
		if all.Verified && !core.Verified {
			t.Fatalf("verified with every lemma, rejected on its core: %s", core.Reason)
		}
	})
}

// FuzzLRATSound checks the LRAT checker against enumeration: it may accept
// an arbitrary LRAT proof only of a formula with no model. The proof's
// steps come from fuzzFormula's clauses in pairs: literals, then hints
// (the literal nibbles read as clause ids, negative ones as RAT groups); a
// deletion step's literal nibbles are the ids deleted.
func FuzzLRATSound(f *testing.F) {
	rat, _ := proof.ReadCNF(strings.NewReader(ratExample.cnf))
	// handLRAT as steps (ids 9, 10, 11 are implicit).
	f.Add(fuzzBytes(rat, []proof.Step{
		{Lits: []int{-1}}, {Lits: []int{-1, 6, 7, -5, 7, 2, -8, 2, 6}},
		{Delete: true, Lits: []int{2, 6, 7}},
		{Lits: []int{2}}, {Lits: []int{9, 1, 5, 3}},
		{Lits: nil}, {Lits: []int{9, 10, 8, 4, 5}},
	}))
	f.Add(fuzzBytes(&proof.CNF{Vars: 2, Clauses: [][]int{{1, 2}, {-1, 2}}}, []proof.Step{{Lits: []int{2}}, {Lits: []int{1, 2}}, {}, {Lits: []int{3, 2}}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		cnf, steps := fuzzFormula(data, true)
		if cnf == nil || len(steps) == 0 || len(steps) > 64 {
			return
		}
		var text strings.Builder
		id := len(cnf.Clauses)
		for i := 0; i < len(steps); i++ {
			st := steps[i]
			if st.Delete {
				text.WriteString(strconv.Itoa(id) + " d " + ints(absAll(st.Lits)) + " 0\n")
				continue
			}
			if i+1 >= len(steps) {
				break
			}
			id++
			hints := steps[i+1].Lits
			i++
			text.WriteString(strconv.Itoa(id) + " " + ints(st.Lits) + " 0 " + ints(hints) + " 0\n")
		}
		res, err := lrat.Check(cnf.Clauses, strings.NewReader(text.String()))
		if err == nil && res.Verified && satisfiable(cnf) {
			t.Fatalf("the LRAT checker accepts a proof of a satisfiable formula %v:\n%s", cnf.Clauses, text.String())
		}
	})
}

func ints(l []int) string {
	var b strings.Builder
	for i, x := range l {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}

func absAll(l []int) []int {
	out := make([]int, len(l))
	for i, x := range l {
		out[i] = abs(x)
	}
	return out
}
