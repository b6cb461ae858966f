package card

import (
	"fmt"
	"strconv"

	"github.com/boardsat/boardsat/encode/cnf"
)

// The catalogue, in the order boardsat list shows it. Every encoding accepts
// every comparison and every bound k: bounds outside 0..n are settled without
// auxiliary variables (nothing for a bound that always holds, the empty
// clause for one that never does), at most n-1 is one clause, and at most 0
// is n unit clauses, so each encoding proper only sees at most k with
// 1 <= k <= n-2. At least k is at most n-k of the negated literals; exactly k
// is both, with separate auxiliary variables.
func init() {
	for _, e := range []Encoding{
		{Name: "pairwise", CountPreserving: true, Encode: viaAtMost(pairwiseAtMost),
			Doc: "pairwise for at most one; for k > 1 the binomial generalisation (one clause per k+1 inputs, refused past 10^6 clauses); no aux"},
		{Name: "binary", Encode: viaAtMost(binaryAtMost),
			Doc: "bitwise / binary (Frisch et al.), ceil(log2 n) aux; expresses only at-most-one / exactly-one (k <= 1 or k >= n-1)"},
		{Name: "seqcounter", Encode: viaAtMost(seqCounterAtMost),
			Doc: "Sinz's sequential counter (LTseq): k*(n-1) aux, one-directional"},
		{Name: "commander", CountPreserving: true, Encode: viaAtMost(commanderAtMost),
			Doc: "commander (Klieber & Kwon), groups of 3 with commander <-> some member, about n/2 aux; expresses only at-most-one / exactly-one (k <= 1 or k >= n-1)"},
		{Name: "product", Encode: viaAtMost(productAtMost),
			Doc: "Chen's 2-product, recursive, about 2*sqrt(n) aux; expresses only at-most-one / exactly-one (k <= 1 or k >= n-1)"},
		{Name: "ladder", CountPreserving: true, Encode: viaAtMost(ladderAtMost),
			Doc: "ladder / order encoding (Gent & Nightingale; regular encoding), y_i <-> some x_j with j <= i, n-1 aux; expresses only at-most-one / exactly-one (k <= 1 or k >= n-1)"},
		{Name: "totalizer", Encode: viaAtMost(totalizerAtMost),
			Doc: "totalizer (Bailleux & Boufkhad), unary counts truncated at k+1, O(n log n) aux for small k, one-directional"},
		{Name: "sortnet", Encode: viaAtMost(sortNetAtMost),
			Doc: "Batcher's odd-even merge sorting network, half comparators, pruned to the outputs needed, O(n log^2 n) aux"},
		{Name: "cardnet", Encode: viaAtMost(cardNetAtMost),
			Doc: "cardinality network (Asín et al. 2011): sorted blocks of 2^ceil(log2(k+1)) merged keeping the top block, half comparators, O(n log^2 k) aux"},
		{Name: "mtotalizer", CountPreserving: true, Encode: viaAtMost(modTotalizerAtMost),
			Doc: "modulo totalizer (Ogawa et al. 2013): counts as quotient and remainder modulo p = ceil(sqrt(k+1)) in unary, both directions (every aux follows from the inputs)"},
		{Name: "kmtotalizer", CountPreserving: true, Encode: viaAtMost(kModTotalizerAtMost),
			Doc: "k-modulo totalizer (Ogawa et al. 2013; PySAT's kmtotalizer): modulus p = max(2, floor(sqrt(k))), every node's quotient cut at floor(k/p) and refuted past it; both directions"},
		{Name: "native", CountPreserving: true, Native: true, Encode: nativeEncode,
			Doc: "gophersat's own cardinality constraint (a PB constraint, OPB output only); no aux"},
	} {
		Registry.Add(e.Name, e)
	}
}

// atMostFunc adds "at most k of lits" for 1 <= k <= len(lits)-2. It returns
// an error, adding nothing, when it cannot express that bound.
type atMostFunc func(f *cnf.Formula, lits []cnf.Lit, k int) error

