// Package cluster runs a sharded count or benchmark suite on a batch
// cluster as one job array, one array task per shard, and collects what the
// shards wrote. A run lives in a run directory: the job record (job.json),
// the array script, the logs, and each shard's result and exit status.
// Slurm is the first scheduler (type Slurm); another one implements
// Scheduler.
//
// A run directory is never left half made: Submit removes what it created
// when the submission fails, and a dry run (Script) writes nothing.
package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/boardsat/boardsat/internal/atomicfile"
	"github.com/boardsat/boardsat/internal/inputfile"
)

// Job is a run directory's record of what was submitted (job.json): Collect
// reads it to know the shards and how to combine them.
type Job struct {
	// Kind is "solve" (a split count) or "bench" (a suite).
	Kind string `json:"kind"`
	// Target is the spec or the suite.
	Target string `json:"target"`
	Shards int    `json:"shards"`
	// Name is the scheduler's job name (JobName).
	Name string `json:"name"`
	// Exe and Args are the command each array task runs; the task adds
	// --shard K/N and its output file.
	Exe  string   `json:"exe"`
	Args []string `json:"args"`
	// JobIDs are the scheduler's ids of the submissions; empty for a run
	// that was never submitted.
	JobIDs  []string `json:"job_ids,omitempty"`
	Created string   `json:"created"`
}

// The files of a run directory.
const (
	JobFile    = "job.json"
	ScriptFile = "job.sbatch"
	LogDir     = "logs"
	// MarkerFile marks a run directory as boardsat's: made (empty) when
	// boardsat makes or adopts the directory, before anything else.
	MarkerFile = ".boardsat-run"
)

// ResultFile is shard k's result: its JSON answer (solve) or CSV (bench).
func (j Job) ResultFile(dir string, k int) string {
	ext := "json"
	if j.Kind == "bench" {
		ext = "csv"
	}
	return filepath.Join(dir, fmt.Sprintf("shard-%d.%s", k, ext))
}

// StatusFile is where shard k's array task writes its exit status.
func StatusFile(dir string, k int) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%d.status", k))
}

// JobName returns the scheduler's job name for a run directory: its base
// name, prefixed with "boardsat-" unless it already starts so (the default
// directories do).
func JobName(dir string) string {
	base := filepath.Base(dir)
	if strings.HasPrefix(base, "boardsat-") {
		return base
	}
	return "boardsat-" + base
}

// DefaultDir is the run directory of a kind started at now when none is
// named: boardsat-run-KIND-YYYYMMDD-HHMMSS.
func DefaultDir(kind string, now time.Time) string {
	return fmt.Sprintf("boardsat-run-%s-%s", kind, now.UTC().Format("20060102-150405"))
}

// Limits are what each array task asks of the scheduler.
type Limits struct {
	// Time is the task's time limit in the scheduler's syntax (ValidTime).
	Time string
	// Mem is the task's memory, like 2G.
	Mem string
	// Partition is the partition or queue; "" for the cluster's default.
	Partition string
	// CPUs is the cores per task.
	CPUs int
}

// ValidTime reports whether s is a time limit Slurm accepts: minutes, M:S,
// H:M:S, D-H, D-H:M or D-H:M:S.
func ValidTime(s string) bool {
	days, rest, hasDay := strings.Cut(s, "-")
	if !hasDay {
		rest = s
	} else if _, err := strconv.Atoi(days); err != nil {
		return false
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if n, err := strconv.Atoi(p); err != nil || n < 0 {
			return false
		}
	}
	return true
}

// Scheduler is a batch system that runs job arrays.
type Scheduler interface {
	// Script returns the job-array script of j in dir: task K runs shard
	// K/N, writes its result to the run directory through a temporary file
	// and its exit status to StatusFile.
	Script(j Job, dir string, l Limits) string
	// Submit submits the script at path and returns the job's id; an error
	// wrapping ErrNoScheduler when the scheduler's commands are missing.
	Submit(path string) (string, error)
	// Queued returns the array task ids of j still pending or running; an
	// error when the scheduler cannot tell.
	Queued(j Job) (map[int]bool, error)
	// Resubmit is the command line that submits only the given array tasks
	// of the script at path again.
	Resubmit(path string, tasks []int) string
}

// ErrNoScheduler marks a scheduler whose commands are not on this machine.
var ErrNoScheduler = errors.New("no scheduler")

