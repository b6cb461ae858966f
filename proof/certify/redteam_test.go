package certify_test

// Adversarial tests of certified answers: a proof checked against a
// formula other than the one it refutes (the bound or the kept solver's
// added units left out), a proof file replaced after the solver wrote
// it, the CNF written to the proof directory held to the formula that
// was checked, and cube-and-conquer on a cube variable outside the
// projection, which must not make two cubes count one model.

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/proof/certify"
	"github.com/boardsat/boardsat/puzzle"
)

// rtFormula builds a formula of vars primary variables and clauses.
func rtFormula(vars int, clauses [][]int) *cnf.Formula {
	f := cnf.New()
	for v := range vars {
		f.Var("v" + string(rune('a'+v)))
	}
	for _, c := range clauses {
		lits := make([]cnf.Lit, len(c))
		for i, l := range c {
			lits[i] = cnf.Lit(l)
		}
		f.Add(lits...)
	}
	return f
}

// rtProofFile writes an ASCII DRAT proof to a file.
func rtProofFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "p.drat")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// rtClauses reads back a DIMACS file as clauses.
func rtClauses(t *testing.T, path string) *proof.CNF {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := proof.ReadCNF(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// rtSame reports whether the file's formula is f, clause by clause.
func rtSame(f *cnf.Formula, g *proof.CNF) bool {
	if f.NumVars() != g.Vars || f.NumClauses() != len(g.Clauses) {
		return false
	}
	for i := range f.NumClauses() {
		c := f.Clause(i)
		if len(c) != len(g.Clauses[i]) {
			return false
		}
		for j, l := range c {
			if int(l) != g.Clauses[i][j] {
				return false
			}
		}
	}
	return true
}

// TestRedteamProofOfAnotherFormula hands the recorder proofs of a formula
// with one clause more (the bound "not both") than the formula named:
// never verified, the run not certified, the failure named.
func TestRedteamProofOfAnotherFormula(t *testing.T) {
	base := [][]int{{1, 2}, {-1, 2}, {1, -2}} // a model: 1, 2 true
	bounded := append(slices.Clone(base), []int{-1, -2})
	for _, pr := range []string{"2 0\n0\n", "2 0\n1 0\n0\n", "0\n", "-1 -2 0\n2 0\n0\n"} {
		rec := &certify.Recorder{}
		err := rec.Refuted(context.Background(), sat.Refutation{Claim: "base", Formula: rtFormula(2, base), Solver: "test", ProofFile: rtProofFile(t, pr)})
		if err == nil || rec.Certified() || rec.Failure() == "" || rec.Records()[0].Verified {
			t.Errorf("proof %q of the bounded formula accepted for the base one: %v", pr, err)
		}
	}
	// The proof is verified for the formula it refutes (the test is not
	// merely strict).
	rec := &certify.Recorder{}
	if err := rec.Refuted(context.Background(), sat.Refutation{Claim: "bounded", Formula: rtFormula(2, bounded), Solver: "test", ProofFile: rtProofFile(t, "2 0\n0\n")}); err != nil || !rec.Certified() {
		t.Errorf("a valid proof not verified: %v", err)
	}
	// A proof replaced after the solver wrote it (Mutate): empty, binary,
	// of another formula.
	for name, mut := range map[string]string{"empty": "", "binary": "a\x04\x00a\x00", "another formula's": "3 0\n0\n", "cut inside a step": "-1 2 0\n1"} {
		rec := &certify.Recorder{Mutate: func(int, []byte) []byte { return []byte(mut) }}
		err := rec.Refuted(context.Background(), sat.Refutation{Claim: "bounded", Formula: rtFormula(2, bounded), Solver: "test", ProofFile: rtProofFile(t, "2 0\n0\n")})
		if err == nil || rec.Certified() {
			t.Errorf("%s proof accepted", name)
		}
	}
}

// TestRedteamSolvedFormulaIsChecked: an UNSAT of sat.Solve and of a kept
// solver (Session) with bound units added is checked against the whole
// formula solved, bounds included: the CNF written to the proof directory
// is that formula clause by clause, its proof is verified for it, and not
// for the formula without the bounds (which has a model).
func TestRedteamSolvedFormulaIsChecked(t *testing.T) {
	base := [][]int{{1, 2, 3}, {-1, -2}, {-2, -3}, {-1, -3}} // exactly one of three
	for _, kept := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "proofs")
		if err := certify.PrepareDir(dir, false); err != nil {
			t.Fatal(err)
		}
		rec := &certify.Recorder{Dir: dir}
		ctx := sat.WithProofs(context.Background(), rec)
		var solved *cnf.Formula
		var r sat.Result
		if kept {
			s := sat.NewSession(ctx, rtFormula(3, base))
			defer s.Close()
			s.Add(-1)
			if r = s.Solve(ctx); r.Status != puzzle.OK {
				t.Fatalf("kept: %s %s", r.Status, r.Message)
			}
			s.Add(-2)
			s.Add(-3)
			r = s.Solve(ctx)
			solved = s.Formula()
		} else {
			solved = rtFormula(3, append(slices.Clone(base), []int{-1}, []int{-2}, []int{-3}))
			var err error
			if r, err = sat.Solve(ctx, solved, ""); err != nil {
				t.Fatal(err)
			}
		}
		if r.Status != puzzle.Unsat || !rec.Certified() || len(rec.Records()) != 1 {
			t.Fatalf("kept %v: %s %s, %d refutations", kept, r.Status, r.Message, len(rec.Records()))
		}
		written := rtClauses(t, filepath.Join(dir, "001.cnf"))
		if !rtSame(solved, written) {
			t.Fatalf("kept %v: the CNF written is not the formula solved:\n%v", kept, written.Clauses)
		}
		drat, err := os.ReadFile(filepath.Join(dir, "001.drat"))
		if err != nil {
			t.Fatal(err)
		}
		var cnfText bytes.Buffer
		if err := solved.WriteDIMACS(&cnfText); err != nil {
			t.Fatal(err)
		}
		if rep, err := proof.Verify(&cnfText, bytes.NewReader(drat), proof.Options{}); err != nil || !rep.Verified {
			t.Errorf("kept %v: the proof written is not verified for the formula written: %v %s", kept, err, rep.Reason)
		}
		cnfText.Reset()
		if err := rtFormula(3, base).WriteDIMACS(&cnfText); err != nil {
			t.Fatal(err)
		}
		if rep, err := proof.Verify(&cnfText, bytes.NewReader(drat), proof.Options{}); err == nil && rep.Verified {
			t.Errorf("kept %v: the proof is verified for the formula without its bounds, which has a model", kept)
		}
	}
}

