package cluster

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeCommand writes an executable shell script named name into dir.
func fakeCommand(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func testJob(kind string) Job {
	return Job{Kind: kind, Target: "queens:12", Shards: 3, Name: "boardsat-run", Exe: "/opt/boardsat",
		Args: []string{kind, "queens:12", "--task", "count"}}
}

// TestScript: the array script runs shard K/N of the job's command, with
// the limits asked for, writes a count's answer through a temporary file,
// and records the exit status.
func TestScript(t *testing.T) {
	l := Limits{Time: "2:00:00", Mem: "1G", Partition: "short", CPUs: 2}
	s := Slurm{}.Script(testJob("solve"), "/runs/q 12", l)
	for _, want := range []string{"#SBATCH --job-name=boardsat-run\n", "#SBATCH --array=1-3\n", "#SBATCH --time=2:00:00\n",
		"#SBATCH --mem=1G\n", "#SBATCH --partition=short\n", "#SBATCH --cpus-per-task=2\n",
		"#SBATCH --error=/runs/q 12/logs/shard-%a.err\n", "DIR='/runs/q 12'\n",
		`/opt/boardsat solve queens:12 --task count --shard "$K/$N" --format json --checkpoint "shard-$K.ck" > "shard-$K.json.part"`,
		`mv "shard-$K.json.part" "shard-$K.json"`, `echo $rc > "shard-$K.status"`} {
		if !strings.Contains(s, want) {
			t.Errorf("solve script lacks %q:\n%s", want, s)
		}
	}
	s = Slurm{}.Script(testJob("bench"), "/runs/b", Limits{Time: "10", Mem: "2G", CPUs: 1})
	if !strings.Contains(s, `--shard "$K/$N" -o "shard-$K.csv"`) || strings.Contains(s, "--partition") {
		t.Errorf("bench script:\n%s", s)
	}
}

// TestJobName: the prefix boardsat- is added once, never doubled.
func TestJobName(t *testing.T) {
	for dir, want := range map[string]string{
		"/x/boardsat-run-solve-20260101-000000": "boardsat-run-solve-20260101-000000",
		"/x/q18":                                "boardsat-q18",
		"q18/":                                  "boardsat-q18",
	} {
		if got := JobName(dir); got != want {
			t.Errorf("JobName(%q) = %q, want %q", dir, got, want)
		}
	}
}

func TestValidTime(t *testing.T) {
	for s, want := range map[string]bool{"10": true, "10:00": true, "1:00:00": true, "2-12": true, "2-12:30:00": true,
		"soon": false, "1:2:3:4": false, "x-1": false, "-5": false, "1:-1": false} {
		if ValidTime(s) != want {
			t.Errorf("ValidTime(%q) = %v", s, !want)
		}
	}
}

// TestSubmitFailureLeavesNothing: a submission that fails (sbatch missing,
// or sbatch exits non-zero) removes the directories and the script it made;
// one that succeeds records the job id.
func TestSubmitFailureLeavesNothing(t *testing.T) {
	bin := t.TempDir()
	l := Limits{Time: "10", Mem: "1G", CPUs: 1}
	for name, s := range map[string]Slurm{
		"missing": {Sbatch: filepath.Join(bin, "no-sbatch")},
		"failing": {Sbatch: fakeCommand(t, bin, "sbatch-fails", "echo 'sbatch: error: invalid partition' >&2; exit 1")},
	} {
		dir := filepath.Join(t.TempDir(), "new", "run")
		_, err := Submit(s, dir, testJob("solve"), l)
		if err == nil {
			t.Fatalf("%s: submitted", name)
		}
		if name == "missing" && !errors.Is(err, ErrNoScheduler) {
			t.Errorf("%s: %v, want ErrNoScheduler", name, err)
		}
		if _, serr := os.Stat(filepath.Dir(dir)); !os.IsNotExist(serr) {
			t.Errorf("%s (%v): left %s behind", name, err, filepath.Dir(dir))
		}
	}
	dir := filepath.Join(t.TempDir(), "run")
	ok := Slurm{Sbatch: fakeCommand(t, bin, "sbatch", "echo '4242;cluster'")}
	j, err := Submit(ok, dir, testJob("solve"), l)
	if err != nil || len(j.JobIDs) != 1 || j.JobIDs[0] != "4242" {
		t.Fatalf("submit: %v %+v", err, j)
	}
	back, err := ReadJob(dir)
	if err != nil || back.JobIDs[0] != "4242" || back.Shards != 3 {
		t.Errorf("job record: %v %+v", err, back)
	}
	if _, err := os.Stat(filepath.Join(dir, ScriptFile)); err != nil {
		t.Error(err)
	}
	if _, err := Submit(ok, dir, testJob("solve"), l); !errors.Is(err, ErrTaken) {
		t.Errorf("second submit into one directory: %v", err)
	}
}

// TestCollectStates: shards with status 0 and a result are done, other
// statuses failed; shards without a status are waiting while squeue lists
// them, failed when it does not; when squeue cannot answer, or the run was
// never submitted, the message says so instead of "still queued".
func TestCollectStates(t *testing.T) {
	bin := t.TempDir()
	dir := t.TempDir()
	j := testJob("solve")
	j.JobIDs = []string{"7"}
	os.WriteFile(j.ResultFile(dir, 1), []byte("{}\n"), 0o644)
	os.WriteFile(StatusFile(dir, 1), []byte("0\n"), 0o644)
	os.WriteFile(StatusFile(dir, 2), []byte("137\n"), 0o644)
	cases := []struct {
		name    string
		s       Slurm
		job     Job
		failed  string
		waiting string
		msg     string
	}{
		{"queued", Slurm{Squeue: fakeCommand(t, bin, "squeue-3", "echo 3")}, j, "2", "3", "array tasks 3 still queued or running"},
		{"gone", Slurm{Squeue: fakeCommand(t, bin, "squeue-none", "true")}, j, "2,3", "", "failed array tasks 2,3 "},
		{"no squeue", Slurm{Squeue: filepath.Join(bin, "no-squeue")}, j, "2", "3", "cannot tell whether they are still queued"},
		{"squeue fails", Slurm{Squeue: fakeCommand(t, bin, "squeue-err", "echo 'slurm_load_jobs error: Unable to contact slurm controller' >&2; exit 1")}, j, "2", "3", "Unable to contact slurm controller"},
		{"never submitted", Slurm{Squeue: fakeCommand(t, bin, "squeue-3b", "echo 3")}, testJob("solve"), "2", "3", "array tasks 3 were never submitted"},
	}
	for _, c := range cases {
		st := Poll(c.s, dir, c.job)
		if joinInts(st.Done) != "1" || joinInts(st.Failed) != c.failed || joinInts(st.Waiting) != c.waiting {
			t.Errorf("%s: done %v failed %v waiting %v", c.name, st.Done, st.Failed, st.Waiting)
		}
		err := st.Err(c.s, dir, c.job)
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "1 of 3 shards done; ") {
			t.Errorf("%s: %v, want %q", c.name, err, c.msg)
		}
		if len(st.Failed) > 0 && !strings.Contains(err.Error(), c.s.sbatch()+" --array="+c.failed+" "+filepath.Join(dir, ScriptFile)) {
			t.Errorf("%s: no resubmit line: %v", c.name, err)
		}
	}
	for k := 2; k <= 3; k++ {
		os.WriteFile(j.ResultFile(dir, k), []byte("{}\n"), 0o644)
		os.WriteFile(StatusFile(dir, k), []byte("0\n"), 0o644)
	}
	if st := Poll(cases[0].s, dir, j); st.Err(cases[0].s, dir, j) != nil || len(st.Done) != 3 {
		t.Errorf("all done: %+v", st)
	}
}
