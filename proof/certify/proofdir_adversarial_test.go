package certify_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/proof/certify"
)

// refutable is a formula with no model and its DRAT proof.
var refutable = [][]int{{1, 2}, {-1, 2}, {1, -2}, {-1, -2}}

// TestProofDirNeverThroughALink holds the promise that `--certify --proof
// D --force` writes D/001.cnf, D/001.drat and D/MANIFEST, names boardsat
// chose, never through a link planted there: the run fails naming the
// file, and the link's target is left as it was.
func TestProofDirNeverThroughALink(t *testing.T) {
	for _, name := range []string{"001.cnf", "001.drat", "MANIFEST"} {
		dir := t.TempDir()
		victim := filepath.Join(t.TempDir(), "victim")
		os.WriteFile(victim, []byte("victim\n"), 0o644)
		os.Symlink(victim, filepath.Join(dir, name))
		rec := &certify.Recorder{Dir: dir}
		err := rec.Refuted(context.Background(), sat.Refutation{Claim: "none", Formula: rtFormula(2, refutable), Solver: "test", ProofFile: rtProofFile(t, "2 0\n0\n")})
		if err == nil {
			err = rec.WriteManifest("boardsat solve", "unsat")
		}
		if err == nil {
			t.Errorf("a link at %s: accepted", name)
		}
		if data, _ := os.ReadFile(victim); string(data) != "victim\n" {
			t.Errorf("written through the link at %s: the victim holds %.30q", name, data)
		}
	}
}

// TestSolversProofMustBeARegularFile holds the promise that the proof a
// solver leaves at {proof} is read only when it is a regular file, not a
// link (whose target would be copied, or appended to) nor a FIFO (which
// would hang the run): the refutation fails in one line, at once.
func TestSolversProofMustBeARegularFile(t *testing.T) {
	victim := rtProofFile(t, "2 0\n0\n")
	link := filepath.Join(t.TempDir(), "proof.drat")
	os.Symlink(victim, link)
	fifo := filepath.Join(t.TempDir(), "proof.drat")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for what, p := range map[string]string{"a link": link, "a FIFO": fifo, "a link, no --proof": link, "a FIFO, no --proof": fifo} {
		done := make(chan error, 1)
		dir := ""
		if !strings.HasSuffix(what, "no --proof") {
			dir = t.TempDir()
		}
		go func() {
			rec := &certify.Recorder{Dir: dir}
			done <- rec.Refuted(context.Background(), sat.Refutation{Claim: "none", Formula: rtFormula(2, refutable), Solver: "test", ProofFile: p})
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("a proof that is %s: accepted", what)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("a proof that is %s: the check hangs", what)
		}
	}
}
