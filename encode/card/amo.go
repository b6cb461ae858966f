package card

import (
	"fmt"
	"math/bits"

	"github.com/boardsat/boardsat/encode/cnf"
)

// maxBinomialClauses caps the binomial (generalised pairwise) encoding.
const maxBinomialClauses = 1_000_000

// pairwiseAtMost forbids every set of k+1 true literals: one clause per set
// (for k = 1, one binary clause per pair).
func pairwiseAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	n := len(lits)
	if c := binomial(n, k+1); c > maxBinomialClauses {
		return fmt.Errorf("encoding pairwise needs C(%d,%d) = %s clauses for at most %d of %d literals (limit %d); pick seqcounter, totalizer or cardnet",
			n, k+1, c.String(), k, n, maxBinomialClauses)
	}
	if f == nil {
		return nil
	}
	if k == 1 {
		for i := range lits {
			for j := i + 1; j < n; j++ {
				f.Add(lits[i].Not(), lits[j].Not())
			}
		}
		return nil
	}
	idx := make([]int, k+1)
	for i := range idx {
		idx[i] = i
	}
	clause := make([]cnf.Lit, k+1)
	for {
		for i, j := range idx {
			clause[i] = lits[j].Not()
		}
		f.Add(clause...)
		// Next (k+1)-subset in lexicographic order.
		i := k
		for i >= 0 && idx[i] == n-(k+1)+i {
			i--
		}
		if i < 0 {
			return nil
		}
		idx[i]++
		for j := i + 1; j <= k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

// bigCount is a clause count that saturates instead of overflowing.
type bigCount uint64

func (c bigCount) String() string {
	if c == ^bigCount(0) {
		return "more than 2^64"
	}
	return fmt.Sprint(uint64(c))
}

// binomial returns C(n, r), saturating at 2^64-1.
func binomial(n, r int) bigCount {
	if r < 0 || r > n {
		return 0
	}
	r = min(r, n-r)
	c := uint64(1)
	for i := 1; i <= r; i++ {
		hi, lo := bits.Mul64(c, uint64(n-r+i))
		if hi != 0 {
			return ^bigCount(0)
		}
		c = lo / uint64(i) // exact: c*(n-r+i) is divisible by i
	}
	return bigCount(c)
}

// binaryAtMost is the bitwise encoding of at most one (Frisch et al.;
// Prestwich): ceil(log2 n) bits b hold the index of the one true literal,
// x_i -> (b = i). Its generalisation to k > 1 (k bit vectors and slot
// variables) is left out on purpose: refuting "at most k" for k+1 true inputs
// is then a pigeonhole problem, exponential for resolution and so for CDCL
// solvers, which an "exactly 4 of 16" already makes unusable.
func binaryAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if k != 1 {
		return errAMOOnly("binary", len(lits), k)
	}
	if f == nil {
		return nil
	}
	m := bits.Len(uint(len(lits) - 1))
	b := make([]cnf.Lit, m)
	for j := range b {
		b[j] = aux(f, "bin")
	}
	for i, x := range lits {
		for j := range b {
			if i>>j&1 == 1 {
				f.Add(x.Not(), b[j])
			} else {
				f.Add(x.Not(), b[j].Not())
			}
		}
	}
	return nil
}

// commanderAtMost is Klieber and Kwon's commander encoding for at most one:
// the literals split into groups of three, each with a commander c that is
// true exactly when some member is (members pairwise at most one, x -> c,
// c -> some member), and at most one commander is true, recursively. Small
// sets use pairwise clauses.
func commanderAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if k != 1 {
		return errAMOOnly("commander", len(lits), k)
	}
	if f == nil {
		return nil
	}
	commanderAMO(f, lits)
	return nil
}

func commanderAMO(f *cnf.Formula, lits []cnf.Lit) {
	if len(lits) <= 4 {
		pairwiseAtMost(f, lits, 1)
		return
	}
	var cmds []cnf.Lit
	for start := 0; start < len(lits); start += 3 {
		g := lits[start:min(start+3, len(lits))]
		if len(g) == 1 {
			cmds = append(cmds, g[0])
			continue
		}
		c := aux(f, "cmd")
		pairwiseAtMost(f, g, 1)
		clause := []cnf.Lit{c.Not()}
		for _, x := range g {
			f.Add(x.Not(), c)
			clause = append(clause, x)
		}
		f.Add(clause...)
		cmds = append(cmds, c)
	}
	commanderAMO(f, cmds)
}

// productAtMost is Chen's 2-product encoding for at most one: literal i sits
// at (row, column) of a near-square grid and implies its row and column
// variables; at most one row and at most one column variable is true,
// recursively. Sets of up to four literals use pairwise clauses.
func productAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if k != 1 {
		return errAMOOnly("product", len(lits), k)
	}
	if f == nil {
		return nil
	}
	productAMO(f, lits)
	return nil
}

func productAMO(f *cnf.Formula, lits []cnf.Lit) {
	n := len(lits)
	if n <= 4 {
		pairwiseAtMost(f, lits, 1)
		return
	}
	q := 1 // columns: ceil(sqrt(n))
	for q*q < n {
		q++
	}
	p := (n + q - 1) / q // rows
	rows, cols := make([]cnf.Lit, p), make([]cnf.Lit, q)
	for i := range rows {
		rows[i] = aux(f, "prod")
	}
	for i := range cols {
		cols[i] = aux(f, "prod")
	}
	for i, x := range lits {
		f.Add(x.Not(), rows[i/q])
		f.Add(x.Not(), cols[i%q])
	}
	productAMO(f, rows)
	productAMO(f, cols)
}

// ladderAtMost is the ladder (order) encoding for at most one: y_i says some
// x_j with j <= i is true, defined both ways (y_i -> y_{i-1} or x_i), the
// ladder y_i -> y_{i+1}, and x_{i+1} -> not y_i.
func ladderAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if k != 1 {
		return errAMOOnly("ladder", len(lits), k)
	}
	if f == nil {
		return nil
	}
	n := len(lits)
	y := make([]cnf.Lit, n-1)
	for i := range y {
		y[i] = aux(f, "lad")
	}
	for i := range y {
		f.Add(lits[i].Not(), y[i])         // x_i -> y_i
		f.Add(lits[i+1].Not(), y[i].Not()) // x_{i+1} -> not y_i
		if i == 0 {
			f.Add(y[0].Not(), lits[0]) // y_0 -> x_0
		} else {
			f.Add(y[i].Not(), y[i-1], lits[i]) // y_i -> y_{i-1} or x_i
		}
		if i+1 < len(y) {
			f.Add(y[i].Not(), y[i+1]) // y_i -> y_{i+1}
		}
	}
	return nil
}