// projected counts the assignments of f's primary variables that extend
// to a model, by enumeration (tiny formulas).
func projected(f *cnf.Formula) int {
	n := f.NumVars()
	seen := map[int]bool{}
	model := make([]bool, n+1)
	for m := 0; m < 1<<n; m++ {
		key := 0
		for v := 1; v <= n; v++ {
			model[v] = m>>(v-1)&1 == 1
			if f.Primary(v) && model[v] {
				key |= 1 << (v - 1)
			}
		}
		if f.Satisfied(model) {
			seen[key] = true
		}
	}
	return len(seen)
}

// TestRedteamCubeOnAuxVariable: a certified count split into cubes over
// a variable outside the projection. A free auxiliary variable would put
// every projected model in both cubes (the sum twice the count): the
// count must not be certified ok with a wrong number. A defined one (a
// <-> x) is proved a function of the projection and counts right.
func TestRedteamCubeOnAuxVariable(t *testing.T) {
	for _, defined := range []bool{false, true} {
		f := cnf.New()
		x := f.Var("x")
		y := f.Var("y")
		a := f.Aux("a")
		f.Add(x, y)
		if defined {
			f.Add(a.Not(), x)
			f.Add(x.Not(), a)
		}
		want := projected(f)
		rec := &certify.Recorder{}
		ctx := sat.WithProofs(context.Background(), rec)
		r, err := sat.Count(ctx, f, sat.CountOptions{Cubes: 1, CubeVars: []cnf.Lit{a}, Split: &puzzle.SplitOptions{}})
		if err != nil {
			t.Fatalf("defined %v: %v", defined, err)
		}
		if r.Status == puzzle.OK && rec.Certified() && r.Count != uint64(want) {
			t.Errorf("defined %v: certified count %d, the projected count is %d", defined, r.Count, want)
		}
		if defined && (r.Status != puzzle.OK || r.Count != uint64(want) || !rec.Certified()) {
			t.Errorf("defined %v: %s %d (%s), want the certified count %d", defined, r.Status, r.Count, r.Message, want)
		}
		if !defined && r.Status == puzzle.OK {
			t.Errorf("defined %v: ok with count %d", defined, r.Count)
		}
		if defined {
			claims := strings.Join(rec.Certificate().Claims, "\n")
			if !strings.Contains(claims, "the cube variable a is a function of the primary variables") {
				t.Errorf("no claim that a is a function of the projection:\n%s", claims)
			}
		}
	}
}