// viaAtMost turns an at-most-k encoder into a full Encoding.Encode: it
// settles the trivial bounds itself and rewrites at least and exactly as
// at most over the literals and their negations.
func viaAtMost(atMost atMostFunc) func(f *cnf.Formula, lits []cnf.Lit, op cnf.Op, k int) error {
	return func(f *cnf.Formula, lits []cnf.Lit, op cnf.Op, k int) error {
		n := len(lits)
		switch op {
		case cnf.AtMost:
			return boundedAtMost(f, lits, k, atMost, false)
		case cnf.AtLeast:
			return boundedAtMost(f, negated(lits), n-k, atMost, false)
		case cnf.Exactly:
			if k < 0 || k > n {
				f.Add()
				return nil
			}
			// Check both halves before adding either, so an error adds nothing.
			if err := boundedAtMost(f, lits, k, atMost, true); err != nil {
				return err
			}
			if err := boundedAtMost(f, negated(lits), n-k, atMost, true); err != nil {
				return err
			}
			boundedAtMost(f, lits, k, atMost, false)
			return boundedAtMost(f, negated(lits), n-k, atMost, false)
		}
		return fmt.Errorf("unknown comparison %d", op)
	}
}

// boundedAtMost adds at most k of lits, handling the bounds every encoding
// shares; with dryRun it only reports whether atMost can express the bound.
func boundedAtMost(f *cnf.Formula, lits []cnf.Lit, k int, atMost atMostFunc, dryRun bool) error {
	n := len(lits)
	switch {
	case k >= n:
		return nil
	case dryRun:
		if k >= 1 && k <= n-2 {
			return atMost(nil, lits, k)
		}
		return nil
	case k < 0:
		f.Add()
	case k == 0:
		for _, l := range lits {
			f.Add(l.Not())
		}
	case k == n-1:
		f.Add(negated(lits)...)
	default:
		return atMost(f, lits, k)
	}
	return nil
}

// negated returns the negations of lits.
func negated(lits []cnf.Lit) []cnf.Lit {
	out := make([]cnf.Lit, len(lits))
	for i, l := range lits {
		out[i] = l.Not()
	}
	return out
}

// aux adds an auxiliary variable named after the encoding and its number.
func aux(f *cnf.Formula, prefix string) cnf.Lit {
	return f.Aux(prefix + strconv.Itoa(f.NumVars()+1))
}

// errAMOOnly is the error of an encoding that expresses only at most one.
func errAMOOnly(name string, n, k int) error {
	return fmt.Errorf("encoding %s expresses only at-most-one / exactly-one (bounds k <= 1 or k >= n-1), not at most %d of %d literals; pick seqcounter, totalizer, cardnet or another general encoding", name, k, n)
}

// nativeEncode keeps the constraint as a cardinality (PB) constraint,
// settling bounds that always or never hold without one.
func nativeEncode(f *cnf.Formula, lits []cnf.Lit, op cnf.Op, k int) error {
	n := len(lits)
	lo, hi := 0, n // the sums the constraint allows, clipped to 0..n
	switch op {
	case cnf.AtMost:
		hi = min(k, n)
	case cnf.AtLeast:
		lo = max(k, 0)
	case cnf.Exactly:
		lo, hi = k, k
	default:
		return fmt.Errorf("unknown comparison %d", op)
	}
	switch {
	case lo > hi || hi < 0 || lo > n:
		f.Add()
	case lo <= 0 && hi >= n:
	case lo <= 0: // exactly 0 is at most 0: no half that always holds
		f.AddPB(lits, nil, cnf.AtMost, hi)
	case hi >= n:
		f.AddPB(lits, nil, cnf.AtLeast, lo)
	default:
		f.AddPB(lits, nil, op, k)
	}
	return nil
}
