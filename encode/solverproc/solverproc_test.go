package solverproc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeBinary puts an executable shell script named name first on PATH.
func fakeBinary(t *testing.T, name, script string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func TestBinaryVersion(t *testing.T) {
	fakeBinary(t, "fake-banner", "echo 'Welcome to the Fake Solver'; echo 'Version: 2.10.8'; echo 'Build Date: today'")
	if got := BinaryVersion("fake-banner"); !strings.HasPrefix(got, "Welcome to the Fake Solver Version: 2.10.8") {
		t.Errorf("banner: %q", got)
	}
	fakeBinary(t, "fake-plain", "echo 'fake 1.2.3'")
	if got := BinaryVersion("fake-plain"); !strings.HasPrefix(got, "fake 1.2.3") {
		t.Errorf("plain: %q", got)
	}
	if got := BinaryVersion("no-such-binary-here"); got != "" {
		t.Errorf("absent: %q", got)
	}
}

// TestCommandKillsTree: when the context ends, the whole process group
// goes, a grandchild holding the output open included, and Wait returns.
func TestCommandKillsTree(t *testing.T) {
	fakeBinary(t, "fake-tree", "sleep 30 & sleep 30")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	cmd := Command(ctx, "fake-tree")
	var out strings.Builder
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Run(); err == nil {
		t.Error("a killed run reported success")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Wait returned after %v", d)
	}
}

func TestTailAndAvailable(t *testing.T) {
	if got := Tail([]byte("a\nb\nlast line\n")); got != " (stderr: last line)" {
		t.Errorf("Tail: %q", got)
	}
	if Tail(nil) != "" {
		t.Error("Tail of nothing")
	}
	if err := Available("nosuch", "no-such-binary-here"); err == nil || !strings.Contains(err.Error(), `"no-such-binary-here"`) {
		t.Errorf("Available: %v", err)
	}
}
