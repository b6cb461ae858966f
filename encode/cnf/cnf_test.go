package cnf_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/crillab/gophersat/solver"
)

// small returns a formula over x1 (primary) and a2 (aux): (x1 or not a2), (a2).
func small() *cnf.Formula {
	f := cnf.New()
	x := f.Var("q_a1")
	a := f.Aux("aux2")
	f.Add(x, a.Not())
	f.Add(a)
	return f
}

func TestWriteDIMACS(t *testing.T) {
	var b bytes.Buffer
	if err := small().WriteDIMACS(&b); err != nil {
		t.Fatal(err)
	}
	want := "c t pmc\np cnf 2 2\nc p show 1 0\nc var 1 q_a1\nc var 2 aux2\n1 -2 0\n2 0\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	f := small()
	f.AddPB([]cnf.Lit{1, 2}, nil, cnf.AtMost, 1)
	if err := f.WriteDIMACS(&b); err != cnf.ErrHasPB {
		t.Errorf("DIMACS with a PB constraint: got %v, want ErrHasPB", err)
	}
}

// TestWriteDIMACSCommentsFirst: the form for proof checkers has the same
// lines with every comment before the header and only clauses after it.
func TestWriteDIMACSCommentsFirst(t *testing.T) {
	var b bytes.Buffer
	if err := small().WriteDIMACSCommentsFirst(&b); err != nil {
		t.Fatal(err)
	}
	want := "c t pmc\nc p show 1 0\nc var 1 q_a1\nc var 2 aux2\np cnf 2 2\n1 -2 0\n2 0\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	f := small()
	f.AddPB([]cnf.Lit{1, 2}, nil, cnf.AtMost, 1)
	if err := f.WriteDIMACSCommentsFirst(&b); err != cnf.ErrHasPB {
		t.Errorf("DIMACS with a PB constraint: got %v, want ErrHasPB", err)
	}
}

// mcFile is a DIMACS file read by the rules of the model counting
// competition's 2024 format.
type mcFile struct {
	kind    string // "mc" or "pmc", from the "c t" line
	nv      int
	show    []int // the "c p show" projection (pmc)
	clauses [][]cnf.Lit
}

// readMC2024 reads a file by the competition's rules, failing on anything
// they forbid: the "c t" type line first, one "p cnf" header, for pmc one
// "c p show ... 0" line (none for mc), no other comment starting with
// "c p" or "c t", literals within range, and the declared clause count.
func readMC2024(t *testing.T, text string) mcFile {
	t.Helper()
	var m mcFile
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) == 0 || (lines[0] != "c t mc" && lines[0] != "c t pmc") {
		t.Fatalf("first line %q, want c t mc or c t pmc", lines[0])
	}
	m.kind = strings.TrimPrefix(lines[0], "c t ")
	nclauses, header, shows := -1, 0, 0
	for _, line := range lines[1:] {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "p":
			header++
			if len(f) != 4 || f[1] != "cnf" || header > 1 {
				t.Fatalf("bad or repeated problem line %q", line)
			}
			m.nv, _ = strconv.Atoi(f[2])
			nclauses, _ = strconv.Atoi(f[3])
		case f[0] == "c" && len(f) > 1 && f[1] == "t":
			t.Fatalf("a second type line %q", line)
		case f[0] == "c" && len(f) > 2 && f[1] == "p" && f[2] == "show":
			if shows++; shows > 1 || f[len(f)-1] != "0" {
				t.Fatalf("repeated or unterminated show line %q", line)
			}
			for _, x := range f[3 : len(f)-1] {
				v, err := strconv.Atoi(x)
				if err != nil || v < 1 || v > m.nv {
					t.Fatalf("show line names %q, not a variable of 1..%d", x, m.nv)
				}
				m.show = append(m.show, v)
			}
		case f[0] == "c" && len(f) > 1 && f[1] == "p":
			t.Fatalf("a comment line %q that counters read as a directive", line)
		case f[0] == "c":
		default:
			if header == 0 {
				t.Fatalf("clause %q before the problem line", line)
			}
			var cl []cnf.Lit
			for i, x := range f {
				l, err := strconv.Atoi(x)
				if err != nil || l > m.nv || -l > m.nv || (l == 0) != (i == len(f)-1) {
					t.Fatalf("bad clause line %q", line)
				}
				if l != 0 {
					cl = append(cl, cnf.Lit(l))
				}
			}
			m.clauses = append(m.clauses, cl)
		}
	}
	if len(m.clauses) != nclauses {
		t.Fatalf("%d clauses, the header says %d", len(m.clauses), nclauses)
	}
	if (m.kind == "pmc") != (shows == 1) {
		t.Fatalf("type %s with %d show lines", m.kind, shows)
	}
	return m
}

