package puzzle

import (
	"fmt"
	"strconv"
)

// Queens is N-Queens: N queens on an N x N board, none attacking another.
type Queens struct {
	N int
}

// Puzzle returns "queens".
func (Queens) Puzzle() string { return "queens" }

// String returns "queens:N".
func (q Queens) String() string { return "queens:" + strconv.Itoa(q.N) }

// Board returns the N x N board.
func (q Queens) Board() Board { return Board{q.N, q.N} }

func init() {
	Register(Descriptor{
		Name: "queens", Order: 10, Syntax: "queens:N",
		Size:        SizeMeasure{"board side", func(s Spec) float64 { return float64(s.(Queens).N) }},
		Parse:       parseQueens,
		Board:       func(s Spec) Board { return s.(Queens).Board() },
		DefaultTask: Count,
		Shape:       PlacementShape,
		Check: func(s Spec, sol Solution) error {
			var want [NumKinds]int
			want[Queen] = s.(Queens).N
			return checkPlacement(s.(Queens).Board(), want, sol.Layout)
		},
		Extend: func(s Spec, sol Solution) error {
			var want [NumKinds]int
			want[Queen] = s.(Queens).N
			return extendPlacement(s.(Queens).Board(), want, sol.Layout)
		},
		Count: knownQueens,
		Probe: "queens:4",
		Sweep: &Sweep{Task: Count, Generate: genQueens, Shrink: shrinkQueens},
	})
}

func parseQueens(rest string) (Spec, error) {
	n, err := parseInt(rest, 1, MaxSide)
	if err != nil {
		return nil, fmt.Errorf("bad queens spec %q: want queens:N with N from 1 to %d (%v)", "queens:"+rest, MaxSide, err)
	}
	return Queens{n}, nil
}

// queensAll[n-1] is the number of N-Queens solutions (OEIS A000170).
var queensAll = []uint64{
	1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
	14772512, 95815104, 666090624, 4968057848, 39029188884, 314666222712,
	2691008701644, 24233937684440, 227514171973736, 2207893435808352,
	22317699616364044, 234907967154122528,
}

// queensUnique[n-1] is the number of N-Queens solutions up to rotation and
// reflection (OEIS A002562).
var queensUnique = []uint64{
	1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955,
	11977939, 83263591,
}

func knownQueens(spec Spec, task Task) (uint64, bool) {
	n := spec.(Queens).N
	table := queensAll
	if task == Unique {
		table = queensUnique
	} else if task != Count {
		return 0, false
	}
	if n <= len(table) {
		return table[n-1], true
	}
	return 0, false
}

// genQueens sweeps queens:1 .. queens:MaxQueens.
func genQueens(lim Limits) []Spec {
	var out []Spec
	for n := 1; n <= lim.MaxQueens; n++ {
		out = append(out, Queens{N: n})
	}
	return out
}

func shrinkQueens(s Spec) []Spec {
	q := s.(Queens)
	if q.N <= 1 {
		return nil
	}
	return []Spec{Queens{N: q.N - 1}}
}
