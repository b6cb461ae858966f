package encode

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/brute"
	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
)

// domSAT answers a domination request on the sat backend.
func domSAT(t testing.TB, spec, encoding string, task puzzle.Task) puzzle.Answer {
	t.Helper()
	ans, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Encoding: encoding})
	if err != nil {
		t.Fatalf("%s %s %s: %v", spec, encoding, task, err)
	}
	return ans
}

// domValue is an answer's number: optimum/bound, count, "found" or
// "unsat"; anything else is shown with its status.
func domValue(ans puzzle.Answer, task puzzle.Task) string {
	switch {
	case ans.Status == puzzle.Unsat:
		return "unsat"
	case ans.Status != puzzle.OK:
		return string(ans.Status) + " " + ans.Message
	case task == puzzle.Optimum:
		return fmt.Sprintf("%v/%v", ans.Objective, ans.Bound)
	case task == puzzle.First:
		return "found"
	}
	return ans.CountString()
}

// dominateSearches are the encoder's named searches.
var dominateSearches = []string{"satunsat", "unsatsat", "bisect", "satunsat-inc", "pbmin", "satunsat-coverage", "satunsat-lines", "unsatsat-lines-hilbert-lex"}

// TestDominateSATPublished: every search proves the queen domination
// number A075458 for n = 1..7, and the count of minimum sets is A002564
// for n = 1..6, through several cardinality encodings.
func TestDominateSATPublished(t *testing.T) {
	a075458 := []int{1, 1, 1, 2, 3, 3, 4}
	a002564 := []uint64{1, 4, 1, 12, 186, 4}
	for i, want := range a075458 {
		spec := fmt.Sprintf("dominate:%dx%d:Q", i+1, i+1)
		for j, search := range dominateSearches {
			cardEnc := []string{"seqcounter", "totalizer", "cardnet"}[(i+j)%3]
			ans := domSAT(t, spec, search+"+"+cardEnc, puzzle.Optimum)
			if got := domValue(ans, puzzle.Optimum); got != fmt.Sprintf("%d/%d", want, want) {
				t.Errorf("%s %s+%s: %s, A075458 says %d", spec, search, cardEnc, got, want)
			}
		}
		if i < len(a002564) {
			for _, enc := range []string{"seqcounter", "mtotalizer", "kmtotalizer", "native", "satunsat-inc+kmtotalizer", "pbmin+totalizer", "satunsat-coverage+kmtotalizer"} {
				if got := domValue(domSAT(t, spec, enc, puzzle.Count), puzzle.Count); got != fmt.Sprint(a002564[i]) {
					t.Errorf("%s %s count: %s, A002564 says %d", spec, enc, got, a002564[i])
				}
			}
		}
	}
}

// TestDominateSATAgreesWithBrute: on a sweep of small boards, every piece,
// plain and independent, with k= below, at and above the minimum, the SAT
// side's optimum, count and existence equal the brute force's (which
// decides through the checker alone), under every search and several
// cardinality encodings.
func TestDominateSATAgreesWithBrute(t *testing.T) {
	var specs []string
	for _, p := range "QKRBN" {
		for _, wh := range [][2]int{{1, 1}, {2, 1}, {3, 2}, {3, 3}, {4, 3}, {4, 4}} {
			base := fmt.Sprintf("dominate:%dx%d:%c", wh[0], wh[1], p)
			specs = append(specs, base, base+":independent", base+":k=1")
			if wh[0]*wh[1] >= 4 {
				specs = append(specs, base+":k=3", base+":k=3:independent")
			}
		}
	}
	encs := []string{"satunsat+seqcounter", "unsatsat+totalizer", "bisect+sortnet", "satunsat+pairwise", "satunsat+mtotalizer", "unsatsat+native", "bisect+kmtotalizer", "satunsat-inc+seqcounter", "pbmin+totalizer", "satunsat-coverage+cardnet", "satunsat-lines+seqcounter", "satunsat-lines+totalizer"}
	for i, s := range specs {
		spec := puzzle.MustParse(s)
		for _, task := range []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.First} {
			b, err := brute.Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: task})
			if err != nil {
				t.Fatalf("%s %s: brute %v", s, task, err)
			}
			enc := encs[i%len(encs)]
			if got, want := domValue(domSAT(t, s, enc, task), task), domValue(b, task); got != want {
				t.Errorf("%s %s %s: sat %s, brute force %s", s, enc, task, got, want)
			}
		}
	}
}