// TestWriteDIMACSCompetitionFormat writes formulas with and without
// auxiliary variables, from real cardinality encodings, and reads them back
// by the competition's rules: type mc exactly when no variable is auxiliary,
// the projection equal to the primary variables, the clauses unchanged.
func TestWriteDIMACSCompetitionFormat(t *testing.T) {
	for _, e := range card.All() {
		if e.Native {
			continue
		}
		f := cnf.New()
		lits := make([]cnf.Lit, 6)
		for i := range lits {
			lits[i] = f.Var(fmt.Sprintf("p%d", i+1)) // names that look like directives after "c var N"
		}
		if err := e.Encode(f, lits, cnf.Exactly, 1); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := f.WriteDIMACS(&b); err != nil {
			t.Fatal(err)
		}
		m := readMC2024(t, b.String())
		wantKind := "mc"
		if f.Stats().Aux > 0 {
			wantKind = "pmc"
		}
		if m.kind != wantKind || m.nv != f.NumVars() {
			t.Errorf("%s: type %s over %d variables, want %s over %d", e.Name, m.kind, m.nv, wantKind, f.NumVars())
		}
		if m.kind == "pmc" && !slices.Equal(m.show, f.Projection()) {
			t.Errorf("%s: show %v, want the primary variables %v", e.Name, m.show, f.Projection())
		}
		if len(m.clauses) != f.NumClauses() {
			t.Fatalf("%s: %d clauses read, %d written", e.Name, len(m.clauses), f.NumClauses())
		}
		for i, c := range m.clauses {
			if !slices.Equal(c, f.Clause(i)) {
				t.Errorf("%s: clause %d read as %v, written %v", e.Name, i, c, f.Clause(i))
			}
		}
	}
}

