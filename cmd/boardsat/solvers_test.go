package main

import (
	"encoding/json"
	"github.com/boardsat/boardsat/harness/suites"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
)

// writeDef writes a solver definition file into dir.
func writeDef(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSolversBadInput: each fault of a definition or of a --solvers path
// is one line on stderr naming the file (and the field), exit status 2,
// nothing on stdout.
func TestSolversBadInput(t *testing.T) {
	cnftest.FakeSolver(t, "fake-sat", "exit 0")
	dir := t.TempDir()
	good := `{"name": "kissat", "kind": "sat", "command": ["fake-sat", "{input}"]}`
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.Mkdir(filepath.Join(sub, "kissat.json"), 0o755)
	loop := filepath.Join(dir, "loop")
	os.Symlink(loop+"2", loop)
	os.Symlink(loop, loop+"2")
	cases := []struct{ path, want string }{
		{sub, filepath.Join(sub, "kissat.json") + ": a directory, want a JSON solver definition file"},
		{writeDef(t, dir, "empty.json", ""), "empty file"},
		{loop, "a cycle of symbolic links"},
		{writeDef(t, dir, "typo.json", strings.Replace(good, "{input}", "{imput}", 1)), "field command: unknown placeholder {imput}"},
		{writeDef(t, dir, "json.json", good[:20]), "not valid JSON"},
		{writeDef(t, dir, "kind.json", strings.Replace(good, `"sat"`, `"csp"`, 1)), `field kind: unknown kind "csp"`},
		{writeDef(t, dir, "builtin.json", strings.Replace(good, "kissat", "minisat", 1)), `field name: "minisat" is a built-in solver`},
		{writeDef(t, dir, "gophersat.json", strings.Replace(good, "kissat", "gophersat", 1)), `field name: "gophersat" is an in-process solver`},
	}
	for _, c := range cases {
		for _, cmd := range [][]string{
			{"solve", "queens:5", "--backend", "sat", "--solvers", c.path},
			{"solvers", "--solvers", c.path},
			{"compare", "queens:5", "--backends", "sat", "--solvers", c.path},
		} {
			status, out, stderr := runCLI(cmd...)
			if status != 2 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, filepath.Base(c.path)) {
				t.Errorf("%v: status %d, stdout %q, stderr %q; want 2, nothing, one line with %q", cmd, status, out, stderr, c.want)
			}
		}
	}
	// The environment variable, read by every command line.
	t.Setenv("BOARDSAT_SOLVERS", cases[3].path)
	if status, _, stderr := runCLI("solve", "queens:5"); status != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "BOARDSAT_SOLVERS: "+cases[3].path+": field command") {
		t.Errorf("bad BOARDSAT_SOLVERS: %d %q", status, stderr)
	}
}

