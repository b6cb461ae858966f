package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/atomicfile"
	"github.com/boardsat/boardsat/bench"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	commands["slurm"] = command{"run a count or a suite as a Slurm job array of shards (solve, bench), and collect it", runSlurm}
	helps["slurm"] = help{
		usage: []string{"slurm solve SPEC --shards N [flags]", "slurm bench SUITE --shards N [flags]", "slurm collect DIR [flags]"},
		about: `Runs a count (solve) or a benchmark suite (bench) on a Slurm cluster as one
sbatch job array, one array task per shard, with its script, logs and results
in a run directory; collect waits for the tasks and combines their results
into one answer, or one CSV with its .meta.json. Run "boardsat slurm solve -h"
and the like for each one's flags.`,
		examples: []string{
			"slurm solve queens:18 --shards 16 --time 4:00:00 --mem 1G --dir q18",
			"slurm bench paper --shards 32 --partition short --dir paper",
			"slurm collect q18 --wait 6h",
		},
	}
	helps["slurm solve"] = help{
		usage: []string{"slurm solve SPEC --shards N [--time T] [--mem M] [--partition P] [--cpus C] [--dir DIR] [--dry-run] [solve flags]"},
		about: `Writes DIR/job.sbatch, a job array whose task K runs
"boardsat solve SPEC --shard K/N --checkpoint DIR/shard-K.ck" into DIR/shard-K.json,
and submits it with sbatch (--dry-run prints it instead). A resubmitted task
resumes from its checkpoint. Collect with boardsat slurm collect DIR.`,
		examples: []string{
			"slurm solve queens:18 --shards 16 --time 4:00:00 --mem 1G --dir q18",
			"slurm solve tour:6x6:a1:closed --task count --shards 3 --dry-run",
		},
	}
	helps["slurm bench"] = help{
		usage: []string{"slurm bench SUITE --shards N [--time T] [--mem M] [--partition P] [--dir DIR] [--dry-run] [--repeat R] [--timeout D]"},
		about: `Writes DIR/job.sbatch, a job array whose task K runs
"boardsat bench SUITE --shard K/N -o DIR/shard-K.csv", and submits it with sbatch
(--dry-run prints it instead). Collect merges the shards into DIR/results.csv.`,
		examples: []string{
			"slurm bench paper --shards 32 --time 8:00:00 --mem 8G --dir paper",
			"slurm bench quick --shards 3 --dry-run",
		},
	}
	helps["slurm collect"] = help{
		usage: []string{"slurm collect DIR [--wait D] [--poll D] [--format text|json]"},
		about: `Combines the results of the run in DIR: the shards' counts into one answer
(also written to DIR/answer.json), or the shards' CSVs into DIR/results.csv
and its .meta.json. Array tasks that failed are listed, with the sbatch
command that resubmits only those; exit status 2 until every shard is done.`,
		examples: []string{
			"slurm collect q18",
			"slurm collect paper --wait 12h --poll 1m",
		},
	}
}

// slurmJob is a run directory's record of what was submitted (job.json):
// collect reads it to know the shards and how to combine them.
type slurmJob struct {
	Kind    string   `json:"kind"` // "solve" or "bench"
	Target  string   `json:"target"`
	Shards  int      `json:"shards"`
	Name    string   `json:"name"`
	Exe     string   `json:"exe"`
	Args    []string `json:"args"`
	JobIDs  []string `json:"job_ids,omitempty"`
	Created string   `json:"created"`
}

// The files of a run directory.
const (
	slurmJobFile    = "job.json"
	slurmScriptFile = "job.sbatch"
)

// slurmResult is shard k's result file (JSON answer or CSV).
func (j slurmJob) slurmResult(dir string, k int) string {
	ext := "json"
	if j.Kind == "bench" {
		ext = "csv"
	}
	return filepath.Join(dir, fmt.Sprintf("shard-%d.%s", k, ext))
}

func slurmStatusFile(dir string, k int) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%d.status", k))
}