func TestWriteOPB(t *testing.T) {
	f := small()
	f.AddPB([]cnf.Lit{1, -2}, []int{2, 3}, cnf.AtMost, 2)
	f.AddPB([]cnf.Lit{1, 2}, nil, cnf.Exactly, 1)
	f.Add()
	f.AddPB([]cnf.Lit{1, 2}, nil, cnf.AtMost, 2)    // always holds: left out
	f.AddPB([]cnf.Lit{1, -2}, nil, cnf.Exactly, 0)  // the >= 0 half always holds
	f.AddPB([]cnf.Lit{-1, -2}, nil, cnf.Exactly, 2) // the <= 2 half always holds
	var b bytes.Buffer
	if err := f.WriteOPB(&b); err != nil {
		t.Fatal(err)
	}
	// Clauses come first, then PB constraints.
	want := "* #variable= 2 #constraint= 7\n* var x1 q_a1\n* var x2 aux2\n" +
		"+1 x1 -1 x2 >= 0 ;\n" + // x1 + ~x2 >= 1
		"+1 x2 >= 1 ;\n" +
		"+1 x1 >= 2 ;\n" + // the empty clause
		"-2 x1 +3 x2 >= 1 ;\n" + // 2 x1 + 3 ~x2 <= 2
		"+1 x1 +1 x2 = 1 ;\n" +
		"-1 x1 +1 x2 >= 1 ;\n" + // x1 + ~x2 <= 0
		"-1 x1 -1 x2 >= 0 ;\n" // ~x1 + ~x2 >= 2
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestStatsAndProjection(t *testing.T) {
	f := small()
	f.AddPB([]cnf.Lit{1, 2}, nil, cnf.AtLeast, 1)
	got := f.Stats()
	want := cnf.Stats{Variables: 2, Primary: 1, Aux: 1, Clauses: 2, Literals: 5, PBConstraints: 1}
	if got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
	if p := f.Projection(); len(p) != 1 || p[0] != 1 || !f.Primary(1) || f.Primary(2) || f.Name(2) != "aux2" {
		t.Errorf("projection %v", p)
	}
}

// randomFormula returns a formula over n variables with clauses of up to 3
// literals and, if pb, a few cardinality and weighted PB constraints.
func randomFormula(r *rand.Rand, n int, pb bool) *cnf.Formula {
	f := cnf.New()
	for v := 1; v <= n; v++ {
		if v%2 == 1 {
			f.Var("x" + strconv.Itoa(v))
		} else {
			f.Aux("a" + strconv.Itoa(v))
		}
	}
	for range r.IntN(3 * n) {
		// Distinct variables: gophersat's OPB reader mishandles a variable
		// repeated in one constraint (x4 + x4 >= 1, x3 - x3 >= 0).
		vars := r.Perm(n)[:1+r.IntN(min(n, 3))]
		c := make([]cnf.Lit, len(vars))
		for i, v := range vars {
			c[i] = cnf.Lit(v + 1)
			if r.IntN(2) == 0 {
				c[i] = -c[i]
			}
		}
		f.Add(c...)
	}
	if r.IntN(20) == 0 {
		f.Add()
	}
	if pb {
		for range r.IntN(4) {
			vars := r.Perm(n)[:1+r.IntN(n)]
			lits := make([]cnf.Lit, len(vars))
			var weights []int
			if r.IntN(2) == 0 {
				weights = make([]int, len(vars))
			}
			for i, v := range vars {
				lits[i] = cnf.Lit(v + 1)
				if r.IntN(2) == 0 {
					lits[i] = -lits[i]
				}
				if weights != nil {
					weights[i] = 1 + r.IntN(3)
				}
			}
			f.AddPB(lits, weights, cnf.Op(r.IntN(3)), r.IntN(len(vars)+2)-1)
		}
	}
	return f
}

// bruteSAT reports whether some assignment satisfies f.
func bruteSAT(f *cnf.Formula) bool {
	n := f.NumVars()
	model := make([]bool, n+1)
	for a := range uint(1) << n {
		for v := 1; v <= n; v++ {
			model[v] = a>>(v-1)&1 == 1
		}
		if f.Satisfied(model) {
			return true
		}
	}
	return false
}

func TestSatisfied(t *testing.T) {
	f := small()
	for _, c := range []struct {
		x, a, want bool
	}{{false, false, false}, {true, false, false}, {false, true, false}, {true, true, true}} {
		if got := f.Satisfied([]bool{false, c.x, c.a}); got != c.want {
			t.Errorf("x=%v a=%v: %v, want %v", c.x, c.a, got, c.want)
		}
	}
	f.AddPB([]cnf.Lit{1, -2}, []int{2, 3}, cnf.AtLeast, 2)
	if f.Satisfied([]bool{false, false, true}) || !f.Satisfied([]bool{false, true, true}) {
		t.Error("weighted PB evaluated wrongly")
	}
}

// forcesUnits reports whether f has a constraint that forces all its
// literals (a unit clause, at least the full weight, at most 0). gophersat
// v1.4.0's OPB reader turns each into unit literals and then overwrites
// contradictory ones instead of reporting unsatisfiability
// (Problem.replicateUnits), so such formulas are not round-tripped through
// solver.ParseOPB here; solver.ParsePBConstrs checks them correctly.
func forcesUnits(f *cnf.Formula) bool {
	for i := range f.NumClauses() {
		if len(f.Clause(i)) == 1 {
			return true
		}
	}
	for _, c := range f.PBs() {
		sum := 0
		for _, w := range c.Weights {
			sum += w
		}
		if (c.Op != cnf.AtLeast && c.K == 0) || (c.Op != cnf.AtMost && c.K == sum) {
			return true
		}
	}
	return false
}

// gophersatModel converts gophersat's model (index v-1) to ours (index v).
func gophersatModel(m []bool, n int) []bool {
	model := make([]bool, n+1)
	copy(model[1:], m)
	return model
}

// TestGophersatRoundTrip writes random formulas as DIMACS and OPB, parses
// them with gophersat's own parsers, and checks that gophersat's verdict
// matches a brute-force one and its models satisfy the formula.
func TestGophersatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tested := 0
	defer func() {
		if tested < 200 {
			t.Errorf("only %d formulas tested", tested)
		}
	}()
	for i := range 400 {
		withPB := i%2 == 1
		f := randomFormula(r, 1+r.IntN(8), withPB)
		if withPB && forcesUnits(f) {
			continue
		}
		tested++
		want := bruteSAT(f)
		var b bytes.Buffer
		var pb *solver.Problem
		var err error
		if withPB {
			if err = f.WriteOPB(&b); err == nil {
				pb, err = solver.ParseOPB(bytes.NewReader(b.Bytes()))
			}
		} else {
			if err = f.WriteDIMACS(&b); err == nil {
				pb, err = solver.ParseCNF(bytes.NewReader(b.Bytes()))
			}
		}
		if err != nil {
			t.Fatalf("formula %d: %v\n%s", i, err, b.String())
		}
		s := solver.New(pb)
		got := s.Solve() == solver.Sat
		if got != want {
			t.Fatalf("formula %d: gophersat says sat=%v, brute force %v\n%s", i, got, want, b.String())
		}
		if got && !f.Satisfied(gophersatModel(s.Model(), f.NumVars())) {
			t.Fatalf("formula %d: gophersat's model does not satisfy it\n%s", i, b.String())
		}
	}
}

