package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// boardsatDefs is the directory of the shipped definitions that run
// boardsat itself as an external solver (docs/solvers.md).
const boardsatDefs = "../../examples/solvers/boardsat"

// boardsatOnPath puts the command (boardsatExe) first on PATH, for the
// definitions whose program is boardsat.
func boardsatOnPath(t *testing.T) {
	t.Helper()
	exe := boardsatExe(t)
	t.Setenv("PATH", filepath.Dir(exe)+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// solveJSON runs "boardsat solve" with --format json and returns its exit
// status and answer.
func solveJSON(t *testing.T, args ...string) (int, jsonAnswer, string) {
	t.Helper()
	code, out, stderr := runCLI(append([]string{"solve", "--format", "json"}, args...)...)
	var a jsonAnswer
	if out != "" {
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatalf("%v: %v (%q)", args, err, out)
		}
	}
	return code, a, stderr
}

// jsonAnswer is the part of solve's JSON answer these tests read.
type jsonAnswer struct {
	Status    string  `json:"status"`
	Count     *uint64 `json:"count"`
	Solver    string  `json:"solver"`
	Method    string  `json:"method"`
	Certified *bool   `json:"certified"`
	Message   *string `json:"message"`
	Unchecked *string `json:"unchecked"`
}

// TestBoardsatCountAsCounter: "boardsat cnf count" defined as a pmc
// counter (examples/solvers/boardsat/boardsat-count.json) passes "solvers
// check" and, run through the definitions path (solve --backend sat
// --solver boardsat-count), counts every counting instance of the quick
// suite that one formula answers as the built-in counter and native do,
// and as the published table says where the puzzle has one. The same
// program defined as an mc counter passes "solvers check" too, counts a
// formula counted on every variable alike, and is refused in one line on
// the projected ones (every puzzle formula of the quick suite has
// auxiliary variables, so all of them there).
func TestBoardsatCountAsCounter(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process and counts the quick suite's counting instances through it")
	}
	boardsatOnPath(t)
	for name, checks := range map[string]string{"boardsat-count": "all 3 checks conformed", "boardsat-count-mc": "all 2 checks conformed"} {
		code, out, stderr := runCLI("solvers", "check", name, "--solvers", boardsatDefs)
		if code != 0 || strings.Contains(out, "DOES NOT CONFORM") || !strings.Contains(out, "solver "+name+": "+checks) {
			t.Errorf("solvers check %s: exit %d, stdout %q, stderr %q", name, code, out, stderr)
		}
	}
	checked, mcChecked, mcRefused := 0, 0, 0
	for _, q := range quickCounts(t) {
		spec, f := q.spec, q.formula
		args := []string{spec.String(), "--backend", "sat", "--encoding", q.encoding, "--task", "count", "--solvers", boardsatDefs}
		_, builtin, _ := solveJSON(t, args...)
		if builtin.Status != string(puzzle.OK) || builtin.Count == nil {
			t.Fatalf("%s: the built-in counter: %+v", spec, builtin)
		}
		code, got, stderr := solveJSON(t, append(args, "--solver", "boardsat-count")...)
		if code != 0 || got.Status != string(puzzle.OK) || got.Count == nil || got.Solver != "boardsat-count" || !strings.Contains(got.Method, "pmc counter") {
			t.Fatalf("%s: boardsat-count: exit %d, %+v, stderr %q", spec, code, got, stderr)
		}
		if *got.Count != *builtin.Count || *got.Count != q.native {
			t.Errorf("%s: boardsat-count %d, the built-in counter %d, native %d", spec, *got.Count, *builtin.Count, q.native)
		}
		if pub, ok := puzzle.KnownCount(spec, puzzle.Count); ok && pub != *got.Count {
			t.Errorf("%s: boardsat-count %d, published %d", spec, *got.Count, pub)
		}
		checked++
		code, mc, stderr := solveJSON(t, append(args, "--solver", "boardsat-count-mc")...)
		if len(f.Projection()) < f.NumVars() {
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "solver boardsat-count-mc is an mc counter") {
				t.Errorf("%s: boardsat-count-mc on a projected formula: exit %d, %+v, stderr %q; want refused in one line", spec, code, mc, stderr)
			}
			mcRefused++
			continue
		}
		if code != 0 || mc.Status != string(puzzle.OK) || mc.Count == nil || *mc.Count != q.native {
			t.Errorf("%s: boardsat-count-mc: exit %d, %+v, stderr %q; want the count %d", spec, code, mc, stderr, q.native)
		}
		mcChecked++
	}
	t.Logf("%d counting instances counted through boardsat-count (%d also through boardsat-count-mc, %d refused by it)", checked, mcChecked, mcRefused)
}

