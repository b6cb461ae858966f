package mzn

import (
	"strings"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestSolveItems checks the solve item each variant of a model gets: an
// optimisation puzzle minimises or maximises, with Fix it is a
// satisfaction model at the fixed objective, and dominate with k= counts
// every set of at most K pieces (satisfaction, no fixed objective).
func TestSolveItems(t *testing.T) {
	seven := int64(7)
	for _, tc := range []struct {
		spec       string
		opt        Options
		sense      string
		want, lack string
	}{
		{"queens:5", Options{}, "", "solve satisfy;", "objective"},
		{"dominate:5x5:Q", Options{}, "minimize", "solve minimize pieces;", "constraint pieces ="},
		{"dominate:5x5:Q", Options{Count: true, Fix: &seven}, "", "constraint pieces = 7;", "minimize"},
		{"dominate:5x5:Q:k=3", Options{Count: true}, "", "constraint pieces <= 3;", "minimize"},
		{"dominate:5x5:Q:k=3", Options{}, "minimize", "solve minimize pieces;", ""},
		{"intervals:random:5:seed=1", Options{}, "maximize", "solve maximize total;", ""},
		{"intervals:random:5:seed=1", Options{Count: true, Fix: &seven}, "", "constraint total = 7;", "maximize"},
		{"tour:5x5:a1", Options{}, "", "constraint circuit(succ);", ""},
		{"kingpath:3x3:*:4", Options{}, "", "table(", "constraint p[1]"},
		{"swap:4x3:w=a1:b=d3:rule=own:turns=alternate", Options{Steps: 5}, "", "c[t-1, from[t]] = 1 + (t - 1) mod 2", "c[t,q] = 0 \\/"},
		{"swap:4x3:w=a1:b=d3:rule=enemy:turns=free", Options{Steps: 5}, "", "c[t,q] = 0 \\/ c[t,q] = c[t, to[t]]", "mod 2"},
	} {
		m, err := Build(puzzle.MustParse(tc.spec), tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if m.Sense != tc.sense || !strings.Contains(m.Text, tc.want) || (tc.lack != "" && strings.Contains(m.Text, tc.lack)) {
			t.Errorf("%s %+v: sense %q, want %q; text has %q: %v, lacks %q: %v\n%s", tc.spec, tc.opt, m.Sense, tc.sense,
				tc.want, strings.Contains(m.Text, tc.want), tc.lack, !strings.Contains(m.Text, tc.lack), m.Text)
		}
	}
}

// TestDecode checks each model's way back on a hand-made solution line.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		spec string
		vals []int64
		want string // the solution's text form
	}{
		{"queens:4", []int64{2, 4, 1, 3}, ".Q..\n...Q\nQ...\n..Q.\n"},
		{"pieces:3x3:K1R2", []int64{0, 2, 0, 0, 0, 2, 1, 0, 0}, "K..\n..R\n.R.\n"},
		{"kingpath:3x3:a1:3", []int64{0, 1, 2}, "1 2 3\n"},
		{"swap:3x3:w=a3:b=a1:rule=none:turns=free", []int64{6, 0, 5, 7, 2, 3, 8, 1, 5, 7, 0, 2, 3, 8, 1, 6},
			"a3-c2 a1-b3 c2-a1 b3-c1 c1-a2 a2-c3 c3-b1 b1-a3\n"},
	} {
		spec := puzzle.MustParse(tc.spec)
		m, err := Build(spec, Options{Steps: len(tc.vals) / 2}) // the horizon of the swap's plan; others ignore it
		if err != nil {
			t.Fatal(err)
		}
		sol, err := m.Decode(tc.vals)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		got := sol.Text()
		if tc.spec == "kingpath:3x3:a1:3" {
			got = strings.Join(sol.SquareNames(), " ")
			tc.want = "a1 b1 c1"
		}
		if got != tc.want {
			t.Errorf("%s: decoded\n%s\nwant\n%s", tc.spec, got, tc.want)
		}
		if err := puzzle.Check(spec, sol); err != nil {
			t.Errorf("%s: %v", tc.spec, err)
		}
	}
	m, _ := Build(puzzle.MustParse("queens:4"), Options{})
	for _, bad := range [][]int64{{1, 2, 3}, {0, 1, 2, 3}, {1, 2, 3, 9}} {
		if _, err := m.Decode(bad); err == nil {
			t.Errorf("queens:4 decoded %v", bad)
		}
	}
}

func TestNoModel(t *testing.T) {
	if _, err := Build(puzzle.MustParse("mnk:3x3:3"), Options{}); err == nil || !strings.Contains(err.Error(), "no MiniZinc model for mnk") {
		t.Errorf("mnk: %v", err)
	}
	swap := puzzle.MustParse("swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free")
	if _, err := Build(swap, Options{}); err == nil || !strings.Contains(err.Error(), "--steps T") {
		t.Errorf("swap without a horizon: %v", err)
	}
	if !NeedsHorizon("swap") || NeedsHorizon("queens") {
		t.Error("NeedsHorizon: want swap only")
	}
}

// TestGecodeRange refuses intervals whose values overflow Gecode's
// 32-bit integers.
func TestGecodeRange(t *testing.T) {
	spec := puzzle.Intervals{Path: "x", Items: []puzzle.Interval{{Start: 0, End: 1, Value: 1 << 30}, {Start: 3, End: 4, Value: 1 << 30}}}
	if _, err := Build(spec, Options{}); err == nil || !strings.Contains(err.Error(), "32-bit") {
		t.Errorf("got %v", err)
	}
}
