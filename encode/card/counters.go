package card

import "github.com/boardsat/boardsat/encode/cnf"

// seqCounterAtMost is Sinz's sequential counter (LTseq): s[i][j] is forced
// true when at least j+1 of x_0..x_i are true, and x_i may not be true when
// s[i-1][k-1] already is. Only the upward implications are written.
func seqCounterAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if f == nil {
		return nil
	}
	n := len(lits)
	prev := make([]cnf.Lit, k)
	cur := make([]cnf.Lit, k)
	for j := range prev {
		prev[j] = aux(f, "seq")
	}
	f.Add(lits[0].Not(), prev[0])
	for j := 1; j < k; j++ {
		f.Add(prev[j].Not())
	}
	for i := 1; i < n-1; i++ {
		x := lits[i]
		for j := range cur {
			cur[j] = aux(f, "seq")
		}
		f.Add(x.Not(), cur[0])
		f.Add(prev[0].Not(), cur[0])
		for j := 1; j < k; j++ {
			f.Add(x.Not(), prev[j-1].Not(), cur[j])
			f.Add(prev[j].Not(), cur[j])
		}
		f.Add(x.Not(), prev[k-1].Not())
		prev, cur = cur, prev
	}
	f.Add(lits[n-1].Not(), prev[k-1].Not())
	return nil
}

// totalizerAtMost is Bailleux and Boufkhad's totalizer: a binary tree whose
// nodes hold the number of true inputs below them in unary, truncated at
// k+1 (output j forced true when at least j inputs below are), and the root's
// output k+1 false. Only the upward implications are written.
func totalizerAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if f == nil {
		return nil
	}
	out := totalizerNode(f, lits, k+1, true)
	f.Add(out[k].Not())
	return nil
}

// Totalizer adds the upward clauses of a totalizer over lits counting up
// to limit and returns its outputs: out[j] is forced true when at least
// j+1 of lits are true, for j < min(limit, len(lits)). "At most k of
// lits", k < len(out), is then the unit clause not out[k], which can come
// later than the rest: this is the incremental totalizer of a descent
// that keeps one solver and tightens the bound by adding units (PySAT's
// ITotalizer does the same).
func Totalizer(f *cnf.Formula, lits []cnf.Lit, limit int) []cnf.Lit {
	if len(lits) == 0 || limit <= 0 {
		return nil
	}
	return totalizerNode(f, lits, limit, false)
}

// totalizerNode returns the unary outputs (at most limit of them) of the
// subtree over lits. At the root only the last output is needed.
func totalizerNode(f *cnf.Formula, lits []cnf.Lit, limit int, root bool) []cnf.Lit {
	if len(lits) == 1 {
		return lits
	}
	a := totalizerNode(f, lits[:len(lits)/2], limit, false)
	b := totalizerNode(f, lits[len(lits)/2:], limit, false)
	m := min(len(a)+len(b), limit)
	out := make([]cnf.Lit, m)
	for j := range out {
		if !root || j == m-1 {
			out[j] = aux(f, "tot")
		}
	}
	for i := 0; i <= len(a); i++ {
		for j := 0; j <= len(b); j++ {
			s := i + j
			if s == 0 || s > m || out[s-1] == 0 {
				continue
			}
			clause := []cnf.Lit{out[s-1]}
			if i > 0 {
				clause = append(clause, a[i-1].Not())
			}
			if j > 0 {
				clause = append(clause, b[j-1].Not())
			}
			f.Add(clause...)
		}
	}
	return out
}

// modTotalizerAtMost is the modulo totalizer of Ogawa, Liu, Hasegawa,
// Koshimura and Fujita (2013): a totalizer whose nodes hold the count c of
// true inputs below them as c = p*q + r, q and r in unary (r < p), with a
// carry variable where two remainders can reach p; p = max(2,
// ceil(sqrt(k+1))). The upward clauses make each node's value (p times its
// leading true q outputs plus its leading true r outputs) at least the
// count below it, and the root's value must not exceed k = p*qk + rk. The
// downward clauses make every output exact, so the auxiliary variables
// follow from the inputs (count-preserving) and unit propagation refutes
// any full input assignment over the bound.
func modTotalizerAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if f == nil {
		return nil
	}
	p := 2
	for p*p < k+1 {
		p++
	}
	modTotalizerRoot(f, lits, k, p, k/p+1, false)
	return nil
}

// kModTotalizerAtMost is the k-modulo totalizer of Ogawa et al. (2013),
// PySAT's kmtotalizer: the modulo totalizer with the modulus taken from
// the bound, p = max(2, floor(sqrt(k))), and every node's quotient cut at
// floor(k/p) digits, a node whose quotient would pass that being refuted
// on the spot (its inputs alone already exceed k, since p*(floor(k/p)+1)
// > k). Unlike PySAT's, it also has the downward clauses of mtotalizer,
// so its auxiliary variables follow from the inputs.
func kModTotalizerAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if f == nil {
		return nil
	}
	p := max(2, isqrt(k))
	modTotalizerRoot(f, lits, k, p, k/p, true)
	return nil
}

