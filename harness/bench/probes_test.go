package bench

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/solvers/solverdef"
)

// TestProbesEndBeforeFirstRun: a solver definition whose version command
// is slow (it sleeps, then notes the time it ended) has ended before the
// first measured run of the bench starts, so no probe runs beside a
// measured run; the sidecar has the probe's version. Before, the probes
// ran in goroutines while the first runs were measured.
func TestProbesEndBeforeFirstRun(t *testing.T) {
	dir := t.TempDir()
	ended := filepath.Join(dir, "probe-ended")
	def := `{"name": "slow-probe", "kind": "sat", "command": ["sh", "-c", "exit 0", "{input}"],
		"version": ["sh", "-c", "sleep 1.5; date +%s%N > ` + ended + `; echo slow-probe 1.0"]}`
	if err := os.WriteFile(filepath.Join(dir, "slow-probe.json"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := solverdef.Load(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(solverdef.Forget)
	out := filepath.Join(dir, "r.csv")
	s := mustSuite(t, "queens:{4,5} backends=bt-good")
	if _, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: out}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(ended)
	if err != nil {
		t.Fatalf("the slow probe did not run: %v", err)
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	probeEnd := time.Unix(0, ns)
	rows, err := results.ReadFiles(out)
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows: %v", len(rows), err)
	}
	for _, r := range rows {
		if !r.Time.After(probeEnd) {
			t.Errorf("run %s started at %s, before the version probe ended at %s", r.Instance, r.Time.Format(time.RFC3339Nano), probeEnd.UTC().Format(time.RFC3339Nano))
		}
	}
	m, _, err := results.ReadMeta(out)
	if err != nil || m.Sessions[0].Solvers["slow-probe"] != "slow-probe 1.0" {
		t.Errorf("sidecar versions %v (%v), want slow-probe's", m.Sessions[0].Solvers, err)
	}
}

// TestGovernors: the frequency governors of every core, each once in core
// order; "unknown" where the kernel has none.
func TestGovernors(t *testing.T) {
	dir := t.TempDir()
	if g := governorsIn(dir); g != "unknown" {
		t.Errorf("no cpufreq: %q, want unknown", g)
	}
	for i, g := range []string{"performance", "powersave", "performance"} {
		d := filepath.Join(dir, "cpu"+strconv.Itoa(i*5), "cpufreq")
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "scaling_governor"), []byte(g+"\n"), 0o644)
	}
	if g := governorsIn(dir); g != "performance,powersave" {
		t.Errorf("governors %q, want performance,powersave", g)
	}
}
