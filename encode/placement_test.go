package encode

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
)

// placementAMOOnly lists the encodings that express only bounds k <= 1 or
// k >= n-1: a pieces instance with a larger count must be refused clearly.
var placementAMOOnly = map[string]bool{"binary": true, "commander": true, "product": true, "ladder": true}

// placementCount counts the projected models of inst with the test's own
// DPLL, decoding every model and checking it with puzzle.Check.
func placementCount(t *testing.T, spec puzzle.Spec, inst *Instance) uint64 {
	t.Helper()
	f := inst.Formula
	s := cnftest.New(f)
	proj := f.Projection()
	var bad int
	s.OnModel = func(model []bool) {
		if !f.Satisfied(model) {
			t.Fatalf("%s: the test solver produced a non-model", spec)
		}
		sol, err := inst.Decode(model)
		if err == nil {
			err = puzzle.Check(spec, sol)
		}
		if err != nil && bad < 3 {
			bad++
			t.Errorf("%s: model decodes to a rejected solution: %v", spec, err)
		}
	}
	return s.CountUnder(nil, proj, 0)
}

// placementBrute counts the solutions of a pieces spec by trying every
// placement with puzzle.Check.
func placementBrute(p puzzle.Pieces) uint64 {
	size := p.Board.Size()
	layout := make([]puzzle.Kind, size)
	for i := range layout {
		layout[i] = puzzle.NoPiece
	}
	var kinds []puzzle.Kind
	for k, c := range p.Count {
		for range c {
			kinds = append(kinds, puzzle.Kind(k))
		}
	}
	var count uint64
	var place func(i, from int)
	place = func(i, from int) {
		if i == len(kinds) {
			if puzzle.Check(p, puzzle.Solution{Board: p.Board, Layout: layout}) == nil {
				count++
			}
			return
		}
		if i > 0 && kinds[i] != kinds[i-1] {
			from = 0 // a new kind: any square; same kind: increasing squares
		}
		for s := from; s < size; s++ {
			if layout[s] == puzzle.NoPiece {
				layout[s] = kinds[i]
				place(i+1, s+1)
				layout[s] = puzzle.NoPiece
			}
		}
	}
	place(0, 0)
	return count
}

// placementSpecs returns the pieces instances the tests sweep: the
// published ones and small boards with small piece sets.
func placementSpecs() []string {
	specs := []string{"pieces:3x3:K1R2", "pieces:4x4:R2N4"}
	for _, b := range []string{"2x2", "3x3", "2x4", "4x3", "4x4"} {
		for _, set := range []string{"K2", "Q2", "B3", "R2", "N4", "K1N1", "Q1B1", "B2N2", "K1Q1", "R1B1N1", "K1B1R1N1"} {
			specs = append(specs, "pieces:"+b+":"+set)
		}
	}
	return specs
}

// TestPlacementCounts checks, for every cardinality encoding, that the
// projected model count of the queens (n = 1..8) and pieces formulas equals
// the published count or a brute-force count by the checker, and that every
// model decodes to a solution the checker accepts.
func TestPlacementCounts(t *testing.T) {
	type inst struct {
		spec puzzle.Spec
		want uint64
	}
	var cases []inst
	for n := 1; n <= 8; n++ {
		spec := puzzle.Queens{N: n}
		want, ok := puzzle.KnownCount(spec, puzzle.Count)
		if !ok {
			t.Fatalf("no known count for %s", spec)
		}
		cases = append(cases, inst{spec, want})
	}
	for _, s := range placementSpecs() {
		spec, err := puzzle.Parse(s)
		if err != nil {
			continue // more pieces than squares
		}
		want := placementBrute(spec.(puzzle.Pieces))
		if known, ok := puzzle.KnownCount(spec, puzzle.Count); ok && known != want {
			t.Fatalf("%s: brute force %d, published %d", spec, want, known)
		}
		cases = append(cases, inst{spec, want})
	}
	for _, enc := range card.All() {
		t.Run(enc.Name, func(t *testing.T) {
			t.Parallel()
			for _, c := range cases {
				model, cardEnc, err := Resolve(c.spec.Puzzle(), "direct+"+enc.Name)
				if err != nil {
					t.Fatal(err)
				}
				in, err := model.Build(c.spec, cardEnc, Options{})
				if err != nil {
					if placementAMOOnly[enc.Name] && strings.Contains(err.Error(), "expresses only at-most-one") {
						continue
					}
					t.Errorf("%s: %v", c.spec, err)
					continue
				}
				placementCheckVars(t, c.spec, in.Formula)
				if got := placementCount(t, c.spec, in); got != c.want {
					t.Errorf("%s: %d projected models, want %d", c.spec, got, c.want)
				}
			}
		})
	}
}

// placementCheckVars checks that the projection is exactly the puzzle's
// own variables, named KIND_SQUARE (q_SQUARE for queens).
func placementCheckVars(t *testing.T, spec puzzle.Spec, f *cnf.Formula) {
	t.Helper()
	b := puzzle.BoardOf(spec)
	want := map[string]bool{}
	switch s := spec.(type) {
	case puzzle.Queens:
		for sq := range b.Size() {
			want["q_"+b.Name(puzzle.Square(sq))] = true
		}
	case puzzle.Pieces:
		for k, c := range s.Count {
			for sq := range b.Size() {
				if c > 0 {
					want[puzzle.Kind(k).String()+"_"+b.Name(puzzle.Square(sq))] = true
				}
			}
		}
	}
	proj := f.Projection()
	if len(proj) != len(want) {
		t.Errorf("%s: %d primary variables, want %d", spec, len(proj), len(want))
	}
	for _, v := range proj {
		if !want[f.Name(v)] {
			t.Errorf("%s: unexpected primary variable %q", spec, f.Name(v))
		}
	}
}