func runSlurm(args []string, stdout io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help") {
		printHelp(helpOut, flag.NewFlagSet("slurm", flag.ContinueOnError))
		return flag.ErrHelp
	}
	if len(args) == 0 {
		return badInputf("want slurm solve SPEC --shards N, slurm bench SUITE --shards N, or slurm collect DIR (boardsat slurm -h)")
	}
	switch args[0] {
	case "solve", "bench":
		return slurmSubmit(args[0], args[1:], stdout)
	case "collect":
		return slurmCollect(args[1:], stdout)
	}
	return badInputf("unknown slurm command %q: want solve, bench or collect", args[0])
}

// slurmSubmit writes the run directory and job-array script of a sharded
// solve or bench, and submits it with sbatch (or prints it).
func slurmSubmit(kind string, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("slurm "+kind, flag.ContinueOnError)
	shards := fs.Int("shards", 0, "number of shards: one Slurm array task each")
	dir := fs.String("dir", "", "run `DIR` for the script, logs and results (default: boardsat-run-KIND-TIME)")
	timeLimit := fs.String("time", "1:00:00", "time limit per array task (sbatch --time)")
	mem := fs.String("mem", "2G", "memory per array task (sbatch --mem)")
	partition := fs.String("partition", "", "Slurm partition (default: the cluster's)")
	cpus := fs.Int("cpus", 1, "cores per array task (sbatch --cpus-per-task; solve's --threads)")
	dryRun := fs.Bool("dry-run", false, "write the run directory and print the script; submit nothing")
	exe := fs.String("exe", "", "boardsat binary the tasks run (default: this one)")
	var sf solveFlags
	var extra []string
	if kind == "solve" {
		sf.register(fs)
	} else {
		fs.Var(passFlag{&extra, "repeat"}, "repeat", "bench --repeat")
		fs.Var(passFlag{&extra, "timeout"}, "timeout", "bench --timeout per run")
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	what := map[string]string{"solve": "SPEC", "bench": "SUITE"}[kind]
	if len(pos) != 1 {
		return badInputf("want exactly one %s, like boardsat slurm %s %s --shards 4", what, kind, map[string]string{"solve": "queens:16", "bench": "quick"}[kind])
	}
	if *shards < 1 {
		return badInputf("want --shards N with N >= 1")
	}
	if *cpus < 1 {
		return badInputf("--cpus must be 1 or more")
	}
	if _, err := bench.ParseMem(*mem); err != nil {
		return badInput(err)
	}
	if !slurmTimeOK(*timeLimit) {
		return badInputf("bad --time %q: want minutes, MM:SS, HH:MM:SS or D-HH:MM:SS", *timeLimit)
	}
	target := pos[0]
	var taskArgs []string
	if kind == "solve" {
		spec, err := puzzle.Parse(target)
		if err != nil {
			return badInput(err)
		}
		sf.threads = *cpus
		_, req, err := sf.request(spec)
		if err != nil {
			return err
		}
		if req.Task != puzzle.Count && req.Task != puzzle.Unique {
			return badInputf("slurm solve splits counts (--task count or unique), not task %s", req.Task)
		}
		target = spec.String()
		taskArgs = append([]string{"solve", target}, sf.args()...)
	} else {
		if _, err := bench.Load(target); err != nil {
			return badInput(err)
		}
		taskArgs = append([]string{"bench", target}, extra...)
	}
	if *exe == "" {
		if *exe, err = os.Executable(); err != nil {
			return fmt.Errorf("cannot find the boardsat binary: %v", err)
		}
	}
	if *dir == "" {
		*dir = fmt.Sprintf("boardsat-run-%s-%s", kind, time.Now().UTC().Format("20060102-150405"))
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return badInput(err)
	}
	if _, err := os.Stat(filepath.Join(abs, slurmJobFile)); err == nil {
		return badInputf("%s already holds a run (job.json): collect it, or name another --dir", *dir)
	}
	if err := os.MkdirAll(filepath.Join(abs, "logs"), 0o755); err != nil {
		return badInput(err)
	}
	job := slurmJob{Kind: kind, Target: target, Shards: *shards, Name: "boardsat-" + filepath.Base(abs),
		Exe: *exe, Args: taskArgs, Created: time.Now().UTC().Format(time.RFC3339)}
	script := slurmScript(job, abs, *timeLimit, *mem, *partition, *cpus)
	if err := atomicfile.WriteBytes(filepath.Join(abs, slurmScriptFile), []byte(script)); err != nil {
		return err
	}
	if *dryRun {
		if err := writeJob(abs, job); err != nil {
			return err
		}
		fmt.Fprint(stdout, script)
		return nil
	}
	cmd := exec.Command("sbatch", "--parsable", filepath.Join(abs, slurmScriptFile))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return badInputf("sbatch not found: is this a Slurm cluster? (--dry-run writes the script without submitting)")
		}
		return fmt.Errorf("sbatch failed: %v: %s", err, oneLine(errb.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";")
	job.JobIDs = append(job.JobIDs, id)
	if err := writeJob(abs, job); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "submitted job array %s (%d shards) in %s\ncollect with: boardsat slurm collect %s\n", id, *shards, abs, abs)
	return nil
}

