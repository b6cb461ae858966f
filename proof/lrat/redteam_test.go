package lrat_test

// Adversarial tests of the LRAT checker, the trusted base: hand-made
// attacks (ids that collide or repeat, hints to deleted clauses, RAT
// groups that are wrong or missing, a pivot that is not the first
// literal, the most negative int64 as a literal) and a guided random
// walk that checks every step the checker accepts against enumeration.

import (
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/proof/lrat"
)

// check runs CheckText on a formula and a proof, failing the test on a
// read error.
func checkText(t *testing.T, clauses [][]int, text string) lrat.Result {
	t.Helper()
	res, err := lrat.CheckText(clauses, []byte(text))
	if err != nil {
		t.Fatalf("read error on\n%s: %v", text, err)
	}
	return res
}

// TestRedteamAttacks checks hand-made LRAT proofs: each attack must be
// rejected (Verified false, or a read error), each valid but unusual
// proof accepted.
func TestRedteamAttacks(t *testing.T) {
	// sat2 has one model (1, 2 true); unsat2 has none.
	sat2 := [][]int{{1, 2}, {-1, 2}, {1, -2}}
	unsat2 := [][]int{{1, 2}, {-1, 2}, {1, -2}, {-1, -2}}
	rat, err := lrat.ReadCNF(strings.NewReader(ratCNF))
	if err != nil {
		t.Fatal(err)
	}
	const (
		verified = iota // the proof is verified
		accepted        // every step is accepted, but no empty clause
		rejected        // a step is rejected, or the proof does not read
	)
	cases := []struct {
		name    string
		clauses [][]int
		proof   string
		want    int
	}{
		// Valid proofs, some unusual.
		{"rup refutation", unsat2, "5 2 0 1 2 0\n6 0 5 4 3 0\n", verified},
		{"hand RAT proof", rat, handLRAT, verified},
		{"hand RAT proof, groups in another order", rat, strings.Replace(handLRAT, "-1 6 7 -5 7 2 -8 2 6", "-8 2 6 -1 6 7 -5 7 2", 1), verified},
		{"empty clause in the input", [][]int{{1}, {}}, "3 0 2 0\n", verified},
		{"tautology without hints", sat2, "4 1 -1 0 0\n", accepted},
		{"extension variable by RAT, then its negation by RAT", unsat2, "5 3 1 0 0\n6 -3 1 0 -5 1 3 0\n7 1 0 6 5 0\n8 0 7 2 4 0\n", verified},
		{"a hint whose unit is already true", unsat2, "5 2 0 1 1 2 0\n6 0 5 4 3 0\n", verified},
		{"deletion of clauses no longer needed", unsat2, "5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 4 3 0\n", verified},
		{"deletion of a unit, then RAT on its negation (valid, not a refutation)", [][]int{{1}}, "1 d 1 0\n2 -1 0 0\n", accepted},

		// Attacks.
		{"empty clause first, formula not refuted by propagation", unsat2, "5 0 1 2 3 4 0\n", rejected},
		{"empty clause, no hints", sat2, "4 0 0\n", rejected},
		{"empty clause, hints not unit", sat2, "4 0 1 2 3 0\n", rejected},
		{"empty clause by RAT groups", sat2, "4 0 -1 0\n", rejected},
		{"unit -2 by a RAT group without hints", sat2, "4 -2 0 -1 0\n5 0 4 1 3 0\n", rejected},
		{"unit -2 with every RAT group missing", sat2, "4 -2 0 0\n5 0 4 1 3 0\n", rejected},
		{"unit -2 with one RAT group of two", sat2, "4 -2 0 -1 2 0\n5 0 4 1 3 0\n", rejected},
		{"two RAT groups for one clause", sat2, "4 -2 0 -1 -1 -2 0\n", rejected},
		{"a RAT group for a clause without the negated pivot", sat2, "4 -2 0 -3 1 0\n5 0 4 1 3 0\n", rejected},
		{"RAT only on a pivot that is not the first literal", [][]int{{1, 2}}, "2 -1 3 0 -1 0\n", rejected},
		{"RAT lemma, then a lemma that is RAT only if the first is ignored", [][]int{{1, 2}}, "2 -3 0 0\n3 3 0 0\n4 0 2 3 0\n", rejected},
		{"an id that collides with an input clause", sat2, "3 -2 0 1 0\n", rejected},
		{"an id used twice", unsat2, "5 2 0 1 2 0\n5 -2 0 3 4 0\n6 0 5 5 0\n", rejected},
		{"a hint to a deleted clause", sat2, "3 d 1 0\n4 2 0 1 2 0\n5 0 4 3 0\n", rejected},
		{"a clause deleted twice", sat2, "3 d 1 1 0\n4 0 0\n", rejected},
		{"a hint to a clause not yet added", sat2, "4 2 0 5 0\n5 0 0\n", rejected},
		{"a RAT group for a clause without the pivot's negation", sat2, "4 2 0 -2 0\n5 -2 0 -1 0\n6 0 4 5 0\n", rejected},
		{"numbers after the hints' 0", sat2, "4 0 0 1 2 0\n", rejected},
		{"the most negative int64 as a literal", sat2, "4 -9223372036854775808 0 1 0\n5 0 4 0\n", rejected},
		{"the most negative int64 as a hint", sat2, "4 0 -9223372036854775808 0\n", rejected},
	}
	for _, c := range cases {
		var res lrat.Result
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
					t.Errorf("%s: the checker panics: %v", c.name, r)
				}
			}()
			res, err = lrat.CheckText(c.clauses, []byte(c.proof))
		}()
		got := rejected
		switch {
		case err != nil || res.Line != 0:
		case res.Verified:
			got = verified
		default:
			got = accepted
		}
		if got != c.want {
			t.Errorf("%s: got %d, want %d (0 verified, 1 accepted, 2 rejected): %v %s", c.name, got, c.want, err, res.Reason)
		}
		if got == verified && satisfiable(c.clauses) {
			t.Errorf("%s: verified a proof of a satisfiable formula", c.name)
		}
	}
}