// TestBoardsatSolveAsSATSolver: "boardsat cnf solve" defined as a sat
// solver with binary DRAT (examples/solvers/boardsat/boardsat-solve.json)
// passes "solvers check", finds and counts models through the
// definitions path without a proof (the {proof} argument left out), and
// certifies dominate:5x5:Q's optimum: each refutation's proof, written by
// the child boardsat, checked again by the parent's DRAT and LRAT
// checkers. The same program declared as writing binary DRAT while it
// writes ASCII is never ok: its proofs are refused.
func TestBoardsatSolveAsSATSolver(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process and runs it as an external solver")
	}
	boardsatOnPath(t)
	code, out, stderr := runCLI("solvers", "check", "boardsat-solve", "--solvers", boardsatDefs)
	if code != 0 || strings.Contains(out, "DOES NOT CONFORM") || !strings.Contains(out, "solver boardsat-solve: all 5 checks conformed") {
		t.Errorf("solvers check boardsat-solve: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, a, stderr := solveJSON(t, "queens:6", "--backend", "sat", "--solver", "boardsat-solve", "--task", "count", "--solvers", boardsatDefs)
	if code != 0 || a.Status != string(puzzle.OK) || a.Count == nil || *a.Count != 4 || a.Solver != "boardsat-solve" {
		t.Errorf("queens:6 count through boardsat-solve: exit %d, %+v, stderr %q; want 4", code, a, stderr)
	}

	spec := puzzle.MustParse("dominate:5x5:Q")
	native, err := puzzle.Backends.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	want, err := native.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Optimum})
	if err != nil || want.Status != puzzle.OK || want.Objective == nil || !want.Objective.IsInt64() {
		t.Fatalf("native: %v %+v", err, want)
	}
	optimum := want.Objective.Int64()
	code, out, stderr = runCLI("solve", spec.String(), "--backend", "sat", "--solver", "boardsat-solve", "--certify", "--format", "json", "--solvers", boardsatDefs)
	var cert struct {
		jsonAnswer
		Objective   *int64 `json:"objective"`
		Certificate *struct {
			Refutations int `json:"refutations"`
		} `json:"certificate"`
	}
	if err := json.Unmarshal([]byte(out), &cert); err != nil {
		t.Fatalf("solve --certify: exit %d, %v (%q, stderr %q)", code, err, out, stderr)
	}
	if code != 0 || cert.Status != string(puzzle.OK) || cert.Certified == nil || !*cert.Certified || cert.Objective == nil || *cert.Objective != optimum ||
		cert.Certificate == nil || cert.Certificate.Refutations != int(optimum) {
		t.Errorf("dominate:5x5:Q --certify through boardsat-solve: exit %d, %q, stderr %q; want certified, objective %d, one refutation per smaller bound", code, out, stderr, optimum)
	}

	// ASCII DRAT said to be binary: every refutation refused, never ok.
	dir := t.TempDir()
	p := writeDef(t, dir, "liar.json", `{"name": "boardsat-ascii-liar", "kind": "sat", "command": ["boardsat", "cnf", "solve", "--proof-format", "ascii", "--proof={proof}", "{input}"], "proof": "drat-binary"}`)
	code, out, stderr = runCLI("solvers", "check", "boardsat-ascii-liar", "--solvers", p)
	if code != 1 || !strings.Contains(out, "DOES NOT CONFORM") || !strings.Contains(stderr, "solver boardsat-ascii-liar: 2 of 5 checks did not conform") {
		t.Errorf("solvers check of ASCII DRAT said to be binary: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, a, stderr = solveJSON(t, spec.String(), "--backend", "sat", "--solver", "boardsat-ascii-liar", "--certify", "--solvers", p)
	if code == 0 || a.Status == string(puzzle.OK) || (a.Certified != nil && *a.Certified) {
		t.Errorf("dominate:5x5:Q --certify with ASCII DRAT said to be binary: exit %d, %+v, stderr %q; want no certified answer", code, a, stderr)
	}
}
