package card_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
)

// amoOnly lists the encodings that express only bounds k <= 1 or k >= n-1.
var amoOnly = map[string]bool{"binary": true, "commander": true, "product": true, "ladder": true}

var ops = []cnf.Op{cnf.AtMost, cnf.AtLeast, cnf.Exactly}

func binom(n, r int) uint64 {
	if r < 0 || r > n {
		return 0
	}
	c := uint64(1)
	for i := 1; i <= r; i++ {
		c = c * uint64(n-r+i) / uint64(i)
	}
	return c
}

// TestExhaustive checks every encoding, comparison, n in 0..8 and k in
// -1..n+1 over every assignment of the n inputs: the encoded formula, inputs
// fixed, is satisfiable exactly when the assignment meets the constraint; the
// projected count is the binomial sum; and CountPreserving says whether every
// satisfying assignment extends to exactly one assignment of the aux vars.
// Satisfiability and extensions are decided by the test's own DPLL.
func TestExhaustive(t *testing.T) {
	for _, e := range card.All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			multi := "" // a case with more than one aux extension
			for _, op := range ops {
				for n := 0; n <= 8; n++ {
					for k := -1; k <= n+1; k++ {
						if m := checkCase(t, e, op, n, k); m && multi == "" {
							multi = fmt.Sprintf("%s %d of %d", op, k, n)
						}
					}
				}
			}
			if e.CountPreserving != (multi == "") {
				t.Errorf("CountPreserving = %v, but the first case with several aux extensions is %q", e.CountPreserving, multi)
			}
		})
	}
}

// checkCase checks one constraint and reports whether some satisfying input
// assignment has more than one aux extension.
func checkCase(t *testing.T, e card.Encoding, op cnf.Op, n, k int) (multi bool) {
	f := cnf.New()
	lits := make([]cnf.Lit, n)
	for i := range lits {
		lits[i] = f.Var(fmt.Sprintf("x%d", i+1))
		if i%3 == 2 { // mix polarities
			lits[i] = lits[i].Not()
		}
	}
	err := e.Encode(f, lits, op, k)
	supported := !amoOnly[e.Name] || k <= 1 || k >= n-1
	if !supported {
		if err == nil || !strings.Contains(err.Error(), "expresses only at-most-one") {
			t.Errorf("%s %d of %d: got error %v, want one saying it expresses only at-most-one", op, k, n, err)
		}
		if f.NumVars() != n || f.NumClauses() != 0 || len(f.PBs()) != 0 {
			t.Errorf("%s %d of %d: a refused constraint still added to the formula", op, k, n)
		}
		return false
	}
	if err != nil {
		t.Errorf("%s %d of %d: %v", op, k, n, err)
		return false
	}
	if len(f.PBs()) > 0 && !e.Native {
		t.Errorf("%s %d of %d: a CNF encoding added PB constraints", op, k, n)
	}
	var auxVars []int
	for v := 1; v <= f.NumVars(); v++ {
		if !f.Primary(v) {
			auxVars = append(auxVars, v)
		}
	}
	if f.NumVars()-len(auxVars) != n {
		t.Fatalf("%s %d of %d: the encoding added primary variables", op, k, n)
	}
	s := cnftest.New(f)
	var count, want uint64
	for c := 0; c <= n; c++ {
		if op.Holds(c, k) {
			want += binom(n, c)
		}
	}
	fixed := make([]cnf.Lit, n)
	for a := range uint(1) << n {
		for i := range n {
			fixed[i] = cnf.Lit(i + 1)
			if a>>i&1 == 0 {
				fixed[i] = -fixed[i]
			}
		}
		trueLits := 0
		for i, l := range lits {
			if (l > 0) == (a>>i&1 == 1) {
				trueLits++
			}
		}
		ext := s.CountUnder(fixed, auxVars, 2)
		meets := op.Holds(trueLits, k)
		if (ext > 0) != meets {
			t.Errorf("%s %d of %d, inputs %0*b (%d true): satisfiable %v, constraint holds %v", op, k, n, n, a, trueLits, ext > 0, meets)
			return false
		}
		if ext > 0 {
			count++
		}
		if ext > 1 {
			multi = true
		}
	}
	if count != want {
		t.Errorf("%s %d of %d: projected count %d, want %d", op, k, n, count, want)
	}
	return multi
}