// TestExternalSolvers runs the DIMACS output through the Debian solvers and
// the OPB output through minisat+, skipping solvers that are not installed.
func TestExternalSolvers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var cnfs, opbs []*cnf.Formula
	for i := range 12 {
		cnfs = append(cnfs, randomFormula(r, 2+r.IntN(7), false))
		opbs = append(opbs, randomFormula(r, 2+r.IntN(7), true))
		if i == 0 {
			cnfs[0].Add() // always one with the empty clause
			opbs[0].Add()
		}
	}
	dir := t.TempDir()
	check := func(t *testing.T, name string, fs []*cnf.Formula, opb bool) {
		for i, f := range fs {
			path := filepath.Join(dir, fmt.Sprintf("%s%d", name, i))
			var b bytes.Buffer
			write := f.WriteDIMACS
			if opb {
				write = f.WriteOPB
			}
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			got, model := cnftest.RunSolver(t, name, path, f.NumVars())
			if want := bruteSAT(f); got != want {
				t.Errorf("formula %d: %s says sat=%v, brute force %v\n%s", i, name, got, want, b.String())
			} else if got && !f.Satisfied(model) {
				t.Errorf("formula %d: %s's model does not satisfy it\n%s", i, name, b.String())
			}
		}
	}
	for _, name := range append(cnftest.DIMACSSolvers, "minisat+") {
		t.Run(name, func(t *testing.T) {
			cnftest.NeedSolver(t, name)
			if name == "minisat+" {
				check(t, name, opbs, true)
			} else {
				check(t, name, cnfs, false)
			}
		})
	}
}

