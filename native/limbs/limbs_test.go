package limbs

import (
	"math/big"
	"testing"
)

// TestAddCarries adds across limb boundaries and checks the sum against
// math/big, and that a carry out of the top limb is reported.
func TestAddCarries(t *testing.T) {
	max := ^uint64(0)
	a := []uint64{max, max, 0}
	if Add(a, []uint64{1, 0, 0}) {
		t.Fatal("carry out of the top limb reported where there is room")
	}
	want := new(big.Int).Lsh(big.NewInt(1), 128)
	if Big(a).Cmp(want) != 0 {
		t.Fatalf("2^128 - 1 + 1 = %s, want %s", Big(a), want)
	}
	b := []uint64{max}
	if !Add(b, []uint64{2}) || b[0] != 1 {
		t.Fatalf("overflowing one limb: %v", b)
	}
}