// TestPropagationRefutes checks, for every CNF encoding, comparison, n in
// 0..8 and k in -1..n+1, that unit propagation alone refutes every
// assignment of all the inputs that breaks the constraint. The projected
// enumerator (encode/sat) relies on it: an encoding without this property
// sends each such assignment into a search of its auxiliary variables,
// which is how the one-directional modulo totalizer once made
// pieces:5x5:K2Q1N2 a hundred times slower than every other encoding.
func TestPropagationRefutes(t *testing.T) {
	for _, e := range card.All() {
		if e.Native {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			for _, op := range ops {
				for n := 0; n <= 8; n++ {
					for k := -1; k <= n+1; k++ {
						if amoOnly[e.Name] && k > 1 && k < n-1 {
							continue
						}
						checkRefutes(t, e, op, n, k)
					}
				}
			}
		})
	}
}

func checkRefutes(t *testing.T, e card.Encoding, op cnf.Op, n, k int) {
	f := cnf.New()
	lits := make([]cnf.Lit, n)
	for i := range lits {
		lits[i] = f.Var(fmt.Sprintf("x%d", i+1))
		if i%3 == 2 {
			lits[i] = lits[i].Not()
		}
	}
	if err := e.Encode(f, lits, op, k); err != nil {
		t.Fatalf("%s %d of %d: %v", op, k, n, err)
	}
	s := cnftest.New(f)
	fixed := make([]cnf.Lit, n)
	for a := range uint(1) << n {
		trueLits := 0
		for i, l := range lits {
			fixed[i] = cnf.Lit(i + 1)
			if a>>i&1 == 0 {
				fixed[i] = -fixed[i]
			}
			if (l > 0) == (a>>i&1 == 1) {
				trueLits++
			}
		}
		if !op.Holds(trueLits, k) && !s.Refutes(fixed) {
			t.Errorf("%s %d of %d, inputs %0*b (%d true): breaks the constraint, but unit propagation finds no conflict", op, k, n, n, a, trueLits)
			return
		}
	}
}

// TestSizes logs the auxiliary variables and clauses each encoding needs,
// for the README table (go test -run Sizes -v).
func TestSizes(t *testing.T) {
	for _, e := range card.All() {
		var row []string
		for _, c := range []struct {
			op   cnf.Op
			n, k int
		}{{cnf.AtMost, 8, 1}, {cnf.AtMost, 64, 1}, {cnf.Exactly, 64, 1}, {cnf.AtMost, 64, 8}, {cnf.Exactly, 64, 8}} {
			f := cnf.New()
			lits := make([]cnf.Lit, c.n)
			for i := range lits {
				lits[i] = f.Var("x")
			}
			if err := e.Encode(f, lits, c.op, c.k); err != nil {
				row = append(row, fmt.Sprintf("%s %d/%d: -", c.op, c.k, c.n))
				continue
			}
			st := f.Stats()
			row = append(row, fmt.Sprintf("%s %d/%d: %d aux %d cl", c.op, c.k, c.n, st.Aux, st.Clauses+st.PBConstraints))
		}
		t.Logf("%-10s %s", e.Name, strings.Join(row, "; "))
	}
}

// TestRegistry checks the catalogue's names and flags.
func TestRegistry(t *testing.T) {
	want := []string{"pairwise", "binary", "seqcounter", "commander", "product", "ladder", "totalizer", "sortnet", "cardnet", "mtotalizer", "kmtotalizer", "native"}
	for _, name := range want {
		e, err := card.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if e.Name != name || e.Doc == "" || e.Encode == nil {
			t.Errorf("%s: incomplete registration %+v", name, e)
		}
		if e.Native != (name == "native") {
			t.Errorf("%s: Native = %v", name, e.Native)
		}
	}
	if _, err := card.Lookup("nonesuch"); err == nil {
		t.Error("unknown encoding accepted")
	}
}

