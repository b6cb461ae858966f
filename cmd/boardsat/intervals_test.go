package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIntervalsCLI: the shipped Gattaca example through the command line
// on every backend (optimum 100: 3-18, 20-39, 43-70, 78-97, values
// 24+26+27+23), the listing, and bad intervals input as one line on
// stderr and exit status 2.
func TestIntervalsCLI(t *testing.T) {
	const ex = "intervals:../../examples/gattaca.txt"
	for _, args := range [][]string{{"--backend", "native"}, {"--heuristic", "seed"}, {"--backend", "sat"},
		{"--backend", "sat", "--encoding", "clique+native"}, {"--backend", "check"}} {
		status, out, errb := runCLI(append([]string{"solve", ex}, args...)...)
		if status != 0 || !strings.Contains(out, "objective:     100\n") || !strings.HasPrefix(out, "1 3 4 6\n") && !strings.HasPrefix(out, "0 1 3 6\n") {
			t.Errorf("solve %s %v: status %d, %q %q", ex, args, status, out, errb)
		}
	}
	status, out, _ := runCLI("solve", ex, "--task", "count", "--format", "json")
	if status != 0 || !strings.Contains(out, `"count":1,`) || !strings.Contains(out, `"objective":100,`) {
		t.Errorf("count: status %d, %q", status, out)
	}
	status, out, _ = runCLI("list")
	for _, want := range []string{"intervals", "dp", "seed", "pairwise", "clique"} {
		if status != 0 || !strings.Contains(out, want) {
			t.Errorf("list does not mention %s", want)
		}
	}

	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return "intervals:" + p
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"solve", write("bad.txt", "0 3 1\n4 x 2\n")}, "line 2"},
		{[]string{"solve", write("backwards.txt", "7 3 1\n")}, "ends before it starts"},
		{[]string{"solve", write("empty.txt", "")}, "empty"},
		{[]string{"solve", "intervals:" + filepath.Join(dir, "missing.txt")}, "no such file"},
		{[]string{"solve", "intervals:random:0:seed=1"}, "bad intervals count"},
		{[]string{"solve", "intervals:random:5:seed=abc"}, "bad intervals seed"},
		{[]string{"solve", "intervals:random:100:seed=1", "--heuristic", "seed"}, "refuses more than"},
		{[]string{"solve", "intervals:random:5:seed=1", "--task", "all"}, "does not do task all"},
	}
	for _, c := range cases {
		status, stdout, stderr := runCLI(c.args...)
		if status != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2 and one line containing %q", c.args, status, stdout, stderr, c.want)
		}
	}
}
