package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strconv"
	"strings"
)

// Slurm is the Slurm scheduler: sbatch submits, squeue tells what is queued.
// The zero value runs the commands "sbatch" and "squeue" from PATH; the
// fields name others (a test's stand-ins).
type Slurm struct {
	Sbatch, Squeue string
}

func (s Slurm) sbatch() string { return cmdOr(s.Sbatch, "sbatch") }
func (s Slurm) squeue() string { return cmdOr(s.Squeue, "squeue") }

func cmdOr(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

// Script returns the job-array script: task K runs shard K/N, writes its
// result to the run directory through a temporary file (a killed task
// leaves none), and records its exit status. Counts keep a checkpoint per
// shard, so a resubmitted task resumes.
func (Slurm) Script(j Job, dir string, l Limits) string {
	var b strings.Builder
	q := shellQuote
	fmt.Fprintf(&b, "#!/bin/bash\n# boardsat %s %s in %d shards; written by boardsat slurm %s.\n", j.Kind, j.Target, j.Shards, j.Kind)
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n#SBATCH --array=1-%d\n#SBATCH --time=%s\n#SBATCH --mem=%s\n#SBATCH --cpus-per-task=%d\n",
		j.Name, j.Shards, l.Time, l.Mem, l.CPUs)
	if l.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", l.Partition)
	}
	fmt.Fprintf(&b, "#SBATCH --output=%s/%s/shard-%%a.out\n#SBATCH --error=%s/%s/shard-%%a.err\n", dir, LogDir, dir, LogDir)
	fmt.Fprintf(&b, "set -u\nK=$SLURM_ARRAY_TASK_ID\nN=%d\nDIR=%s\ncd \"$DIR\"\nrm -f \"shard-$K.status\"\n", j.Shards, q(dir))
	cmd := []string{q(j.Exe)}
	for _, a := range j.Args {
		cmd = append(cmd, q(a))
	}
	cmd = append(cmd, "--shard", `"$K/$N"`)
	if j.Kind == "solve" {
		fmt.Fprintf(&b, "%s --format json --checkpoint \"shard-$K.ck\" > \"shard-$K.json.part\"\nrc=$?\n", strings.Join(cmd, " "))
		b.WriteString("[ $rc -eq 0 ] && mv \"shard-$K.json.part\" \"shard-$K.json\"\n")
	} else {
		fmt.Fprintf(&b, "%s -o \"shard-$K.csv\"\nrc=$?\n", strings.Join(cmd, " "))
	}
	b.WriteString("echo $rc > \"shard-$K.status\"\nexit $rc\n")
	return b.String()
}

// Submit runs sbatch --parsable on the script and returns the job id.
func (s Slurm) Submit(path string) (string, error) {
	cmd := exec.Command(s.sbatch(), "--parsable", path)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%w: %s not found: is this a Slurm cluster? (--dry-run prints the script without submitting)", ErrNoScheduler, s.sbatch())
		}
		return "", fmt.Errorf("sbatch failed: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";")
	if id == "" {
		return "", errors.New("sbatch printed no job id")
	}
	return id, nil
}

// Queued asks squeue for the array tasks of the job's name still pending or
// running.
func (s Slurm) Queued(j Job) (map[int]bool, error) {
	out, err := exec.Command(s.squeue(), "-h", "-r", "--name="+j.Name, "-o", "%K").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("%s failed: %v: %s", s.squeue(), err, strings.TrimSpace(string(ee.Stderr)))
		}
		return nil, fmt.Errorf("%s: %v", s.squeue(), err)
	}
	q := map[int]bool{}
	for _, f := range strings.Fields(string(out)) {
		if k, err := strconv.Atoi(f); err == nil {
			q[k] = true
		}
	}
	return q, nil
}

// Resubmit returns the sbatch line that runs only the given tasks again.
func (s Slurm) Resubmit(path string, tasks []int) string {
	return fmt.Sprintf("%s --array=%s %s", s.sbatch(), joinInts(tasks), path)
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '=' || r == '+' || r == ',' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
