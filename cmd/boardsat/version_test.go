package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestVersionFlag checks that --version prints what boardsat version prints
// in the test binary (no commit stamped: it says so).
func TestVersionFlag(t *testing.T) {
	s1, out1, e1 := runCLI("version")
	s2, out2, e2 := runCLI("--version")
	if s1 != 0 || s2 != 0 || out1 != out2 || e1+e2 != "" {
		t.Fatalf("version: %d %q %q; --version: %d %q %q", s1, out1, e1, s2, out2, e2)
	}
	for _, want := range []string{"go:        " + runtime.Version(), "gophersat: v", "commit:    "} {
		if !strings.Contains(out1, want) {
			t.Errorf("version output lacks %q:\n%s", want, out1)
		}
	}
	if s, _, e := runCLI("version", "extra"); s != 2 || strings.Count(e, "\n") != 1 {
		t.Errorf("version extra: %d %q", s, e)
	}
}

// TestVersionCommitStamped builds boardsat with make build and checks
// that boardsat version shows the checkout's commit (without the stamp the
// sidecar's commit was empty under GOFLAGS=-buildvcs=false).
func TestVersionCommitStamped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not in a git checkout:", err)
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make:", err)
	}
	exe := filepath.Join(t.TempDir(), "boardsat")
	build := exec.Command("make", "-s", "-C", "../..", "build", "BIN="+exe)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	out, err := exec.Command(exe, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	flag, _ := exec.Command(exe, "--version").Output()
	if string(flag) != string(out) {
		t.Errorf("--version %q differs from version %q", flag, out)
	}
	if !strings.Contains(string(out), "commit:    "+strings.TrimSpace(string(head))) {
		t.Errorf("version does not show HEAD %s:\n%s", head, out)
	}
}