// TestRedteamUnsatArgumentsListed: a certified "no plan" of swap rests on
// refutations of every length up to a bound and on the argument that no
// plan is longer than that bound (no loop-free run of one move more), or
// on knight distances; that argument is not a refutation, so the
// certificate must list it.
func TestRedteamUnsatArgumentsListed(t *testing.T) {
	for _, spec := range []string{"swap:3x2", "swap:2x2"} {
		rec := &certify.Recorder{}
		ans := solveCertified(t, rec, spec, "shortest", "", "gophersat")
		if ans.Status != puzzle.Unsat {
			t.Fatalf("%s: %s, want unsat", spec, ans.Status)
		}
		c := rec.Certificate()
		if !rec.Certified() || len(c.Arguments) == 0 {
			t.Errorf("%s: certified %v with arguments %q and claims %q: the step from the refutations to 'no plan' is listed nowhere", spec, rec.Certified(), c.Arguments, c.Claims)
		}
	}
}

// dratTrim returns the drat-trim binary on PATH, or "" after logging that
// the part of a test that runs it is skipped. drat-trim is no Debian
// package and CI cannot install it, so its absence is never a failure.
func dratTrim(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("drat-trim")
	if err != nil {
		t.Log("drat-trim is not on PATH: the proof files are not run through it (boardsat's checkers and the structural checks still are)")
		return ""
	}
	return p
}

// manifestChecks returns the check command of each refutation line of
// dir/MANIFEST, by its CNF file name.
func manifestChecks(t *testing.T, dir string) map[string][]string {
	t.Helper()
	m, err := os.ReadFile(filepath.Join(dir, "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(m), "\n"), "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "cnf\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			t.Fatalf("MANIFEST line with %d fields, want 8: %q", len(f), line)
		}
		out[f[0]] = strings.Fields(f[7])
	}
	return out
}

// runCheck runs a MANIFEST check command in dir and returns its verdict:
// true for "s VERIFIED", false for "s NOT VERIFIED"; any other output is
// a failure of the test.
func runCheck(t *testing.T, dir string, bin string, args []string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	out, _ := cmd.Output()
	var verdicts []string
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.Trim(l, "\r") // drat-trim starts some lines with a carriage return
		if strings.HasPrefix(l, "s ") {
			verdicts = append(verdicts, l)
		}
	}
	if len(verdicts) != 1 || verdicts[0] != "s VERIFIED" && verdicts[0] != "s NOT VERIFIED" {
		t.Fatalf("%s %v: verdict lines %q in\n%s", bin, args, verdicts, out)
	}
	return verdicts[0] == "s VERIFIED"
}

// assertCommentsFirst asserts that a CNF file of the proof directory has
// no comment (nor anything but clauses) after its "p cnf" header: drat-trim
// reads a comment there as an empty clause in its binary mode.
func assertCommentsFirst(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header := false
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "p cnf "):
			if header {
				t.Errorf("%s line %d: a second header", path, i+1)
				return
			}
			header = true
		case !header && !strings.HasPrefix(l, "c"):
			t.Errorf("%s line %d: %q before the header", path, i+1, l)
			return
		case header && (l == "" || !strings.HasSuffix(l, " 0") && l != "0" || strings.ContainsFunc(l, func(r rune) bool { return r != '-' && r != ' ' && (r < '0' || r > '9') })):
			t.Errorf("%s line %d: %q after the header is not a clause", path, i+1, l)
			return
		}
	}
	if !header {
		t.Errorf("%s: no header", path)
	}
}

