package cluster

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunDirIsBoardsatsOwn holds the promise that slurm's --dir is
// boardsat's own: a directory holding a file boardsat did not make (a
// user's job.sbatch, a link planted where the script goes) is refused
// before anything is written, whether sbatch then works or fails, and the
// file (or the link's target) is left as it was.
func TestRunDirIsBoardsatsOwn(t *testing.T) {
	bin := t.TempDir()
	l := Limits{Time: "10", Mem: "1G", CPUs: 1}
	for name, s := range map[string]Slurm{
		"no scheduler": {Sbatch: filepath.Join(bin, "no-sbatch")},
		"scheduler":    {Sbatch: fakeCommand(t, bin, "sbatch", "echo 7")},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			mine := filepath.Join(dir, ScriptFile)
			os.WriteFile(mine, []byte("mine\n"), 0o644)
			if _, err := Submit(s, dir, testJob("solve"), l); !errors.Is(err, ErrForeignDir) || !strings.Contains(err.Error(), ScriptFile) {
				t.Errorf("a directory holding the user's %s: %v, want a refusal naming it", ScriptFile, err)
			}
			if data, err := os.ReadFile(mine); err != nil || string(data) != "mine\n" {
				t.Errorf("the user's %s became %q (%v)", ScriptFile, data, err)
			}

			dir = t.TempDir()
			victim := filepath.Join(t.TempDir(), "victim")
			os.WriteFile(victim, []byte("victim\n"), 0o644)
			os.Symlink(victim, filepath.Join(dir, ScriptFile))
			if _, err := Submit(s, dir, testJob("bench"), l); !errors.Is(err, ErrForeignDir) {
				t.Errorf("a link planted at %s: %v, want a refusal", ScriptFile, err)
			}
			if data, _ := os.ReadFile(victim); string(data) != "victim\n" {
				t.Errorf("the script was written through the link: the victim holds %q", data)
			}
			if Free(dir) == nil {
				t.Error("Free (the dry run's check) accepts a directory holding a link")
			}
		})
	}
}

// TestRunDirAdoptsEmptyDir: an empty directory (or one a failed
// submission left with only boardsat's marker) is taken, marked, and given
// back empty when the submission fails; a planted link made between the
// check and the write is not written through.
func TestRunDirAdoptsEmptyDir(t *testing.T) {
	bin := t.TempDir()
	l := Limits{Time: "10", Mem: "1G", CPUs: 1}
	dir := t.TempDir()
	if _, err := Submit(Slurm{Sbatch: filepath.Join(bin, "none")}, dir, testJob("solve"), l); err == nil {
		t.Fatal("submitted without sbatch")
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("a failed submission left %v in the user's directory", left)
	}
	j, err := Submit(Slurm{Sbatch: fakeCommand(t, bin, "sbatch", "echo 9")}, dir, testJob("solve"), l)
	if err != nil || len(j.JobIDs) != 1 {
		t.Fatalf("an empty directory: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, MarkerFile)); err != nil {
		t.Errorf("no marker: %v", err)
	}
}

// TestRunRecordsMustBeRegularFiles holds the promise that slurm collect
// reads job.json only when it is a regular file: a FIFO planted there is
// refused at once, not waited on.
func TestRunRecordsMustBeRegularFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, JobFile), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadJob(dir); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrForeignDir) {
			t.Errorf("a FIFO as job.json: %v, want a refusal", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO as job.json hangs")
	}
}
