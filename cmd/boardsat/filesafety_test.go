package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/internal/filelock"
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

// TestOneWriterPerResultsFile: while a bench writes a file, a second bench
// on it is refused in one line naming the writer's pid (exit 2), through
// the same name, a symbolic link and a hard link alike, and so are results
// merge -o FILE --force and encode -o FILE --force; the first writes every
// row whole, once.
func TestOneWriterPerResultsFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process and runs benches")
	}
	if _, err := os.Stat("/proc/locks"); err != nil {
		t.Skip("no /proc/locks: this system does not say who holds a lock")
	}
	exe := boardsatExe(t)
	dir := t.TempDir()
	suite := filepath.Join(dir, "s.suite")
	os.WriteFile(suite, []byte(safetySuite), 0o644)
	out := filepath.Join(dir, "r.csv")
	other := filepath.Join(dir, "other.csv")
	if status, _, errOut := runCLI("bench", writeSuite(t, "queens:4 backends=native/bitboard\n"), "-o", other, "--quiet"); status != 0 {
		t.Fatal(errOut)
	}
	first, firstErr := benchProc(exe, suite, out, nil)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for filelock.Holder(out) != first.Process.Pid {
		if time.Now().After(deadline) {
			t.Fatalf("the first bench (process %d) did not take the lock of %s in a minute", first.Process.Pid, out)
		}
		time.Sleep(5 * time.Millisecond)
	}
	sym, hard := filepath.Join(dir, "sym.csv"), filepath.Join(dir, "hard.csv")
	if err := os.Symlink("r.csv", sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(out, hard); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("process %d", first.Process.Pid)
	for _, name := range []string{out, sym, hard} {
		second, secondErr := benchProc(exe, suite, name, nil, "--resume")
		second.Run()
		if code := second.ProcessState.ExitCode(); code != 2 || strings.Count(secondErr.String(), "\n") != 1 || !strings.Contains(secondErr.String(), want) {
			t.Errorf("second bench on %s: exit %d, stderr %q, want 2 and one line naming %s", filepath.Base(name), code, secondErr.String(), want)
		}
	}
	merge := exec.Command(exe, "results", "merge", other, "-o", out, "--force")
	var mergeErr bytes.Buffer
	merge.Stderr = &mergeErr
	merge.Run()
	if code := merge.ProcessState.ExitCode(); code != 2 || strings.Count(mergeErr.String(), "\n") != 1 || !strings.Contains(mergeErr.String(), want) {
		t.Errorf("results merge -o onto a bench's file: exit %d, stderr %q, want 2 and one line naming %s", code, mergeErr.String(), want)
	}
	// Every other writer too (package atomicfile): encode -o --force.
	enc := exec.Command(exe, "encode", "queens:4", "-o", sym, "--force")
	var encErr bytes.Buffer
	enc.Stderr = &encErr
	enc.Run()
	if code := enc.ProcessState.ExitCode(); code != 2 || strings.Count(encErr.String(), "\n") != 1 || !strings.Contains(encErr.String(), want) {
		t.Errorf("encode -o onto a bench's file: exit %d, stderr %q, want 2 and one line naming %s", code, encErr.String(), want)
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
	for _, left := range []string{out + ".lock", sym + ".meta.json", hard + ".meta.json"} {
		if _, err := os.Lstat(left); !os.IsNotExist(err) {
			t.Errorf("%s is there: %v", filepath.Base(left), err)
		}
	}
}

// TestPlantedLockLinkHarmless: a FILE.lock planted as a symbolic link to
// another file (a lock file of an older boardsat, or an attack in a shared
// directory) changes nothing: the bench runs and the other file keeps its
// content.
func TestPlantedLockLinkHarmless(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.txt")
	os.WriteFile(victim, []byte("precious\n"), 0o644)
	out := filepath.Join(dir, "v.csv")
	os.Symlink("victim.txt", out+".lock")
	if status, _, errOut := runCLI("bench", writeSuite(t, "queens:4 backends=native/bitboard\n"), "-o", out, "--quiet"); status != 0 {
		t.Fatalf("bench: exit %d, %s", status, errOut)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Errorf("the file the planted lock link names now holds %q", data)
	}
	if rows := readWhole(t, out); len(rows) != 1 {
		t.Errorf("%d rows, want 1", len(rows))
	}
}

// TestNeverReplacesNonRegular: a FIFO or a character device given as the
// output of bench, encode, results merge or table, proof check --lrat or
// cnf solve --proof, with or without --force, is refused in one line that
// says so (without offering --force), exit 2, and left as it was.
func TestNeverReplacesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	targets := []string{fifo}
	// Never /dev/null itself: a boardsat that failed this test would
	// replace it for the whole machine.
	dev := filepath.Join(dir, "null.csv")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		targets = append(targets, dev)
	} else {
		t.Logf("no character device case: mknod: %v", err)
	}
	merged := filepath.Join(dir, "m.csv")
	if status, _, errOut := runCLI("bench", writeSuite(t, "queens:4 backends=native/bitboard\n"), "-o", merged, "--quiet"); status != 0 {
		t.Fatal(errOut)
	}
	suite := writeSuite(t, "queens:4 backends=native/bitboard\n")
	unsatCNF, unsatDRAT := filepath.Join(dir, "u.cnf"), filepath.Join(dir, "u.drat")
	if err := os.WriteFile(unsatCNF, []byte("p cnf 1 2\n1 0\n-1 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(unsatDRAT, []byte("0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range targets {
		before, _ := os.Lstat(path)
		for _, args := range [][]string{
			{"bench", suite, "-o", path, "--quiet"},
			{"bench", suite, "-o", path, "--quiet", "--force"},
			{"encode", "queens:4", "-o", path, "--force"},
			{"results", "merge", merged, "-o", path, "--force"},
			// Without --force, the same refusal: not "already exists: add
			// --force", which would then be refused all the same.
			{"encode", "queens:4", "-o", path},
			{"results", "merge", merged, "-o", path},
			{"results", "table", merged, "-o", path},
			{"proof", "check", unsatCNF, unsatDRAT, "--lrat", path},
			{"cnf", "solve", unsatCNF, "--proof", path},
		} {
			status, _, errOut := runCLI(args...)
			if status != 2 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "not a regular file") || strings.Contains(errOut, "--force") {
				t.Errorf("%s: exit %d, stderr %q; want 2 and one line saying it is not a regular file", strings.Join(args, " "), status, errOut)
			}
			if after, err := os.Lstat(path); err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
				t.Errorf("%s replaced %s: %v", strings.Join(args, " "), path, err)
			}
		}
	}
}