// TestRedteamProofFilesRejectSatisfiable: the files --proof DIR writes
// for a satisfiable formula, with the proofs that once fooled drat-trim
// (empty, the empty clause alone, one binary step), are rejected by
// boardsat's checkers and, when it is on PATH, by the MANIFEST's drat-trim
// command; every CNF file has its comments before the header; and the
// files of real refutations are verified by the same command (the check
// is not merely strict).
func TestRedteamProofFilesRejectSatisfiable(t *testing.T) {
	dt := dratTrim(t)
	// A satisfiable formula with auxiliary variables, so that its file
	// has the projection and name comments: exactly one of x, y, z, by a
	// ladder of auxiliaries.
	sat3 := func() *cnf.Formula {
		f := cnf.New()
		x, y, z := f.Var("x"), f.Var("y"), f.Var("z")
		a, b := f.Aux("a"), f.Aux("b")
		f.Add(x, y, z)
		f.Add(x.Not(), a)
		f.Add(a.Not(), y.Not())
		f.Add(a.Not(), b)
		f.Add(y.Not(), b)
		f.Add(b.Not(), z.Not())
		return f
	}
	if projected(sat3()) != 3 {
		t.Fatalf("the test formula has %d projected models, want 3", projected(sat3()))
	}
	for name, pr := range map[string]string{"empty": "", "empty clause": "0\n", "binary": "a\x02\x00", "unit then empty clause": "1 0\n0\n"} {
		dir := filepath.Join(t.TempDir(), "proofs")
		if err := certify.PrepareDir(dir, false); err != nil {
			t.Fatal(err)
		}
		rec := &certify.Recorder{Dir: dir}
		err := rec.Refuted(context.Background(), sat.Refutation{Claim: "exactly one of three has no model", Formula: sat3(), Solver: "test", ProofFile: rtProofFile(t, pr)})
		if err == nil || rec.Certified() {
			t.Errorf("%s proof of a satisfiable formula accepted by the recorder", name)
		}
		if err := rec.WriteManifest("test", "error"); err != nil {
			t.Fatal(err)
		}
		cnfPath, dratPath := filepath.Join(dir, "001.cnf"), filepath.Join(dir, "001.drat")
		assertCommentsFirst(t, cnfPath)
		cnfData, err1 := os.ReadFile(cnfPath)
		dratData, err2 := os.ReadFile(dratPath)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !strings.Contains(string(cnfData), "c p show 1 2 3 0\n") {
			t.Errorf("%s: the CNF file lost its projection comment:\n%s", name, cnfData)
		}
		if rep, err := proof.Verify(bytes.NewReader(cnfData), bytes.NewReader(dratData), proof.Options{}); err == nil && rep.Verified {
			t.Errorf("%s proof of a satisfiable formula verified by boardsat's checkers from the files written", name)
		}
		check := manifestChecks(t, dir)["001.cnf"]
		if len(check) != 3 || check[0] != "drat-trim" || check[1] != "001.cnf" || check[2] != "001.drat" {
			t.Fatalf("MANIFEST check command %q", check)
		}
		if dt != "" && runCheck(t, dir, dt, check[1:]) {
			t.Errorf("%s proof of a satisfiable formula: the MANIFEST's command %q says VERIFIED", name, strings.Join(check, " "))
		}
	}
	// Real refutations: every file commented first, every proof verified
	// by the MANIFEST's command.
	dir := filepath.Join(t.TempDir(), "proofs")
	if err := certify.PrepareDir(dir, false); err != nil {
		t.Fatal(err)
	}
	rec := &certify.Recorder{Dir: dir}
	if ans := solveCertified(t, rec, "dominate:5x5:Q", "optimum", "unsatsat+totalizer", "gophersat"); ans.Status != puzzle.OK || !rec.Certified() {
		t.Fatalf("dominate:5x5:Q: %s %s", ans.Status, ans.Message)
	}
	if err := rec.WriteManifest("test", "ok"); err != nil {
		t.Fatal(err)
	}
	checks := manifestChecks(t, dir)
	if len(checks) != 3 {
		t.Fatalf("%d MANIFEST lines, want 3", len(checks))
	}
	for cnfName, check := range checks {
		assertCommentsFirst(t, filepath.Join(dir, cnfName))
		// Both of boardsat's readers take the layout: the pair is verified
		// from the files.
		cnfData, err1 := os.ReadFile(filepath.Join(dir, cnfName))
		dratData, err2 := os.ReadFile(filepath.Join(dir, check[2]))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if rep, err := proof.Verify(bytes.NewReader(cnfData), bytes.NewReader(dratData), proof.Options{}); err != nil || !rep.Verified {
			t.Errorf("%s: not verified from the files: %v %s", cnfName, err, rep.Reason)
		}
		if dt != "" && !runCheck(t, dir, dt, check[1:]) {
			t.Errorf("%s: the MANIFEST's command %q rejects a proof boardsat verified", cnfName, strings.Join(check, " "))
		}
	}
}

