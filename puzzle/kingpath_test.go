package puzzle

import (
	"strings"
	"testing"
)

func TestKingPathParse(t *testing.T) {
	for _, c := range []struct{ in, canonical string }{
		{"kingpath:4x4:a1:5", "kingpath:4x4:a1:5"},
		{"kingpath:4x4:*:16", "kingpath:4x4:*:16"},
		{"kingpath:1x1:a1:1", "kingpath:1x1:a1:1"},
		{"kingpath:30x2:ad2:60", "kingpath:30x2:ad2:60"},
	} {
		s, err := Parse(c.in)
		if err != nil || s.String() != c.canonical {
			t.Errorf("Parse(%q) = %v, %v; want %s", c.in, s, err, c.canonical)
			continue
		}
		if again := MustParse(s.String()); again != s {
			t.Errorf("round trip of %s gives %v", s, again)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"kingpath:4x4:a1", "want kingpath:WxH:START:L"},
		{"kingpath:4x4:a1:5:x", "want kingpath:WxH:START:L"},
		{"kingpath:4x0:a1:5", "bad board"},
		{"kingpath:4x4:e1:5", "off the 4x4 board"},
		{"kingpath:4x4:a1:0", "bad kingpath length"},
		{"kingpath:4x4:a1:17", "bad kingpath length"},
		{"kingpath:4x4:a1:05", "bad kingpath length"},
		{"kingpath:4x4:a1:-1", "bad kingpath length"},
		{"kingpath:4x4:a1:", "bad kingpath length"},
	} {
		_, err := Parse(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

// kingPathsByChecker counts the king paths of every length from every
// start on b by brute force: every sequence of distinct squares, validated
// by Check alone.
func kingPathsByChecker(b Board) uint64 {
	var count uint64
	used := make([]bool, b.Size())
	var path []Square
	var rec func()
	rec = func() {
		if len(path) > 0 {
			spec := KingPath{Board: b, AllStarts: true, Length: len(path)}
			if Check(spec, Solution{Board: b, Path: path}) == nil {
				count++
			} else {
				return // no extension of a non-path is a path
			}
		}
		for q := range b.Size() {
			if !used[q] {
				used[q] = true
				path = append(path, Square(q))
				rec()
				path = path[:len(path)-1]
				used[q] = false
			}
		}
	}
	rec()
	return count
}

// TestKingPathCheckerCountsPublished: the checker alone finds OEIS A236690,
// the number of simple directed paths of every length on the n x n king
// graph (the strings of an n x n Boggle grid).
func TestKingPathCheckerCountsPublished(t *testing.T) {
	for n, want := range []uint64{1: 1, 2: 64, 3: 10305} {
		if n == 0 {
			continue
		}
		if got := kingPathsByChecker(Board{n, n}); got != want {
			t.Errorf("%dx%d: checker accepts %d paths, A236690 says %d", n, n, got, want)
		}
	}
}

func TestCheckKingPath(t *testing.T) {
	spec := MustParse("kingpath:3x3:b2:4")
	ok := "b2 c3 c2 b1"
	sol, err := DecodeSolution(spec, []byte(`{"path": ["`+strings.ReplaceAll(ok, " ", `","`)+`"]}`))
	if err != nil || Check(spec, sol) != nil {
		t.Fatalf("legal path %s rejected: %v, %v", ok, err, Check(spec, sol))
	}
	back, err := ParseSolution(spec, sol.Text())
	if err != nil || back.Text() != sol.Text() {
		t.Fatalf("grid round trip: %q vs %q, %v", back.Text(), sol.Text(), err)
	}
	for _, c := range []struct{ path, want string }{
		{"b2 c3 c2", "path has 3 squares"},
		{"a1 b2 c3 c2", "starts on a1"},
		{"b2 c3 c2 c3", "visited twice"},
		{"b2 c3 a1 b1", "no king move"},
		{"b2 b2 c2 b1", "visited twice"},
	} {
		sol, err := parseSquareNames(spec.(KingPath).Board, strings.Fields(c.path))
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(spec, sol); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.path, err, c.want)
		}
	}
}

func TestKnownKingPath(t *testing.T) {
	for _, c := range []struct {
		spec string
		want uint64
		ok   bool
	}{
		{"kingpath:4x4:b1:2", 5, true},
		{"kingpath:4x4:a3:16", 17681, true},
		{"kingpath:4x4:d2:8", 12463, true},
		{"kingpath:4x4:a1:5", 0, false}, // corner: not published here
		{"kingpath:4x4:b2:5", 0, false}, // centre
		{"kingpath:4x4:*:5", 0, false},  // every start
		{"kingpath:4x4:b1:1", 0, false}, // A063001 starts at 2 squares
		{"kingpath:5x5:b1:5", 0, false}, // another board
	} {
		got, ok := KnownCount(MustParse(c.spec), Count)
		if got != c.want || ok != c.ok {
			t.Errorf("KnownCount(%s) = %d, %v; want %d, %v", c.spec, got, ok, c.want, c.ok)
		}
	}
}
