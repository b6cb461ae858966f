package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/filelock"
	"github.com/boardsat/boardsat/results"
)

// safetySuite is a suite of 48 quick runs (a few seconds).
const safetySuite = "queens:4 queens:5 queens:6 backends=native/bitboard,native/plain repeat=8\n"

// benchProc starts exe bench on suite into out; prefix (like prlimit ...)
// goes before it.
func benchProc(exe, suite, out string, prefix []string, extra ...string) (*exec.Cmd, *bytes.Buffer) {
	args := append(append(append([]string{}, prefix...), exe, "bench", suite, "-o", out, "--quiet"), extra...)
	cmd := exec.Command(args[0], args[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	return cmd, &stderr
}

// readWhole reads a results file and fails on a cut line or a duplicate.
func readWhole(t *testing.T, path string) []results.Row {
	t.Helper()
	data, _ := os.ReadFile(path)
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("%s does not end with a whole row: %q", path, data[max(0, len(data)-80):])
	}
	rows, cut, err := results.ReadFilesCut(path)
	if err != nil || len(cut) > 0 {
		t.Fatalf("%s: %v %v", path, err, cut)
	}
	if _, dropped := results.Dedup(rows); dropped > 0 {
		t.Errorf("%s: %d duplicate rows", path, dropped)
	}
	return rows
}

// lastEnded returns how the sidecar's last session ended.
func lastEnded(t *testing.T, csv string) string {
	t.Helper()
	m, ok, err := results.ReadMeta(csv)
	if err != nil || !ok || len(m.Sessions) == 0 {
		t.Fatalf("sidecar of %s: %v %v", csv, ok, err)
	}
	return m.Sessions[len(m.Sessions)-1].Ended
}

// TestOneWriterPerResultsFile: a second bench on a file a bench is writing
// is refused in one line naming the writer's pid (exit 2), and the first
// writes every row whole; a lock left by a writer that died is taken
// over, and that is said.
func TestOneWriterPerResultsFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs benches")
	}
	exe := buildBoardsat(t)
	dir := t.TempDir()
	suite := filepath.Join(dir, "s.suite")
	os.WriteFile(suite, []byte(safetySuite), 0o644)
	out := filepath.Join(dir, "r.csv")
	first, firstErr := benchProc(exe, suite, out, nil)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if data, _ := os.ReadFile(filelock.Path(out)); strings.TrimSpace(string(data)) == fmt.Sprint(first.Process.Pid) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	second, secondErr := benchProc(exe, suite, out, nil, "--resume")
	second.Run()
	want := fmt.Sprintf("process %d", first.Process.Pid)
	if code := second.ProcessState.ExitCode(); code != 2 || strings.Count(secondErr.String(), "\n") != 1 || !strings.Contains(secondErr.String(), want) {
		t.Errorf("second bench: exit %d, stderr %q, want 2 and one line naming %s", code, secondErr.String(), want)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first bench: %v %s", err, firstErr.String())
	}
	if rows := readWhole(t, out); len(rows) != 48 {
		t.Errorf("first bench wrote %d rows, want 48", len(rows))
	}
	if e := lastEnded(t, out); e != "completed" {
		t.Errorf("sidecar says the session ended %q", e)
	}
	// A stale lock: the pid of a process that has ended.
	dead := exec.Command("true")
	dead.Run()
	stale := filepath.Join(dir, "stale.csv")
	os.WriteFile(filelock.Path(stale), []byte(fmt.Sprintln(dead.Process.Pid)), 0o644)
	cmd, stderr := benchProc(exe, suite, stale, nil)
	if err := cmd.Run(); err != nil || !strings.Contains(stderr.String(), fmt.Sprintf("took over the lock of %s from process %d", stale, dead.Process.Pid)) {
		t.Errorf("bench over a stale lock: %v, stderr %q", err, stderr.String())
	}
	readWhole(t, stale)
}

// TestWriteFailureLeavesWholeRows: a write that fails after some rows (the
// file size limit, prlimit --fsize, as a full disk would) ends the bench
// with exit 2 and one line saying --resume continues; the file ends at a
// whole row, the sidecar says how the session ended, and --resume
// completes it.
func TestWriteFailureLeavesWholeRows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs benches")
	}
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("no prlimit (util-linux)")
	}
	exe := buildBoardsat(t)
	dir := t.TempDir()
	suite := filepath.Join(dir, "s.suite")
	os.WriteFile(suite, []byte(safetySuite), 0o644)
	out := filepath.Join(dir, "r.csv")
	cmd, stderr := benchProc(exe, suite, out, []string{"prlimit", "--fsize=7000"})
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 2 || strings.Count(stderr.String(), "\n") != 1 ||
		!strings.Contains(stderr.String(), "ends at its last whole row") || !strings.Contains(stderr.String(), "--resume") {
		t.Fatalf("bench past the size limit: exit %d, stderr %q", code, stderr.String())
	}
	rows := readWhole(t, out)
	if len(rows) == 0 || len(rows) >= 48 {
		t.Fatalf("%d rows before the failure, want some of 48", len(rows))
	}
	if e := lastEnded(t, out); !strings.HasPrefix(e, "failed: ") {
		t.Errorf("sidecar says the session ended %q", e)
	}
	cmd, stderr = benchProc(exe, suite, out, nil, "--resume")
	if err := cmd.Run(); err != nil {
		t.Fatalf("--resume: %v %s", err, stderr.String())
	}
	if all := readWhole(t, out); len(all) != 48 {
		t.Errorf("after --resume %d rows, want 48", len(all))
	}
	if e := lastEnded(t, out); e != "completed" {
		t.Errorf("sidecar says the resumed session ended %q", e)
	}
}

// TestResultsCutLineAndForce: results reads a file whose last line is cut
// by leaving that line out, with a warning; results merge -o onto an
// existing file is refused without --force, and replaces it with it.
func TestResultsCutLineAndForce(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "r.csv")
	if status, _, errOut := runCLI("bench", writeSuite(t, "queens:4 queens:5 backends=native/bitboard\n"), "-o", csv, "--quiet"); status != 0 {
		t.Fatal(errOut)
	}
	data, _ := os.ReadFile(csv)
	whole := bytes.Count(data, []byte("\n")) - 1
	lines := bytes.SplitAfter(data, []byte("\n"))
	cut := append(append([]byte{}, data...), lines[len(lines)-2][:20]...) // a row cut after 20 bytes
	os.WriteFile(csv, cut, 0o644)
	status, out, errOut := runCLI("results", "merge", csv)
	if status != 0 || !strings.Contains(errOut, "last line is cut short") || strings.Count(out, "\n") != whole+1 {
		t.Errorf("results on a cut file: exit %d, %d lines (want %d), stderr %q", status, strings.Count(out, "\n"), whole+1, errOut)
	}
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, []byte("not results\n"), 0o644)
	status, _, errOut = runCLI("results", "merge", csv, "-o", other)
	if got, _ := os.ReadFile(other); status != 2 || string(got) != "not results\n" || !strings.Contains(errOut, "already exists: add --force") {
		t.Errorf("merge -o onto an existing file: exit %d, stderr %q, file %q", status, errOut, got)
	}
	if status, _, errOut = runCLI("results", "merge", csv, "-o", other, "--force"); status != 0 {
		t.Errorf("merge --force: %d %s", status, errOut)
	}
	if rows := readWhole(t, other); len(rows) != whole {
		t.Errorf("merged %d rows, want %d", len(rows), whole)
	}
}