// TestDominateSATAll: all lists as many sets as count says, each passing
// the checker, none twice.
func TestDominateSATAll(t *testing.T) {
	for _, s := range []string{"dominate:4x4:Q", "dominate:3x3:K:k=2", "dominate:4x3:N:independent"} {
		spec := puzzle.MustParse(s)
		seen := map[string]bool{}
		ans, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.All, Emit: func(sol puzzle.Solution) error {
			if err := puzzle.Check(spec, sol); err != nil {
				return err
			}
			if key := fmt.Sprint(sol.Layout); seen[key] {
				return fmt.Errorf("set listed twice")
			} else {
				seen[key] = true
			}
			return nil
		}})
		count := domSAT(t, s, "", puzzle.Count)
		if err != nil || ans.Status != puzzle.OK || count.Status != puzzle.OK || uint64(len(seen)) != count.Count || ans.Count != count.Count {
			t.Errorf("%s all: %v %s, %d listed, count %s %d", s, err, ans.Status, len(seen), count.Status, count.Count)
		}
	}
}

// TestDominateSATStopped: an optimisation stopped by its time limit is a
// timeout, never ok, with the proven lower bound and, if one was found,
// the best set (which dominates, and is no smaller than the bound).
func TestDominateSATStopped(t *testing.T) {
	for _, search := range dominateSearches {
		spec := puzzle.MustParse("dominate:14x14:Q")
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		ans, err := (Backend{}).Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.Optimum, Encoding: search + "+totalizer"})
		cancel()
		if err != nil || ans.Status != puzzle.Timeout || ans.Bound == nil {
			t.Fatalf("%s: %v status %s bound %v, want timeout with a bound", search, err, ans.Status, ans.Bound)
		}
		if ans.Solution != nil {
			if ans.Objective == nil || ans.Objective.Cmp(ans.Bound) < 0 {
				t.Errorf("%s: best %v below bound %v", search, ans.Objective, ans.Bound)
			}
			if err := puzzle.Dominates(spec.(puzzle.Dominate), *ans.Solution); err != nil {
				t.Errorf("%s: best set rejected: %v", search, err)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ans, err := (Backend{}).Solve(ctx, puzzle.Request{Spec: puzzle.MustParse("dominate:5x5:Q"), Task: puzzle.Count})
	if err != nil || ans.Status != puzzle.Timeout || ans.Count != 0 {
		t.Errorf("count with a spent context: %v %s %d, want timeout", err, ans.Status, ans.Count)
	}
}

// benchDominateSAT solves queens n on the SAT side with the encoding and
// solver given ("" for the defaults) and holds the answer to the published
// minimum (A075458) or count of minimum sets (A002564).
func benchDominateSAT(b *testing.B, n int, task puzzle.Task, encoding, solver string) {
	spec := puzzle.MustParse(fmt.Sprintf("dominate:%dx%d:Q", n, n))
	opt, ok := puzzle.KnownOptimum(spec)
	want := fmt.Sprintf("%d/%d", opt, opt)
	if task == puzzle.Count {
		var c uint64
		c, ok = puzzle.KnownCount(spec, task)
		want = fmt.Sprint(c)
	}
	if !ok {
		b.Fatalf("%s %s: no published value", spec, task)
	}
	for b.Loop() {
		ans, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: spec, Task: task, Encoding: encoding, Solver: solver})
		if err != nil {
			b.Fatal(err)
		}
		if got := domValue(ans, task); got != want {
			b.Fatalf("%s %s: %s, published %s", spec, task, got, want)
		}
	}
}

func BenchmarkDominateSATQueens8Optimum(b *testing.B) { benchDominateSAT(b, 8, puzzle.Optimum, "", "") }
func BenchmarkDominateSATQueens10Optimum(b *testing.B) {
	benchDominateSAT(b, 10, puzzle.Optimum, "", "")
}
func BenchmarkDominateSATQueens7Count(b *testing.B) { benchDominateSAT(b, 7, puzzle.Count, "", "") }
func BenchmarkDominateSATQueens9Count(b *testing.B) { benchDominateSAT(b, 9, puzzle.Count, "", "") }

// The SAT-side targets on gophersat: the optimum with proof up to
// n = 13 within 60 s (the line model, UNSAT-SAT ascent, Hilbert order and
// lex-leader), and the count of minimum sets up to n = 11 within 10 s
// (the same model, counted by blocking clauses on one kept solver).
const linesBest = "unsatsat-lines-hilbert-lex+totalizer"