// TestPlacementAMOOnlyRefusal checks that an encoding for at most one refuses
// a piece count it cannot express with a clear error.
func TestPlacementAMOOnlyRefusal(t *testing.T) {
	for name := range placementAMOOnly {
		e, err := card.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = piecesBuild(puzzle.MustParse("pieces:4x4:R2N4"), e, Options{})
		if err == nil || !strings.Contains(err.Error(), "expresses only at-most-one") {
			t.Errorf("%s: got %v, want a clear refusal", name, err)
		}
	}
}

// TestQueensSymmetryBreaking checks that symmetry breaking keeps a solution
// of every instance that has one, and every remaining model is a solution
// with its rank-1 queen on the left half.
func TestQueensSymmetryBreaking(t *testing.T) {
	enc, _ := card.Lookup("seqcounter")
	for n := 1; n <= 8; n++ {
		spec := puzzle.Queens{N: n}
		in, err := queensBuild(spec, enc, Options{SymmetryBreaking: true})
		if err != nil {
			t.Fatal(err)
		}
		got := placementCount(t, spec, in)
		all, _ := puzzle.KnownCount(spec, puzzle.Count)
		if (got > 0) != (all > 0) || got > all {
			t.Errorf("%s: %d models with symmetry breaking, %d without", spec, got, all)
		}
		// Solutions with the rank-1 queen in the left half: (all + centre ones)/2.
		if n%2 == 0 && got*2 != all {
			t.Errorf("%s: %d models with symmetry breaking, want half of %d", spec, got, all)
		}
	}
}

// TestPlacementDecodeRejects checks that Decode refuses a short model and a
// model with two pieces on one square.
func TestPlacementDecodeRejects(t *testing.T) {
	enc, _ := card.Lookup("pairwise")
	in, err := piecesBuild(puzzle.MustParse("pieces:2x2:K1N1"), enc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.Decode(make([]bool, 2)); err == nil {
		t.Error("short model accepted")
	}
	model := make([]bool, in.Formula.NumVars()+1)
	model[1], model[5] = true, true // K_a1 and N_a1
	if in.Formula.Name(5) != "N_a1" {
		t.Fatalf("variable 5 is %s", in.Formula.Name(5))
	}
	if _, err := in.Decode(model); err == nil {
		t.Error("two pieces on a1 accepted")
	}
}

func placementBench(b *testing.B, spec, encoding string) {
	s := puzzle.MustParse(spec)
	model, enc, err := Resolve(s.Puzzle(), encoding)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		in, err := model.Build(s, enc, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := in.Formula.WriteDIMACS(discard{}); err != nil {
			b.Fatal(err)
		}
	}
}

// discard is io.Discard without the import clash risk.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkEncodeQueens100 encodes queens:100 with the default encoding and
// writes it as DIMACS (target: under 1 s).
func BenchmarkEncodeQueens100(b *testing.B) { placementBench(b, "queens:100", "") }

// BenchmarkEncodePieces16x16 encodes pieces:16x16:Q8R8 with the default
// encoding and writes it as DIMACS (target: under 1 s).
func BenchmarkEncodePieces16x16(b *testing.B) { placementBench(b, "pieces:16x16:Q8R8", "") }

// BenchmarkEncodeQueens100All encodes queens:100 under every encoding.
func BenchmarkEncodeQueens100All(b *testing.B) {
	for _, e := range card.All() {
		if e.Native {
			continue
		}
		b.Run(e.Name, func(b *testing.B) { placementBench(b, "queens:100", e.Name) })
	}
}

// TestPlacementExternalSolvers writes queens:6 (4 solutions) and queens:3
// (none) as DIMACS under every CNF encoding, runs each installed Debian
// solver on it, and checks the verdict and that the model decodes to a
// solution the checker accepts. Solvers not installed are skipped.
func TestPlacementExternalSolvers(t *testing.T) {
	if testing.Short() {
		t.Skip("external solver runs skipped in -short mode")
	}
	dir := t.TempDir()
	for _, solverName := range []string{"cadical", "minisat", "cryptominisat5", "picosat", "clasp"} {
		t.Run(solverName, func(t *testing.T) {
			cnftest.NeedSolver(t, solverName)
			for _, enc := range card.All() {
				if enc.Native {
					continue
				}
				for _, n := range []int{3, 6} {
					spec := puzzle.Queens{N: n}
					in, err := queensBuild(spec, enc, Options{})
					if err != nil {
						t.Fatal(err)
					}
					path := filepath.Join(dir, fmt.Sprintf("%s-%s-%d.cnf", solverName, enc.Name, n))
					var b bytes.Buffer
					if err := in.Formula.WriteDIMACS(&b); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					sat, model := cnftest.RunSolver(t, solverName, path, in.Formula.NumVars())
					if sat != (n == 6) {
						t.Errorf("%s %s: %s says sat=%v", spec, enc.Name, solverName, sat)
						continue
					}
					if !sat {
						continue
					}
					if !in.Formula.Satisfied(model) {
						t.Errorf("%s %s: %s's model does not satisfy the formula", spec, enc.Name, solverName)
						continue
					}
					sol, err := in.Decode(model)
					if err == nil {
						err = puzzle.Check(spec, sol)
					}
					if err != nil {
						t.Errorf("%s %s: %s's model: %v", spec, enc.Name, solverName, err)
					}
				}
			}
		})
	}
}
