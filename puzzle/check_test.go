package puzzle

import (
	"strings"
	"testing"
)

// countByChecker counts placements of a Pieces or Queens spec by brute force:
// every way to put the pieces on distinct squares, validated by Check.
func countByChecker(t *testing.T, spec Spec) uint64 {
	b := BoardOf(spec)
	var kinds []Kind
	switch s := spec.(type) {
	case Queens:
		for range s.N {
			kinds = append(kinds, Queen)
		}
	case Pieces:
		for k, n := range s.Count {
			for range n {
				kinds = append(kinds, Kind(k))
			}
		}
	}
	layout := make([]Kind, b.Size())
	for i := range layout {
		layout[i] = NoPiece
	}
	var count uint64
	// Place pieces in order; a piece of the same kind as the previous one
	// goes on a later square, so each placement is generated once.
	var place func(i int, from Square)
	place = func(i int, from Square) {
		if i == len(kinds) {
			if Check(spec, Solution{Board: b, Layout: layout}) == nil {
				count++
			}
			return
		}
		start := Square(0)
		if i > 0 && kinds[i] == kinds[i-1] {
			start = from + 1
		}
		for s := start; int(s) < b.Size(); s++ {
			if layout[s] == NoPiece {
				layout[s] = kinds[i]
				place(i+1, s)
				layout[s] = NoPiece
			}
		}
	}
	place(0, 0)
	return count
}

func TestCheckerCountsPublishedPlacements(t *testing.T) {
	specs := []string{"pieces:3x3:K1R2", "pieces:4x4:R2N4", "queens:1", "queens:2", "queens:3", "queens:4", "queens:5", "queens:6"}
	for _, s := range specs {
		spec := MustParse(s)
		want, ok := KnownCount(spec, Count)
		if !ok {
			t.Fatalf("no published count for %s", s)
		}
		if got := countByChecker(t, spec); got != want {
			t.Errorf("%s: checker accepts %d placements, published %d", s, got, want)
		}
	}
}

