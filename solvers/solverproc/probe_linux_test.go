package solverproc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/solvers/solverproc/proctest"
)

// TestProbeLeavesNothing: a --version that starts a background sleep and
// a setsid daemon returns its line, and neither outlives the probe (a
// probe ran outside the watchdog before, and boardsat solvers never
// returned while the sleep held its output).
func TestProbeLeavesNothing(t *testing.T) {
	if !proctest.Supported() {
		t.Skip("cannot read other processes' environments here")
	}
	marker := proctest.Marker(t, "probe")
	k, v, _ := strings.Cut(marker, "=")
	t.Setenv(k, v)
	cnftest.FakeSolver(t, "fake-daemon", `sleep 1000 & setsid sleep 999 & echo "fake-daemon 2.0"`)
	if got := BinaryVersion("fake-daemon"); !strings.HasPrefix(got, "fake-daemon 2.0") {
		t.Errorf("version %q, want fake-daemon 2.0", got)
	}
	proctest.NoneLeft(t, marker, 2*time.Second)
}

// TestProbeOutputBounded: a --version that prints without end is cut at
// ProbeOutput bytes, and its probe fails instead of growing boardsat.
func TestProbeOutputBounded(t *testing.T) {
	cnftest.FakeSolver(t, "fake-yes", "yes 'version 1.0 and on and on'")
	out, err := Probe("fake-yes", "--version")
	if err == nil || len(out) > ProbeOutput {
		t.Errorf("endless output: %d bytes, %v; want at most %d bytes and an error", len(out), err, ProbeOutput)
	}
}

// TestProbeOnce: the same probe runs once per process; another program of
// the same name (another PATH) is another probe.
func TestProbeOnce(t *testing.T) {
	calls := filepath.Join(t.TempDir(), "calls")
	cnftest.FakeSolver(t, "fake-counted", "echo run >> "+calls+"; echo counted 1.0")
	for range 3 {
		if out, err := Probe("fake-counted", "--version"); err != nil || !strings.HasPrefix(string(out), "counted 1.0") {
			t.Fatalf("probe: %q, %v", out, err)
		}
	}
	if data, _ := os.ReadFile(calls); strings.Count(string(data), "run") != 1 {
		t.Errorf("the probe ran %d times, want once", strings.Count(string(data), "run"))
	}
	cnftest.FakeSolver(t, "fake-counted", "echo counted 2.0")
	if out, _ := Probe("fake-counted", "--version"); !strings.HasPrefix(string(out), "counted 2.0") {
		t.Errorf("another program of the same name: %q, want its own answer", out)
	}
}
