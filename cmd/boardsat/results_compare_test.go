package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// writeScaled writes the fixture's queens rows as a results file of 4
// repeats per run, every time (wall, CPU, solver) times factor, the
// repeats 1%, 2%, 3% apart so that no two tie.
func writeScaled(t *testing.T, path string, factor float64) {
	t.Helper()
	rows, err := results.ReadFiles(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	var out []results.Row
	for _, r := range rows {
		if r.Puzzle != "queens" || r.Rep != 1 {
			continue
		}
		for rep := 1; rep <= 4; rep++ {
			q := r
			q.Rep = rep
			f := factor * (1 + 0.01*float64(rep))
			q.Seconds, q.User, q.Sys, q.SolverSeconds = r.Seconds*f, r.User*f, r.Sys*f, r.SolverSeconds*f
			out = append(out, q)
		}
	}
	var buf bytes.Buffer
	if err := results.Write(&buf, out); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResultsCompare checks that B twice as slow as A in every run gives
// ratios of 2, each significant (4 repeats against 4, apart: exact
// p = 2/70 = 0.02857), a geometric mean of 2, and a figure; and the
// refusals.
func TestResultsCompare(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "old.csv"), filepath.Join(dir, "new.csv")
	writeScaled(t, a, 1)
	writeScaled(t, b, 2)
	fig := filepath.Join(dir, "ab.svg")
	status, out, stderr := runCLI("results", "compare", a, b, "--time", "wall", "--plot", fig)
	if status != 0 {
		t.Fatalf("exit %d: %s", status, stderr)
	}
	lines := strings.Split(out, "\n")
	rows, sig := 0, 0
	for _, l := range lines {
		if strings.HasPrefix(l, "| queens ") {
			rows++
			if strings.Contains(l, "|         2 | 0.02857 | yes") {
				sig++
			}
		}
	}
	if rows == 0 || sig != rows {
		t.Errorf("%d of %d instances with ratio 2, p 0.02857, significant:\n%s", sig, rows, out)
	}
	if !strings.Contains(out, "| all  ") || !strings.Contains(out, "A (old) and B (new)") {
		t.Errorf("no overall geometric mean or side names:\n%s", out)
	}
	allRows := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "| all ") {
			allRows++
			if !strings.Contains(l, "|           2 |      2 |       2 |") {
				t.Errorf("overall mean not 2 with CI [2, 2]: %q", l)
			}
		}
	}
	if allRows != 1 {
		t.Errorf("%d overall rows, want 1", allRows)
	}
	if st, err := os.Stat(fig); err != nil || st.Size() < 1000 {
		t.Errorf("figure: %v %v", st, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{a}, "want two results files"},
		{[]string{a, b, "--plot", fig}, "already exists"},
		{[]string{a, b, "--format", "latex"}, "unknown --format"},
		{[]string{a, b, "--time", "user"}, "unknown --time"},
		{[]string{a, fixtureCSV, "--puzzle", "pieces"}, "matches nothing"},
	} {
		status, out, stderr := runCLI(append([]string{"results", "compare"}, c.args...)...)
		if status != 2 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, status, out, stderr, c.want)
		}
	}
}
