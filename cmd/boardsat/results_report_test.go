package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResultsReport checks that results report writes one HTML file of
// one results file or two, refuses an existing file without --force and a
// symbolic link even with it, and leaves no file on bad input.
func TestResultsReport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.html")
	status, stdout, stderr := runCLI("results", "report", fixtureCSV, "-o", out, "--time", "wall")
	if status != 0 || strings.TrimSpace(stdout) != out {
		t.Fatalf("exit %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(data), "<!DOCTYPE html>") || !strings.Contains(string(data), "wall-clock seconds") {
		t.Fatalf("report: %v, %.100q", err, data)
	}
	a, b := filepath.Join(dir, "old.csv"), filepath.Join(dir, "new.csv")
	writeScaled(t, a, 1)
	writeScaled(t, b, 2)
	ab := filepath.Join(dir, "ab.html")
	if status, _, stderr := runCLI("results", "report", a, b, "-o", ab); status != 0 {
		t.Fatalf("two files: exit %d, %s", status, stderr)
	}
	if data, _ := os.ReadFile(ab); !strings.Contains(string(data), `id="comparison"`) || !strings.Contains(string(data), "A (old) and B (new)") {
		t.Error("the report of two files has no comparison")
	}
	if status, _, stderr := runCLI("results", "report", fixtureCSV, "-o", out, "--force"); status != 0 {
		t.Errorf("--force: exit %d, %s", status, stderr)
	}
	link := filepath.Join(dir, "link.html")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "none.html")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{fixtureCSV, "-o", out}, "already exists"},
		{[]string{fixtureCSV, "-o", link, "--force"}, "symbolic link"},
		{[]string{fixtureCSV}, "want -o REPORT.html"},
		{[]string{fixtureCSV, a, b, "-o", missing}, "two to compare"},
		{[]string{fixtureCSV, "-o", missing, "--spread", "sd"}, "unknown --spread"},
		{[]string{fixtureCSV, "-o", missing, "--x", "native/plain"}, "--x and --y go together"},
		{[]string{fixtureCSV, "-o", missing, "--x", "native/plain", "--y", "sat/none"}, "unknown variant"},
		{[]string{fixtureCSV, "-o", missing, "--time", "user"}, "unknown --time"},
	} {
		status, stdout, stderr := runCLI(append([]string{"results", "report"}, c.args...)...)
		if status != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, status, stdout, stderr, c.want)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("bad input left a report file")
	}
}