// TestObjectiveOPB: Minimize's objective is the first line after the
// names in OPB, weights as given; it adds no constraint, and a formula
// without one has no "min:" line. WCNF writes it as soft clauses and
// refuses formulas without an objective or with PB constraints.
func TestObjectiveOPB(t *testing.T) {
	f := cnf.New()
	a, b := f.Var("a"), f.Var("b")
	f.Add(a, b)
	var plain bytes.Buffer
	if err := f.WriteOPB(&plain); err != nil {
		t.Fatal(err)
	}
	f.Minimize([]cnf.Lit{a, b}, []int{2, 3})
	var buf bytes.Buffer
	if err := f.WriteOPB(&buf); err != nil {
		t.Fatal(err)
	}
	want := "* #variable= 2 #constraint= 1\n* var x1 a\n* var x2 b\nmin: +2 x1 +3 x2 ;\n+1 x1 +1 x2 >= 1 ;\n"
	if buf.String() != want || strings.Contains(plain.String(), "min:") {
		t.Errorf("OPB with objective:\n%s\nwant:\n%s\nwithout:\n%s", buf.String(), want, plain.String())
	}
	if lits, w := f.Objective(); len(lits) != 2 || w[1] != 3 || f.NumClauses() != 1 {
		t.Errorf("Objective() = %v %v, %d clauses", lits, w, f.NumClauses())
	}
	// WCNF: the clause hard (weight 2+3+1), one soft "not x" per objective term.
	var wcnf bytes.Buffer
	if err := f.WriteWCNF(&wcnf); err != nil {
		t.Fatal(err)
	}
	if want := "p wcnf 2 3 6\nc var 1 a\nc var 2 b\n6 1 2 0\n2 -1 0\n3 -2 0\n"; wcnf.String() != want {
		t.Errorf("WCNF:\n%s\nwant:\n%s", wcnf.String(), want)
	}
	// The MaxSAT Evaluation's 2022 format: no p line, hard clauses marked h.
	var w22 bytes.Buffer
	if err := f.WriteWCNF2022(&w22); err != nil {
		t.Fatal(err)
	}
	if want := "h 1 2 0\n2 -1 0\n3 -2 0\n"; w22.String() != want {
		t.Errorf("WCNF 2022:\n%s\nwant:\n%s", w22.String(), want)
	}
	g := cnf.New()
	g.Add(g.Var("a"))
	w22.Reset()
	if err := g.WriteWCNF2022(&w22); err != nil || w22.String() != "h 1 0\n" {
		t.Errorf("WCNF 2022 without objective: %q, %v", w22.String(), err)
	}
	if err := g.WriteWCNF(&wcnf); err != cnf.ErrNoObjective {
		t.Errorf("WCNF without objective: %v", err)
	}
	g.AddPB([]cnf.Lit{1}, nil, cnf.AtMost, 0)
	g.Minimize([]cnf.Lit{1}, nil)
	if err := g.WriteWCNF(&wcnf); err != cnf.ErrHasPB {
		t.Errorf("WCNF with a PB constraint: %v", err)
	}
	if err := g.WriteWCNF2022(&wcnf); err != cnf.ErrHasPB {
		t.Errorf("WCNF 2022 with a PB constraint: %v", err)
	}
}

// TestPigeonhole: the pigeonhole formula has (h+1)·h variables, h+1
// clauses "pigeon in some hole" and h·(h+1)·h/2 "not two in one hole",
// exactly these for 2 holes, and no model (counted by cnftest's DPLL).
func TestPigeonhole(t *testing.T) {
	for h := 1; h <= 5; h++ {
		f := cnf.Pigeonhole(h)
		if f.NumVars() != (h+1)*h || f.NumClauses() != h+1+h*(h+1)*h/2 {
			t.Errorf("%d holes: %d variables, %d clauses", h, f.NumVars(), f.NumClauses())
		}
		all := make([]int, f.NumVars())
		for i := range all {
			all[i] = i + 1
		}
		if n := cnftest.New(f).CountUnder(nil, all, 0); n != 0 {
			t.Errorf("%d holes: %d models, want 0", h, n)
		}
	}
	f := cnf.Pigeonhole(2)
	var got []string
	for i := range f.NumClauses() {
		got = append(got, fmt.Sprint(f.Clause(i)))
	}
	want := []string{"[1 2]", "[3 4]", "[5 6]", "[-1 -3]", "[-1 -5]", "[-3 -5]", "[-2 -4]", "[-2 -6]", "[-4 -6]"}
	if !slices.Equal(got, want) || f.Name(4) != "p1h1" {
		t.Errorf("2 holes: clauses %v (want %v), variable 4 %s", got, want, f.Name(4))
	}
}
