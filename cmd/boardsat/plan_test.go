package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBenchDryRunProgress: a dry run shows its planning on stderr (package
// progress), not silence, and --quiet keeps it quiet.
func TestBenchDryRunProgress(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	oldOut, oldTerm, oldEvery := progressOut, progressTerminal, progressEvery
	progressOut, progressTerminal, progressEvery = lockedWriter{&mu, &buf}, false, time.Millisecond
	defer func() { progressOut, progressTerminal, progressEvery = oldOut, oldTerm, oldEvery }()
	suite := writeSuite(t, "queens:{4..1000} backends=all repeat=3 task=first\n")
	status, out, errOut := runCLI("bench", suite, "--dry-run")
	if status != 0 || !strings.HasSuffix(out, "\n50847 runs planned\n") {
		t.Fatalf("dry run: exit %d, stderr %q, stdout ends %q", status, errOut, out[max(0, len(out)-60):])
	}
	mu.Lock()
	got := buf.String()
	buf.Reset()
	mu.Unlock()
	if !strings.Contains(got, "bench "+suite+" --dry-run: elapsed ") || !strings.Contains(got, "planning: ") {
		t.Errorf("progress %q: want the planning shown", got)
	}
	runCLI("bench", suite, "--dry-run", "--quiet")
	mu.Lock()
	defer mu.Unlock()
	if buf.Len() != 0 {
		t.Errorf("--quiet printed %q", buf.String())
	}
}