func BenchmarkDominateSATLinesQueens12Optimum(b *testing.B) {
	benchDominateSAT(b, 12, puzzle.Optimum, linesBest, "")
}
func BenchmarkDominateSATLinesQueens13Optimum(b *testing.B) {
	benchDominateSAT(b, 13, puzzle.Optimum, linesBest, "")
}
func BenchmarkDominateSATLinesQueens8Count(b *testing.B) {
	benchDominateSAT(b, 8, puzzle.Count, linesBest, "gophersat-blocking")
}
func BenchmarkDominateSATLinesQueens11Count(b *testing.B) {
	benchDominateSAT(b, 11, puzzle.Count, linesBest, "gophersat-blocking")
}

// TestDominateSATUnique: the lex-leader models keep exactly one set per
// symmetry class: their count of minimum sets is A002563 for n = 1..7, their count expanded by orbits is A002564, and the other
// models refuse task unique.
func TestDominateSATUnique(t *testing.T) {
	for n := 1; n <= 7; n++ {
		spec := fmt.Sprintf("dominate:%dx%d:Q", n, n)
		want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Unique)
		if !ok {
			t.Fatalf("%s: no published unique count", spec)
		}
		// Not the modulo totalizers: counting through them is slow here
		// (7x7 takes 10 s and more).
		for _, model := range []string{"satunsat-lex+seqcounter", "satunsat-hilbert-lex+totalizer", "satunsat-coverage-lex+seqcounter",
			"satunsat-inc-hilbert-lex+seqcounter", "satunsat-inc-coverage-lex+totalizer", "pbmin-lex+totalizer",
			"satunsat-lines-lex+seqcounter", "unsatsat-lines-hilbert-lex+totalizer"} {
			if got := domSAT(t, spec, model, puzzle.Unique); got.Status != puzzle.OK || got.Count != want {
				t.Errorf("%s %s: %s %d classes, want %d", spec, model, got.Status, got.Count, want)
			}
		}
	}
	// Count under lex-leader: the classes expanded by their orbits give
	// A002564, n = 1..7.
	a002564 := []uint64{1, 4, 1, 12, 186, 4, 86}
	for n := 1; n <= 7; n++ {
		spec := fmt.Sprintf("dominate:%dx%d:Q", n, n)
		for _, model := range []string{"satunsat-hilbert-lex+seqcounter", "satunsat-inc-coverage-lex+totalizer", "satunsat-lines-hilbert-lex+seqcounter"} {
			if got := domSAT(t, spec, model, puzzle.Count); got.Status != puzzle.OK || got.Count != a002564[n-1] {
				t.Errorf("%s %s count: %s %d, A002564 says %d", spec, model, got.Status, got.Count, a002564[n-1])
			}
		}
	}
	// The plain model refuses unique; the default (lex-leader) answers it,
	// with the classes, and hands task all to the plain model.
	if _, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("dominate:5x5:Q"), Task: puzzle.Unique, Encoding: "satunsat+seqcounter"}); err == nil {
		t.Error("the plain model accepted task unique")
	}
	if got, want := domSAT(t, "dominate:5x5:Q", "", puzzle.Unique), domSAT(t, "dominate:5x5:Q", "satunsat-lex+seqcounter", puzzle.Unique); got.Status != puzzle.OK || got.Count != want.Count || got.Encoding != "unsatsat-lines-hilbert-lex+totalizer" {
		t.Errorf("default model, unique: %s %d classes by %s, want %d by unsatsat-lines-hilbert-lex+totalizer", got.Status, got.Count, got.Encoding, want.Count)
	}
	if got := domSAT(t, "dominate:4x4:Q", "", puzzle.All); got.Status != puzzle.OK || got.Count != 12 || got.Encoding != "satunsat+seqcounter" {
		t.Errorf("default model, all: %s %d sets by %s, want 12 (A002564) by satunsat+seqcounter", got.Status, got.Count, got.Encoding)
	}
}

// TestHilbertOrder: the Hilbert index is a bijection of the 2^m x 2^m
// grid along which consecutive cells are neighbours.
func TestHilbertOrder(t *testing.T) {
	for _, side := range []int{1, 2, 4, 8, 16} {
		at := make([][2]int, side*side)
		seen := make([]bool, side*side)
		for x := range side {
			for y := range side {
				d := hilbertIndex(side, x, y)
				if d < 0 || d >= side*side || seen[d] {
					t.Fatalf("side %d: index %d of (%d,%d) out of range or repeated", side, d, x, y)
				}
				seen[d], at[d] = true, [2]int{x, y}
			}
		}
		for d := 1; d < side*side; d++ {
			dx, dy := at[d][0]-at[d-1][0], at[d][1]-at[d-1][1]
			if dx*dx+dy*dy != 1 {
				t.Errorf("side %d: steps %d and %d at %v and %v are not neighbours", side, d-1, d, at[d-1], at[d])
			}
		}
	}
}