// isqrt returns floor(sqrt(n)) for n >= 0.
func isqrt(n int) int {
	r := 0
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

// modTotalizerRoot builds the modulo totalizer over lits with modulus p
// and quotients of at most maxU digits (overflow: refute a node whose
// quotient passes maxU, instead of saturating), and bounds the root's
// value p*q + r by k.
func modTotalizerRoot(f *cnf.Formula, lits []cnf.Lit, k, p, maxU int, overflow bool) {
	qk, rk := k/p, k%p
	root := modTotalizerNode(f, lits, p, maxU, overflow)
	if len(root.u) > qk {
		f.Add(root.u[qk].Not())
	}
	if rk < len(root.l) && qk <= len(root.u) {
		if qk == 0 {
			f.Add(root.l[rk].Not())
		} else {
			f.Add(root.u[qk-1].Not(), root.l[rk].Not())
		}
	}
}

// modTotalizerDigits are a node's outputs: l[j-1] for "remainder >= j",
// u[j-1] for "quotient >= j".
type modTotalizerDigits struct{ l, u []cnf.Lit }

// modTotalizerNode returns the digits of the subtree over lits; see
// modTotalizerRoot for p, maxU and overflow.
func modTotalizerNode(f *cnf.Formula, lits []cnf.Lit, p, maxU int, overflow bool) modTotalizerDigits {
	if len(lits) == 1 {
		return modTotalizerDigits{l: lits}
	}
	a := modTotalizerNode(f, lits[:len(lits)/2], p, maxU, overflow)
	b := modTotalizerNode(f, lits[len(lits)/2:], p, maxU, overflow)
	var c cnf.Lit // carry: the two remainders reach p
	if len(a.l)+len(b.l) >= p {
		c = aux(f, "mtot")
	}
	nu := len(a.u) + len(b.u)
	if c != 0 {
		nu++
	}
	out := modTotalizerDigits{l: make([]cnf.Lit, min(p-1, len(a.l)+len(b.l))), u: make([]cnf.Lit, min(maxU, nu))}
	for j := range out.l {
		out.l[j] = aux(f, "mtot")
	}
	for j := range out.u {
		out.u[j] = aux(f, "mtot")
	}
	// ante returns the negated antecedents a_i, b_j (index 0: no antecedent).
	ante := func(x, y []cnf.Lit, i, j int, more ...cnf.Lit) []cnf.Lit {
		cl := more
		if i > 0 {
			cl = append(cl, x[i-1].Not())
		}
		if j > 0 {
			cl = append(cl, y[j-1].Not())
		}
		return cl
	}
	for i := 0; i <= len(a.l); i++ {
		for j := 0; j <= len(b.l); j++ {
			s := i + j
			switch {
			case s == 0:
			case s < p && c != 0:
				f.Add(ante(a.l, b.l, i, j, out.l[s-1], c)...)
			case s < p:
				f.Add(ante(a.l, b.l, i, j, out.l[s-1])...)
			default:
				f.Add(ante(a.l, b.l, i, j, c)...)
				if s > p {
					f.Add(ante(a.l, b.l, i, j, out.l[s-p-1])...)
				}
			}
		}
	}
	for i := 0; i <= len(a.u); i++ {
		for j := 0; j <= len(b.u); j++ {
			s := i + j
			switch {
			case s >= 1 && s <= len(out.u):
				f.Add(ante(a.u, b.u, i, j, out.u[s-1])...)
			case s >= 1 && overflow: // the quotient passes maxU
				f.Add(ante(a.u, b.u, i, j)...)
			}
			switch {
			case c != 0 && s+1 <= len(out.u):
				f.Add(ante(a.u, b.u, i, j, c.Not(), out.u[s])...)
			case c != 0 && overflow:
				f.Add(ante(a.u, b.u, i, j, c.Not())...)
			}
		}
	}
	// The downward clauses: each output true only when the children's
	// digits add up to it. Without them a carry or a remainder digit is a
	// free choice, so unit propagation over a full input assignment that
	// breaks the bound reaches no conflict, and every such assignment
	// costs a projected enumerator a search of the auxiliary variables.
	// With them every auxiliary variable follows from the inputs.
	if c != 0 { // c -> ra + rb >= p
		downward(f, a.l, b.l, p, c)
	}
	for t := 1; t <= len(out.l); t++ {
		downward(f, a.l, b.l, t, out.l[t-1]) // l_t -> ra + rb >= t
		if c != 0 {                          // c and l_t -> ra + rb >= p + t
			downward(f, a.l, b.l, p+t, out.l[t-1], c)
		}
	}
	for s := 1; s <= len(out.u); s++ { // u_s -> qa + qb + c >= s
		if c == 0 {
			downward(f, a.u, b.u, s, out.u[s-1])
			continue
		}
		downward(f, a.u, b.u, s-1, out.u[s-1])        // qa + qb >= s-1, and
		downward(f, a.u, b.u, s, out.u[s-1], c.Not()) // qa + qb >= s unless c
	}
	return out
}

// downward adds "the conjunction of ifs implies that at least s of the
// unary digits x and y are true", as one clause per split of s-1 into
// i + j: x_{i+1} or y_{j+1} or not all of ifs (x_i is x[i-1]; a digit
// past the end of its list is false).
func downward(f *cnf.Formula, x, y []cnf.Lit, s int, ifs ...cnf.Lit) {
	for i := 0; i <= s-1; i++ {
		j := s - 1 - i
		cl := negated(ifs)
		if i < len(x) {
			cl = append(cl, x[i])
		}
		if j < len(y) {
			cl = append(cl, y[j])
		}
		f.Add(cl...)
	}
}
