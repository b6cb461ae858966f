package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/internal/cgroups"
)

// runIn runs exe with args inside the cgroup whose cgroup.procs is procs
// ("" for none), with env added; it returns the exit status, stdout and
// stderr.
func runIn(t *testing.T, procs string, env []string, exe string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	if procs != "" {
		cmd = exec.Command("/bin/sh", append([]string{"-c", `echo $$ >"$0" && exec "$@"`, procs, exe}, args...)...)
	}
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Run()
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// TestMemBoundsWholeTree: --mem bounds the whole process tree, the
// gophersat worker (a child process) included, in both modes: in a cgroup
// of its own where one can be made, and sampled (BOARDSAT_MEM_SAMPLED=1).
// queens:100 by SAT under --mem 60M ends in memout, exit 4; before, the
// worker grew to 133 MB and the answer was ok, exit 0.
func TestMemBoundsWholeTree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a SAT search as a child process")
	}
	exe := boardsatExe(t)
	for _, env := range [][]string{nil, {cgroups.SampledEnv + "=1"}} {
		code, out, errOut := runIn(t, "", env, exe, "solve", "queens:100", "--backend", "sat", "--task", "first",
			"--mem", "60M", "--timeout", "60s", "--format", "json", "--quiet")
		a, err := answer.Last(out)
		if code != answer.ExitMemout || err != nil || a.Status != answer.Memout {
			t.Errorf("%v: exit %d (want %d), answer %q (%v), stderr %q", env, code, answer.ExitMemout, out, err, errOut)
		}
	}
}

// TestSATMemoutInCgroup: without --mem, in a memory cgroup of 400 MiB, a
// SAT search whose worker would outgrow it ends in memout JSON and exit 4,
// because the whole tree's default budget takes the cgroup's limit
// (before, the kernel killed it: exit 137, nothing printed); compare the
// same, its report ending in the memout line; and bench,
// in such a cgroup, writes the run's row and ends its session (before,
// the kernel killed bench itself).
func TestSATMemoutInCgroup(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a SAT search up to 400 MiB, twice")
	}
	const limit = 400 << 20
	exe := boardsatExe(t)
	procs, _ := memoryCgroup(t, limit)
	code, out, errOut := runIn(t, procs, nil, exe, "solve", "swap:16x16", "--backend", "sat", "--format", "json", "--quiet", "--timeout", "10m")
	a, err := answer.Last(out)
	if code != answer.ExitMemout || err != nil || a.Status != answer.Memout || !strings.Contains(errOut, "memout: ") {
		t.Fatalf("solve: exit %d (want %d), answer %q (%v), stderr %q", code, answer.ExitMemout, out, err, errOut)
	}
	code, out, errOut = runIn(t, procs, nil, exe, "compare", "swap:16x16", "--backends", "sat", "--quiet", "--timeout", "10m")
	if code != answer.ExitMemout || !strings.Contains(out, "memout: ") || !strings.Contains(errOut, "boardsat compare: memout: ") {
		t.Fatalf("compare: exit %d (want %d), stdout %q, stderr %q", code, answer.ExitMemout, out, errOut)
	}
	dir := t.TempDir()
	suite := filepath.Join(dir, "s.suite")
	os.WriteFile(suite, []byte("swap:16x16 backends=sat task=shortest cpu-limit=5m timeout=10m\n"), 0o644)
	csv := filepath.Join(dir, "r.csv")
	code, _, errOut = runIn(t, procs, nil, exe, "bench", suite, "-o", csv)
	rows, err := results.ReadFiles(csv)
	if code != 0 || err != nil || len(rows) != 1 || rows[0].Status != results.StatusMemout {
		t.Fatalf("bench: exit %d, rows %+v (%v), stderr %q", code, rows, err, errOut)
	}
	m, ok, err := results.ReadMeta(csv)
	if err != nil || !ok || m.Sessions[0].Ended != "completed" {
		t.Errorf("bench's sidecar: %+v %v %v; want the session completed", m, ok, err)
	}
}
