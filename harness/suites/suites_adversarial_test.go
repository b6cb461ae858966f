package suites

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHugeSuiteRefusedFromItsFirstBytes holds the promise that a suite of
// 1,000,001 one-run lines is refused from its size, before it is parsed
// (it took 79 s and 939 MB to reach MaxPlannedRuns), that a text of more
// than MaxGroups lines is refused at the line past the bound, and that a
// suite that is not a regular file (a FIFO, /dev/zero) is refused at once.
func TestHugeSuiteRefusedFromItsFirstBytes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.suite")
	line := "queens:4\n"
	if err := os.WriteFile(path, []byte(strings.Repeat(line, 1_000_001)), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "larger than 1 MiB") {
		t.Errorf("a suite of 1,000,001 lines: %v, want a refusal naming the bound", err)
	}
	text := strings.Repeat(line, MaxGroups+1)
	if _, err := Parse("many", text); err == nil || !strings.Contains(err.Error(), "more than 10000 run groups") {
		t.Errorf("a suite of %d lines: %v, want a refusal naming the bound", MaxGroups+1, err)
	}
	if _, err := Parse("many", strings.Repeat(line, MaxGroups)); err != nil {
		t.Errorf("a suite of %d lines (the bound): %v", MaxGroups, err)
	}
	if _, err := Load("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/zero as a suite: %v", err)
	}
	t.Logf("refusals took %v", time.Since(start))
}
