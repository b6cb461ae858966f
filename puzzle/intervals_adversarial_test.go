package puzzle

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIntervalsFileMustBeARegularFile holds the promise that
// intervals:FILE reads only a regular file: a FIFO (a hang) and
// /dev/zero are refused at once in one line.
func TestIntervalsFileMustBeARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "iv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, "/dev/zero"} {
		done := make(chan error, 1)
		go func() { _, err := ReadIntervalsFile(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v, want a refusal saying it is not a regular file", path, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the read hangs", path)
		}
	}
}
