package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/cluster"
	"github.com/boardsat/boardsat/harness/results"
)

// TestSlurmDryRunScript: --dry-run prints a job-array script with one task
// per shard, the limits asked for, and the shard's command, and writes
// nothing; the job name carries the prefix once.
func TestSlurmDryRunScript(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	status, out, errOut := runCLI("slurm", "solve", "queens:15", "--shards", "6", "--dir", dir, "--time", "2:00:00",
		"--mem", "1G", "--partition", "short", "--cpus", "2", "--dry-run", "--exe", "/opt/boardsat")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"#SBATCH --array=1-6\n", "#SBATCH --time=2:00:00\n", "#SBATCH --mem=1G\n",
		"#SBATCH --partition=short\n", "#SBATCH --cpus-per-task=2\n", "/logs/shard-%a.err\n",
		`/opt/boardsat solve queens:15 --backend native --threads 2 --mem 1G --shard "$K/$N" --format json --checkpoint "shard-$K.ck"`} {
		if !strings.Contains(out, want) {
			t.Errorf("script lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the dry run wrote %s: %v", dir, err)
	}
	cwd := t.TempDir()
	t.Chdir(cwd)
	status, out, errOut = runCLI("slurm", "bench", "quick", "--shards", "2", "--dry-run")
	if entries, _ := os.ReadDir(cwd); status != 0 || len(entries) != 0 {
		t.Errorf("dry run without --dir: status %d %q, left %d entries in the current directory", status, errOut, len(entries))
	}
	if !regexp.MustCompile(`(?m)^#SBATCH --job-name=boardsat-run-bench-\d{8}-\d{6}$`).MatchString(out) {
		t.Errorf("job name of the default directory:\n%s", out)
	}
	os.MkdirAll(dir, 0o755)
	if err := cluster.WriteJob(dir, cluster.Job{Kind: "solve", Target: "queens:15", Shards: 2, JobIDs: []string{"7"}}); err != nil {
		t.Fatal(err)
	}
	if status, _, errOut := runCLI("slurm", "solve", "queens:15", "--shards", "2", "--dir", dir, "--dry-run"); status != 2 || !strings.Contains(errOut, "already holds a run") {
		t.Errorf("second run into the same dir: %d %q", status, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"slurm", "solve", "queens:15"}, "--shards N"},
		{[]string{"slurm", "solve", "queens:15", "--shards", "2", "--time", "soon"}, "bad --time"},
		{[]string{"slurm", "solve", "queens:15", "--shards", "2", "--mem", "x"}, "bad memory size"},
		{[]string{"slurm", "solve", "queens:15", "--shards", "2", "--task", "first"}, "splits counts"},
		{[]string{"slurm", "bench", "no-such-suite", "--shards", "2"}, "no-such-suite"},
		{[]string{"slurm", "launch"}, "unknown slurm command"},
		{[]string{"slurm", "collect", t.TempDir()}, "not a boardsat run directory"},
	} {
		status, out, errOut := runCLI(c.args...)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want 2 and one line with %q", c.args, status, out, errOut, c.want)
		}
	}
}

// TestSlurmCollectListsFailedTasks: collect on a run whose tasks finished
// (results written here by hand, as the array tasks would) combines them;
// a task that failed is listed with the sbatch line resubmitting it alone.
func TestSlurmCollectListsFailedTasks(t *testing.T) {
	dir := t.TempDir()
	if err := cluster.WriteJob(dir, cluster.Job{Kind: "solve", Target: "queens:12", Shards: 3, Name: "boardsat-run", JobIDs: []string{"7"}}); err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 3; k++ {
		_, out, _ := runCLI("solve", "queens:12", "--shard", fmt.Sprintf("%d/3", k), "--quiet")
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("shard-%d.json", k)), []byte(out), 0o644)
		rc := "0"
		if k == 2 {
			rc = "137"
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("shard-%d.status", k)), []byte(rc+"\n"), 0o644)
	}
	status, out, errOut := runCLI("slurm", "collect", dir)
	want := "failed array tasks 2 "
	resub := "sbatch --array=2 " + filepath.Join(dir, cluster.ScriptFile)
	if status != 2 || out != "" || !strings.Contains(errOut, want) || !strings.Contains(errOut, resub) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("collect with task 2 failed: %d %q %q", status, out, errOut)
	}
	os.WriteFile(filepath.Join(dir, "shard-2.status"), []byte("0\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "shard-3.status"), []byte("0\n"), 0o644)
	status, out, errOut = runCLI("slurm", "collect", dir, "--format", "json")
	var c combined
	if status != 0 || json.Unmarshal([]byte(out), &c) != nil || c.Count.Uint64() != 14200 || c.Shards != 3 {
		t.Errorf("collect of three finished shards: %d %q %q", status, out, errOut)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "answer.json")); err != nil || strings.TrimSpace(string(data)) != strings.TrimSpace(out) {
		t.Errorf("answer.json %q, printed %q (%v)", data, out, err)
	}
}