// TestDominateOptionsAgree: Hilbert and coverage order, lex-leader
// symmetry breaking, the line model, the incremental descent and
// gophersat's own optimisation change neither the optimum nor the count (the lex-leader
// models count classes times orbit sizes), on every piece, on square and
// rectangular boards, with and without k= and independent.
func TestDominateOptionsAgree(t *testing.T) {
	for _, s := range []string{"dominate:6x6:Q", "dominate:5x4:N", "dominate:5x5:K:independent", "dominate:6x3:B", "dominate:5x5:R:k=5",
		"dominate:7x4:Q:independent", "dominate:6x5:B:k=6", "dominate:5x3:R"} {
		base := domSAT(t, s, "satunsat+seqcounter", puzzle.Optimum)
		for _, m := range []string{"satunsat-hilbert+seqcounter", "satunsat-lex+totalizer", "satunsat-hilbert-lex+cardnet",
			"satunsat-coverage+seqcounter", "satunsat-coverage-lex+kmtotalizer", "satunsat-inc-coverage-lex+seqcounter", "pbmin-lex+seqcounter",
			"satunsat-lines+cardnet", "satunsat-lines-lex+totalizer", "unsatsat-lines-lex+seqcounter", "unsatsat-lines-hilbert-lex+native"} {
			if got, want := domValue(domSAT(t, s, m, puzzle.Optimum), puzzle.Optimum), domValue(base, puzzle.Optimum); got != want {
				t.Errorf("%s %s optimum: %s, row-major without symmetry breaking %s", s, m, got, want)
			}
		}
		for _, m := range []string{"satunsat-hilbert+seqcounter", "satunsat-coverage+totalizer", "satunsat-lex+seqcounter", "satunsat-inc-hilbert-lex+totalizer", "pbmin-lex+seqcounter",
			"satunsat-lines+totalizer", "satunsat-lines-hilbert-lex+seqcounter"} {
			if got, want := domValue(domSAT(t, s, m, puzzle.Count), puzzle.Count), domValue(domSAT(t, s, "", puzzle.Count), puzzle.Count); got != want {
				t.Errorf("%s %s count: %s, row-major %s", s, m, got, want)
			}
		}
	}
}

// TestDominateOPBOptimisers: the OPB export (domination clauses and the
// objective "min:" over the pieces, no size bound) run through the
// external optimisers minisat+ and clasp, and the WCNF export (the same
// clauses hard, one soft "no piece on s" per square) through clasp as a
// MaxSAT solver, give the published minimum (OEIS A075458, which the
// native search proves too) for queens n = 5..8: their optimal model
// decodes to a set the checker accepts, and Check holds a set without k=
// to the published minimum.
func TestDominateOPBOptimisers(t *testing.T) {
	for _, run := range []struct{ solver, format string }{{"minisat+", "opb"}, {"clasp", "opb"}, {"clasp", "wcnf"}} {
		solver := run.solver
		cnftest.NeedSolver(t, solver)
		for n := 5; n <= 8; n++ {
			spec := puzzle.MustParse(fmt.Sprintf("dominate:%dx%d:Q", n, n))
			e, c, err := Resolve("dominate", "native")
			if err != nil {
				t.Fatal(err)
			}
			inst, err := e.Build(spec, c, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			write, objective := inst.Formula.WriteOPB, "\nmin: +1 x1 +1 x2 "
			if run.format == "wcnf" {
				write, objective = inst.Formula.WriteWCNF, "\n1 -1 0\n1 -2 0\n"
			}
			if err := write(&buf); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), objective) {
				t.Fatalf("%s: no objective in the %s export", spec, run.format)
			}
			path := filepath.Join(t.TempDir(), "dominate."+run.format)
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			sat, model := cnftest.RunSolver(t, solver, path, inst.Formula.NumVars())
			if !sat {
				t.Fatalf("%s on %s (%s): unsatisfiable", solver, spec, run.format)
			}
			sol, err := inst.Decode(model)
			if err != nil {
				t.Fatal(err)
			}
			// Check holds a set without k= to the published minimum.
			if err := puzzle.Check(spec, sol); err != nil {
				t.Errorf("%s on %s (%s): %v", solver, spec, run.format, err)
			}
		}
	}
}