func TestCheckPlacementRejects(t *testing.T) {
	b := Board{4, 4}
	sq := func(n string) Square { s, _ := b.ParseSquare(n); return s }
	q := []Kind{Queen, Queen, Queen, Queen}
	good := PlacementOf(b, []Square{sq("b1"), sq("d2"), sq("a3"), sq("c4")}, q)
	if err := Check(MustParse("queens:4"), good); err != nil {
		t.Fatalf("valid 4-queens rejected: %v", err)
	}
	cases := []struct {
		name string
		sol  Solution
		spec string
		want string
	}{
		{"diagonal", PlacementOf(b, []Square{sq("a1"), sq("d2"), sq("b3"), sq("c4")}, q), "queens:4", "threaten"},
		{"too few", PlacementOf(b, []Square{sq("b1"), sq("d2"), sq("a3")}, q[:3]), "queens:4", "piece counts"},
		{"wrong kind", PlacementOf(b, []Square{sq("b1"), sq("d2"), sq("a3"), sq("c4")}, []Kind{Queen, Queen, Queen, Rook}), "queens:4", "piece counts"},
		{"wrong board", PlacementOf(Board{5, 5}, nil, nil), "queens:4", "5x5 board"},
		{"knights", PlacementOf(b, []Square{sq("a1"), sq("b3")}, []Kind{Knight, Knight}), "pieces:4x4:N2", "threaten"},
		{"king next to rook", PlacementOf(b, []Square{sq("a1"), sq("b2")}, []Kind{King, Rook}), "pieces:4x4:K1R1", "threaten"},
		{"bishop far diagonal", PlacementOf(b, []Square{sq("a1"), sq("d4")}, []Kind{Bishop, Knight}), "pieces:4x4:B1N1", "threaten"},
	}
	for _, c := range cases {
		err := Check(MustParse(c.spec), c.sol)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// testTours finds every open tour of a board from a start by plain DFS over
// coordinates (written here, independent of the package's move tables).
func testTours(b Board, start Square, each func([]Square)) {
	path := []Square{start}
	used := make([]bool, b.Size())
	used[start] = true
	var dfs func()
	dfs = func() {
		if len(path) == b.Size() {
			each(path)
			return
		}
		f, r := b.FileRank(path[len(path)-1])
		for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if b.On(f+d[0], r+d[1]) && !used[b.Sq(f+d[0], r+d[1])] {
				s := b.Sq(f+d[0], r+d[1])
				used[s] = true
				path = append(path, s)
				dfs()
				path = path[:len(path)-1]
				used[s] = false
			}
		}
	}
	dfs()
}

func TestCheckTour(t *testing.T) {
	spec := MustParse("tour:5x5:a1").(Tour)
	n := 0
	testTours(spec.Board, spec.Start, func(p []Square) {
		n++
		sol := Solution{Board: spec.Board, Path: append([]Square(nil), p...)}
		if err := Check(spec, sol); err != nil {
			t.Fatalf("valid tour rejected: %v", err)
		}
		if n == 1 {
			// Mutations: swap two steps, repeat a square, cut the tour short.
			bad := append([]Square(nil), p...)
			bad[3], bad[4] = bad[4], bad[3]
			if Check(spec, Solution{Board: spec.Board, Path: bad}) == nil {
				t.Error("tour with swapped steps accepted")
			}
			bad = append([]Square(nil), p...)
			bad[7] = bad[5]
			if Check(spec, Solution{Board: spec.Board, Path: bad}) == nil {
				t.Error("tour with a repeated square accepted")
			}
			if Check(spec, Solution{Board: spec.Board, Path: p[:24]}) == nil {
				t.Error("short tour accepted")
			}
			if Check(MustParse("tour:5x5:c3"), sol) == nil {
				t.Error("tour from the wrong start accepted")
			}
			if Check(MustParse("tour:5x5:a1:closed"), sol) == nil {
				t.Error("open tour on 5x5 accepted as closed")
			}
		}
	})
	if n != 304 {
		t.Errorf("DFS found %d tours of 5x5 from a1, published 304", n)
	}
}

func TestCheckClosedTour(t *testing.T) {
	spec := MustParse("tour:3x4:a1").(Tour)
	found := 0
	testTours(spec.Board, spec.Start, func(p []Square) { found++ })
	if found == 0 {
		t.Fatal("no open tour of 3x4 found")
	}
	// 3x4 has open tours but no closed one: every open tour fails the closed check.
	closed := MustParse("tour:3x4:a1:closed")
	testTours(spec.Board, spec.Start, func(p []Square) {
		if Check(closed, Solution{Board: spec.Board, Path: p}) == nil {
			t.Fatalf("3x4 tour %v accepted as closed", p)
		}
	})
}

func TestCheckPlan(t *testing.T) {
	spec := MustParse("swap:3x3:w=a1:b=c1:tw=b3:tb=a2:rule=none:turns=alternate")
	mv := func(s string) []Move {
		sol, err := ParseSolution(spec, s)
		if err != nil {
			t.Fatal(err)
		}
		return sol.Plan
	}
	b := BoardOf(spec)
	if err := Check(spec, Solution{Board: b, Plan: mv("a1-b3 c1-a2")}); err != nil {
		t.Fatalf("legal plan rejected: %v", err)
	}
	cases := []struct {
		spec, plan, want string
	}{
		{"swap:3x3:w=a1:b=c1:tw=b3:tb=a2:rule=none:turns=alternate", "c1-a2 a1-b3", "not that colour's turn"},
		{"swap:3x3:w=a1:b=c1:tw=b3:tb=a2:rule=none:turns=alternate", "a1-b2", "no knight move"},
		{"swap:3x3:w=a1:b=c1:tw=b3:tb=a2:rule=none:turns=alternate", "b2-c3", "no knight on"},
		{"swap:3x3:w=a1:b=c1:tw=b3:tb=a2:rule=none:turns=alternate", "a1-b3", "holds no black knight"},
		{"swap:3x3:w=a1:b=c1:tw=b3:tb=a2:rule=enemy:turns=alternate", "a1-b3 c1-a2", "enemy knight attacks"},
		{"swap:3x3:w=a1,c1:b=c3:tw=b3,c1:tb=a2:rule=own:turns=free", "a1-b3 c3-a2", "its own colour"},
		{"swap:3x3:w=a1:b=b3:tw=b3:tb=a1:rule=none:turns=free", "a1-b3", "occupied"},
	}
	for _, c := range cases {
		s := MustParse(c.spec)
		err := Check(s, Solution{Board: BoardOf(s), Plan: mv(c.plan)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want one containing %q", c.spec, c.plan, err, c.want)
		}
	}
}

func TestSolutionTextRoundTrip(t *testing.T) {
	spec := MustParse("pieces:3x5:R2N2B1")
	b := BoardOf(spec)
	sq := func(n string) Square { s, _ := b.ParseSquare(n); return s }
	sol := PlacementOf(b, []Square{sq("a5"), sq("c3"), sq("b4"), sq("b2"), sq("b1")}, []Kind{Rook, Rook, Knight, Knight, Bishop})
	want := "R..\n.N.\n..R\n.N.\n.B.\n" // the seed's own example board
	if got := sol.Text(); got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
	back, err := ParseSolution(spec, sol.Text())
	if err != nil || back.Text() != want {
		t.Errorf("ParseSolution round trip: %q, %v", back.Text(), err)
	}
	tour := MustParse("tour:3x4:a1").(Tour)
	testTours(tour.Board, tour.Start, func(p []Square) {
		s := Solution{Board: tour.Board, Path: append([]Square(nil), p...)}
		back, err := ParseSolution(tour, s.Text())
		if err != nil || back.Text() != s.Text() {
			t.Fatalf("tour grid round trip: %q vs %q, %v", back.Text(), s.Text(), err)
		}
	})
}

func TestKnownCount(t *testing.T) {
	cases := []struct {
		spec string
		task Task
		want uint64
		ok   bool
	}{
		{"queens:8", Count, 92, true},
		{"queens:27", Count, 234907967154122528, true},
		{"queens:28", Count, 0, false},
		{"queens:8", Unique, 12, true},
		{"queens:18", Unique, 83263591, true},
		{"queens:19", Unique, 0, false},
		{"queens:8", First, 0, false},
		{"pieces:7x7:K2Q2B2N1", Count, 3063828, true},
		{"tour:5x5:a1", Count, 304, true},
		{"tour:5x5:*", Count, 1728, true},
		{"tour:6x6:c4:closed", Count, 9862, true},
		{"tour:5x5:a1:closed", Count, 0, true},
		{"tour:4x7:a1:closed", Count, 0, true},
		{"tour:8x8:a1:closed", Count, 13267364410532, true},
		{"tour:7x8:a1:closed", Count, 34524432316, true},
		{"tour:7x9:a1:closed", Count, 0, true},
		{"tour:7x12:a1:closed", Count, 0, false},
		{"tour:10x3:*:closed", Count, 16, true},
		{"tour:8x6:b2:closed", Count, 55488142, true},
		{"tour:7x7:*", Count, 165575218320, true},
		{"tour:7x5:*", Count, 1245736, true},
		{"tour:7x6:*", Count, 0, false},
		{"tour:6x8:a1", Count, 0, false},
	}
	for _, c := range cases {
		got, ok := KnownCount(MustParse(c.spec), c.task)
		if got != c.want || ok != c.ok {
			t.Errorf("KnownCount(%s, %s) = %d, %v; want %d, %v", c.spec, c.task, got, ok, c.want, c.ok)
		}
	}
	if n, ok := KnownShortest(MustParse("swap:4x3")); n != 22 || !ok {
		t.Errorf("KnownShortest(swap:4x3) = %d, %v", n, ok)
	}
}
