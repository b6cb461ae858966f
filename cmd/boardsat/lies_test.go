package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
)

// liar defines an external sat solver named name whose program runs
// script, and returns the definition's path for --solvers.
func liar(t *testing.T, name, script string) string {
	t.Helper()
	cnftest.FakeSolver(t, "fake-"+name, script)
	return writeDef(t, t.TempDir(), name+".json", `{"name": "`+name+`", "kind": "sat", "command": ["fake-`+name+`", "{input}"]}`)
}

// TestLiesContradictingPublishedAreWrong: an external solver that lies is
// never ok where boardsat publishes the answer: a solver that always says
// UNSAT gives queens:8's count as 0 and queens:6 as having no solution,
// and one that says UNSAT from its third call on ends the counting loop
// of queens:6 at 2 models, where the table says 92 and 4. Each is status
// wrong, exit 1, the message naming both values. Before, all three were
// ok with exit 0.
func TestLiesContradictingPublishedAreWrong(t *testing.T) {
	always := liar(t, "always-unsat", "echo s UNSATISFIABLE; exit 20")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"queens:8", "--backend", "sat", "--solver", "always-unsat", "--solvers", always}, "answered 0, and boardsat's table of published values says 92"},
		{[]string{"queens:6", "--task", "first", "--backend", "sat", "--solver", "always-unsat", "--solvers", always}, "answered unsat, and boardsat's table of published values says sat"},
	}
	if !cnftest.MissingSolver(t, "cadical") {
		counter := filepath.Join(t.TempDir(), "calls")
		late := liar(t, "late-liar", `n=$(cat `+counter+` 2>/dev/null || echo 0); n=$((n+1)); echo $n > `+counter+`
if [ $n -ge 3 ]; then echo s UNSATISFIABLE; exit 20; fi
exec cadical -q "$1"`)
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"queens:6", "--backend", "sat", "--solver", "late-liar", "--solvers", late}, "answered 2, and boardsat's table of published values says 4"})
	}
	for _, c := range cases {
		status, a, _ := solveJSON(t, c.args...)
		if status != 1 || a.Status != string(answer.Wrong) || a.Message == nil || !strings.Contains(*a.Message, c.want) {
			t.Errorf("solve %v: exit %d, status %s, message %v; want 1, wrong, %q", c.args, status, a.Status, a.Message, c.want)
		}
	}
}

// TestUnprovedClaimsMarked: where boardsat publishes nothing, an external
// solver's UNSAT without a proof is answered as it said, marked unchecked
// in the JSON answer and in text; gophersat's UNSAT is not marked.
func TestUnprovedClaimsMarked(t *testing.T) {
	spec := "pieces:3x3:Q2R2"
	if _, known := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count); known {
		t.Fatalf("%s has a published count: pick an instance without one", spec)
	}
	always := liar(t, "always-unsat", "echo s UNSATISFIABLE; exit 20")
	status, a, _ := solveJSON(t, spec, "--task", "first", "--backend", "sat", "--solver", "always-unsat", "--solvers", always)
	if status != 0 || a.Status != string(answer.Unsat) || a.Unchecked == nil || *a.Unchecked != "always-unsat's UNSAT" {
		t.Errorf("a liar's UNSAT: exit %d, status %s, unchecked %v; want 0, unsat, \"always-unsat's UNSAT\"", status, a.Status, a.Unchecked)
	}
	_, out, _ := runCLI("solve", spec, "--task", "first", "--backend", "sat", "--solver", "always-unsat", "--solvers", always)
	if !strings.Contains(out, "unchecked:     always-unsat's UNSAT") {
		t.Errorf("text answer does not name the unchecked claim:\n%s", out)
	}
	if _, a, _ := solveJSON(t, spec, "--task", "first", "--backend", "sat"); a.Unchecked != nil {
		t.Errorf("gophersat's answer marked unchecked: %q", *a.Unchecked)
	}
}
