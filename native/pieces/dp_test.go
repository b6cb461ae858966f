package pieces

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// a193580 holds rows 0..7 of OEIS A193580: T(n, k), the number of ways to
// place k non-attacking kings on an n x n board (row n sums to A063443(n)).
var a193580 = [][]uint64{
	{1},
	{1, 1},
	{1, 4},
	{1, 9, 16, 8, 1},
	{1, 16, 78, 140, 79},
	{1, 25, 228, 964, 1987, 1974, 978, 242, 27, 1},
	{1, 36, 520, 3920, 16834, 42368, 62266, 51504, 21792, 3600},
	{1, 49, 1020, 11860, 85275, 397014, 1220298, 2484382, 3324193, 2882737, 1601292, 569818, 129657, 18389, 1520, 64, 1},
}

// kings12 holds entries of row 12 of A193580 published as columns or
// diagonals of their own: k = 9 (A201771(12)), k = 10 (A220467(12)) and
// the maximum k = 36 (A018807(6), n^2 kings on 2n x 2n).
var kings12 = map[int]string{0: "1", 1: "144", 9: "7878155295948", 10: "62831788827614", 36: "5109144543"}

// a141243 holds OEIS A141243(n), n = 0..11: placements of any number of
// non-attacking knights on an n x n board (row sums of A244081); the last
// exceeds 2^64.
var a141243 = []string{"1", "2", "16", "94", "1365", "55213", "3368146", "394631712", "101693175442",
	"50929053498909", "48988729226134301", "96325314726538906164"}

// a201540 holds OEIS A201540(n), n = 1..8: n non-attacking knights on an
// n x n board, the diagonal of A244081.
var a201540 = []uint64{1, 6, 36, 412, 9386, 257318, 8891854, 379978716}

// a172135 holds OEIS A172135(n), n = 1..8: 4 non-attacking knights on an
// n x n board, column 4 of A244081.
var a172135 = []uint64{0, 1, 18, 412, 4436, 26133, 111066, 376560}

func dpTable(t testing.TB, n, maxK, maxN int) [][]*big.Int {
	t.Helper()
	tab, err := KingsKnightsTable(context.Background(), puzzle.Board{W: n, H: n}, maxK, maxN, 0)
	if err != nil {
		t.Fatalf("%dx%d: %v", n, n, err)
	}
	return tab
}

func TestPiecesDPKingsOEIS(t *testing.T) {
	for n := 1; n < len(a193580); n++ {
		tab := dpTable(t, n, -1, 0)
		if len(tab) < len(a193580[n]) {
			t.Fatalf("%dx%d: table has %d rows, want %d", n, n, len(tab), len(a193580[n]))
		}
		for k, want := range a193580[n] {
			if got := tab[k][0]; got.Cmp(new(big.Int).SetUint64(want)) != 0 {
				t.Errorf("A193580(%d, %d): %s, want %d", n, k, got, want)
			}
		}
		for k := len(a193580[n]); k < len(tab); k++ {
			if tab[k][0].Sign() != 0 {
				t.Errorf("A193580(%d, %d): %s, want 0", n, k, tab[k][0])
			}
		}
	}
	tab := dpTable(t, 12, -1, 0)
	for k, want := range kings12 {
		if got := tab[k][0].String(); got != want {
			t.Errorf("12x12, %d kings: %s, want %s", k, got, want)
		}
	}
}

func TestPiecesDPKnightsOEIS(t *testing.T) {
	for n := 0; n <= 9; n++ {
		if n == 0 {
			continue // no 0x0 board
		}
		tab := dpTable(t, n, 0, -1)
		sum := new(big.Int)
		for _, c := range tab[0] {
			sum.Add(sum, c)
		}
		if sum.String() != a141243[n] {
			t.Errorf("A141243(%d): %s, want %s", n, sum, a141243[n])
		}
		if n <= len(a201540) && tab[0][n].Uint64() != a201540[n-1] {
			t.Errorf("A201540(%d): %s, want %d", n, tab[0][n], a201540[n-1])
		}
		if n <= len(a172135) && (len(tab[0]) > 4 || a172135[n-1] != 0) && tab[0][4].Uint64() != a172135[n-1] {
			t.Errorf("A172135(%d): %s, want %d", n, tab[0][4], a172135[n-1])
		}
	}
}

// BenchmarkKnights11All counts any number of non-attacking knights on
// 11x11, a count over 2^64 (A141243(11)); a benchmark, not a test, because
// it takes minutes on a loaded machine.
func BenchmarkKnights11All(b *testing.B) {
	for b.Loop() {
		tab := dpTable(b, 11, 0, -1)
		sum := new(big.Int)
		for _, c := range tab[0] {
			sum.Add(sum, c)
		}
		if sum.String() != a141243[11] {
			b.Fatalf("A141243(11): %s, want %s", sum, a141243[11])
		}
	}
}

// TestPiecesDPSweep: dp agrees with the fast counter on every board with
// sides up to 5 and every mix of up to 3 kings and 4 knights.
func TestPiecesDPSweep(t *testing.T) {
	for w := 1; w <= 5; w++ {
		for h := 1; h <= 5; h++ {
			for k := 0; k <= 3; k++ {
				for n := 0; n <= 4; n++ {
					if k+n == 0 || k+n > w*h {
						continue
					}
					p := puzzle.Pieces{Board: puzzle.Board{W: w, H: h}}
					p.Count[puzzle.King], p.Count[puzzle.Knight] = k, n
					spec := p.String()
					var got, want puzzle.Answer
					for _, h := range []string{"dp", "fast"} {
						a, err := search.Solve(context.Background(), puzzle.Request{Spec: p, Task: puzzle.Count, Heuristic: h})
						if err != nil {
							t.Fatalf("%s %s: %v", spec, h, err)
						}
						if h == "dp" {
							got = a
						} else {
							want = a
						}
					}
					if got.CountString() != want.CountString() || got.Status != want.Status {
						t.Errorf("%s: dp %s (%s), fast %s (%s)", spec, got.CountString(), got.Status, want.CountString(), want.Status)
					}
				}
			}
		}
	}
}

func TestPiecesDPRefused(t *testing.T) {
	for spec, want := range map[string]string{
		"pieces:5x5:K2Q1": "kings and knights only",
		"pieces:5x5:B1N1": "kings and knights only",
		"pieces:5x5:R1":   "kings and knights only",
		"pieces:30x30:N4": "refuses",
	} {
		_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count, Heuristic: "dp"})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", spec, err, want)
		}
	}
	_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("pieces:4x4:K2"), Task: puzzle.First, Heuristic: "dp"})
	if err == nil {
		t.Errorf("dp first: want an error (count only)")
	}
}

// BenchmarkKings12All counts kings on 12x12 for every k (the whole row 12
// of A193580) in one dp run.
func BenchmarkKings12All(b *testing.B) {
	for b.Loop() {
		tab := dpTable(b, 12, -1, 0)
		if got := tab[36][0].String(); got != kings12[36] {
			b.Fatalf("36 kings: %s", got)
		}
	}
}