// TestSolversRefusals: a solver without proofs under --certify, and an mc
// counter on a projected formula, are refused in one line, exit 2.
func TestSolversRefusals(t *testing.T) {
	cnftest.FakeSolver(t, "fake-sat", "exit 0")
	cnftest.FakeSolver(t, "fake-mc", "echo s mc 1")
	dir := t.TempDir()
	writeDef(t, dir, "noproof.json", `{"name": "noproof", "kind": "sat", "command": ["fake-sat", "{input}"], "proof": "none"}`)
	writeDef(t, dir, "mc.json", `{"name": "fakemc", "kind": "mc", "command": ["fake-mc", "{input}"]}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "queens:5", "--backend", "sat", "--solver", "noproof", "--certify", "--solvers", dir}, "solver noproof writes no proof of unsatisfiability (its definition says proof none)"},
		{[]string{"solve", "queens:5", "--backend", "sat", "--solver", "fakemc", "--task", "count", "--solvers", dir}, "solver fakemc is an mc counter"},
		{[]string{"solvers", "check", "nosuch", "--solvers", dir}, `unknown solver "nosuch"`},
	} {
		status, _, stderr := runCLI(c.args...)
		if status != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and one line with %q", c.args, status, stderr, c.want)
		}
	}
}

// TestSolversListAndCheck: the list names a user's definition with its
// path; solvers check passes a built-in and fails a fake (exit 1).
func TestSolversListAndCheck(t *testing.T) {
	cnftest.FakeSolver(t, "fake-liar", "echo s UNSATISFIABLE; exit 20")
	dir := t.TempDir()
	p := writeDef(t, dir, "liar.json", `{"name": "liar", "kind": "sat", "command": ["fake-liar", "{input}"]}`)
	status, out, _ := runCLI("solvers", "--solvers", p)
	if status != 0 || !strings.Contains(out, "liar") || !strings.Contains(out, p) || !strings.Contains(out, "cadical") {
		t.Errorf("list: %d %q", status, out)
	}
	status, out, stderr := runCLI("solvers", "check", "liar", "--solvers", p)
	if status != 1 || !strings.Contains(out, "DOES NOT CONFORM") || !strings.Contains(stderr, "solver liar: 1 of 3 checks did not conform") {
		t.Errorf("check of a liar: %d %q %q", status, out, stderr)
	}
	// The verdict comes before the answer, which for a fault is a long
	// message that would push the verdict off the screen.
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "CHECK" && !strings.HasPrefix(strings.Join(f, " "), "CHECK WANT RESULT GOT") {
			t.Errorf("check header %q: want CHECK WANT RESULT GOT", line)
		}
	}
	if cnftest.MissingSolver(t, "cadical") {
		return
	}
	status, out, _ = runCLI("solvers", "check", "cadical")
	if status != 0 || strings.Contains(out, "DOES NOT CONFORM") || !strings.Contains(out, "solver cadical: all 5 checks conformed") {
		t.Errorf("check of cadical: %d %q", status, out)
	}
}

// TestUserDefinitionsAgree: cadical and minisat through user definitions
// (written here) give the built-ins' statuses and answers on the quick
// suite's SAT instances (every spec of a line running "all"), where the
// built-in finishes within the suite's time limit.
func TestUserDefinitionsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick suite's SAT instances with external solvers")
	}
	dir := t.TempDir()
	writeDef(t, dir, "cadical-user.json", `{"name": "cadical-user", "kind": "sat", "command": ["cadical", "{input}", "{proof}"], "proof": "drat-binary", "version": ["cadical", "--version"]}`)
	writeDef(t, dir, "minisat-user.json", `{"name": "minisat-user", "kind": "sat", "command": ["minisat", "-verb=0", "{input}", "{output}"], "protocol": "minisat-result"}`)
	s, err := suites.Load("quick")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Status   string          `json:"status"`
		Count    *uint64         `json:"count"`
		Solution json.RawMessage `json:"solution"`
		Solver   string          `json:"solver"`
	}
	solve := func(spec puzzle.Spec, task puzzle.Task, solver string) answer {
		args := []string{"solve", spec.String(), "--backend", "sat", "--solver", solver, "--format", "json", "--timeout", "3s", "--solvers", dir}
		if task != "" {
			args = append(args, "--task", string(task))
		}
		_, out, _ := runCLI(args...)
		var a answer
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatalf("%v: %v (%q)", args, err, out)
		}
		return a
	}
	compared := 0
	for _, g := range s.Groups {
		if !strings.Contains(g.Backends, "all") {
			continue
		}
		for _, spec := range g.Specs {
			for _, pair := range [][2]string{{"cadical", "cadical-user"}, {"minisat", "minisat-user"}} {
				if cnftest.MissingSolver(t, pair[0]) {
					return
				}
				want := solve(spec, g.Task, pair[0])
				if want.Status == string(puzzle.Timeout) {
					continue
				}
				got := solve(spec, g.Task, pair[1])
				if (got.Status != "refused" && got.Solver != pair[1]) || got.Status != want.Status || (want.Count == nil) != (got.Count == nil) ||
					(want.Count != nil && *want.Count != *got.Count) || (len(want.Solution) > 4) != (len(got.Solution) > 4) {
					t.Errorf("%s %s: %s gave %+v, %s gave %+v", spec, g.Task, pair[0], want, pair[1], got)
				}
				if want.Status == string(puzzle.OK) {
					compared++
				}
			}
		}
	}
	if compared < 10 {
		t.Errorf("only %d answers compared", compared)
	}
}

// TestMissingProgramNotInstalled: a definition whose program is not on PATH
// is no bad input: in BOARDSAT_SOLVERS it stops no command (a native solve
// ran, where every command exited 2 before), "solvers" lists it as not
// installed, and only a run that asks for it is refused, in one line
// naming the definition's file and the program.
func TestMissingProgramNotInstalled(t *testing.T) {
	def := writeDef(t, t.TempDir(), "absent.json", `{"name": "kissat", "kind": "sat", "command": ["no-such-solver", "{input}"]}`)
	t.Setenv("BOARDSAT_SOLVERS", def)
	if status, out, stderr := runCLI("solve", "queens:6"); status != 0 || !strings.Contains(out, "count:         4") {
		t.Errorf("native solve beside a missing program: exit %d, %q, %q", status, out, stderr)
	}
	status, out, _ := runCLI("solvers")
	if status != 0 || !regexp.MustCompile(`(?m)^sat +kissat +sat +`+regexp.QuoteMeta(def)+` +no +-$`).MatchString(out) {
		t.Errorf("solvers: exit %d, kissat not listed as not installed:\n%s", status, out)
	}
	status, out, stderr := runCLI("solve", "queens:6", "--backend", "sat", "--solver", "kissat")
	if status != 2 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, def) || !strings.Contains(stderr, `program "no-such-solver" is not on PATH`) {
		t.Errorf("asked for: exit %d, %q, %q; want 2 and one line naming %s and the program", status, out, stderr, def)
	}
}