// TestWriteFailureLeavesWholeRows: a write that fails after some rows (the
// file size limit, prlimit --fsize, as a full disk would) ends the bench
// with exit 2 and one line saying --resume continues; the file ends at a
// whole row, the sidecar says how the session ended, and --resume
// completes it.
func TestWriteFailureLeavesWholeRows(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process and runs benches")
	}
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("no prlimit (util-linux)")
	}
	exe := boardsatExe(t)
	dir := t.TempDir()
	suite := filepath.Join(dir, "s.suite")
	os.WriteFile(suite, []byte(safetySuite), 0o644)
	out := filepath.Join(dir, "r.csv")
	cmd, stderr := benchProc(exe, suite, out, []string{"prlimit", "--fsize=7000"})
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 2 || strings.Count(withoutBuildWarning(stderr.String()), "\n") != 1 ||
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

// TestFailedStartLeavesNothing: a bench whose start fails (a name too
// long for the sidecar; a file size limit, as a full disk, that lets the
// header through but not the sidecar; a disk that is really full) exits 2
// in one line and leaves no file behind, so the same command runs again
// rather than being refused as "already exists".
func TestFailedStartLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process and runs benches")
	}
	suite := writeSuite(t, "queens:4 backends=native/bitboard\n")
	// nothing fails unless dir holds exactly the files in keep.
	nothingLeft := func(what, dir string, keep ...string) {
		t.Helper()
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			if !slices.Contains(keep, e.Name()) {
				names = append(names, e.Name())
			}
		}
		if len(names) > 0 {
			t.Errorf("%s left %v", what, names)
		}
	}
	oneLine := func(what string, status int, errOut, want string) {
		t.Helper()
		if status != 2 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, want) || strings.Contains(errOut, "already exists") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line saying %q", what, status, errOut, want)
		}
	}

	dir := t.TempDir()
	long := filepath.Join(dir, strings.Repeat("y", 246)+".csv") // the CSV's name fits, its sidecar's does not
	for _, try := range []string{"first", "second"} {
		status, _, errOut := runCLI("bench", suite, "-o", long, "--quiet")
		oneLine(try+" bench with an over-long name", status, errOut, "file name too long")
		nothingLeft(try+" bench with an over-long name", dir)
	}

	if _, err := exec.LookPath("prlimit"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no prlimit (util-linux) under CI=true: the file size limit case must run")
		}
		t.Log("no prlimit (util-linux): no file size limit case")
	} else {
		exe := boardsatExe(t)
		dir := t.TempDir()
		out := filepath.Join(dir, "r.csv")
		cmd, stderr := benchProc(exe, suite, out, []string{"prlimit", "--fsize=1000"})
		cmd.Run()
		oneLine("bench under a 1000-byte file size limit", cmd.ProcessState.ExitCode(), stderr.String(), "file too large")
		nothingLeft("bench under a 1000-byte file size limit", dir)
		cmd, stderr = benchProc(exe, suite, out, nil)
		if err := cmd.Run(); err != nil {
			t.Errorf("the same bench without the limit: %v %s", err, stderr.String())
		}
	}

	// A real full disk: a 64 KiB tmpfs filled but for one page, which the
	// CSV's header takes (where this process may mount one: root).
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt).CombinedOutput(); err != nil {
		// Not an error under CI=true either: a CI runner is seldom root.
		t.Skipf("no full-disk case: cannot mount a tmpfs here (%v: %s)", err, bytes.TrimSpace(out))
	}
	defer exec.Command("umount", mnt).Run()
	filler := filepath.Join(mnt, "filler")
	if err := os.WriteFile(filler, make([]byte, 60<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(mnt, "r.csv")
	status, _, errOut := runCLI("bench", suite, "-o", out, "--quiet")
	oneLine("bench on a full disk", status, errOut, "no space left on device")
	nothingLeft("bench on a full disk", mnt, "filler")
	os.Remove(filler)
	if status, _, errOut := runCLI("bench", suite, "-o", out, "--quiet"); status != 0 {
		t.Errorf("the same bench once there is space: exit %d, %s", status, errOut)
	}
}
