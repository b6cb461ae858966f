// Package symmetry numbers the board symmetries once for every native
// counter: the dihedral maps of a board onto itself, as square maps and
// permutations, the classes of squares they form, and the weight of a set of
// squares that is the least of its class (so counters search one set per
// class).
package symmetry

import (
	"slices"

	"github.com/boardsat/boardsat/puzzle"
)

// The board symmetries every counter shares. A board's symmetries are the
// elements of the square's dihedral group that map it onto itself: all
// eight on a square board, the identity, the half turn and the two mirrors
// on any other rectangle. They are numbered once, here, and every counter
// uses this numbering: 0 the identity, 1 the quarter turn, 2 the half turn,
// 3 the three-quarter turn, 4 the mirror of files, 5 the mirror of ranks,
// 6 the transpose, 7 the anti-transpose. (The queens counter images whole
// solutions with queensImage, the same eight maps written on a solution's
// columns; TestQueensImageIsBoardSymmetry holds the two together.)

// Count is the number of symmetries of the square.
const Count = 8

// Map returns the file and rank that square (f, r) of a w x h
// board goes to under symmetry g (numbered as above; 1, 3, 6 and 7 only
// for w == h).
func Map(g, w, h, f, r int) (int, int) {
	switch g {
	case 1:
		return h - 1 - r, f
	case 2:
		return w - 1 - f, h - 1 - r
	case 3:
		return r, w - 1 - f
	case 4:
		return w - 1 - f, r
	case 5:
		return f, h - 1 - r
	case 6:
		return r, f
	case 7:
		return h - 1 - r, w - 1 - f
	}
	return f, r
}

// IDs returns the numbers of b's symmetries, the identity first.
func IDs(b puzzle.Board) []int {
	if b.W == b.H {
		return []int{0, 1, 2, 3, 4, 5, 6, 7}
	}
	return []int{0, 2, 4, 5}
}

// Perms returns b's symmetries as permutations of its squares
// (perm[q] is the image of square q), the identity first, in the order of
// IDs. Every piece's attacks and every leaper's moves are
// invariant under them.
func Perms[T ~int | ~int32](b puzzle.Board) [][]T {
	ids := IDs(b)
	out := make([][]T, len(ids))
	for i, g := range ids {
		perm := make([]T, b.Size())
		for q := range perm {
			f, r := b.FileRank(puzzle.Square(q))
			nf, nr := Map(g, b.W, b.H, f, r)
			perm[q] = T(b.Sq(nf, nr))
		}
		out[i] = perm
	}
	return out
}

// SquareClasses returns one square per class of squares under b's
// symmetries (the least of each class) and the class sizes: a count of
// paths summed over every start needs to search from the representatives
// only, weighting each by its class size.
func SquareClasses(b puzzle.Board) (reps []int32, sizes []uint64) {
	syms := Perms[int32](b)
	seen := make([]bool, b.Size())
	for s := range b.Size() {
		if seen[s] {
			continue
		}
		var size uint64
		for _, p := range syms {
			if !seen[p[s]] {
				seen[p[s]] = true
				size++
			}
		}
		reps = append(reps, int32(s))
		sizes = append(sizes, size)
	}
	return reps, sizes
}

// SetClassWeight returns how many sets of squares the sorted set set
// stands for if it is the least (as a sorted list) of its images under
// syms, and 0 if it is not: a count over sets of squares keeps only the
// least of each class, weighted by the class size (the number of
// symmetries divided by the number that fix the set). img is scratch space
// of len(set).
func SetClassWeight[T ~int | ~int32](syms [][]T, set, img []T) uint64 {
	fixed := 0
	for _, perm := range syms {
		for i, q := range set {
			img[i] = perm[q]
		}
		slices.Sort(img)
		switch c := slices.Compare(img, set); {
		case c < 0:
			return 0
		case c == 0:
			fixed++
		}
	}
	return uint64(len(syms) / fixed)
}