// formulaSink hands every refutation to a recorder and keeps its formula
// and claim, so that a test can look at what was refuted.
type formulaSink struct {
	rec      *certify.Recorder
	mu       sync.Mutex
	formulas []*cnf.Formula
	claims   []string
}

func (s *formulaSink) Refuted(ctx context.Context, ref sat.Refutation) error {
	s.mu.Lock()
	s.formulas = append(s.formulas, ref.Formula)
	s.claims = append(s.claims, ref.Claim)
	s.mu.Unlock()
	return s.rec.Refuted(ctx, ref)
}

func (s *formulaSink) Note(step string) { s.rec.Note(step) }

// TestRedteamSwapRefutationsNotPruned: the swap encoder prunes squares a
// knight cannot reach in time (knight distances), which made the formulas
// of T = 0..3 hold 7 to 14 empty clauses: refuted by the pruning, not by
// the rules, an argument the certificate did not name. A certified run's
// formulas are not pruned: no empty clause, and every square has its
// white and black variable at every step (2 (T+1) n of them), in the
// plans of exactly T moves and in the loop-free runs of the
// recurrence-diameter argument.
func TestRedteamSwapRefutationsNotPruned(t *testing.T) {
	moves := regexp.MustCompile(` has no (plan of exactly|loop-free run of) (\d+) moves`)
	occupancy := regexp.MustCompile(`^[wb]\d+_`)
	for _, c := range []struct {
		spec        string
		squares     int
		status      puzzle.Status
		refutations int
	}{
		{"swap:4x3", 12, puzzle.OK, 22},  // T = 0..21
		{"swap:3x2", 6, puzzle.Unsat, 0}, // the loop-free runs too
	} {
		sink := &formulaSink{rec: &certify.Recorder{}}
		s, err := puzzle.Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		b, err := puzzle.Backends.Lookup("sat")
		if err != nil {
			t.Fatal(err)
		}
		ans, err := b.Solve(sat.WithProofs(context.Background(), sink), puzzle.Request{Spec: s, Task: puzzle.Shortest, Solver: "gophersat"})
		if err != nil || ans.Status != c.status {
			t.Fatalf("%s: %s %v (%s), want %s", c.spec, ans.Status, err, ans.Message, c.status)
		}
		if !sink.rec.Certified() || len(sink.formulas) == 0 || c.refutations > 0 && len(sink.formulas) != c.refutations {
			t.Fatalf("%s: certified %v with %d refutations, want %d", c.spec, sink.rec.Certified(), len(sink.formulas), c.refutations)
		}
		for i, f := range sink.formulas {
			claim := sink.claims[i]
			m := moves.FindStringSubmatch(claim)
			if m == nil {
				t.Fatalf("%s: claim %q names no number of moves", c.spec, claim)
			}
			T, _ := strconv.Atoi(m[2])
			for j := range f.NumClauses() {
				if len(f.Clause(j)) == 0 {
					t.Errorf("%s: refutation %d (%s) holds an empty clause (clause %d)", c.spec, i+1, claim, j+1)
					break
				}
			}
			occ := 0
			for v := 1; v <= f.NumVars(); v++ {
				if occupancy.MatchString(f.Name(v)) {
					occ++
				}
			}
			if want := 2 * (T + 1) * c.squares; occ != want {
				t.Errorf("%s: refutation %d (%s) has %d occupancy variables, want %d: pruned", c.spec, i+1, claim, occ, want)
			}
		}
	}
}