// TestPairwiseLimit checks that the binomial encoding refuses, adding
// nothing, a bound that would need too many clauses.
func TestPairwiseLimit(t *testing.T) {
	e, _ := card.Lookup("pairwise")
	f := cnf.New()
	lits := make([]cnf.Lit, 256)
	for i := range lits {
		lits[i] = f.Var("x")
	}
	err := e.Encode(f, lits, cnf.Exactly, 8)
	if err == nil || !strings.Contains(err.Error(), "clauses") {
		t.Fatalf("got %v, want a clause-limit error", err)
	}
	if f.NumClauses() != 0 || f.NumVars() != 256 {
		t.Error("refused constraint added to the formula")
	}
}

// TestModuloLargerModulus extends TestExhaustive and
// TestPropagationRefutes for the two modulo totalizers to n = 10 and 11
// inputs and bounds 4..9, where the modulus reaches 3 and kmtotalizer
// cuts inner quotients (at floor(k/p)) and must refute their overflow.
func TestModuloLargerModulus(t *testing.T) {
	for _, name := range []string{"mtotalizer", "kmtotalizer"} {
		e, err := card.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, op := range ops {
				for n := 10; n <= 11; n++ {
					for k := 4; k <= 9; k++ {
						if multi := checkCase(t, e, op, n, k); multi {
							t.Errorf("%s %d of %d: several aux extensions of one input assignment", op, k, n)
						}
						checkRefutes(t, e, op, n, k)
					}
				}
			}
		})
	}
}

// TestTotalizerOutputs checks the incremental totalizer's outputs: for n
// in 1..8 inputs, every limit and every bound k below it, the formula
// with the unit "not out[k]" holds for exactly the input assignments with
// at most k true (its projected count is the binomial sum), and a bound
// added after a looser one is the tighter bound alone.
func TestTotalizerOutputs(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for limit := 1; limit <= n+1; limit++ {
			f := cnf.New()
			lits := make([]cnf.Lit, n)
			for i := range lits {
				lits[i] = f.Var(fmt.Sprintf("x%d", i+1))
				if i%3 == 2 {
					lits[i] = lits[i].Not()
				}
			}
			out := card.Totalizer(f, lits, limit)
			if len(out) != min(n, limit) {
				t.Fatalf("n %d limit %d: %d outputs", n, limit, len(out))
			}
			for k := len(out) - 1; k >= 0; k-- {
				f.Add(out[k].Not()) // tighter and tighter, as a descent adds them
				var auxVars []int
				for v := n + 1; v <= f.NumVars(); v++ {
					auxVars = append(auxVars, v)
				}
				s := cnftest.New(f)
				fixed := make([]cnf.Lit, n)
				var count, want uint64
				for c := 0; c <= k; c++ {
					want += binom(n, c)
				}
				for a := range uint(1) << n {
					trueLits := 0
					for i, l := range lits {
						fixed[i] = cnf.Lit(i + 1)
						if a>>i&1 == 0 {
							fixed[i] = -fixed[i]
						}
						if (l > 0) == (a>>i&1 == 1) {
							trueLits++
						}
					}
					sat := s.CountUnder(fixed, auxVars, 1) > 0
					if sat != (trueLits <= k) {
						t.Fatalf("n %d limit %d at most %d, inputs %0*b (%d true): satisfiable %v", n, limit, k, n, a, trueLits, sat)
					}
					if sat {
						count++
					}
				}
				if count != want {
					t.Errorf("n %d limit %d at most %d: count %d, want %d", n, limit, k, count, want)
				}
			}
		}
	}
}
