package results

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/internal/filelock"
)

// TestResultsInputMustBeARegularFile holds the promise that a results
// file is read only when it is a regular file: `results summarize
// /dev/zero` (read until the kernel killed boardsat) and a FIFO (a hang)
// are refused at once in one line; so is a sidecar that is a FIFO.
func TestResultsInputMustBeARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "r.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(MetaPath(fifo), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan []error, 1)
	go func() {
		_, err1 := ReadFiles("/dev/zero")
		_, err2 := ReadFiles(fifo)
		_, _, err3 := ReadMeta(fifo)
		done <- []error{err1, err2, err3}
	}()
	select {
	case errs := <-done:
		for i, err := range errs {
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("read %d: %v, want a refusal saying it is not a regular file", i+1, err)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO as a results file hangs")
	}
}

// TestSidecarSwappedForALinkIsNotWrittenThrough holds the promise that
// the sidecar's last write (bench's end of session, which replaces its
// own sidecar) does not follow a link that replaced the sidecar during
// the bench: it is refused and the link's target is left as it was.
func TestSidecarSwappedForALinkIsNotWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "r.csv")
	os.WriteFile(csv, []byte("x\n"), 0o644)
	l, err := filelock.Acquire(csv)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	m := Meta{Sessions: []Session{{Suite: "s"}}}
	if err := WriteMeta(l, m, false); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("victim\n"), 0o644)
	os.Remove(MetaPath(csv))
	os.Symlink(victim, MetaPath(csv))
	if err := WriteMeta(l, m, true); err == nil {
		t.Error("the sidecar's last write went through a link")
	}
	if data, _ := os.ReadFile(victim); string(data) != "victim\n" {
		t.Errorf("the victim holds %.30q", data)
	}
}