// ErrForeignDir marks a directory that holds no run record.
var ErrForeignDir = errors.New("not a boardsat run directory")

// ErrTaken marks a directory that already holds a run.
var ErrTaken = errors.New("already holds a run")

// Submit makes the run directory dir (absolute) for j, writes its script
// and submits it; it returns the job with its id recorded in job.json. A
// directory that already holds a run is refused (ErrTaken), and so is one
// that holds anything boardsat did not make (ErrForeignDir): the run
// directory is boardsat's own, every file in it is created new (never
// through a link, never over a file), and when anything fails what Submit
// created is removed and nothing else: no directory is left without its
// job.json, no file of the user's is touched.
func Submit(s Scheduler, dir string, j Job, l Limits) (Job, error) {
	if err := Free(dir); err != nil {
		return j, err
	}
	created, err := makeDirs(dir)
	if err != nil {
		return j, err
	}
	var made []string // files and directories made inside dir, in order
	undo := func() {
		for i := len(made) - 1; i >= 0; i-- {
			os.Remove(made[i])
		}
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i]) // only empty directories go
		}
	}
	if made, err = claimDir(dir); err != nil {
		undo()
		return j, err
	}
	script := filepath.Join(dir, ScriptFile)
	if err := atomicfile.WriteWith(script, atomicfile.Options{NoFollow: true}, func(w io.Writer) error {
		_, err := io.WriteString(w, s.Script(j, dir, l))
		return err
	}); err != nil {
		undo()
		return j, err
	}
	made = append(made, script)
	id, err := s.Submit(script)
	if err != nil {
		undo()
		return j, err
	}
	j.JobIDs = append(j.JobIDs, id)
	if err := WriteJob(dir, j); err != nil {
		return j, fmt.Errorf("job %s submitted, but its record could not be written: %w", id, err)
	}
	return j, nil
}

// claimDir makes dir boardsat's: its marker file and its log directory,
// each created new (O_EXCL, no link followed); it returns what it made.
// A marker or log directory already there (a submission that failed) is
// kept when it is what boardsat makes.
func claimDir(dir string) ([]string, error) {
	var made []string
	marker := filepath.Join(dir, MarkerFile)
	f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	switch {
	case err == nil:
		f.Close()
		made = append(made, marker)
	case errors.Is(err, fs.ErrExist) && isKind(marker, 0):
	default:
		return made, fmt.Errorf("%s: cannot mark it as a boardsat run directory: %w", dir, cause(err))
	}
	logs := filepath.Join(dir, LogDir)
	switch err := os.Mkdir(logs, 0o755); {
	case err == nil:
		made = append(made, logs)
	case errors.Is(err, fs.ErrExist) && isKind(logs, fs.ModeDir):
	default:
		return made, fmt.Errorf("%s: cannot make its %s directory: %w", dir, LogDir, cause(err))
	}
	return made, nil
}

// isKind reports whether path is, itself (no link followed), a file of
// the given type: 0 for a regular file, fs.ModeDir for a directory.
func isKind(path string, typ fs.FileMode) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().Type() == typ
}

// cause strips the *fs.PathError around err and keeps its reason.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Free returns an error wrapping ErrTaken when dir already holds a run,
// and one wrapping ErrForeignDir when it holds anything boardsat did not
// make (anything but its marker and an empty log directory); a dry run
// asks it too, so it refuses what Submit would.
func Free(dir string) error {
	if _, err := os.Lstat(filepath.Join(dir, JobFile)); err == nil {
		return fmt.Errorf("%s %w (%s): collect it, or name another directory", dir, ErrTaken, JobFile)
	}
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil || !fi.IsDir() {
		return fmt.Errorf("%s is %w: it is %s, not a directory; name a new or empty directory", dir, ErrForeignDir, kindOf(fi, err))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, cause(err))
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.Name() == MarkerFile && isKind(p, 0) {
			continue
		}
		if e.Name() == LogDir && isKind(p, fs.ModeDir) {
			if sub, err := os.ReadDir(p); err == nil && len(sub) == 0 {
				continue
			}
		}
		return fmt.Errorf("%s is %w: it holds %s, which boardsat did not make; name a new or empty directory", dir, ErrForeignDir, e.Name())
	}
	return nil
}

// kindOf names what a non-directory is, for messages.
func kindOf(fi fs.FileInfo, err error) string {
	switch {
	case err != nil:
		return "unreadable (" + cause(err).Error() + ")"
	case fi.Mode()&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a file"
}

// makeDirs creates dir and its missing parents and returns those it
// created, outermost first.
func makeDirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		missing = append([]string{d}, missing...)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return missing, nil
}

