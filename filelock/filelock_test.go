package filelock

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOneHolder: a second Acquire of a held lock is refused with the
// holder's pid; after Release the lock file is gone and the next Acquire
// reports no stale holder.
func TestOneHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	l, stale, err := Acquire(path)
	if err != nil || stale != 0 {
		t.Fatalf("first Acquire: %v, stale %d", err, stale)
	}
	_, _, err = Acquire(path)
	var held *HeldError
	if !errors.As(err, &held) || held.PID != os.Getpid() || !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("second Acquire: %v, want held by %d", err, os.Getpid())
	}
	l.Release()
	if _, err := os.Stat(Path(path)); !os.IsNotExist(err) {
		t.Errorf("lock file after Release: %v", err)
	}
	l, stale, err = Acquire(path)
	if err != nil || stale != 0 {
		t.Errorf("Acquire after Release: %v, stale %d", err, stale)
	}
	l.Release()
}

// TestStaleTakenOver: a lock file left by a process that died (its pid
// written, no lock held) is taken over, and its pid reported.
func TestStaleTakenOver(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1)")
	}
	pid := dead.Process.Pid
	os.WriteFile(Path(path), []byte(strconv.Itoa(pid)+"\n"), 0o644)
	l, stale, err := Acquire(path)
	if err != nil || stale != pid {
		t.Fatalf("Acquire over a dead writer's lock: %v, stale %d, want %d", err, stale, pid)
	}
	data, _ := os.ReadFile(Path(path))
	if strings.TrimSpace(string(data)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock file holds %q, want this pid", data)
	}
	l.Release()
}
