package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/harness/results"
)

// TestCertifyRefusals: what cannot give a proof is refused under
// --certify in one line, exit 2, before anything runs.
func TestCertifyRefusals(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--encoding", "satunsat+native"}, "pseudo-Boolean constraints"},
		{[]string{"--encoding", "pbmin+totalizer"}, "model pbmin runs gophersat's own PB optimisation, which writes no proof"},
		{[]string{"--solver", "minisat"}, "solver minisat writes no proof"},
		{[]string{"--solver", "clasp"}, "solver clasp writes no proof"},
		{[]string{"--backend", "native"}, "--certify needs a backend that writes proofs (--backend sat): the native backend writes none"},
		{[]string{"--proof", full}, "is not empty"},
		{[]string{"--shard", "1/2", "--task", "count"}, "--certify runs whole"},
	}
	for _, c := range cases {
		args := append([]string{"solve", "dominate:6x6:Q", "--backend", "sat", "--task", "optimum", "--certify"}, c.args...)
		status, out, errb := runCLI(args...)
		if status != 2 || out != "" || strings.Count(errb, "\n") != 1 || !strings.Contains(errb, c.want) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2, nothing, one line with %q", c.args, status, out, errb, c.want)
		}
	}
}

// TestCertifiedJSON: a certified optimum carries certified and its
// certificate, and --proof writes the MANIFEST.
func TestCertifiedJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	status, out, errb := runCLI("solve", "dominate:6x6:Q", "--backend", "sat", "--task", "optimum", "--encoding", "unsatsat+totalizer", "--format", "json", "--proof", dir)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errb)
	}
	var j struct {
		Status      string `json:"status"`
		Objective   int    `json:"objective"`
		Certified   bool   `json:"certified"`
		Certificate struct {
			Format      string   `json:"format"`
			Refutations int      `json:"refutations"`
			Lemmas      int64    `json:"lemmas"`
			Bytes       int64    `json:"bytes"`
			Checker     string   `json:"checker"`
			Claims      []string `json:"claims"`
		} `json:"certificate"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	c := j.Certificate
	if j.Status != "ok" || j.Objective != 3 || !j.Certified || c.Format != "DRAT" || c.Refutations != 3 || c.Lemmas == 0 || c.Bytes == 0 || c.Checker == "" ||
		c.Claims[2] != "dominate:6x6:Q has no dominating set of at most 2 queens" {
		t.Errorf("answer %s", out)
	}
	m, err := os.ReadFile(filepath.Join(dir, "MANIFEST"))
	if err != nil || !strings.Contains(string(m), "003.cnf\t003.drat\tVERIFIED\tgophersat") || !strings.Contains(string(m), "# answer: ok, objective 3") {
		t.Errorf("MANIFEST: %v\n%s", err, m)
	}
}

// TestCubesShardsCombined: a certified count split into cubes gives the
// published count whole and as two shards combined, every cube and the
// cubes' cover proved; and a refutation (the count 0) the same way.
func TestCubesShardsCombined(t *testing.T) {
	const enc = "satunsat-lines-hilbert-lex+totalizer"
	for _, c := range []struct {
		spec, count string
		refutations int
	}{
		{"dominate:6x6:Q", "4", 0},             // A002564(6); plus the optimum's refutation
		{"dominate:6x6:Q:k=2", "0", 4 + 1 + 2}, // 4 cubes, their cover, rank2 and rank3 functions of the squares
	} {
		base := []string{"solve", c.spec, "--backend", "sat", "--task", "count", "--encoding", enc, "--certify", "--cubes", "2"}
		status, out, errb := runCLI(append(base, "--format", "json")...)
		if status != 0 {
			t.Fatalf("%s: status %d: %s", c.spec, status, errb)
		}
		var whole struct {
			Count       json.Number `json:"count"`
			Certified   bool        `json:"certified"`
			Certificate struct {
				Refutations int `json:"refutations"`
			} `json:"certificate"`
		}
		if err := json.Unmarshal([]byte(out), &whole); err != nil {
			t.Fatal(err)
		}
		if whole.Count.String() != c.count || !whole.Certified || c.refutations > 0 && whole.Certificate.Refutations != c.refutations {
			t.Errorf("%s whole: %s", c.spec, out)
		}
		dir := t.TempDir()
		var files []string
		for _, sh := range []string{"1/2", "2/2"} {
			status, out, errb := runCLI(append(base, "--shard", sh)...)
			if status != 0 {
				t.Fatalf("%s shard %s: status %d: %s", c.spec, sh, status, errb)
			}
			name := filepath.Join(dir, strings.ReplaceAll(sh, "/", "-")+".json")
			if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
		status, out, errb = runCLI(append([]string{"combine", "--format", "json"}, files...)...)
		if status != 0 {
			t.Fatalf("combine: %d %s", status, errb)
		}
		var comb struct {
			Count       json.Number `json:"count"`
			Certified   *bool       `json:"certified"`
			Certificate struct {
				Refutations int      `json:"refutations"`
				Claims      []string `json:"claims"`
			} `json:"certificate"`
		}
		if err := json.Unmarshal([]byte(out), &comb); err != nil {
			t.Fatal(err)
		}
		if comb.Count.String() != c.count || comb.Certified == nil || !*comb.Certified || comb.Certificate.Refutations < 5 ||
			!strings.Contains(strings.Join(comb.Certificate.Claims, "\n"), "the 4 cubes over rank2, rank3 cover every assignment") {
			t.Errorf("%s combined: %s", c.spec, out)
		}
	}
}

// TestBenchCertify: certify=true in a suite line (and bench --certify)
// runs certified: rows name the variant with /certify and carry certified,
// proof_bytes and check_seconds (inside solve_seconds); results summarize
// reports check time over solve time.
func TestBenchCertify(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "r.csv")
	suite := writeSuite(t, "dominate:5x5:Q dominate:6x6:Q backends=sat/satunsat+totalizer/gophersat task=optimum certify=true timeout=60s\n"+
		"dominate:6x6:Q backends=sat/satunsat+totalizer/gophersat task=optimum timeout=60s")
	if status, _, stderr := runCLI("bench", suite, "-o", csv, "--quiet"); status != 0 {
		t.Fatalf("bench: status %d, %s", status, stderr)
	}
	rows, err := results.ReadFiles(csv)
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		certified := strings.HasSuffix(r.Variant, "/certify")
		if r.Status != results.StatusOK || r.Certify != certified || r.Certified != certified ||
			certified && (r.ProofBytes <= 0 || r.CheckSeconds <= 0 || r.CheckSeconds > r.SolveSeconds) ||
			!certified && (r.ProofBytes != 0 || r.CheckSeconds != 0) {
			t.Errorf("row %s %s: status %s certify %v certified %v proof %d check %g solve %g", r.Instance, r.Variant, r.Status, r.Certify, r.Certified, r.ProofBytes, r.CheckSeconds, r.SolveSeconds)
		}
	}
	status, out, stderr := runCLI("results", "summarize", csv)
	if status != 0 || !strings.Contains(out, "Certified runs") || !strings.Contains(out, "sat/satunsat+totalizer/gophersat/certify") {
		t.Errorf("summarize: %d %s\n%s", status, stderr, out)
	}
	if status, out, _ := runCLI("bench", suite, "--dry-run", "--certify"); status != 0 || !strings.Contains(out, "3 runs planned") {
		t.Errorf("bench --certify dry run: %d\n%s", status, out)
	}
}

// TestCubesFromCheckpointNotCertified: cubes taken from a checkpoint were
// proved by an earlier run; the answer that resumes them says so and is
// not certified.
func TestCubesFromCheckpointNotCertified(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "c.ck")
	args := []string{"solve", "dominate:6x6:Q:k=2", "--backend", "sat", "--task", "count", "--encoding", "satunsat-lines-hilbert-lex+totalizer",
		"--certify", "--cubes", "2", "--checkpoint", ck, "--format", "json", "--quiet"}
	for i, want := range []bool{true, false} {
		status, out, errb := runCLI(args...)
		if status != 0 {
			t.Fatalf("run %d: status %d %s", i+1, status, errb)
		}
		var j struct {
			Certified   bool `json:"certified"`
			Certificate struct {
				Arguments []string `json:"arguments"`
			} `json:"certificate"`
		}
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		resumed := strings.Contains(strings.Join(j.Certificate.Arguments, "\n"), "4 of the 4 cubes were taken from the checkpoint")
		if j.Certified != want || resumed == want {
			t.Errorf("run %d: certified %v, arguments %q", i+1, j.Certified, j.Certificate.Arguments)
		}
	}
}

// TestFailedProofNotPrintedProved: a solver that calls every formula
// unsatisfiable and writes an empty clause for its proof. The first
// refutation (at most 0 queens) holds by unit propagation and is proved;
// the second (at most 1 queen on 6x6, which needs a real proof) fails its
// check: the answer is an error, not certified, and the text output says
// "proved" for the first claim only and names the failed one plainly.
func TestFailedProofNotPrintedProved(t *testing.T) {
	cnftest.FakeSolver(t, "cadical", `echo 0 > "$3"; echo s UNSATISFIABLE; exit 20`)
	args := []string{"solve", "dominate:6x6:Q", "--backend", "sat", "--task", "optimum", "--encoding", "unsatsat+totalizer", "--certify", "--solver", "cadical"}
	_, out, _ := runCLI(args...)
	proved := "dominate:6x6:Q has no dominating set of at most 0 queens"
	failed := "dominate:6x6:Q has no dominating set of at most 1 queens"
	var provedRows, failedRows []string
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "proved:"):
			provedRows = append(provedRows, line)
		case strings.HasPrefix(line, "proof failed:"):
			failedRows = append(failedRows, line)
		}
	}
	if !strings.Contains(out, "status:        error") || !strings.Contains(out, "certified:     false") ||
		len(provedRows) != 1 || !strings.HasSuffix(provedRows[0], proved) ||
		len(failedRows) != 1 || !strings.Contains(failedRows[0], "refutation 2 ("+failed+") NOT VERIFIED") {
		t.Errorf("text output:\n%s", out)
	}
	_, out, _ = runCLI(append(args, "--format", "json")...)
	var j answer.Answer
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if j.Status != "error" || j.Certified == nil || *j.Certified || j.Certificate == nil ||
		strings.Join(j.Certificate.Claims, "|") != proved || len(j.Certificate.Failed) != 1 || !strings.Contains(j.Certificate.Failed[0], failed) {
		t.Errorf("JSON answer: %s", out)
	}
}

// TestPrintCertificate: the text rows of a certificate, a failed proof
// among them.
func TestPrintCertificate(t *testing.T) {
	var b strings.Builder
	printCertificate(&b, false, answer.Certificate{Format: "DRAT", Refutations: 2, Checker: "c", Claims: []string{"A"},
		Failed: []string{"refutation 2 (B) NOT VERIFIED: drat: no conflict"}, Arguments: []string{"C"}})
	want := "certified:     false\n" +
		"refutations:   2 (DRAT; 0 lemmas, 0 bytes; checked in 0.000 s, 0.000 s CPU, by c)\n" +
		"proved:        A\n" +
		"proof failed:  refutation 2 (B) NOT VERIFIED: drat: no conflict\n" +
		"not proved:    C\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestProofFilesOfSatisfiableFormulaRejected: a solver that calls a
// satisfiable formula unsatisfiable, with an empty clause or one binary
// step for its proof. The answer is an error; the files --proof DIR
// writes are that formula and that proof, and boardsat proof check
// rejects them as its MANIFEST line (NOT-VERIFIED) says.
func TestProofFilesOfSatisfiableFormulaRejected(t *testing.T) {
	for name, write := range map[string]string{"empty clause": `echo 0 > "$3"`, "binary step": `printf 'a\002\000' > "$3"`} {
		cnftest.FakeSolver(t, "cadical", write+"; echo s UNSATISFIABLE; exit 20")
		dir := filepath.Join(t.TempDir(), "p")
		status, out, errb := runCLI("solve", "dominate:6x6:Q:k=3", "--backend", "sat", "--task", "first", "--encoding", "satunsat+totalizer",
			"--solver", "cadical", "--proof", dir, "--format", "json")
		var j answer.Answer
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatalf("%s: status %d, %v in %s %s", name, status, err, out, errb)
		}
		if j.Status != "error" || j.Certified == nil || *j.Certified {
			t.Errorf("%s: answer %s", name, out)
		}
		m, err := os.ReadFile(filepath.Join(dir, "MANIFEST"))
		if err != nil || !strings.Contains(string(m), "001.cnf\t001.drat\tNOT-VERIFIED\tcadical\t") {
			t.Errorf("%s: MANIFEST %v\n%s", name, err, m)
		}
		// Rejected: NOT VERIFIED (exit 1), or a proof that cannot be read
		// (exit 2, nothing on stdout; cadical's proofs get the empty clause
		// appended when they lack it, which makes the binary one mixed).
		status, out, errb = runCLI("proof", "check", filepath.Join(dir, "001.cnf"), filepath.Join(dir, "001.drat"))
		if !(status == 1 && strings.HasPrefix(out, "s NOT VERIFIED: ") || status == 2 && out == "" && strings.Count(errb, "\n") == 1) {
			t.Errorf("%s: proof check of a satisfiable formula: status %d\n%s%s", name, status, out, errb)
		}
	}
}

// TestCombineKeepsFailedProofs: a shard whose proof failed makes the
// combined answer uncertified, and its failed claim stays among the
// failed ones, never among the claims proved.
func TestCombineKeepsFailedProofs(t *testing.T) {
	good := answer.Certificate{Refutations: 2, Claims: []string{"cube 1", "cover"}}
	bad := answer.Certificate{Refutations: 2, Claims: []string{"cover"}, Failed: []string{"refutation 1 (cube 2) NOT VERIFIED: drat: no conflict"}}
	ok, sum := combineCertified(nil, nil, true, &good)
	ok, sum = combineCertified(ok, sum, false, &bad)
	if *ok || strings.Join(sum.Claims, "|") != "cube 1|cover" || len(sum.Failed) != 1 || !strings.Contains(sum.Failed[0], "(cube 2)") || sum.Refutations != 3 {
		t.Errorf("certified %v, %+v", *ok, *sum)
	}
	// The first shard's failures are kept too, not shared with it.
	ok, sum = combineCertified(nil, nil, false, &bad)
	ok, sum = combineCertified(ok, sum, true, &good)
	if *ok || strings.Join(sum.Claims, "|") != "cover|cube 1" || len(sum.Failed) != 1 || sum.Refutations != 3 || len(bad.Failed) != 1 {
		t.Errorf("certified %v, %+v", *ok, *sum)
	}
}