// WriteJob writes j's record into dir, atomically.
func WriteJob(dir string, j Job) error {
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteWith(filepath.Join(dir, JobFile), atomicfile.Options{NoFollow: true, Replace: true}, func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}

// maxRecordBytes bounds job.json and a shard's status file as read: a
// FIFO or a device there is refused, never waited on.
const maxRecordBytes int64 = 1 << 20

// ReadJob reads the record of the run in dir; the error wraps ErrForeignDir
// when dir holds none.
func ReadJob(dir string) (Job, error) {
	var j Job
	data, err := inputfile.ReadFile(filepath.Join(dir, JobFile), maxRecordBytes)
	if err != nil {
		return j, fmt.Errorf("%s: %w (no %s)", dir, ErrForeignDir, JobFile)
	}
	if err := json.Unmarshal(data, &j); err != nil || j.Shards < 1 || (j.Kind != "solve" && j.Kind != "bench") {
		return j, fmt.Errorf("%s: %w (%s is not a boardsat job record)", dir, ErrForeignDir, JobFile)
	}
	return j, nil
}

// State sorts a run's shards: Done (exit status 0 and a result), Failed
// (another status, or gone from the queue without one) and Waiting (still
// queued or running, or, when Unknown is set, not known to be either).
type State struct {
	Done, Failed, Waiting []int
	// Unknown says why the scheduler could not tell which tasks are still
	// queued; nil when it could.
	Unknown error
}

// Poll looks once at the shards of the run j in dir.
func Poll(s Scheduler, dir string, j Job) State {
	var st State
	queued, qerr := s.Queued(j)
	st.Unknown = qerr
	for k := 1; k <= j.Shards; k++ {
		data, err := inputfile.ReadFile(StatusFile(dir, k), maxRecordBytes)
		switch {
		case err == nil && strings.TrimSpace(string(data)) == "0":
			if _, err := os.Stat(j.ResultFile(dir, k)); err == nil {
				st.Done = append(st.Done, k)
			} else {
				st.Failed = append(st.Failed, k)
			}
		case err == nil:
			st.Failed = append(st.Failed, k)
		case qerr == nil && !queued[k]:
			st.Failed = append(st.Failed, k)
		default:
			st.Waiting = append(st.Waiting, k)
		}
	}
	return st
}

// Wait polls the run every poll until no shard is waiting or wait has
// passed, and returns the last state.
func Wait(s Scheduler, dir string, j Job, wait, poll time.Duration) State {
	deadline := time.Now().Add(wait)
	for {
		st := Poll(s, dir, j)
		if len(st.Waiting) == 0 || st.Unknown != nil || !time.Now().Before(deadline) {
			return st
		}
		time.Sleep(poll)
	}
}

// Err returns nil when every shard is done, else one line that says which
// shards failed (with the command that resubmits only those) and which are
// still waiting or cannot be placed.
func (st State) Err(s Scheduler, dir string, j Job) error {
	if len(st.Failed) == 0 && len(st.Waiting) == 0 {
		return nil
	}
	var parts []string
	if len(st.Failed) > 0 {
		parts = append(parts, fmt.Sprintf("failed array tasks %s (logs: %s); resubmit only those with: %s",
			joinInts(st.Failed), filepath.Join(dir, LogDir, "shard-K.err"), s.Resubmit(filepath.Join(dir, ScriptFile), st.Failed)))
	}
	switch {
	case len(st.Waiting) == 0:
	case len(j.JobIDs) == 0:
		parts = append(parts, fmt.Sprintf("array tasks %s were never submitted (%s records no job id)", joinInts(st.Waiting), JobFile))
	case st.Unknown != nil:
		parts = append(parts, fmt.Sprintf("array tasks %s have no result, and the scheduler cannot tell whether they are still queued: %v",
			joinInts(st.Waiting), st.Unknown))
	default:
		parts = append(parts, fmt.Sprintf("array tasks %s still queued or running (collect --wait 1h waits)", joinInts(st.Waiting)))
	}
	return fmt.Errorf("%d of %d shards done; %s", len(st.Done), j.Shards, strings.Join(parts, "; "))
}

func joinInts(ks []int) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = strconv.Itoa(k)
	}
	return strings.Join(s, ",")
}