// needSlurm skips a test when no Slurm cluster answers here, and fails it
// when CI=true (CI starts one with .ci/slurm).
func needSlurm(t *testing.T) {
	t.Helper()
	_, err := exec.LookPath("sbatch")
	if err == nil {
		err = exec.Command("sinfo", "-h").Run()
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Slurm is needed in CI (start it with .ci/slurm start): %v", err)
		}
		t.Skipf("no Slurm cluster here (sbatch or sinfo: %v); .ci/slurm start runs one", err)
	}
}

// TestSlurmOnRealCluster submits through the real sbatch: a count in 4
// shards and the quick suite in 3, collected, equal the local answers.
func TestSlurmOnRealCluster(t *testing.T) {
	needSlurm(t)
	// A real build, not boardsatExe's link to the test binary: the array
	// tasks run as batch jobs, where neither the test binary's directory
	// nor this environment (testMainEnv) is sure to reach.
	exe := filepath.Join(t.TempDir(), "boardsat")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	base := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(exe, args...).Output()
		if err != nil {
			msg := ""
			if ee, ok := err.(*exec.ExitError); ok {
				msg = string(ee.Stderr)
			}
			t.Fatalf("%v: %v %s", args, err, msg)
		}
		return string(out)
	}
	solveDir := filepath.Join(base, "solve")
	run("slurm", "solve", "queens:13", "--shards", "4", "--dir", solveDir, "--time", "10:00", "--mem", "500M")
	// Open tours by the split counter, from all starts: shards of need
	// classes, each task rebuilding the half tables.
	tourDir := filepath.Join(base, "tour")
	run("slurm", "solve", "tour:6x6:*", "--task", "count", "--heuristic", "split", "--shards", "3", "--dir", tourDir, "--time", "10:00", "--mem", "2G")
	benchDir := filepath.Join(base, "bench")
	run("slurm", "bench", "quick", "--shards", "3", "--dir", benchDir, "--time", "20:00", "--mem", "2G")

	var got combined
	if err := json.Unmarshal([]byte(run("slurm", "collect", solveDir, "--wait", "10m", "--poll", "1s", "--format", "json")), &got); err != nil {
		t.Fatal(err)
	}
	var local struct{ Count uint64 }
	json.Unmarshal([]byte(run("solve", "queens:13", "--format", "json", "--quiet")), &local)
	if got.Count.Uint64() != local.Count || local.Count != 73712 || got.Shards != 4 {
		t.Errorf("slurm queens:13 in 4 shards: %s (%d shards), local %d, published 73712", got.Count, got.Shards, local.Count)
	}

	var tour combined
	if err := json.Unmarshal([]byte(run("slurm", "collect", tourDir, "--wait", "10m", "--poll", "1s", "--format", "json")), &tour); err != nil {
		t.Fatal(err)
	}
	if tour.Count == nil || tour.Count.Uint64() != 6637920 || tour.Shards != 3 || tour.Status != "ok" {
		t.Errorf("slurm tour:6x6:* in 3 shards: %s (%d shards, %s), want A165134's 6637920", tour.Count, tour.Shards, tour.Status)
	}

	run("slurm", "collect", benchDir, "--wait", "15m", "--poll", "2s")
	localCSV := filepath.Join(base, "local.csv")
	run("bench", "quick", "-o", localCSV, "--quiet")
	slurmRows, err := results.ReadFiles(filepath.Join(benchDir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(benchDir, "results.csv.meta.json")); err != nil {
		t.Errorf("no sidecar: %v", err)
	}
	localRows, err := results.ReadFiles(localCSV)
	if err != nil {
		t.Fatal(err)
	}
	compareBenchRows(t, localRows, slurmRows)
}

// compareBenchRows checks that two runs of one suite hold the same rows
// but for timings: the same runs, and where both finished (ok or unsat)
// the same status and answer. A run that timed out in one of them (a
// matter of timing on a loaded machine) is only counted.
func compareBenchRows(t *testing.T, want, got []results.Row) {
	t.Helper()
	index := func(rows []results.Row) map[string]results.Row {
		m := map[string]results.Row{}
		for _, r := range rows {
			m[r.Key()] = r
		}
		return m
	}
	w, g := index(want), index(got)
	if len(w) != len(want) || len(g) != len(got) || len(w) != len(g) {
		t.Errorf("rows: local %d (%d distinct), slurm %d (%d distinct)", len(want), len(w), len(got), len(g))
	}
	timing, compared := 0, 0
	for k, a := range w {
		b, ok := g[k]
		if !ok {
			t.Errorf("slurm results lack run %q", k)
			continue
		}
		if !a.Solved() || !b.Solved() {
			if a.Status != b.Status {
				timing++
			}
			continue
		}
		compared++
		if a.Status != b.Status || a.Answer != b.Answer || a.HasAnswer != b.HasAnswer || a.Heuristic != b.Heuristic ||
			a.Encoding != b.Encoding || a.Solver != b.Solver {
			t.Errorf("run %q: local %s %d %q, slurm %s %d %q", k, a.Status, a.Answer, a.Heuristic, b.Status, b.Answer, b.Heuristic)
		}
	}
	t.Logf("%d finished runs compared; %d differ only by a timeout", compared, timing)
	if compared < len(w)*9/10 {
		t.Errorf("only %d of %d runs finished in both", compared, len(w))
	}
}
