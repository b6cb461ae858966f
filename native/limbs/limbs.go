// Package limbs is the exact arithmetic of the native DP counters whose
// counts outgrow 64 bits: a count as a fixed number of little-endian 64-bit
// limbs, added in place without allocation in the inner loops and turned into
// a math/big integer only at the end.
package limbs

import (
	"math/big"
	"math/bits"
)

// Add adds b to a in place (little-endian limbs, len(b) >= len(a)); it
// reports a carry out of the top limb, which means the limbs were too few.
func Add(a, b []uint64) bool {
	var c uint64
	for i := range a {
		a[i], c = bits.Add64(a[i], b[i], c)
	}
	return c != 0
}

// Big returns the number the little-endian limbs a hold.
func Big(a []uint64) *big.Int {
	x := new(big.Int)
	for i := len(a) - 1; i >= 0; i-- {
		x.Lsh(x, 64)
		x.Or(x, new(big.Int).SetUint64(a[i]))
	}
	return x
}
