package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/internal/cgroups"
)

// skipUnlessCI skips the test with why, or fails it under CI=true, where
// every environment the test needs must be there.
func skipUnlessCI(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s, and CI=true requires it", why)
	}
	t.Skipf("%s: skipping (CI=true makes this a failure)", why)
}

// memoryCgroup makes a memory cgroup limited to limit bytes (v2 where its
// memory controller can be used, else v1) and returns its cgroup.procs
// file and the file of its peak usage; the group is removed at the end of
// the test.
func memoryCgroup(t *testing.T, limit int64) (procs, peak string) {
	t.Helper()
	name := fmt.Sprintf("boardsat-test-%d", os.Getpid())
	v2 := cgroups.Unified(cgroups.Root)
	parent := filepath.Join(v2, filepath.Dir(cgroups.Own("")))
	limitFile, peakFile := "memory.max", "memory.peak"
	if ctl, err := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control")); err != nil || !slices.Contains(strings.Fields(string(ctl)), "memory") {
		parent = filepath.Join(cgroups.Root, "memory", cgroups.Own("memory"))
		limitFile, peakFile = "memory.limit_in_bytes", "memory.max_usage_in_bytes"
		if _, err := os.Stat(filepath.Join(parent, limitFile)); err != nil {
			skipUnlessCI(t, "no memory cgroup controller (v1 or v2) to make a limited group in")
		}
	}
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		skipUnlessCI(t, fmt.Sprintf("cannot make a memory cgroup (%v)", err))
	}
	t.Cleanup(func() {
		for i := 0; i < 200 && os.Remove(dir) != nil; i++ {
			time.Sleep(10 * time.Millisecond)
		}
	})
	if err := os.WriteFile(filepath.Join(dir, limitFile), []byte(strconv.FormatInt(limit, 10)), 0o644); err != nil {
		skipUnlessCI(t, fmt.Sprintf("cannot limit a memory cgroup (%v)", err))
	}
	return filepath.Join(dir, "cgroup.procs"), filepath.Join(dir, peakFile)
}

// TestMemoryCgroupMemout: in a memory cgroup of 600 MiB, with no --mem, a
// search that would outgrow it ends with status memout, its JSON answer,
// one line on stderr and exit status 4, because the default budget takes
// the cgroup's limit; before, the kernel killed it (exit 137, nothing
// printed).
func TestMemoryCgroupMemout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a search up to 600 MiB")
	}
	const limit = 600 << 20
	procs, peak := memoryCgroup(t, limit)
	exe := boardsatExe(t)
	// The shell enters the group, then becomes boardsat (the test binary
	// acting as it, testMainEnv), so that all its memory is counted there.
	cmd := exec.Command("/bin/sh", "-c", `echo $$ >"$0" && exec "$@"`, procs,
		exe, "solve", "swap:7x7", "--heuristic", "astar", "--format", "json", "--quiet")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if code != answer.ExitMemout || strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), "memout: ") {
		t.Fatalf("exit %d (want %d), stderr %q", code, answer.ExitMemout, errOut.String())
	}
	a, err := answer.Last(out.String())
	if err != nil || a.Status != answer.Memout || a.Message == nil || !strings.Contains(*a.Message, "memory budget") {
		t.Errorf("answer %v: %q", err, out.String())
	}
	if p, err := cgroups.ReadInt(peak); err != nil || p >= limit {
		t.Errorf("the group's peak %d (%v) reached its limit %d", p, err, limit)
	}
}