// passFlag records a flag to pass on to the array tasks' command.
type passFlag struct {
	args *[]string
	name string
}

func (p passFlag) String() string { return "" }
func (p passFlag) Set(v string) error {
	*p.args = append(*p.args, "--"+p.name, v)
	return nil
}

// args returns solve's flags as the array tasks pass them on.
func (f *solveFlags) args() []string {
	var a []string
	add := func(name, v string) {
		if v != "" {
			a = append(a, "--"+name, v)
		}
	}
	add("backend", f.backend)
	add("task", f.task)
	add("heuristic", f.heuristic)
	add("encoding", f.encoding)
	add("solver", f.solver)
	if f.threads > 0 {
		add("threads", strconv.Itoa(f.threads))
	}
	if f.timeout > 0 {
		add("timeout", f.timeout.String())
	}
	return a
}

// slurmTimeOK reports whether s is a time limit sbatch accepts: minutes,
// M:S, H:M:S, D-H, D-H:M, D-H:M:S.
func slurmTimeOK(s string) bool {
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

// slurmScript returns the job-array script: task K runs shard K/N, writes
// its result to the run directory through a temporary file (a killed task
// leaves none), and records its exit status. Counts keep a checkpoint per
// shard, so a resubmitted task resumes.
func slurmScript(j slurmJob, dir, timeLimit, mem, partition string, cpus int) string {
	var b strings.Builder
	q := shellQuote
	fmt.Fprintf(&b, "#!/bin/bash\n# boardsat %s %s in %d shards; written by boardsat slurm %s.\n", j.Kind, j.Target, j.Shards, j.Kind)
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n#SBATCH --array=1-%d\n#SBATCH --time=%s\n#SBATCH --mem=%s\n#SBATCH --cpus-per-task=%d\n",
		j.Name, j.Shards, timeLimit, mem, cpus)
	if partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", partition)
	}
	fmt.Fprintf(&b, "#SBATCH --output=%s/logs/shard-%%a.out\n#SBATCH --error=%s/logs/shard-%%a.err\n", dir, dir)
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

func writeJob(dir string, j slurmJob) error {
	data, _ := json.MarshalIndent(j, "", "  ")
	return atomicfile.WriteBytes(filepath.Join(dir, slurmJobFile), append(data, '\n'))
}

func readJob(dir string) (slurmJob, error) {
	var j slurmJob
	data, err := os.ReadFile(filepath.Join(dir, slurmJobFile))
	if err != nil {
		return j, fmt.Errorf("%s is not a boardsat slurm run directory (no %s)", dir, slurmJobFile)
	}
	if err := json.Unmarshal(data, &j); err != nil || j.Shards < 1 || (j.Kind != "solve" && j.Kind != "bench") {
		return j, fmt.Errorf("%s/%s is not a boardsat slurm job record", dir, slurmJobFile)
	}
	return j, nil
}

