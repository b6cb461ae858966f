package mip

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// feasible reports whether integer values satisfy every row of p and
// every bound.
func feasible(p *Program, val []int64) bool {
	for i, v := range p.Vars {
		if val[i] < v.Lo || val[i] > v.Hi {
			return false
		}
	}
	for _, r := range p.Rows {
		var sum int64
		for _, t := range r.Terms {
			sum += t.Coef * val[t.Var]
		}
		switch r.Sense {
		case LE:
			if sum > r.RHS {
				return false
			}
		case GE:
			if sum < r.RHS {
				return false
			}
		case EQ:
			if sum != r.RHS {
				return false
			}
		}
	}
	return true
}

// TestModelsByEnumeration enumerates every 0/1 point of small all-binary
// programs: a point is feasible exactly when it decodes to a solution the
// puzzle's checker accepts (for dominate: a dominating set, Dominates),
// and the number of feasible points is the number of solutions.
func TestModelsByEnumeration(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want int // feasible points, -1: not known here
	}{
		{"queens:1", 1}, {"queens:2", 0}, {"queens:3", 0}, {"queens:4", 2},
		{"pieces:3x3:K1R2", 4}, {"pieces:2x3:B2N1", -1}, {"pieces:3x3:Q1N2", -1},
		{"dominate:3x3:K", -1}, {"dominate:3x3:Q:independent", -1}, {"dominate:4x3:N:k=6", -1},
		{"dominate:4x4:R:independent", -1}, {"dominate:3x4:B:independent:k=4", -1},
		{"intervals:random:12:seed=3", -1}, {"intervals:random:14:seed=9", -1},
	} {
		spec := puzzle.MustParse(tc.spec)
		m, err := Build(spec, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := len(m.Vars)
		if n > 20 {
			t.Fatalf("%s: %d variables, too many to enumerate", tc.spec, n)
		}
		d := puzzle.Describe(spec)
		val := make([]int64, n)
		count := 0
		for mask := range 1 << n {
			for i := range val {
				val[i] = int64(mask >> i & 1)
			}
			sol, err := m.Decode(val)
			isSol := err == nil
			if isSol {
				if dm, ok := spec.(puzzle.Dominate); ok {
					isSol = puzzle.Dominates(dm, sol) == nil
				} else {
					isSol = d.Check(spec, sol) == nil
				}
			}
			if f := feasible(&m.Program, val); f != isSol {
				t.Fatalf("%s: point %b feasible %v, a solution %v", tc.spec, mask, f, isSol)
			} else if f {
				count++
			}
		}
		if tc.want >= 0 && count != tc.want {
			t.Errorf("%s: %d feasible points, want %d", tc.spec, count, tc.want)
		}
	}
}

// tiny is a small program with every kind of variable and row.
func tiny() *Program {
	var p Program
	p.Comments = []string{"tiny"}
	x := p.NewVar("x", Binary, 0, 1)
	y := p.NewVar("y", Integer, 0, 5)
	z := p.NewVar("z", Continuous, -2, 3)
	p.AddRow("r1", []int{x, y}, []int64{2, -3}, LE, 4)
	p.AddRow("r2", []int{y, z}, nil, GE, -1)
	p.AddRow("r3", []int{x, z}, nil, EQ, 1)
	p.Objective = []Term{{Coef: 5, Var: x}, {Coef: -1, Var: z}}
	p.Maximize = true
	return &p
}

