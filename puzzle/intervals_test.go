package puzzle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIntervalsSpecRoundTrip(t *testing.T) {
	for _, in := range []string{"intervals:random:1:seed=0", "intervals:random:1000:seed=7", "intervals:../examples/gattaca.txt"} {
		s, err := Parse(in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		if s.String() != in {
			t.Errorf("Parse(%q).String() = %q", in, s.String())
		}
		again := MustParse(s.String()).(Intervals)
		if len(again.Items) != len(s.(Intervals).Items) {
			t.Errorf("%s: %d intervals, then %d", in, len(s.(Intervals).Items), len(again.Items))
		}
		for i, it := range again.Items {
			if it != s.(Intervals).Items[i] {
				t.Fatalf("%s: interval %d differs after a round trip", in, i)
			}
		}
	}
	g := MustParse("intervals:../examples/gattaca.txt").(Intervals)
	if len(g.Items) != 8 || g.Items[0] != (Interval{43, 70, 27}) || g.Items[7] != (Interval{0, 9, 22}) {
		t.Errorf("gattaca example read as %v", g.Items)
	}
	if BoardOf(g) != (Board{8, 1}) {
		t.Errorf("board %v, want 8x1", BoardOf(g))
	}
}

// TestRandomIntervalsStable pins the generator: the same spec is the same
// instance on every platform (the first three intervals of seed 42, N =
// 500, recomputed from the documented distribution by an independent
// Python splitmix64), and every interval keeps to the documented ranges.
// A change to the generator changes every benchmark instance: it must fail.
func TestRandomIntervalsStable(t *testing.T) {
	a, b := RandomIntervals(500, 42), RandomIntervals(500, 42)
	for i, want := range []Interval{{413, 454, 9}, {764, 764, 3}, {4925, 4933, 6}} {
		if a[i] != want {
			t.Errorf("interval %d of intervals:random:500:seed=42 is %v, want %v", i, a[i], want)
		}
	}
	for i := range a {
		it := a[i]
		if it != b[i] {
			t.Fatal("generator not deterministic")
		}
		if it.Start < 0 || it.End < it.Start || it.End >= 5000 || it.End-it.Start >= RandomMaxLength || it.Value < 1 || it.Value > RandomMaxValue {
			t.Fatalf("interval %d out of range: %v", i, it)
		}
	}
	if c := RandomIntervals(500, 43); c[0] == a[0] && c[1] == a[1] {
		t.Error("seeds 42 and 43 give the same instance")
	}
}

func TestOverlapClosed(t *testing.T) {
	cases := []struct {
		a, b Interval
		want bool
	}{
		{Interval{1, 3, 0}, Interval{3, 5, 0}, true},
		{Interval{1, 3, 0}, Interval{4, 5, 0}, false},
		{Interval{2, 2, 0}, Interval{2, 2, 0}, true},
		{Interval{0, 9, 0}, Interval{3, 4, 0}, true},
	}
	for _, c := range cases {
		if c.a.Overlaps(c.b) != c.want || c.b.Overlaps(c.a) != c.want {
			t.Errorf("%v overlaps %v: want %v", c.a, c.b, c.want)
		}
	}
}

func TestIntervalsChecker(t *testing.T) {
	s := Intervals{Items: []Interval{{0, 3, 5}, {3, 6, 1}, {4, 9, 2}, {10, 10, 7}}}
	for _, c := range []struct {
		picks []int
		value int64
		err   string
	}{
		{[]int{}, 0, ""}, {[]int{0, 2, 3}, 14, ""}, {[]int{1, 3}, 8, ""},
		{[]int{0, 1}, 0, "overlap"}, {[]int{1, 2}, 0, "overlap"}, {[]int{2, 0}, 0, "increasing"},
		{[]int{3, 3}, 0, "increasing"}, {[]int{4}, 0, "does not exist"}, {[]int{-1}, 0, "does not exist"},
	} {
		v, err := IntervalsValue(s, c.picks)
		if c.err == "" && (err != nil || v != c.value) {
			t.Errorf("%v: %d, %v; want %d", c.picks, v, err, c.value)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%v: error %v, want %q", c.picks, err, c.err)
		}
	}
	sol, err := ParseSolution(MustParse("intervals:random:5:seed=1"), "0 3")
	if err != nil || len(sol.Picks) != 2 || sol.Text() != "0 3\n" {
		t.Errorf("ParseSolution: %v, %v", sol, err)
	}
	if sol, err := ParseSolution(MustParse("intervals:random:5:seed=1"), "-"); err != nil || sol.Picks == nil || len(sol.Picks) != 0 || sol.Text() != "-\n" {
		t.Errorf("empty selection: %v, %v", sol, err)
	}
	if _, err := ParseSolution(MustParse("intervals:random:5:seed=1"), "0 5"); err == nil {
		t.Error("pick 5 of 5 intervals accepted")
	}
}

// TestIntervalsBadInput: every malformed file or generator spec is one
// line naming the problem.
func TestIntervalsBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct{ spec, want string }{
		{"intervals:", "want intervals:FILE"},
		{"intervals:" + filepath.Join(dir, "missing.txt"), "no such file"},
		{"intervals:" + write("empty.txt", ""), "empty"},
		{"intervals:" + write("blank.txt", "\n  \n# only a comment\n"), "empty"},
		{"intervals:" + write("backwards.txt", "0 3 1\n5 2 4\n"), "ends before it starts"},
		{"intervals:" + write("fields.txt", "0 3 1\n5 7\n"), "line 2: want an interval"},
		{"intervals:" + write("word.txt", "0 3 1\n5 x 2\n"), "not a whole number"},
		{"intervals:" + write("neg.txt", "0 3 -1\n"), "out of range"},
		{"intervals:" + write("negstart.txt", "-2 3 1\n"), "negative"},
		{"intervals:" + write("g1.txt", "4\nACGT\n2\n0 1 5\n"), "says 2 gene predictions, 1 lines follow"},
		{"intervals:" + write("g2.txt", "4\nACXT\n1\n0 1 5\n"), "DNA letters"},
		{"intervals:" + write("g3.txt", "4\nACGT\n1\n0 4 5\n"), "past the DNA string"},
		{"intervals:" + write("g4.txt", "4\nACGT\n0\n"), "no intervals"},
		{"intervals:" + write("g5.txt", "4\nACGTA\n1\n0 1 1\n"), "has 5 letters"},
		{"intervals:" + write("g6.txt", "8\nACGT\n"), "ends after 4"},
		{"intervals:" + write("g7.txt", "4\nACGT\n"), "no intervals"},
		{"intervals:random", "want intervals:random:N:seed=S"},
		{"intervals:random:10", "want intervals:random:N:seed=S"},
		{"intervals:random:0:seed=1", "bad intervals count"},
		{"intervals:random:-3:seed=1", "bad intervals count"},
		{"intervals:random:010:seed=1", "bad intervals count"},
		{"intervals:random:2000000:seed=1", "bad intervals count"},
		{"intervals:random:10:seed=x", "bad intervals seed"},
		{"intervals:random:10:seed=-1", "bad intervals seed"},
		{"intervals:random:10:seed=", "bad intervals seed"},
		{"intervals:random:10:seed=99999999999999999999", "bad intervals seed"},
		{"intervals:random:10:seed=1:x", "want intervals:random:N:seed=S"},
	}
	for _, c := range cases {
		_, err := Parse(c.spec)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want %q", c.spec, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) error %q, want one line containing %q", c.spec, err, c.want)
		}
	}
}
