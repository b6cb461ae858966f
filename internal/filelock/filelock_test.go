package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// wantHeld fails unless err is a *HeldError naming this process (where
// /proc/locks says who holds a lock).
func wantHeld(t *testing.T, err error, what string) {
	t.Helper()
	var held *HeldError
	if !errors.As(err, &held) {
		t.Fatalf("%s: %v, want the lock refused as held", what, err)
	}
	if _, serr := os.Stat("/proc/locks"); serr == nil {
		if held.PID != os.Getpid() || !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) {
			t.Errorf("%s: %v, want held by process %d", what, held, os.Getpid())
		}
	}
}

// TestOneHolder: a second Acquire of a held lock is refused with the
// holder's pid; after Release the next Acquire succeeds; the empty file
// Acquire created is removed by Release, a file with content is kept.
func TestOneHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	l, err := Acquire(path)
	if err != nil {
		t.Fatalf("first Acquire: %v", err)
	}
	_, err = Acquire(path)
	wantHeld(t, err, "second Acquire")
	l.Release()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the empty file Acquire created is still there after Release: %v", err)
	}
	l, err = Acquire(path)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	if _, err := l.File().WriteString("a,b\n"); err != nil {
		t.Fatal(err)
	}
	l.Release()
	if data, _ := os.ReadFile(path); string(data) != "a,b\n" {
		t.Errorf("after Release the file holds %q, want what was written", data)
	}
	// A file that was there before, even empty, is never removed.
	os.WriteFile(path, nil, 0o644)
	l, err = Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("an empty file that was there before Acquire is gone: %v", err)
	}
}

// TestLinksShareTheLock: the lock is the file's, not the name's: through a
// symbolic link and through a hard link the held lock is refused, and the
// link's Path is the file itself.
func TestLinksShareTheLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "l.csv")
	os.WriteFile(path, []byte("x\n"), 0o644)
	l, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	sym, hard := filepath.Join(dir, "sym.csv"), filepath.Join(dir, "hard.csv")
	if err := os.Symlink("l.csv", sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(sym)
	wantHeld(t, err, "Acquire through a symbolic link")
	_, err = Acquire(hard)
	wantHeld(t, err, "Acquire through a hard link")
	if real, err := Resolve(sym); err != nil || real != path {
		t.Errorf("Resolve(%s) = %q, %v; want %s", sym, real, err, path)
	}
}

// TestNotRegular: a FIFO, a character device, a directory and a symbolic
// link to nothing are refused, and left as they were; nothing is created
// through the broken link.
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.csv")
	os.Symlink("missing.csv", broken)
	cases := map[string]string{fifo: "a FIFO", dir: "a directory", broken: "a symbolic link to a missing file"}
	if dev := charDevice(t, dir); dev != "" {
		cases[dev] = "a character device"
	}
	for path, what := range cases {
		_, err := Acquire(path)
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.What != what || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Acquire(%s): %v, want it refused as %s", path, err, what)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is gone or changed: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "missing.csv")); !os.IsNotExist(err) {
		t.Errorf("a file was created through the broken link: %v", err)
	}
}

// charDevice makes a null device (1, 3) in dir and returns its path, or ""
// where this process may not (not root): never /dev/null itself, which a
// writer that failed this test would replace for the whole machine.
func charDevice(t *testing.T, dir string) string {
	path := filepath.Join(dir, "null.csv")
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("no character device case: mknod: %v", err)
		return ""
	}
	return path
}