// slurmQueued returns the array task ids of the job still pending or
// running, per squeue; ok is false when squeue cannot tell.
func slurmQueued(j slurmJob) (map[int]bool, bool) {
	out, err := exec.Command("squeue", "-h", "-r", "--name="+j.Name, "-o", "%K").Output()
	if err != nil {
		return nil, false
	}
	q := map[int]bool{}
	for _, f := range strings.Fields(string(out)) {
		if k, err := strconv.Atoi(f); err == nil {
			q[k] = true
		}
	}
	return q, true
}

// shardStates sorts the shards into done, failed (finished with another
// status, or gone from the queue without a status) and waiting.
func shardStates(dir string, j slurmJob, queued map[int]bool, knowQueue bool) (done, failed, waiting []int) {
	for k := 1; k <= j.Shards; k++ {
		data, err := os.ReadFile(slurmStatusFile(dir, k))
		switch {
		case err == nil && strings.TrimSpace(string(data)) == "0":
			if _, err := os.Stat(j.slurmResult(dir, k)); err == nil {
				done = append(done, k)
			} else {
				failed = append(failed, k)
			}
		case err == nil:
			failed = append(failed, k)
		case knowQueue && !queued[k]:
			failed = append(failed, k)
		default:
			waiting = append(waiting, k)
		}
	}
	return done, failed, waiting
}

func joinInts(ks []int) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = strconv.Itoa(k)
	}
	return strings.Join(s, ",")
}

// slurmCollect waits for a run's array tasks and combines their results:
// one answer (solve) or one CSV with its .meta.json (bench).
func slurmCollect(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("slurm collect", flag.ContinueOnError)
	wait := fs.Duration("wait", 0, "wait up to this long for tasks still queued or running (0: do not wait)")
	poll := fs.Duration("poll", 5*time.Second, "how often to look while waiting")
	format := fs.String("format", "text", "solve answer: text or json")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInputf("want exactly one run DIR (written by boardsat slurm solve or bench)")
	}
	if *format != "text" && *format != "json" {
		return badInputf("unknown format %q: want text or json", *format)
	}
	dir := pos[0]
	j, err := readJob(dir)
	if err != nil {
		return badInput(err)
	}
	deadline := time.Now().Add(*wait)
	var done, failed, waiting []int
	for {
		queued, know := slurmQueued(j)
		done, failed, waiting = shardStates(dir, j, queued, know)
		if len(waiting) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(*poll)
	}
	if len(failed) > 0 || len(waiting) > 0 {
		var parts []string
		if len(failed) > 0 {
			parts = append(parts, fmt.Sprintf("failed array tasks %s (logs: %s/logs/shard-K.err); resubmit only those with: sbatch --array=%s %s",
				joinInts(failed), dir, joinInts(failed), filepath.Join(dir, slurmScriptFile)))
		}
		if len(waiting) > 0 {
			parts = append(parts, fmt.Sprintf("array tasks %s still queued or running (collect --wait 1h waits)", joinInts(waiting)))
		}
		return exitError{2, fmt.Sprintf("%d of %d shards done; %s", len(done), j.Shards, strings.Join(parts, "; "))}
	}
	files := make([]string, j.Shards)
	for k := 1; k <= j.Shards; k++ {
		files[k-1] = j.slurmResult(dir, k)
	}
	if j.Kind == "bench" {
		out := filepath.Join(dir, "results.csv")
		if err := runResults(append([]string{"merge", "-o", out}, files...), stdout); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d shards of bench %s merged into %s (and %s)\n", j.Shards, j.Target, out, filepath.Base(out)+".meta.json")
		return nil
	}
	c, err := combineFiles(files)
	if err != nil {
		return badInput(err)
	}
	data, _ := json.Marshal(c)
	if err := atomicfile.WriteBytes(filepath.Join(dir, "answer.json"), append(data, '\n')); err != nil {
		return err
	}
	if *format == "json" {
		_, err := stdout.Write(append(data, '\n'))
		return err
	}
	printCombined(stdout, c)
	return nil
}
