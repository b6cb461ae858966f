// Package limbs is the overflow-checked arithmetic of the native counters:
// one 64-bit word (Add64, Mul64, MulAdd64), and counts that outgrow 64 bits
// as a fixed number of little-endian 64-bit limbs (the least significant
// first), added in place without allocation in the inner loops and turned
// into a math/big integer only at the end. Every function reports an
// overflow rather than wrap: a count that wrapped would be a wrong answer.
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

// AddProduct adds a*b to the little-endian limbs sum (at least two); it
// reports a carry out of the top limb, which means the limbs were too few.
func AddProduct(sum []uint64, a, b uint64) bool {
	hi, lo := bits.Mul64(a, b)
	var c uint64
	sum[0], c = bits.Add64(sum[0], lo, 0)
	sum[1], c = bits.Add64(sum[1], hi, c)
	for i := 2; i < len(sum) && c != 0; i++ {
		sum[i], c = bits.Add64(sum[i], 0, c)
	}
	return c != 0
}

// Add64 returns a+b and whether it overflowed 64 bits.
func Add64(a, b uint64) (uint64, bool) {
	s, c := bits.Add64(a, b, 0)
	return s, c != 0
}

// Mul64 returns a*b and whether it overflowed 64 bits.
func Mul64(a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	return lo, hi != 0
}

// MulAdd64 returns acc + a*b and whether it overflowed 64 bits.
func MulAdd64(acc, a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	s, c := bits.Add64(acc, lo, 0)
	return s, hi != 0 || c != 0
}
