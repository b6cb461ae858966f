package certify_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/proof/certify"
	"github.com/boardsat/boardsat/puzzle"
)

// proofSolvers are the solvers that write proofs; cadical is external
// (skipped when absent, a failure under CI=true).
func proofSolvers(t *testing.T) []string {
	out := []string{"gophersat"}
	if !cnftest.MissingSolver(t, "cadical") {
		out = append(out, "cadical")
	}
	return out
}

// solveCertified runs one request on the sat backend under rec.
func solveCertified(t *testing.T, rec *certify.Recorder, spec, task, encoding, solver string) puzzle.Answer {
	t.Helper()
	s, err := puzzle.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := puzzle.ParseTask(task)
	if err != nil {
		t.Fatal(err)
	}
	b, err := puzzle.Backends.Lookup("sat")
	if err != nil {
		t.Fatal(err)
	}
	ans, err := b.Solve(sat.WithProofs(context.Background(), rec), puzzle.Request{Spec: s, Task: tk, Encoding: encoding, Solver: solver})
	if err != nil {
		t.Fatalf("%s %s: %v", spec, task, err)
	}
	return ans
}

// assertAllVerified asserts that the run made want refutations (at least
// one when want is 0), every one verified by the checkers.
func assertAllVerified(t *testing.T, name string, rec *certify.Recorder, want int) {
	t.Helper()
	recs := rec.Records()
	if len(recs) == 0 || want > 0 && len(recs) != want {
		t.Fatalf("%s: %d refutations, want %d", name, len(recs), want)
	}
	for _, r := range recs {
		if !r.Verified {
			t.Errorf("%s: refutation %d (%s) not verified: %s", name, r.Index, r.Claim, r.Reason)
		}
		if r.Checker != proof.Checker {
			t.Errorf("%s: refutation %d checked by %q, want both checkers (%s)", name, r.Index, r.Checker, proof.Checker)
		}
		if r.Claim == "" || r.Lemmas == 0 && r.Bytes == 0 {
			t.Errorf("%s: refutation %d has no claim or no proof: %+v", name, r.Index, r)
		}
	}
	if !rec.Certified() || rec.Failure() != "" {
		t.Errorf("%s: not certified: %s", name, rec.Failure())
	}
}

// TestSweepUnsatFamilies: small UNSAT instances of every family, each
// proof of each proof-giving solver verified.
func TestSweepUnsatFamilies(t *testing.T) {
	type tc struct {
		spec, task, encoding string
		status               puzzle.Status
		refutations          int
		claim                string
	}
	cases := []tc{
		{"queens:2", "first", "", puzzle.Unsat, 1, "queens:2 has no solution"},
		{"queens:3", "first", "", puzzle.Unsat, 1, "queens:3 has no solution"},
		{"pieces:3x3:Q3", "first", "", puzzle.Unsat, 1, "pieces:3x3:Q3 has no solution"},
		// swap:4x3 needs 22 moves: every length 0..21 is refuted, those
		// the parity argument skips too.
		{"swap:4x3", "shortest", "", puzzle.OK, 22, "has no plan of exactly 21 moves"},
	}
	// Domination at one below the minimum, for n <= 8.
	for n := 4; n <= 8; n++ {
		d := puzzle.Dominate{Board: puzzle.Board{W: n, H: n}, Piece: puzzle.Queen}
		g, ok := puzzle.KnownOptimum(d)
		if !ok {
			t.Fatalf("no published minimum for %s", d)
		}
		cases = append(cases, tc{fmt.Sprintf("dominate:%dx%d:Q:k=%d", n, n, g-1), "first", "satunsat-lines-hilbert-lex+totalizer", puzzle.Unsat, 1,
			fmt.Sprintf("dominate:%dx%d:Q has no dominating set of at most %d queens", n, n, g-1)})
	}
	for _, solver := range proofSolvers(t) {
		for _, c := range cases {
			name := solver + "/" + c.spec
			rec := &certify.Recorder{}
			ans := solveCertified(t, rec, c.spec, c.task, c.encoding, solver)
			if ans.Status != c.status {
				t.Errorf("%s: status %s (%s), want %s", name, ans.Status, ans.Message, c.status)
				continue
			}
			assertAllVerified(t, name, rec, c.refutations)
			if claims := rec.Certificate().Claims; !strings.Contains(claims[len(claims)-1], c.claim) {
				t.Errorf("%s: last claim %q, want it to say %q", name, claims[len(claims)-1], c.claim)
			}
		}
	}
}

