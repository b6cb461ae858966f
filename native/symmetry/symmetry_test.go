package symmetry

import (
	"slices"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

func TestBoardSymmetries(t *testing.T) {
	// Every symmetry maps attacks to attacks (so knight and king moves too),
	// on rectangles and squares.
	for _, b := range []puzzle.Board{{W: 5, H: 3}, {W: 4, H: 4}, {W: 1, H: 6}} {
		syms := Perms[int](b)
		if want := map[bool]int{true: 8, false: 4}[b.W == b.H]; len(syms) != want {
			t.Fatalf("%s: %d symmetries, want %d", b, len(syms), want)
		}
		identity := make([]int, b.Size())
		for q := range identity {
			identity[q] = q
		}
		if !slices.Equal(syms[0], identity) {
			t.Fatalf("%s: first symmetry is not the identity", b)
		}
		for g, perm := range syms {
			if !slices.Equal(slices.Sorted(slices.Values(perm)), identity) {
				t.Fatalf("%s: symmetry %d is no permutation", b, g)
			}
			for k := range puzzle.Kind(puzzle.NumKinds) {
				for q := range b.Size() {
					var img []int
					for _, a := range b.Attacks(k, puzzle.Square(q)) {
						img = append(img, perm[a])
					}
					var want []int
					for _, a := range b.Attacks(k, puzzle.Square(perm[q])) {
						want = append(want, int(a))
					}
					slices.Sort(img)
					slices.Sort(want)
					if !slices.Equal(img, want) {
						t.Fatalf("%s: symmetry %d breaks %c attacks from %d", b, g, k.Letter(), q)
					}
				}
			}
		}
	}
}

// TestSquareClasses checks the start classes against the orbits: the
// sizes add up to the board, and every square is the image of exactly one
// representative.
func TestSquareClasses(t *testing.T) {
	cases := []struct {
		b     puzzle.Board
		sizes []uint64
	}{
		{puzzle.Board{W: 1, H: 1}, []uint64{1}},
		{puzzle.Board{W: 3, H: 3}, []uint64{4, 4, 1}},
		{puzzle.Board{W: 4, H: 4}, []uint64{4, 8, 4}},
		{puzzle.Board{W: 3, H: 2}, []uint64{4, 2}},
		{puzzle.Board{W: 5, H: 5}, []uint64{4, 8, 4, 4, 4, 1}},
	}
	for _, c := range cases {
		reps, sizes := SquareClasses(c.b)
		if !slices.Equal(sizes, c.sizes) {
			t.Errorf("%s: class sizes %v, want %v", c.b, sizes, c.sizes)
		}
		hit := make([]int, c.b.Size())
		for _, r := range reps {
			orbit := map[int32]bool{}
			for _, p := range Perms[int32](c.b) {
				orbit[p[r]] = true
			}
			for q := range orbit {
				hit[q]++
			}
		}
		for q, h := range hit {
			if h != 1 {
				t.Errorf("%s: square %d in %d classes", c.b, q, h)
			}
		}
	}
}

// TestSetClassWeight: summing the weights of the least sets of every class
// counts every set exactly once, for every set size on small boards.
func TestSetClassWeight(t *testing.T) {
	for _, b := range []puzzle.Board{{W: 3, H: 3}, {W: 4, H: 3}, {W: 4, H: 4}} {
		syms := Perms[int](b)
		for k := 1; k <= 3; k++ {
			var total, all uint64
			var rec func(from int, set []int)
			rec = func(from int, set []int) {
				if len(set) == k {
					all++
					total += SetClassWeight(syms, set, make([]int, k))
					return
				}
				for q := from; q < b.Size(); q++ {
					rec(q+1, append(set, q))
				}
			}
			rec(0, nil)
			if total != all {
				t.Errorf("%s, %d squares: weights sum to %d, want %d", b, k, total, all)
			}
		}
	}
}
