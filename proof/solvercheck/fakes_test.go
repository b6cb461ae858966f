package solvercheck

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/proof/certify"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
)

// define plants a fake solver program running script on PATH and reads a
// definition of it (name, kind, the rest of the JSON object).
func define(t *testing.T, name, kind, script, rest string) {
	t.Helper()
	program := "fake-" + name
	cnftest.FakeSolver(t, program, script)
	cmd := `["` + program + `", "{input}"]`
	if strings.Contains(rest, `"proof"`) {
		cmd = `["` + program + `", "{input}", "{proof}"]`
	}
	path := filepath.Join(t.TempDir(), name+".json")
	if err := os.WriteFile(path, []byte(`{"name": "`+name+`", "kind": "`+kind+`", "command": `+cmd+rest+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(solverdef.Forget)
	if err := solverdef.Load(path); err != nil {
		t.Fatal(err)
	}
}

// fault is a fake solver that breaks its protocol in one way, what it is
// asked, and the words the error must hold.
type fault struct {
	name, kind, script, rest string
	ask                      func(ctx context.Context, name string) (puzzle.Status, string, error)
	want                     string
}

func solveOn(f *cnf.Formula) func(ctx context.Context, name string) (puzzle.Status, string, error) {
	return func(ctx context.Context, name string) (puzzle.Status, string, error) {
		r, err := sat.Solve(ctx, f, name)
		return r.Status, r.Message, err
	}
}

func countOn(f *cnf.Formula) func(ctx context.Context, name string) (puzzle.Status, string, error) {
	return func(ctx context.Context, name string) (puzzle.Status, string, error) {
		r, err := sat.Count(ctx, f, sat.CountOptions{Solver: name})
		return r.Status, r.Message, err
	}
}

// TestFaultsNeverOK: every protocol fault is status error naming the
// solver and what is wrong, never ok; and solvers check fails the fake.
func TestFaultsNeverOK(t *testing.T) {
	faults := []fault{
		{"no-s-line", "sat", "echo c hello", "", solveOn(satFormula()), "no s line"},
		{"two-s-lines", "sat", "echo s SATISFIABLE; echo s SATISFIABLE; echo v 1 -2 -3 0; exit 10", "", solveOn(satFormula()), `line 2 "s SATISFIABLE": a second s line`},
		{"violates", "sat", "echo s SATISFIABLE; echo v -1 -2 -3 0; exit 10", "", solveOn(satFormula()), "a model that violates the formula"},
		{"stranger", "sat", "echo s SATISFIABLE; echo v 1 -2 -3 9 0; exit 10", "", solveOn(satFormula()), "literal 9 names a variable the formula does not have"},
		{"exit-contradicts", "sat", "echo s SATISFIABLE; echo v 1 -2 -3 0; exit 20", "", solveOn(satFormula()), "exit status 20 contradicts its answer s SATISFIABLE"},
		{"crash", "sat", "echo s SATISFIABLE; kill -SEGV $$", "", solveOn(satFormula()), "failed: signal: segmentation fault"},
		{"pb-wrong-o", "pb", "echo o 1; echo s OPTIMUM FOUND; echo v x1 -x2 x3 -x4", "", solveOn(optimum()), "its o line says 1, and its model's cost is 2"},
		{"maxsat-wrong-o", "maxsat", "echo o 3; echo s OPTIMUM FOUND; echo v 1010", "", solveOn(optimum()), "its o line says 3, and its model's cost is 2"},
		{"count-letters", "mc", "echo s SATISFIABLE; echo c s exact arb int 4a", "", countOn(satFormula()), `the count "4a" is not a whole number`},
		{"count-old-letters", "mc", "echo s mc four", "", countOn(satFormula()), `the count "four" is not a whole number`},
		{"count-no-count", "pmc", "echo s SATISFIABLE", "", countOn(projected()), "without a count line"},
		{"count-crash", "pmc", "echo s SATISFIABLE; echo c s exact arb int 3; exit 1", "", countOn(projected()), "exit status 1"},
	}
	for _, c := range faults {
		t.Run(c.name, func(t *testing.T) {
			define(t, c.name, c.kind, c.script, c.rest)
			status, msg, err := c.ask(context.Background(), c.name)
			if err != nil || status != puzzle.Error || !strings.Contains(msg, c.name) || !strings.Contains(msg, c.want) {
				t.Errorf("status %s, message %q, err %v; want error naming %s and saying %q", status, msg, err, c.name, c.want)
			}
			rows, err := Run(context.Background(), c.name)
			if err != nil {
				t.Fatal(err)
			}
			failed := 0
			for _, r := range rows {
				if !r.OK {
					failed++
				}
			}
			if failed == 0 {
				t.Errorf("solvers check passed a fake that breaks its protocol: %+v", rows)
			}
		})
	}
}

// TestBadProof: a fake that answers UNSATISFIABLE with a proof that does
// not check (of a satisfiable formula: no proof can; an ASCII proof said
// to be binary, of an unsatisfiable one) is an error under certify, and
// fails solvers check.
func TestBadProof(t *testing.T) {
	for _, c := range []struct {
		name, proof, format string
		f                   *cnf.Formula
	}{
		{"bad-proof", `printf '1 0\n' > "$2"`, "drat-ascii", satFormula()},
		{"ascii-as-binary", `printf '1 0\n0\n' > "$2"`, "drat-binary", cnf.Pigeonhole(2)},
	} {
		define(t, c.name, "sat", c.proof+"; echo s UNSATISFIABLE; exit 20", `, "proof": "`+c.format+`"`)
		var rec certify.Recorder
		r, err := sat.Solve(sat.WithProofs(context.Background(), &rec), c.f, c.name)
		if err != nil || r.Status != puzzle.Error || rec.Certified() {
			t.Errorf("%s: status %s (%s), err %v, certified %v; want an error", c.name, r.Status, r.Message, err, rec.Certified())
		}
		rows, _ := Run(context.Background(), c.name)
		if ok := rows != nil && !slicesAllOK(rows); !ok {
			t.Errorf("%s: solvers check passed: %+v", c.name, rows)
		}
	}
}

func slicesAllOK(rows []Row) bool {
	for _, r := range rows {
		if !r.OK {
			return false
		}
	}
	return true
}

// TestHangKilled: a solver that hangs is stopped at the time limit
// (status timeout, never ok), and no process of it is left.
func TestHangKilled(t *testing.T) {
	define(t, "hang", "sat", "sleep 3127 & sleep 3127", "")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	r, err := sat.Solve(ctx, satFormula(), "hang")
	if err != nil || r.Status != puzzle.Timeout {
		t.Errorf("status %s (%s), err %v; want timeout", r.Status, r.Message, err)
	}
	cnftest.NeedSolver(t, "pgrep")
	if out, err := exec.Command("pgrep", "-f", "sleep 3127").Output(); err == nil {
		t.Errorf("processes left: %s", out)
	}
}

// TestCounters: an mc counter gets formulas projected on every variable
// (c t mc) only; a pmc counter receives c t pmc and c p show; both read
// the MCC 2024 answer and the older s mc N.
func TestCounters(t *testing.T) {
	define(t, "mcfake", "mc", `grep -q '^c t mc$' "$1" || exit 1; echo s SATISFIABLE; echo c s type mc; echo c s log10-estimate 0.602; echo c s exact arb int 4`, "")
	r, err := sat.Count(context.Background(), satFormula(), sat.CountOptions{Solver: "mcfake"})
	if err != nil || r.Status != puzzle.OK || r.Count != 4 {
		t.Errorf("mc: %+v, %v", r, err)
	}
	if _, err := sat.Count(context.Background(), projected(), sat.CountOptions{Solver: "mcfake"}); err == nil || !strings.Contains(err.Error(), "mc counter") {
		t.Errorf("mc on a projected formula: %v, want a refusal", err)
	}
	if _, err := sat.Solve(context.Background(), satFormula(), "mcfake"); err == nil || !strings.Contains(err.Error(), "solver mcfake is a model counter (kind mc): it answers task count") {
		t.Errorf("solve with a counter: %v, want a refusal", err)
	}
	define(t, "pmcfake", "pmc", `grep -q '^c t pmc$' "$1" && grep -q '^c p show 1 2 0$' "$1" || exit 1; echo s pmc 3`, "")
	r, err = sat.Count(context.Background(), projected(), sat.CountOptions{Solver: "pmcfake"})
	if err != nil || r.Status != puzzle.OK || r.Count != 3 {
		t.Errorf("pmc: %+v, %v", r, err)
	}
	var rec certify.Recorder
	if _, err := sat.Count(sat.WithProofs(context.Background(), &rec), projected(), sat.CountOptions{Solver: "pmcfake"}); err == nil || !strings.Contains(err.Error(), "proof none") {
		t.Errorf("a counter under certify: %v, want a refusal", err)
	}
}

// TestMaxSATMinimize: a MaxSAT solver answers an optimisation in one run,
// its model checked and its cost recomputed; s SATISFIABLE (no claim of
// optimality) or a wrong o value is an error, never an optimum.
func TestMaxSATMinimize(t *testing.T) {
	f := optimum()
	lits, weights := f.Objective()
	obj := sat.Objective{Lits: lits, Weights: weights}
	for _, c := range []struct {
		name, script string
		want         puzzle.Status
	}{
		{"maxsat-good", `grep -q '^1 -1 0$' "$1" || exit 1; echo o 3; echo o 2; echo s OPTIMUM FOUND; echo v 1010`, puzzle.OK},
		{"maxsat-unproved", "echo o 2; echo s SATISFIABLE; echo v 1010", puzzle.Error},
		{"maxsat-lies", "echo o 1; echo s OPTIMUM FOUND; echo v 1010", puzzle.Error},
	} {
		define(t, c.name, "maxsat", c.script, "")
		r, err := sat.Minimize(context.Background(), f, obj, sat.OptimizeOptions{Solver: c.name})
		if err != nil || r.Status != c.want || (c.want == puzzle.OK && (r.Cost != 2 || r.Bound != 2)) {
			t.Errorf("%s: %+v, %v; want %s", c.name, r, err, c.want)
		}
	}
}

// TestBinaryProofReadAsBinary: a right proof in binary DRAT ("-1 0" then
// the empty clause, refuting three pigeons in two holes) is verified when
// the definition says drat-binary; read as ASCII it would not be.
func TestBinaryProofReadAsBinary(t *testing.T) {
	define(t, "binary-proof", "sat", `printf 'a\003\000a\000' > "$2"; echo s UNSATISFIABLE; exit 20`, `, "proof": "drat-binary"`)
	var rec certify.Recorder
	r, err := sat.Solve(sat.WithProofs(context.Background(), &rec), cnf.Pigeonhole(2), "binary-proof")
	if err != nil || r.Status != puzzle.Unsat || !rec.Certified() {
		t.Errorf("status %s (%s), err %v, certified %v (%s); want unsat, certified", r.Status, r.Message, err, rec.Certified(), rec.Failure())
	}
}

// TestPlaceholders: {seed} is the context's seed (solve --seed, bench's
// repetition; it was always 0), {cpu_seconds} the whole seconds left
// before the time limit, {input} the formula's file, in a real run.
func TestPlaceholders(t *testing.T) {
	cnftest.FakeSolver(t, "fake-args", `[ "$1" = --seed=7 ] && [ "$2" -ge 1 ] && [ "$2" -le 30 ] && grep -q '^p cnf 6 9$' "$3" || exit 1; echo s UNSATISFIABLE; exit 20`)
	path := filepath.Join(t.TempDir(), "args.json")
	os.WriteFile(path, []byte(`{"name": "args", "kind": "sat", "command": ["fake-args", "--seed={seed}", "{cpu_seconds}", "{input}"]}`), 0o644)
	t.Cleanup(solverdef.Forget)
	if err := solverdef.Load(path); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(sat.WithSeed(context.Background(), 7), 30*time.Second)
	defer cancel()
	if r, err := sat.Solve(ctx, cnf.Pigeonhole(2), "args"); err != nil || r.Status != puzzle.Unsat {
		t.Errorf("status %s (%s), err %v; want unsat (the fake checks its arguments)", r.Status, r.Message, err)
	}
}

// TestProofArgs: proof_args (here picosat's "-r {proof}") stand where
// command has {proof_args}, all given when a proof is asked and all left
// out when not: "-r" without its file would have taken the input as the
// proof's name.
func TestProofArgs(t *testing.T) {
	cnftest.FakeSolver(t, "fake-r", `if [ "$1" = -r ]; then printf '0\n' > "$2"; shift 2; fi; [ $# = 1 ] && grep -q '^p cnf' "$1" || exit 1; echo s UNSATISFIABLE; exit 20`)
	path := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(path, []byte(`{"name": "rproof", "kind": "sat", "command": ["fake-r", "{proof_args}", "{input}"], "proof_args": ["-r", "{proof}"], "proof": "drat-ascii"}`), 0o644)
	t.Cleanup(solverdef.Forget)
	if err := solverdef.Load(path); err != nil {
		t.Fatal(err)
	}
	if r, err := sat.Solve(context.Background(), cnf.Pigeonhole(1), "rproof"); err != nil || r.Status != puzzle.Unsat {
		t.Errorf("without a proof: status %s (%s), %v; want unsat", r.Status, r.Message, err)
	}
	var rec certify.Recorder
	r, err := sat.Solve(sat.WithProofs(context.Background(), &rec), cnf.Pigeonhole(1), "rproof")
	if err != nil || r.Status != puzzle.Unsat || rec.Failure() != "" {
		t.Errorf("with a proof: status %s (%s), %v, proof failure %q; want unsat and the proof taken", r.Status, r.Message, err, rec.Failure())
	}
	d, _ := solverdef.Lookup("rproof")
	if got := solverdef.Expand(d.Command, solverdef.Args{Input: "f.cnf", ProofArgs: d.ProofArgs}); !slices.Equal(got, []string{"fake-r", "f.cnf"}) {
		t.Errorf("expanded without a proof: %q", got)
	}
	if got := solverdef.Expand(d.Command, solverdef.Args{Input: "f.cnf", Proof: "p.drat", ProofArgs: d.ProofArgs}); !slices.Equal(got, []string{"fake-r", "-r", "p.drat", "f.cnf"}) {
		t.Errorf("expanded with a proof: %q", got)
	}
}
