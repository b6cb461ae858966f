package puzzle

import (
	"strings"
	"testing"
)

func TestParseRoundTrip(t *testing.T) {
	cases := []struct{ in, canonical string }{
		{"queens:8", "queens:8"},
		{"queens:1", "queens:1"},
		{"pieces:7x8:K3Q1B2R2N3", "pieces:7x8:K3Q1B2R2N3"},
		{"pieces:7x8:N3R2B2Q1K3", "pieces:7x8:K3Q1B2R2N3"},
		{"pieces:3x3:KR2", "pieces:3x3:K1R2"},
		{"pieces:16x16:Q8R8", "pieces:16x16:Q8R8"},
		{"tour:8x8:a1", "tour:8x8:a1"},
		{"tour:8x8:a1:open", "tour:8x8:a1"},
		{"tour:6x6:a1:closed", "tour:6x6:a1:closed"},
		{"tour:5x5:*", "tour:5x5:*"},
		{"tour:30x2:ad2", "tour:30x2:ad2"},
		{"swap:4x3", "swap:4x3:w=a1,a2,a3:b=d1,d2,d3:rule=own:turns=alternate"},
		{"swap:4x3:w=a3,a1,a2:b=d1,d2,d3:rule=own:turns=alternate", "swap:4x3:w=a1,a2,a3:b=d1,d2,d3:rule=own:turns=alternate"},
		{"swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free", "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free"},
		{"swap:3x3:turns=free:b=a1:w=c3", "swap:3x3:w=c3:b=a1:rule=own:turns=free"},
		{"swap:4x4:rule=none", "swap:4x4:w=a1,a2,a3,a4:b=d1,d2,d3,d4:rule=none:turns=alternate"},
		{"swap:4x3:turns=free:rule=enemy", "swap:4x3:w=a1,a2,a3:b=d1,d2,d3:rule=enemy:turns=free"},
		{"swap:4x4:w=a1:b=d4:tw=b1:tb=c4:rule=enemy:turns=alternate", "swap:4x4:w=a1:b=d4:tw=b1:tb=c4:rule=enemy:turns=alternate"},
		{"dominate:8x8:Q", "dominate:8x8:Q"},
		{"dominate:5x4:N:k=6:independent", "dominate:5x4:N:k=6:independent"},
		{"dominate:5x5:K:independent:k=4", "dominate:5x5:K:k=4:independent"},
		{"dominate:3x3:B:k=0", "dominate:3x3:B:k=0"},
		{"dominate:64x64:R:k=4096", "dominate:64x64:R:k=4096"},
	}
	for _, c := range cases {
		s, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := s.String(); got != c.canonical {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got, c.canonical)
		}
		again, err := Parse(s.String())
		if err != nil || again.String() != s.String() {
			t.Errorf("round trip of %q: %v, %v", s, again, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "empty spec"},
		{"rooks:8", "unknown puzzle"},
		{"queens:-3", "bad queens spec"},
		{"queens:0", "bad queens spec"},
		{"queens:", "bad queens spec"},
		{"queens:08", "bad queens spec"},
		{"queens:99999", "bad queens spec"},
		{"pieces:0x0:K1", "bad board"},
		{"pieces:3x:K1", "bad board"},
		{"pieces:3x3", "want pieces:WxH:COUNTS"},
		{"pieces:3x3:P2", "unknown piece"},
		{"pieces:3x3:k2", "unknown piece"},
		{"pieces:3x3:K1K2", "named twice"},
		{"pieces:3x3:K0", "no pieces"},
		{"pieces:3x3:Q10", "cannot fit"},
		{"pieces:2x2:K2Q2N1", "cannot fit"},
		{"tour:8x8", "bad tour spec"},
		{"tour:8x8:i1", "off the 8x8 board"},
		{"tour:8x8:a9", "off the 8x8 board"},
		{"tour:8x8:a0", "bad square"},
		{"tour:8x8:1a", "bad square"},
		{"tour:8x8:a1:round", "bad tour kind"},
		{"swap:1x3", "at least 2 files"},
		{"swap:4x3:w=a1:b=a1", "overlap"},
		{"swap:4x3:w=a1,a1:b=d1", "named twice"},
		{"swap:4x3:w=e1:b=d1", "off the 4x3 board"},
		{"swap:4x3:w=a1:b=d1:rule=polite", "unknown swap rule"},
		{"swap:4x3:w=a1:b=d1:turns=sometimes", "unknown swap turns"},
		{"swap:4x3:w=a1:b=d1:tw=b1", "both tw= and tb="},
		{"swap:4x3:w=a1:b=d1:tw=b1,b2:tb=c1", "unequal targets"},
		{"swap:4x3:w=a1:b=d1:tw=b1:tb=b1", "targets overlap"},
		{"swap:4x3:w=a1", "or neither"},
		{"swap:4x3:b=a1:rule=none", "or neither"},
		{"swap:4x3:w=a1:b=d1:x=1", "unknown swap field"},
		{"swap:4x3:w=a1:w=a2:b=d1", "each once"},
		{"mnk:3x3:4", "bad mnk K"},
		{"mnk:3x3:0", "bad mnk K"},
		{"mnk:3x3:x", "bad mnk K"},
		{"mnk:3x3:3:pos=XX.......", "cannot arise"},
		{"mnk:3x3:3:pos=XXXOO....", "already has 3 in a row"},
		{"mnk:3x3:3:moves=10", "bad mnk moves"},
		{"mnk:3x3:3:pos=xo.......", "want X, O or ."},
		{"mnk:3x3:3:pos=X.O", "want 9 cells"},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want error containing %q", c.in, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) error %q, want one line containing %q", c.in, err, c.want)
		}
	}
}