// TestDominateSATLarger: the new searches on the first boards where they
// do real work: A075458 gives 5 for n = 8 and 9 (satunsat-inc with
// Hilbert order and lex-leader, pbmin with lex-leader on n = 8 only, satunsat with
// coverage order and lex-leader), and A002564 gives 86 minimum sets for
// n = 7 through the incremental descent.
func TestDominateSATLarger(t *testing.T) {
	for _, n := range []int{8, 9} {
		spec := fmt.Sprintf("dominate:%dx%d:Q", n, n)
		for _, m := range []string{"satunsat-inc-hilbert-lex+seqcounter", "pbmin-lex+seqcounter", "satunsat-coverage-lex+kmtotalizer"} {
			if n == 9 && strings.HasPrefix(m, "pbmin") {
				continue // 10 s: too long for a test
			}
			if got := domValue(domSAT(t, spec, m, puzzle.Optimum), puzzle.Optimum); got != "5/5" {
				t.Errorf("%s %s: %s, A075458 says 5", spec, m, got)
			}
		}
	}
	if got := domValue(domSAT(t, "dominate:7x7:Q", "satunsat-inc+totalizer", puzzle.Count), puzzle.Count); got != "86" {
		t.Errorf("dominate:7x7:Q satunsat-inc+totalizer count: %s, A002564 says 86", got)
	}
	for _, m := range []string{"satunsat-inc", "pbmin"} {
		_, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("dominate:4x4:Q"), Task: puzzle.Optimum, Encoding: m + "+seqcounter", Solver: "minisat"})
		if err == nil || !strings.Contains(err.Error(), "gophersat") {
			t.Errorf("%s with minisat: %v, want an error naming gophersat", m, err)
		}
	}
}

// TestDominateLinesLarger: the line model where it earns its keep. The
// UNSAT-SAT ascent with Hilbert order and lex-leader proves A075458's 5
// for n = 10 and 11, and counting by blocking clauses on one kept
// gophersat (the solver gophersat-blocking) gives A002564's 8 minimum
// sets for n = 10; the line variables are fixed by the pieces, so no set
// is counted twice.
func TestDominateLinesLarger(t *testing.T) {
	for _, n := range []int{10, 11} {
		spec := fmt.Sprintf("dominate:%dx%d:Q", n, n)
		if got := domValue(domSAT(t, spec, "unsatsat-lines-hilbert-lex+seqcounter", puzzle.Optimum), puzzle.Optimum); got != "5/5" {
			t.Errorf("%s: %s, A075458 says 5", spec, got)
		}
	}
	ans, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("dominate:10x10:Q"), Task: puzzle.Count,
		Encoding: "unsatsat-lines-hilbert-lex+totalizer", Solver: "gophersat-blocking"})
	if err != nil {
		t.Fatal(err)
	}
	if got := domValue(ans, puzzle.Count); got != "8" {
		t.Errorf("dominate:10x10:Q count by blocking: %s, A002564 says 8", got)
	}
}

// TestDominateLinesIgnoredOffLines: kings and knights attack off the
// lines, so the line models give them the plain domination clauses: the
// same formula size as satunsat and the same answers.
func TestDominateLinesIgnoredOffLines(t *testing.T) {
	enc, err := card.Lookup("seqcounter")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"dominate:5x5:K", "dominate:5x4:N:k=5"} {
		spec := puzzle.MustParse(s)
		plain, err := dominateFormula(spec.(puzzle.Dominate), enc, 5, dominateConfig{})
		if err != nil {
			t.Fatal(err)
		}
		lined, err := dominateFormula(spec.(puzzle.Dominate), enc, 5, dominateConfig{lines: true})
		if err != nil {
			t.Fatal(err)
		}
		if plain.f.Stats() != lined.f.Stats() {
			t.Errorf("%s: line model %+v, plain %+v", s, lined.f.Stats(), plain.f.Stats())
		}
		for _, task := range []puzzle.Task{puzzle.Optimum, puzzle.Count} {
			if got, want := domValue(domSAT(t, s, "satunsat-lines+seqcounter", task), task), domValue(domSAT(t, s, "satunsat+seqcounter", task), task); got != want {
				t.Errorf("%s %s: line model %s, plain %s", s, task, got, want)
			}
		}
	}
}