// TestRedteamExtremeNumbers feeds numbers at the edges of int64 to both
// readers: each is an error or a rejection, never a panic.
func TestRedteamExtremeNumbers(t *testing.T) {
	for _, cnf := range []string{
		"p cnf 1 1\n-9223372036854775808 0\n",
		"p cnf 1 1\n9223372036854775807 0\n",
		"p cnf 1 1\n99999999999999999999 0\n",
		"p cnf 9223372036854775807 1\n1 0\n",
	} {
		if cl, err := lrat.ReadCNF(strings.NewReader(cnf)); err == nil {
			t.Errorf("ReadCNF accepts %q as %v", cnf, cl)
		}
	}
	for _, p := range []string{
		"2 -9223372036854775808 0 1 0\n3 0 2 0\n",
		"2 9223372036854775807 0 1 0\n",
		"2 1 0 -9223372036854775808 0\n",
		"2 d -9223372036854775808 0\n",
		"9223372036854775807 0 1 0\n",
		"-9223372036854775808 0 1 0\n",
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("CheckText panics on %q: %v", p, r)
				}
			}()
			res, err := lrat.CheckText([][]int{{1}}, []byte(p))
			if err == nil && res.Verified {
				t.Errorf("verified %q", p)
			}
		}()
	}
}

// satisfiable decides a small formula by trying every assignment of the
// variables it names.
func satisfiable(clauses [][]int) bool {
	vars := 0
	for _, c := range clauses {
		for _, l := range c {
			vars = max(vars, l, -l)
		}
	}
	if vars > 20 {
		panic("too many variables to enumerate")
	}
	for m := 0; m < 1<<vars; m++ {
		ok := true
		for _, c := range clauses {
			sat := false
			for _, l := range c {
				v := max(l, -l)
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

// upHints finds, by the plainest unit propagation over db (scanned in id
// order), hints that refute the assignment making every literal of
// falsified false; ok is false when propagation reaches no conflict.
// The hints are every clause that became unit, in order, then the
// conflict: more than needed, which the checker must accept.
func upHints(db map[int64][]int, ids []int64, falsified []int) (hints []int64, ok bool) {
	val := map[int]int8{}
	set := func(l int) {
		if l > 0 {
			val[l] = 1
		} else {
			val[-l] = -1
		}
	}
	value := func(l int) int8 {
		if l > 0 {
			return val[l]
		}
		return -val[-l]
	}
	for _, l := range falsified {
		if value(l) == 1 {
			return nil, true // a tautology: no hints needed
		}
		set(-l)
	}
	for changed := true; changed; {
		changed = false
		for _, id := range ids {
			cl, live := db[id]
			if !live {
				continue
			}
			free, sat := 0, false
			var unit int
			for _, l := range cl {
				switch value(l) {
				case 1:
					sat = true
				case 0:
					if l != unit {
						free++
						unit = l
					}
				}
			}
			if sat || free > 1 {
				continue
			}
			hints = append(hints, id)
			if free == 0 {
				return hints, true
			}
			set(unit)
			changed = true
		}
	}
	return nil, false
}

// lratHints returns the LRAT hints of lemma against db: RUP hints, or
// else one RAT group per clause holding the negated first literal
// (whether or not each group reaches a conflict: the checker judges).
func lratHints(db map[int64][]int, ids []int64, lemma []int) []int64 {
	if h, ok := upHints(db, ids, lemma); ok {
		return h
	}
	if len(lemma) == 0 {
		return nil
	}
	p := lemma[0]
	var out []int64
	for _, id := range ids {
		d, live := db[id]
		if !live || !slices.Contains(d, -p) {
			continue
		}
		var rest []int
		for _, l := range d {
			if l != -p {
				rest = append(rest, l)
			}
		}
		h, _ := upHints(db, ids, append(slices.Clone(lemma), rest...))
		out = append(out, -id)
		out = append(out, h...)
	}
	return out
}

// mutateHints corrupts hints in one of several ways.
func mutateHints(rng *rand.Rand, h []int64, maxID int64) []int64 {
	h = slices.Clone(h)
	switch rng.Intn(6) {
	case 0:
		if len(h) > 0 {
			i := rng.Intn(len(h))
			h = append(h[:i], h[i+1:]...)
		}
	case 1:
		if len(h) > 1 {
			i, j := rng.Intn(len(h)), rng.Intn(len(h))
			h[i], h[j] = h[j], h[i]
		}
	case 2:
		if len(h) > 0 {
			h[rng.Intn(len(h))] = 1 + rng.Int63n(maxID)
		}
	case 3:
		if len(h) > 0 {
			i := rng.Intn(len(h))
			h[i] = -h[i]
		}
	case 4:
		h = append(h, -(1 + rng.Int63n(maxID)), 1+rng.Int63n(maxID))
	case 5:
		h = h[:rng.Intn(len(h)+1)]
	}
	return h
}

// TestRedteamRandomWalk builds LRAT proofs step by step on small random
// 3-SAT formulas (satisfiable and not): random lemmas, some over
// variables beyond the formula's, hints found by plain unit propagation,
// often corrupted, and random deletions (units included). After every
// addition the checker judges the proof so far; whenever it accepts a
// step, enumeration must show the step preserves satisfiability (a
// satisfiable database stays satisfiable with the lemma), and a verified
// proof must be of a formula with no model.
func TestRedteamRandomWalk(t *testing.T) {
	rng := rand.New(rand.NewSource(20261127))
	trials := 250
	if testing.Short() {
		trials = 60
	}
	accepted, rat, verified, satFormulas := 0, 0, 0, 0
	for trial := range trials {
		vars := 4 + rng.Intn(5)
		ext := vars + 2 // lemmas may name two variables beyond the formula
		m := vars * (2 + rng.Intn(4))
		var clauses [][]int
		for range m {
			k := 2 + rng.Intn(2)
			if rng.Intn(12) == 0 {
				k = 1
			}
			var c []int
			for range k {
				l := 1 + rng.Intn(vars)
				if rng.Intn(2) == 0 {
					l = -l
				}
				c = append(c, l)
			}
			clauses = append(clauses, c)
		}
		formulaSat := satisfiable(clauses)
		if formulaSat {
			satFormulas++
		}
		db := map[int64][]int{}
		var ids []int64
		for i, c := range clauses {
			db[int64(i+1)] = c
			ids = append(ids, int64(i+1))
		}
		next := int64(len(clauses))
		var text strings.Builder
		for step := 0; step < 40; step++ {
			if rng.Intn(6) == 0 {
				// Delete a random live clause (a unit one too).
				id := ids[rng.Intn(len(ids))]
				if _, live := db[id]; !live {
					continue
				}
				line := fmt.Sprintf("%d d %d 0\n", next, id)
				res := checkText(t, clauses, text.String()+line)
				if res.Line != 0 {
					t.Fatalf("trial %d: a valid deletion rejected: %s", trial, res.Reason)
				}
				text.WriteString(line)
				delete(db, id)
				continue
			}
			var lemma []int
			if step < 39 {
				for range rng.Intn(4) {
					l := 1 + rng.Intn(ext)
					if rng.Intn(2) == 0 {
						l = -l
					}
					lemma = append(lemma, l)
				}
			}
			hints := lratHints(db, ids, lemma)
			if rng.Intn(3) == 0 {
				hints = mutateHints(rng, hints, next+1)
			}
			id := next + 1
			if rng.Intn(20) == 0 {
				id = 1 + rng.Int63n(next+1) // an id that may collide
			}
			line := strconv.FormatInt(id, 10) + " " + join(lemma) + "0 " + join64(hints) + "0\n"
			res, err := lrat.CheckText(clauses, []byte(text.String()+line))
			if err != nil {
				t.Fatalf("trial %d: read error: %v", trial, err)
			}
			if res.Line != 0 {
				continue // rejected: the step is not kept
			}
			// Accepted: the database with the lemma must be satisfiable
			// when the database without it is.
			accepted++
			if slices.ContainsFunc(hints, func(h int64) bool { return h < 0 }) {
				rat++
			}
			var live [][]int
			for _, i := range ids {
				if c, ok := db[i]; ok {
					live = append(live, c)
				}
			}
			if satisfiable(live) && !satisfiable(append(live, lemma)) {
				t.Fatalf("trial %d: accepted lemma %v, which makes the satisfiable database %v unsatisfiable\nproof:\n%s", trial, lemma, live, text.String()+line)
			}
			text.WriteString(line)
			db[id] = lemma
			ids = append(ids, id)
			next = id
			if res.Verified {
				verified++
				if formulaSat {
					t.Fatalf("trial %d: verified a proof of the satisfiable %v:\n%s", trial, clauses, text.String())
				}
				break
			}
		}
	}
	t.Logf("%d trials (%d satisfiable formulas): %d steps accepted (%d with RAT groups), %d proofs verified", trials, satFormulas, accepted, rat, verified)
	if accepted == 0 || verified == 0 || rat == 0 {
		t.Errorf("the walk is too weak: %d steps accepted, %d RAT, %d verified", accepted, rat, verified)
	}
}

func join(l []int) string {
	var b strings.Builder
	for _, x := range l {
		b.WriteString(strconv.Itoa(x) + " ")
	}
	return b.String()
}

func join64(l []int64) string {
	var b strings.Builder
	for _, x := range l {
		b.WriteString(strconv.FormatInt(x, 10) + " ")
	}
	return b.String()
}
