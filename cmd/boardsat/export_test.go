package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportCommand: a suite file exported, the table's rows, the summary
// line; the same DIR again is refused, and replaced with --force.
func TestExportCommand(t *testing.T) {
	suite := writeTemp(t, "s.suite", "queens:4 queens:3 backends=native task=count\n")
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errText := runCLI("export", suite, "--out", dir, "--formats", "cnf,opb")
	if code != 0 || errText != "" || !strings.HasSuffix(out, "wrote 4 files and "+filepath.Join(dir, "instances.csv")+"\n") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errText)
	}
	data, err := os.ReadFile(filepath.Join(dir, "instances.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 5 || lines[0] != "file,spec,task,format,encoding,gbd_hash,answer,count,optimum,known_by" ||
		!strings.HasPrefix(lines[1], "queens_4.count.cnf,queens:4,count,cnf,") || !strings.HasSuffix(lines[1], ",sat,2,,published") ||
		!strings.HasSuffix(lines[3], ",unsat,0,,published") {
		t.Errorf("instances.csv:\n%s", data)
	}
	// The file counts as the table says.
	code, out, _ = runCLI("cnf", "count", filepath.Join(dir, "queens_4.count.cnf"))
	if code != 0 || !strings.HasSuffix(out, "c s exact arb int 2\n") {
		t.Errorf("cnf count of the export: %d %q", code, out)
	}
	code, out, errText = runCLI("export", suite, "--out", dir)
	if code != 2 || out != "" || strings.Count(errText, "\n") != 1 || !strings.Contains(errText, "is not empty") {
		t.Errorf("again: exit %d, %q, %q", code, out, errText)
	}
	code, _, errText = runCLI("export", suite, "--out", dir, "--force", "--formats", "cnf")
	if code != 0 || errText != "" {
		t.Errorf("--force: exit %d, %q", code, errText)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "instances.csv")); strings.Count(string(data), "\n") != 3 {
		t.Errorf("instances.csv after --force:\n%s", data)
	}
}

// TestExportBadInput: one line on stderr, exit 2, nothing written.
func TestExportBadInput(t *testing.T) {
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "mine"), []byte("x"), 0o644)
	notDir := writeTemp(t, "file", "x")
	fresh := filepath.Join(t.TempDir(), "fresh")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export"}, "one SUITE"},
		{[]string{"export", "quick", "paper", "--out", fresh}, "one SUITE"},
		{[]string{"export", "quick"}, "needs --out"},
		{[]string{"export", "no-such-suite", "--out", fresh}, "no built-in suite or suite file"},
		{[]string{"export", "quick", "--out", full}, "is not empty"},
		{[]string{"export", "quick", "--out", notDir}, "is not a directory"},
		{[]string{"export", "quick", "--out", fresh, "--formats", "cnf,xml"}, `unknown format "xml"`},
		{[]string{"export", "quick", "--out", fresh, "--timeout", "-1s"}, "must not be negative"},
	} {
		code, out, errText := runCLI(c.args...)
		if code != 2 || out != "" || strings.Count(errText, "\n") != 1 || !strings.Contains(errText, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q (want one line with %q)", c.args, code, out, errText, c.want)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("%s was created by a refused command", fresh)
	}
}