func TestSquareNames(t *testing.T) {
	b := Board{800, 1000}
	for _, c := range []struct {
		f, r int
		name string
	}{{0, 0, "a1"}, {25, 0, "z1"}, {26, 0, "aa1"}, {27, 1, "ab2"}, {51, 9, "az10"}, {52, 0, "ba1"}, {701, 999, "zz1000"}, {702, 0, "aaa1"}} {
		s := b.Sq(c.f, c.r)
		if got := b.Name(s); got != c.name {
			t.Errorf("Name(%d,%d) = %q, want %q", c.f, c.r, got, c.name)
		}
		back, err := b.ParseSquare(c.name)
		if err != nil || back != s {
			t.Errorf("ParseSquare(%q) = %v, %v; want %v", c.name, back, err, s)
		}
	}
	// Every square of a wide board round-trips.
	wide := Board{60, 3}
	for s := Square(0); int(s) < wide.Size(); s++ {
		if back, err := wide.ParseSquare(wide.Name(s)); err != nil || back != s {
			t.Fatalf("square %d: name %q parses to %v, %v", s, wide.Name(s), back, err)
		}
	}
}

func TestAttacks(t *testing.T) {
	b := Board{8, 8}
	d4, _ := b.ParseSquare("d4")
	a1, _ := b.ParseSquare("a1")
	cases := []struct {
		k    Kind
		s    Square
		want int
	}{
		{King, d4, 8}, {King, a1, 3}, {Knight, d4, 8}, {Knight, a1, 2},
		{Rook, d4, 14}, {Rook, a1, 14}, {Bishop, d4, 13}, {Bishop, a1, 7},
		{Queen, d4, 27}, {Queen, a1, 21},
	}
	for _, c := range cases {
		got := b.Attacks(c.k, c.s)
		if len(got) != c.want {
			t.Errorf("%v on %s attacks %d squares, want %d", c.k, b.Name(c.s), len(got), c.want)
		}
		// The attack tables agree with the checker's own geometry.
		f1, r1 := b.FileRank(c.s)
		for _, q := range got {
			f2, r2 := b.FileRank(q)
			if !threatens(c.k, f1, r1, f2, r2) {
				t.Errorf("%v on %s: table says it attacks %s, checker disagrees", c.k, b.Name(c.s), b.Name(q))
			}
		}
	}
	// Exhaustively on a non-square board: table and checker agree both ways.
	nb := Board{5, 7}
	for k := range Kind(NumKinds) {
		for s := Square(0); int(s) < nb.Size(); s++ {
			in := map[Square]bool{}
			for _, q := range nb.Attacks(k, s) {
				in[q] = true
			}
			f1, r1 := nb.FileRank(s)
			for q := Square(0); int(q) < nb.Size(); q++ {
				f2, r2 := nb.FileRank(q)
				if in[q] != threatens(k, f1, r1, f2, r2) {
					t.Fatalf("%v %s -> %s: table %v, checker %v", k, nb.Name(s), nb.Name(q), in[q], !in[q])
				}
			}
		}
	}
}

func TestParseTask(t *testing.T) {
	for _, task := range Tasks {
		if got, err := ParseTask(string(task)); err != nil || got != task {
			t.Errorf("ParseTask(%q) = %v, %v", task, got, err)
		}
	}
	if _, err := ParseTask("guess"); err == nil || !strings.Contains(err.Error(), "unknown task") {
		t.Errorf("ParseTask(guess) error %v", err)
	}
}

func TestRegistry(t *testing.T) {
	r := NewRegistry[int]("widget")
	r.Add("a", 1)
	r.Add("b", 2)
	if v, err := r.Lookup("b"); err != nil || v != 2 {
		t.Errorf("Lookup(b) = %v, %v", v, err)
	}
	_, err := r.Lookup("c")
	if err == nil || err.Error() != `unknown widget "c": want one of a, b` {
		t.Errorf("Lookup(c) error %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Add of a repeated name did not panic")
		}
	}()
	r.Add("a", 3)
}

// FuzzParse checks that Parse never panics, that what it accepts is
// canonical after one round, and that every error is one line. The seed
// corpus is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"queens:8", "pieces:7x8:K3Q1B2R2N3", "tour:6x6:a1:closed", "tour:5x5:*",
		"swap:4x3", "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free", "swap:4x4:w=a1:b=d4:tw=b1:tb=c4:rule=enemy:turns=alternate",
		"mnk:3x3:3", "mnk:4x3:3:pos=X.O.........:moves=3", "mnk:3x3:3:positions",
		"dominate:8x8:Q", "dominate:5x4:N:k=6:independent", "dominate:3x3:B:independent:k=0", "dominate:8x8:Q:k=-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error for %q: %q", in, err)
			}
			return
		}
		again, err := Parse(s.String())
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", s, in, err)
		}
		if again.String() != s.String() {
			t.Fatalf("canonical form not stable: %q -> %q", s, again)
		}
	})
}
