package sat

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSolverProofFileMustBeRegular holds the promise that the proof an
// external solver leaves at {proof} is completed (its empty clause
// appended) only when it is a regular file and no link: a link no longer
// gets "0" appended to the file it names, and a FIFO no longer hangs a
// certified run past its time limit and SIGTERM.
func TestSolverProofFileMustBeRegular(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("1 0\n"), 0o644)
	link := filepath.Join(dir, "proof.drat")
	os.Symlink(victim, link)
	fifo := filepath.Join(dir, "fifo.drat")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, end := range []func(string) error{endWithEmptyClause, endWithEmptyClauseBinary} {
		for _, p := range []string{link, fifo} {
			done := make(chan error, 1)
			go func() { done <- end(p) }()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("%s: completed, want a refusal", filepath.Base(p))
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: completing the proof hangs", filepath.Base(p))
			}
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != "1 0\n" {
		t.Errorf("written through the link: the victim holds %q", data)
	}
}
