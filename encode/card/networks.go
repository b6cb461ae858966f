package card

import "github.com/boardsat/boardsat/encode/cnf"

// A comparator network over positions: each comparator (hi, lo) moves the
// larger of its two values to position hi and the smaller to lo. Networks are
// built on positions first, then pruned to the comparators that feed the one
// output an at-most-k constraint needs, then written with half comparators
// (a -> max, b -> max, a and b -> min), which force outputs up, never down.

type comparator struct{ hi, lo int }

// oddEvenMerge appends Batcher's odd-even merge of positions
// pos[0:len/2] and pos[len/2:], each already sorted, len a power of two.
func oddEvenMerge(net []comparator, pos []int) []comparator {
	n := len(pos)
	p := n / 2
	for k := p; k >= 1; k /= 2 {
		for j := k % p; j+k < n; j += 2 * k {
			for i := 0; i < k && i+j+k < n; i++ {
				if (i+j)/(2*p) == (i+j+k)/(2*p) {
					net = append(net, comparator{pos[i+j], pos[i+j+k]})
				}
			}
		}
	}
	return net
}

// oddEvenSort appends Batcher's odd-even merge sort of positions pos, whose
// length is a power of two.
func oddEvenSort(net []comparator, pos []int) []comparator {
	if len(pos) < 2 {
		return net
	}
	net = oddEvenSort(net, pos[:len(pos)/2])
	net = oddEvenSort(net, pos[len(pos)/2:])
	return oddEvenMerge(net, pos)
}

// pow2AtLeast returns the least power of two >= n.
func pow2AtLeast(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// runNetwork writes the network over inputs (0 for a constant false
// position) and forbids output position out from being true.
func runNetwork(f *cnf.Formula, net []comparator, wires []cnf.Lit, out int, prefix string) {
	// Backward pass: which outputs of each comparator are needed.
	needed := make([]bool, len(wires))
	needed[out] = true
	needHi := make([]bool, len(net))
	needLo := make([]bool, len(net))
	for i := len(net) - 1; i >= 0; i-- {
		c := net[i]
		needHi[i], needLo[i] = needed[c.hi], needed[c.lo]
		if needHi[i] || needLo[i] {
			needed[c.hi], needed[c.lo] = true, true
		}
	}
	// Forward pass with constant folding.
	for i, c := range net {
		if !needHi[i] && !needLo[i] {
			continue
		}
		a, b := wires[c.hi], wires[c.lo]
		switch {
		case a == 0: // max = b, min = false
			wires[c.hi], wires[c.lo] = b, 0
			continue
		case b == 0:
			wires[c.lo] = 0
			continue
		}
		var hi, lo cnf.Lit
		if needHi[i] {
			hi = aux(f, prefix)
			f.Add(a.Not(), hi)
			f.Add(b.Not(), hi)
		}
		if needLo[i] {
			lo = aux(f, prefix)
			f.Add(a.Not(), b.Not(), lo)
		}
		wires[c.hi], wires[c.lo] = hi, lo
	}
	if wires[out] != 0 {
		f.Add(wires[out].Not())
	}
}

// sortNetAtMost sorts the inputs (padded with false to a power of two) with
// Batcher's odd-even merge sort and forbids sorted output k+1.
func sortNetAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if f == nil {
		return nil
	}
	n := pow2AtLeast(len(lits))
	wires := make([]cnf.Lit, n)
	copy(wires, lits)
	pos := make([]int, n)
	for i := range pos {
		pos[i] = i
	}
	runNetwork(f, oddEvenSort(nil, pos), wires, k, "sort")
	return nil
}

// cardNetAtMost is a cardinality network in the manner of Asín, Nieuwenhuis,
// Oliveras and Rodríguez-Carbonell: the inputs, padded with false to a
// multiple of m = 2^ceil(log2(k+1)), are cut into blocks of m, each block is
// sorted, and the blocks are merged one after another, keeping only the top
// m values (a simplified merge, obtained here by pruning); the (k+1)-th
// largest value is forbidden.
func cardNetAtMost(f *cnf.Formula, lits []cnf.Lit, k int) error {
	if f == nil {
		return nil
	}
	m := pow2AtLeast(k + 1)
	n := (len(lits) + m - 1) / m * m
	wires := make([]cnf.Lit, n)
	copy(wires, lits)
	var net []comparator
	pos := make([]int, 2*m)
	for start := 0; start < n; start += m {
		for i := range m {
			pos[i] = start + i
		}
		net = oddEvenSort(net, pos[:m])
	}
	for start := m; start < n; start += m {
		for i := range m {
			pos[i], pos[m+i] = i, start+i
		}
		net = oddEvenMerge(net, pos)
	}
	runNetwork(f, net, wires, k, "card")
	return nil
}
