package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/internal/buildinfo"
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

// TestVersionCommitStamped builds boardsat with make build (in a git
// worktree, where the go command finds no VCS, the commit comes from
// make's -X stamp alone) and checks that boardsat version, a bench's rows
// and sidecar and a checkpoint's key all carry the checkout's commit (the
// checkpoint key ignored the stamp and said build-HASH; without the stamp
// the sidecar's commit was empty under GOFLAGS=-buildvcs=false).
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
	dir := t.TempDir()
	exe := filepath.Join(dir, "boardsat")
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
	commit := strings.TrimSpace(string(head))
	line := ""
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "commit:    "); ok {
			line = v
		}
	}
	if label, _ := strings.CutSuffix(line, "+dirty"); label != commit {
		t.Fatalf("version shows commit %q, not HEAD %s:\n%s", line, commit, out)
	}
	csv := filepath.Join(dir, "r.csv")
	suite := writeSuite(t, "queens:5 backends=native/bitboard")
	bench := exec.Command(exe, "bench", suite, "-o", csv, "--quiet")
	if msg, err := bench.CombinedOutput(); err != nil || strings.Contains(string(msg), "warning") {
		t.Fatalf("bench: %v\n%s", err, msg)
	}
	rows, err := results.ReadFiles(csv)
	if err != nil || len(rows) != 1 || rows[0].Commit != line {
		t.Errorf("bench rows %+v (%v), want commit %q", rows, err, line)
	}
	meta, _, err := results.ReadMeta(csv)
	if err != nil || len(meta.Sessions) != 1 || meta.Sessions[0].GitCommit != line {
		t.Errorf("sidecar %+v (%v), want commit %q", meta, err, line)
	}
	ck := filepath.Join(dir, "q.ck")
	if msg, err := exec.Command(exe, "solve", "queens:9", "--quiet", "--checkpoint", ck).CombinedOutput(); err != nil {
		t.Fatalf("solve --checkpoint: %v\n%s", err, msg)
	}
	var f struct{ Key struct{ Version string } }
	data, err := os.ReadFile(ck)
	if err != nil || json.Unmarshal(data, &f) != nil {
		t.Fatalf("checkpoint %s: %v %s", ck, err, data)
	}
	want := commit[:12]
	if strings.HasSuffix(line, "+dirty") {
		want += "+dirty+build-"
	}
	if !strings.HasPrefix(f.Key.Version, want) {
		t.Errorf("checkpoint key version %q, want the commit's %q", f.Key.Version, want)
	}
}

// TestBenchWithoutCommit: a binary built without its commit (the test
// binary) warns once at the start of a bench and records the commit as
// unknown in every row and in the sidecar, never a guess from the working
// directory; the limits not given are left out of the sidecar, all alike.
func TestBenchWithoutCommit(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "r.csv")
	suite := writeSuite(t, "queens:{4..5} backends=native/bitboard")
	status, _, stderr := runCLI("bench", suite, "-o", csv, "--quiet")
	if status != 0 {
		t.Fatalf("bench: %d %s", status, stderr)
	}
	if n := strings.Count(stderr, "warning"); n != 1 || !strings.Contains(stderr, buildinfo.Unknown) {
		t.Errorf("want one warning naming %q, got %d:\n%s", buildinfo.Unknown, n, stderr)
	}
	rows, err := results.ReadFiles(csv)
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		if r.Commit != buildinfo.Unknown {
			t.Errorf("row commit %q, want %q", r.Commit, buildinfo.Unknown)
		}
	}
	data, err := os.ReadFile(results.MetaPath(csv))
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Sessions []map[string]any }
	if err := json.Unmarshal(data, &m); err != nil || len(m.Sessions) != 1 {
		t.Fatalf("sidecar: %v\n%s", err, data)
	}
	s := m.Sessions[0]
	if s["git_commit"] != buildinfo.Unknown {
		t.Errorf("sidecar git_commit %q, want %q", s["git_commit"], buildinfo.Unknown)
	}
	for _, k := range []string{"timeout", "cpu_limit", "mem_mb", "repeat"} {
		if v, ok := s[k]; ok {
			t.Errorf("sidecar key %s not given on the command line, but written as %v", k, v)
		}
	}
}

// withoutBuildWarning drops the warning a bench of this test binary
// (built without its commit) prints at its start, for the tests that hold
// a failure after the start to one line of its own.
func withoutBuildWarning(stderr string) string {
	var keep []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if !strings.Contains(l, buildinfo.Unknown) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}