// TestCorruptedProofIsAnError: a proof mutated before its check makes the
// answer an error that names the refutation, never unsat.
func TestCorruptedProofIsAnError(t *testing.T) {
	mutations := map[string]func([]byte) []byte{
		"truncated": func(p []byte) []byte { return p[:len(p)/2] },
		// The empty clause alone: it does not follow by unit propagation.
		"empty clause only": func(p []byte) []byte { return []byte("0\n") },
		// Every lemma's first literal negated.
		"flipped literals": func(p []byte) []byte {
			var out [][]byte
			for _, l := range bytes.Split(p, []byte("\n")) {
				if len(l) > 0 && l[0] != 'd' && string(l) != "0" {
					if l[0] == '-' {
						l = l[1:]
					} else {
						l = append([]byte("-"), l...)
					}
				}
				out = append(out, l)
			}
			return bytes.Join(out, []byte("\n"))
		},
	}
	for _, solver := range proofSolvers(t) {
		for name, m := range mutations {
			rec := &certify.Recorder{Mutate: func(i int, p []byte) []byte { return m(p) }}
			ans := solveCertified(t, rec, "dominate:6x6:Q:k=2", "first", "satunsat+totalizer", solver)
			want := "refutation 1 (dominate:6x6:Q has no dominating set of at most 2 queens) NOT VERIFIED"
			if ans.Status != puzzle.Error || !strings.Contains(ans.Message, want) {
				t.Errorf("%s, %s proof: status %s, message %q; want error with %q", solver, name, ans.Status, ans.Message, want)
			}
			if rec.Certified() || !strings.Contains(rec.Failure(), want) {
				t.Errorf("%s, %s proof: certified %v, failure %q", solver, name, rec.Certified(), rec.Failure())
			}
			// The failed claim is not among the claims proved.
			c := rec.Certificate()
			if len(c.Claims) != 0 || len(c.Failed) != 1 || !strings.Contains(c.Failed[0], want) || c.Refutations != 1 {
				t.Errorf("%s, %s proof: claims %q, failed %q, %d refutations; want no claim, the failure, 1", solver, name, c.Claims, c.Failed, c.Refutations)
			}
		}
	}
}

// TestCertifiedCountsArePublished: certified counts (every model checked,
// the formula with their blocking clauses refuted) equal the published
// counts, for plain and lex-leader (orbit-weighted) models.
func TestCertifiedCountsArePublished(t *testing.T) {
	cases := []struct{ spec, encoding string }{
		{"queens:4", ""}, {"queens:5", ""}, {"queens:6", ""}, {"queens:7", ""},
		{"dominate:4x4:Q", "satunsat+totalizer"},
		{"dominate:5x5:Q", "satunsat-lines-hilbert-lex+totalizer"},
		{"dominate:6x6:Q", "satunsat-lines-hilbert-lex+totalizer"},
		{"dominate:7x7:Q", "satunsat-lines-hilbert-lex+totalizer"},
	}
	for _, c := range cases {
		spec, _ := puzzle.Parse(c.spec)
		want, ok := puzzle.KnownCount(spec, puzzle.Count)
		if !ok {
			t.Fatalf("no published count for %s", c.spec)
		}
		rec := &certify.Recorder{}
		ans := solveCertified(t, rec, c.spec, "count", c.encoding, "")
		if ans.Status != puzzle.OK || ans.Count != want {
			t.Errorf("%s: status %s count %d (%s), want ok %d", c.spec, ans.Status, ans.Count, ans.Message, want)
			continue
		}
		assertAllVerified(t, c.spec, rec, 0)
		claims := rec.Certificate().Claims
		if last := claims[len(claims)-1]; !strings.Contains(last, "has no model beyond the") {
			t.Errorf("%s: last claim %q is not the count's refutation", c.spec, last)
		}
		if strings.Contains(c.encoding, "lex") {
			args := strings.Join(rec.Certificate().Arguments, "\n")
			if !strings.Contains(args, fmt.Sprintf("the count %d is the sum of the orbit sizes", want)) {
				t.Errorf("%s: the orbit arithmetic is not named: %q", c.spec, args)
			}
		}
	}
}

// TestProofDirectory: --proof DIR's files, and its refusal of a directory
// in use.
func TestProofDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "proofs")
	if err := certify.PrepareDir(dir, false); err != nil {
		t.Fatal(err)
	}
	rec := &certify.Recorder{Dir: dir}
	ans := solveCertified(t, rec, "dominate:5x5:Q", "optimum", "unsatsat+totalizer", "")
	if ans.Status != puzzle.OK || ans.Objective.Int64() != 3 {
		t.Fatalf("status %s objective %v", ans.Status, ans.Objective)
	}
	if err := rec.WriteManifest("boardsat solve dominate:5x5:Q", "ok, objective 3"); err != nil {
		t.Fatal(err)
	}
	m, err := os.ReadFile(filepath.Join(dir, "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 3; k++ {
		line := fmt.Sprintf("%03d.cnf\t%03d.drat\tVERIFIED\tgophersat\t", k+1, k+1)
		claim := fmt.Sprintf("\tdominate:5x5:Q has no dominating set of at most %d queens\tdrat-trim %03d.cnf %03d.drat\n", k, k+1, k+1)
		if !strings.Contains(string(m), line) || !strings.Contains(string(m), claim) {
			t.Errorf("MANIFEST lacks refutation %d:\n%s", k+1, m)
		}
		for _, ext := range []string{".cnf", ".drat"} {
			if st, err := os.Stat(filepath.Join(dir, fmt.Sprintf("%03d%s", k+1, ext))); err != nil || st.Size() == 0 {
				t.Errorf("%03d%s missing or empty: %v", k+1, ext, err)
			}
		}
	}
	if err := certify.PrepareDir(dir, false); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a directory in use was not refused: %v", err)
	}
	if err := certify.PrepareDir(dir, true); err != nil {
		t.Errorf("--force refused: %v", err)
	}
}
