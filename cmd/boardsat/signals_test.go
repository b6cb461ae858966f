package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverproc/proctest"
)

// externalRuns are solves that run an external program for longer than
// the tests wait: one per backend that runs one. solver is the process
// the test waits for before it acts (minizinc runs fzn-gecode in a
// process group of its own), binary the one on PATH.
var externalRuns = []struct {
	name, binary, solver string
	args                 []string
}{
	{"sat-cadical", "cadical", "cadical", []string{"dominate:18x18:Q", "--backend", "sat", "--solver", "cadical"}},
	{"cp-gecode", "minizinc", "fzn-gecode", []string{"dominate:18x18:Q", "--backend", "cp"}},
	{"mip-cbc", "cbc", "cbc", []string{"dominate:18x18:Q", "--backend", "mip", "--solver", "cbc"}},
	{"count-clasp", "clasp", "clasp", []string{"queens:16", "--backend", "sat", "--solver", "clasp", "--task", "count"}},
}

// markedRun is one boardsat process started by a test: its environment
// carries a marker, its TMPDIR is a directory of its own.
type markedRun struct {
	cmd         *exec.Cmd
	marker, tmp string
	out, errb   bytes.Buffer
}

// startMarked starts exe with args, marked, with a private TMPDIR and
// extra environment.
func startMarked(t *testing.T, exe, name string, env []string, args ...string) *markedRun {
	t.Helper()
	r := &markedRun{marker: proctest.Marker(t, name), tmp: t.TempDir()}
	r.cmd = exec.Command(exe, args...)
	r.cmd.Env = append(append(os.Environ(), r.marker, "TMPDIR="+r.tmp), env...)
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.errb
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return r
}

