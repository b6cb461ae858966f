package puzzle

import (
	"strings"
	"testing"
)

// dominateLayout places kind on the named squares of b.
func dominateLayout(t *testing.T, b Board, kind Kind, names ...string) Solution {
	t.Helper()
	sq := make([]Square, len(names))
	kinds := make([]Kind, len(names))
	for i, n := range names {
		s, err := b.ParseSquare(n)
		if err != nil {
			t.Fatal(err)
		}
		sq[i], kinds[i] = s, kind
	}
	return PlacementOf(b, sq, kinds)
}

// TestDominatesChecker: the checker accepts dominating sets and rejects,
// with the reason, sets that leave a square free, hold another piece, are
// larger than k= allows, or (independent) attack each other; Check also
// holds a set without k= to the published minimum.
func TestDominatesChecker(t *testing.T) {
	b8 := Board{8, 8}
	five := []string{"e6", "c5", "d4", "g2", "b1"}
	cases := []struct {
		spec  string
		kind  Kind
		set   []string
		board Board
		want  string // "" accepted by Dominates
		check string // "" accepted by Check
	}{
		{"dominate:8x8:Q", Queen, five, b8, "", ""},
		{"dominate:8x8:Q:k=5", Queen, five, b8, "", ""},
		{"dominate:8x8:Q:k=4", Queen, five, b8, "want at most 4", "want at most 4"},
		{"dominate:8x8:Q", Queen, five[:4], b8, "neither occupied nor attacked", "neither occupied nor attacked"},
		{"dominate:8x8:Q", Queen, append([]string{"a8"}, five...), b8, "", "published minimum is 5"},
		{"dominate:8x8:Q:k=6", Queen, append([]string{"a8"}, five...), b8, "", ""},
		{"dominate:8x8:Q:independent", Queen, five, b8, "threaten each other", "threaten each other"},
		{"dominate:8x8:R", Queen, five, b8, "want only R", "want only R"},
		{"dominate:5x5:R:independent", Rook, []string{"a1", "b2", "c3", "d4", "e5"}, Board{5, 5}, "", ""},
		{"dominate:5x5:R", Rook, []string{"a1", "b2", "c3", "d4"}, Board{5, 5}, "e5 is neither", "e5 is neither"},
		{"dominate:3x3:K", King, []string{"b2"}, Board{3, 3}, "", ""},
		{"dominate:3x3:K", King, []string{"a1"}, Board{3, 3}, "neither occupied nor attacked", "neither occupied nor attacked"},
		// The knight's centre of 3x3 is attacked from nowhere: it must be occupied.
		{"dominate:3x3:N", Knight, []string{"b2", "a1", "c1", "b1"}, Board{3, 3}, "", ""},
		{"dominate:3x3:N", Knight, []string{"a1", "c1", "a3", "c3"}, Board{3, 3}, "b2 is neither", "b2 is neither"},
		{"dominate:4x1:B", Bishop, []string{"a1", "b1", "c1", "d1"}, Board{4, 1}, "", ""},
		{"dominate:4x1:B:k=3", Bishop, []string{"a1", "b1", "c1"}, Board{4, 1}, "d1 is neither", "d1 is neither"},
	}
	for _, c := range cases {
		d := MustParse(c.spec).(Dominate)
		sol := dominateLayout(t, c.board, c.kind, c.set...)
		for _, r := range []struct {
			what string
			err  error
			want string
		}{{"Dominates", Dominates(d, sol), c.want}, {"Check", Check(d, sol), c.check}} {
			switch {
			case r.want == "" && r.err != nil:
				t.Errorf("%s %v: %s rejected: %v", c.spec, c.set, r.what, r.err)
			case r.want != "" && (r.err == nil || !strings.Contains(r.err.Error(), r.want)):
				t.Errorf("%s %v: %s error %v, want one containing %q", c.spec, c.set, r.what, r.err, r.want)
			}
		}
	}
}

// TestDominatePublished: the tables hold the published values where they
// should, and say nothing where nothing is known (independent optimum,
// a bound k= above the minimum, non-square queen boards, independent sets
// up to symmetry); counts up to symmetry are A002563's.
func TestDominatePublished(t *testing.T) {
	for _, c := range []struct {
		spec    string
		optimum int // -1 unknown
		count   int64
		unique  int64
	}{
		{"dominate:8x8:Q", 5, 4860, 638}, {"dominate:12x12:Q", 6, 8, 1}, {"dominate:14x14:Q", 8, 4632, 588},
		{"dominate:8x8:Q:k=5", 5, 4860, 638}, {"dominate:8x8:Q:k=4", -1, 0, 0}, {"dominate:8x8:Q:k=6", 5, -1, -1},
		{"dominate:8x8:Q:independent", -1, 728, -1}, {"dominate:8x7:Q", -1, -1, -1},
		// The frontier: A002563 and A002564 end at 19, A002568 at 30,
		// A075458 at 25.
		{"dominate:15x15:Q", 9, 205832, 25872}, {"dominate:16x16:Q", 9, 2968, 371}, {"dominate:18x18:Q", 9, 16, 2},
		{"dominate:19x19:Q", 10, 84, 11}, {"dominate:19x19:Q:k=9", -1, 0, 0}, {"dominate:20x20:Q", 11, -1, -1},
		{"dominate:25x25:Q", 13, -1, -1}, {"dominate:26x26:Q", -1, -1, -1},
		{"dominate:30x30:Q:independent", -1, 240, -1}, {"dominate:31x31:Q:independent", -1, -1, -1},
		{"dominate:8x8:N", 12, -1, -1}, {"dominate:7x5:K", 6, -1, -1}, {"dominate:7x5:R", 5, -1, -1}, {"dominate:6x6:B", 6, -1, -1},
		{"dominate:6x5:B", -1, -1, -1},
	} {
		s := MustParse(c.spec)
		if u, ok := KnownCount(s, Unique); ok != (c.unique >= 0) || (ok && int64(u) != c.unique) {
			t.Errorf("%s: known unique count %d %v, want %d", c.spec, u, ok, c.unique)
		}
		g, ok := KnownOptimum(s)
		if (c.optimum < 0) == ok || (ok && g != c.optimum) {
			t.Errorf("%s: known optimum %d %v, want %d", c.spec, g, ok, c.optimum)
		}
		n, ok := KnownCount(s, Count)
		if (c.count < 0) == ok || (ok && int64(n) != c.count) {
			t.Errorf("%s: known count %d %v, want %d", c.spec, n, ok, c.count)
		}
	}
}