func TestWriteLP(t *testing.T) {
	var buf bytes.Buffer
	if err := tiny().WriteLP(&buf); err != nil {
		t.Fatal(err)
	}
	want := `\ tiny
Maximize
 obj: 5 x - 1 z
Subject To
 r1: 2 x - 3 y <= 4
 r2: 1 y + 1 z >= -1
 r3: 1 x + 1 z = 1
Bounds
 0 <= y <= 5
 -2 <= z <= 3
General
 y
Binary
 x
End
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriteMPS(t *testing.T) {
	var buf bytes.Buffer
	if err := tiny().WriteMPS(&buf); err != nil {
		t.Fatal(err)
	}
	want := `* tiny
* maximisation written as: minimise the negated objective OBJ
NAME boardsat FREE
ROWS
 N OBJ
 L r1
 G r2
 E r3
COLUMNS
 MARKER 'MARKER' 'INTORG'
 x OBJ -5
 x r1 2
 x r3 1
 y r1 -3
 y r2 1
 MARKER 'MARKER' 'INTEND'
 z OBJ 1
 z r2 1
 z r3 1
RHS
 RHS r1 4
 RHS r2 -1
 RHS r3 1
BOUNDS
 BV BND x
 LO BND y 0
 UP BND y 5
 LO BND z -2
 UP BND z 3
ENDATA
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestLongRowsWrap checks that no LP line grows past what GLPK reads.
func TestLongRowsWrap(t *testing.T) {
	m, err := Build(puzzle.MustParse("dominate:20x20:Q"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.WriteLP(&buf); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(buf.String(), "\n") {
		if len(l) > 255 {
			t.Fatalf("line of %d characters: %.80s...", len(l), l)
		}
	}
}

func TestRound(t *testing.T) {
	p := tiny()
	if v, err := p.Round([]float64{1 - 1e-9, 4.0000001, -2}); err != nil || v[0] != 1 || v[1] != 4 || v[2] != -2 {
		t.Errorf("Round: %v %v", v, err)
	}
	for _, bad := range [][]float64{{0.5, 0, 0}, {1, 6, 0}, {2, 0, 0}, {1, 0}} {
		if _, err := p.Round(bad); err == nil {
			t.Errorf("Round(%v) accepted", bad)
		}
	}
}

func TestNoModel(t *testing.T) {
	for _, s := range []string{"mnk:3x3:3", "kingpath:3x3:a1:3"} {
		if _, err := Build(puzzle.MustParse(s), Options{}); err == nil || !strings.Contains(err.Error(), "no integer-programming model") {
			t.Errorf("%s: %v", s, err)
		}
	}
	swap := puzzle.MustParse("swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free")
	if _, err := Build(swap, Options{}); err == nil || !strings.Contains(err.Error(), "--steps T") {
		t.Errorf("swap without a horizon: %v", err)
	}
	if !NeedsHorizon("swap") || NeedsHorizon("queens") {
		t.Error("NeedsHorizon: want swap only")
	}
}

// TestSwapPlan checks the swap program on a known shortest plan: the plan
// as a point of the program of its length is feasible and decodes back to
// itself, and the same point with one move undone is not.
func TestSwapPlan(t *testing.T) {
	spec := puzzle.MustParse("swap:3x3:w=a3:b=a1:rule=none:turns=free")
	plan, err := puzzle.ParseSolution(spec, "a3-c2 a1-b3 c2-a1 b3-c1 c1-a2 a2-c3 c3-b1 b1-a3")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Build(spec, Options{Steps: len(plan.Plan)})
	if err != nil {
		t.Fatal(err)
	}
	// The point: replay the plan, setting occupancy and move variables by name.
	val := make([]int64, len(m.Vars))
	idx := m.Index()
	b := puzzle.BoardOf(spec)
	s := spec.(puzzle.Swap)
	colour := map[puzzle.Square]string{}
	for _, q := range s.White {
		colour[q] = "w"
	}
	for _, q := range s.Black {
		colour[q] = "b"
	}
	set := func(t int) {
		for q, c := range colour {
			val[idx[fmt.Sprintf("%s_%d_%s", c, t, b.Name(q))]] = 1
		}
	}
	set(0)
	for i, mv := range plan.Plan {
		c := colour[mv.From]
		val[idx[fmt.Sprintf("m%s_%d_%s_%s", c, i+1, b.Name(mv.From), b.Name(mv.To))]] = 1
		delete(colour, mv.From)
		colour[mv.To] = c
		set(i + 1)
	}
	if !feasible(&m.Program, val) {
		t.Fatal("the shortest plan is not a feasible point")
	}
	back, err := m.Decode(val)
	if err != nil || strings.Join(back.MoveNames(), " ") != strings.Join(plan.MoveNames(), " ") {
		t.Fatalf("decoded %v (%v), want %v", back.MoveNames(), err, plan.MoveNames())
	}
	val[idx["mw_1_a3_c2"]] = 0
	if feasible(&m.Program, val) {
		t.Error("a point without its first move is feasible")
	}
	if short, err := Build(spec, Options{Steps: len(plan.Plan) - 1}); err != nil || len(short.Vars) >= len(m.Vars) {
		t.Errorf("a shorter horizon: %v", err)
	}
}

// TestSwapWrittenAlike: the swap program is written the same every time
// (its fixed start and goal rows once came out in a map's random order).
func TestSwapWrittenAlike(t *testing.T) {
	spec := puzzle.MustParse("swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free")
	var first string
	for i := range 20 {
		m, err := Build(spec, Options{Steps: 3})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := m.WriteLP(&buf); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = buf.String()
		} else if buf.String() != first {
			t.Fatalf("write %d differs from the first", i+1)
		}
	}
	if i, j := strings.Index(first, "fix_w_0_a1:"), strings.Index(first, "fix_w_3_a1:"); i < 0 || j < i {
		t.Errorf("want the start rows (t = 0) before the goal rows (t = 3): at %d and %d", i, j)
	}
}