// waitSolver waits until the run's solver process is up.
func (r *markedRun) waitSolver(t *testing.T, solver string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, p := range proctest.Marked(r.marker) {
			if f := strings.Fields(p); len(f) > 1 && filepath.Base(f[1]) == solver {
				time.Sleep(200 * time.Millisecond) // let it settle into its search
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s did not start; marked processes: %q; stderr %q", solver, proctest.Marked(r.marker), r.errb.String())
}

// wait waits for boardsat and returns its exit status.
func (r *markedRun) wait() int {
	r.cmd.Wait()
	return r.cmd.ProcessState.ExitCode()
}

// tmpEmpty fails t unless the run's TMPDIR is empty.
func (r *markedRun) tmpEmpty(t *testing.T) {
	t.Helper()
	ents, _ := os.ReadDir(r.tmp)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if len(names) > 0 {
		t.Errorf("temporaries left in TMPDIR: %v", names)
	}
}

// TestNoSolverOutlivesBoardsat: whatever ends a solve that runs an
// external program (its time limit, SIGINT, SIGTERM, its own SIGKILL, a
// solver that fails leaving a child behind), no process it started is
// alive once it has exited (after SIGKILL, a moment later), for every
// backend that runs one. SIGINT and SIGTERM print the interrupted answer
// and exit 130; with them and the time limit, TMPDIR is left empty.
func TestNoSolverOutlivesBoardsat(t *testing.T) {
	if !proctest.Supported() {
		t.Skip("needs /proc to find the processes a run left")
	}
	if testing.Short() {
		t.Skip("runs the command as a child process and runs external solvers")
	}
	exe := boardsatExe(t)
	for _, er := range externalRuns {
		t.Run(er.name, func(t *testing.T) {
			cnftest.NeedSolver(t, er.binary)
			args := append(append([]string{"solve"}, er.args...), "--format", "json", "--quiet")
			t.Run("timeout", func(t *testing.T) {
				r := startMarked(t, exe, er.name, nil, append(args, "--timeout", "1500ms")...)
				if code := r.wait(); code != answer.ExitTimeout {
					t.Errorf("exit %d, want %d; stderr %q", code, answer.ExitTimeout, r.errb.String())
				}
				proctest.NoneLeft(t, r.marker, 0)
				r.tmpEmpty(t)
			})
			for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
				t.Run(sig.String(), func(t *testing.T) {
					r := startMarked(t, exe, er.name, nil, args...)
					r.waitSolver(t, er.solver)
					r.cmd.Process.Signal(sig)
					code := r.wait()
					proctest.NoneLeft(t, r.marker, 0)
					r.tmpEmpty(t)
					a, err := answer.Last(r.out.String())
					if code != answer.ExitInterrupted || err != nil || a.Status != answer.Interrupted || a.Status.Exit() != code ||
						!strings.Contains(answer.Str(a.Message), "received") {
						t.Errorf("exit %d, answer %q (%v), stderr %q", code, r.out.String(), err, r.errb.String())
					}
					if line := r.errb.String(); strings.Count(line, "\n") != 1 || !strings.HasPrefix(line, "boardsat solve: interrupted: ") {
						t.Errorf("stderr %q, want one line", line)
					}
				})
			}
			t.Run("SIGKILL", func(t *testing.T) {
				r := startMarked(t, exe, er.name, nil, args...)
				r.waitSolver(t, er.solver)
				r.cmd.Process.Kill()
				r.wait()
				proctest.NoneLeft(t, r.marker, 5*time.Second)
			})
			t.Run("error", func(t *testing.T) {
				// A solver that fails at once, leaving a child in a session
				// of its own; it notes that it ran.
				ran := filepath.Join(t.TempDir(), "ran")
				cnftest.FakeSolver(t, er.binary, "touch "+ran+"\nsetsid sleep 300 &\necho 'not a solver line'\nexit 1")
				r := startMarked(t, exe, er.name, nil, args...)
				// The child left behind holds the solver's output open: a
				// boardsat that waited for it would hang for its 300 s.
				hung := time.AfterFunc(time.Minute, func() { r.cmd.Process.Kill() })
				code := r.wait()
				if !hung.Stop() {
					t.Errorf("boardsat was still running a minute after its solver failed")
				}
				if _, err := os.Stat(ran); err != nil {
					t.Fatalf("the failing solver did not run (exit %d, stderr %q)", code, r.errb.String())
				}
				proctest.NoneLeft(t, r.marker, 0)
				r.tmpEmpty(t)
			})
		})
	}
}

// TestInterruptedCount: SIGTERM stops a count split into subproblems with
// its answer so far (partial count, subproblems done, the checkpoint
// written), in text as in JSON, and the same command resumes from the
// checkpoint to the published count.
func TestInterruptedCount(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process")
	}
	exe := boardsatExe(t)
	dir := t.TempDir()
	for _, format := range []string{"json", "text"} {
		ckpt := filepath.Join(dir, format+".ckpt")
		args := []string{"solve", "queens:16", "--checkpoint", ckpt, "--checkpoint-every", "50ms", "--quiet", "--threads", "1", "--format", format}
		r := startMarked(t, exe, "count", nil, args...)
		for i := 0; i < 500 && checkpointDone(ckpt) == 0; i++ {
			time.Sleep(10 * time.Millisecond)
		}
		r.cmd.Process.Signal(syscall.SIGTERM)
		code := r.wait()
		done := checkpointDone(ckpt)
		if code != answer.ExitInterrupted || done == 0 {
			t.Fatalf("%s: exit %d, %d subproblems in the checkpoint; stderr %q", format, code, done, r.errb.String())
		}
		if format == "json" {
			a, err := answer.Last(r.out.String())
			if err != nil || a.Status != answer.Interrupted || a.Count != nil || a.Partial == nil ||
				a.Partial.Done != done || a.Partial.Subproblems <= done || answer.Str(a.Partial.Checkpoint) != ckpt || a.Partial.Count == "" {
				t.Errorf("json: %q (%v)", r.out.String(), err)
			}
		} else if !strings.Contains(r.out.String(), "status:        interrupted\n") || !strings.Contains(r.out.String(), "partial count:") {
			t.Errorf("text: %q", r.out.String())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		out, err := exec.CommandContext(ctx, exe, "solve", "queens:16", "--checkpoint", ckpt, "--quiet", "--format", "json").Output()
		cancel()
		spec, _ := puzzle.Parse("queens:16")
		want, _ := puzzle.KnownCount(spec, puzzle.Count) // published (OEIS A000170)
		if a, aerr := answer.Last(string(out)); err != nil || aerr != nil || a.Status != answer.OK || a.Count == nil || *a.Count != json.Number(fmt.Sprint(want)) || want == 0 {
			t.Errorf("%s: resumed count: %q (%v)", format, out, err)
		}
	}
}

// TestWorkerEndsWithBoardsat: the gophersat worker (a timed SAT search
// runs in a child process of boardsat's own binary) does not go on
// searching once boardsat is killed by SIGKILL.
func TestWorkerEndsWithBoardsat(t *testing.T) {
	if !proctest.Supported() {
		t.Skip("needs /proc to find the processes a run left")
	}
	if testing.Short() {
		t.Skip("runs the command as a child process")
	}
	exe := boardsatExe(t)
	r := startMarked(t, exe, "worker", nil, "solve", "queens:12", "--backend", "sat", "--task", "count", "--certify", "--timeout", "5m", "--quiet")
	// Judged on one reading of /proc: the count by blocking clauses may
	// start a fresh worker between two readings.
	var seen []string
	for i := 0; i < 1000 && len(seen) < 2; i++ {
		time.Sleep(20 * time.Millisecond)
		seen = proctest.Marked(r.marker)
	}
	if len(seen) < 2 {
		t.Fatalf("no worker started in 20 s: %q", seen)
	}
	// Into its search, which takes minutes: stdin closing alone would not
	// end it.
	time.Sleep(3 * time.Second)
	r.cmd.Process.Kill()
	r.wait()
	proctest.NoneLeft(t, r.marker, 5*time.Second)
}

// TestInterruptedShard: a shard stopped by SIGINT prints its shard answer
// with status interrupted and what it had finished, and exits 130.
func TestInterruptedShard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process")
	}
	exe := boardsatExe(t)
	ckpt := filepath.Join(t.TempDir(), "shard.ckpt")
	r := startMarked(t, exe, "shard", nil, "solve", "queens:16", "--shard", "2/3", "--checkpoint", ckpt,
		"--checkpoint-every", "50ms", "--quiet", "--threads", "1")
	for i := 0; i < 500 && checkpointDone(ckpt) == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	r.cmd.Process.Signal(syscall.SIGINT)
	code := r.wait()
	var s shardAnswer
	err := json.Unmarshal(r.out.Bytes(), &s)
	if code != answer.ExitInterrupted || err != nil || s.Status != string(answer.Interrupted) || s.Count != nil || s.Partial == nil ||
		s.Partial.Done != checkpointDone(ckpt) || s.Partial.Done == 0 || s.Partial.Subproblems != s.InShard {
		t.Errorf("exit %d, shard answer %q (%v), stderr %q", code, r.out.String(), err, r.errb.String())
	}
}
