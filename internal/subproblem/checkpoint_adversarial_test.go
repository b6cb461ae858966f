package subproblem

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/puzzle"
)

// TestCheckpointMustBeARegularFile holds the promise that --checkpoint
// reads only a regular file, of at most MaxCheckpointBytes: a FIFO (which
// blocked `solve queens:12 --checkpoint c.ck` for ever) and /dev/zero
// (read until the kernel killed boardsat) are refused at once in one
// line, and so is a file past the bound.
func TestCheckpointMustBeARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "c.ck")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(t.TempDir(), "big.ck")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxCheckpointBytes+1); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "a FIFO", "/dev/zero": "a character device", big: "larger than 256 MiB"} {
		done := make(chan error, 1)
		go func() {
			_, err := openCheckpoint(path, testKey, puzzle.Shard{}, 10)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want a refusal saying %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the checkpoint's read hangs", path)
		}
		if _, ok := StoredKey(path); ok {
			t.Errorf("%s: StoredKey read a key", path)
		}
	}
}
