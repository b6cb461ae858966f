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

// TestAddProduct adds products into two and three limbs, checked against
// math/big, and reports the carry out of the top limb.
func TestAddProduct(t *testing.T) {
	max := ^uint64(0)
	want := new(big.Int)
	sum := make([]uint64, 3)
	for _, p := range [][2]uint64{{max, max}, {max, max}, {max, 2}, {1, 1}, {max, max}} {
		if AddProduct(sum, p[0], p[1]) {
			t.Fatalf("carry out of three limbs at %v", p)
		}
		want.Add(want, new(big.Int).Mul(new(big.Int).SetUint64(p[0]), new(big.Int).SetUint64(p[1])))
		if Big(sum).Cmp(want) != 0 {
			t.Fatalf("after %v: %s, want %s", p, Big(sum), want)
		}
	}
	two := []uint64{0, max}
	if !AddProduct(two, 1<<32, 1<<32) || two[0] != 0 || two[1] != 0 {
		t.Errorf("2^128 - 2^64 + 2^64 in two limbs: %v, want the carry and 0", two)
	}
}

// TestWordOverflow: each one-word operation reports exactly the overflows
// math/big sees.
func TestWordOverflow(t *testing.T) {
	max := ^uint64(0)
	limit := new(big.Int).SetUint64(max)
	vals := []uint64{0, 1, 2, 3, 1 << 32, 1<<32 + 1, max / 2, max/2 + 1, max - 1, max}
	for _, a := range vals {
		for _, b := range vals {
			ba, bb := new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)
			for _, c := range []struct {
				name string
				got  uint64
				of   bool
				want *big.Int
			}{
				{"Add64", first(Add64(a, b)), second(Add64(a, b)), new(big.Int).Add(ba, bb)},
				{"Mul64", first(Mul64(a, b)), second(Mul64(a, b)), new(big.Int).Mul(ba, bb)},
				{"MulAdd64", first(MulAdd64(7, a, b)), second(MulAdd64(7, a, b)), new(big.Int).Add(big.NewInt(7), new(big.Int).Mul(ba, bb))},
			} {
				over := c.want.Cmp(limit) > 0
				if c.of != over || (!over && c.got != c.want.Uint64()) {
					t.Errorf("%s(%d, %d) = %d, %v; want %s", c.name, a, b, c.got, c.of, c.want)
				}
			}
		}
	}
}

func first(x uint64, _ bool) uint64 { return x }
func second(_ uint64, of bool) bool { return of }
