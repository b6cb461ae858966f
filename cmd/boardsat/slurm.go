package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/boardsat/boardsat/harness/suites"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/boardsat/boardsat/harness/cluster"
	"github.com/boardsat/boardsat/internal/atomicfile"
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
and submits it with sbatch (--dry-run prints it and writes nothing). A resubmitted task
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
(--dry-run prints it and writes nothing). Collect merges the shards into DIR/results.csv.`,
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
	mem := fs.String("mem", "2G", "memory per array task (sbatch --mem; for solve also the task's --mem, which the count plans for)")
	partition := fs.String("partition", "", "Slurm partition (default: the cluster's)")
	cpus := fs.Int("cpus", 1, "cores per array task (sbatch --cpus-per-task; solve's --threads)")
	dryRun := fs.Bool("dry-run", false, "print the script that would be submitted; write and submit nothing")
	exe := fs.String("exe", "", "boardsat binary the tasks run (default: this one)")
	var sf solveFlags
	var cf certFlags
	var extra []string
	if kind == "solve" {
		sf.register(fs)
		cf.register(fs)
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
	if _, err := suites.ParseMem(*mem); err != nil {
		return badInput(err)
	}
	if !cluster.ValidTime(*timeLimit) {
		return badInputf("bad --time %q: want minutes, MM:SS, HH:MM:SS or D-HH:MM:SS", *timeLimit)
	}
	target := pos[0]
	var taskArgs []string
	if kind == "solve" {
		sf.threads = *cpus
		if target, taskArgs, err = slurmSolveArgs(target, &sf, &cf, *mem); err != nil {
			return err
		}
	} else {
		if _, err := suites.Load(target); err != nil {
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
		*dir = cluster.DefaultDir(kind, time.Now())
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return badInput(err)
	}
	job := cluster.Job{Kind: kind, Target: target, Shards: *shards, Name: cluster.JobName(abs),
		Exe: *exe, Args: taskArgs, Created: time.Now().UTC().Format(time.RFC3339)}
	limits := cluster.Limits{Time: *timeLimit, Mem: *mem, Partition: *partition, CPUs: *cpus}
	if *dryRun {
		// A dry run changes nothing: it prints the script it would submit.
		if err := cluster.Free(abs); err != nil {
			return badInput(err)
		}
		fmt.Fprint(stdout, slurm.Script(job, abs, limits))
		return nil
	}
	job, err = cluster.Submit(slurm, abs, job, limits)
	if errors.Is(err, cluster.ErrNoScheduler) || errors.Is(err, cluster.ErrTaken) {
		return badInput(err)
	} else if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "submitted job array %s (%d shards) in %s\ncollect with: boardsat slurm collect %s\n", job.JobIDs[0], *shards, abs, abs)
	return nil
}

// slurmSolveArgs checks a sharded solve of target with the solve and
// certificate flags, and returns the spec in canonical form and the
// command line of its array tasks.
func slurmSolveArgs(target string, sf *solveFlags, cf *certFlags, mem string) (string, []string, error) {
	spec, err := puzzle.Parse(target)
	if err != nil {
		return "", nil, badInput(err)
	}
	_, req, err := sf.request(spec)
	if err != nil {
		return "", nil, err
	}
	if req.Task != puzzle.Count && req.Task != puzzle.Unique {
		return "", nil, badInputf("slurm solve splits counts (--task count or unique), not task %s", req.Task)
	}
	target = spec.String()
	// The task's --mem is the allocation: a count plans its tables for
	// it (the tour split counter's budget) and stops with memout past it.
	if cf.dir != "" || cf.force {
		return "", nil, badInputf("--proof and --force are for one machine: the array tasks' proofs are checked where they run")
	}
	if cf.on() && (cf.cubes < 1 || req.Task != puzzle.Count) {
		return "", nil, badInputf("a certified count runs on a cluster split into cubes: --task count --certify --cubes D")
	}
	return target, append(append(append([]string{"solve", target}, sf.args()...), cf.args()...), "--mem", mem), nil
}

// slurm is the scheduler the slurm command uses.
var slurm cluster.Scheduler = cluster.Slurm{}

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
	if *poll <= 0 {
		return badInputf("--poll must be positive")
	}
	dir := pos[0]
	j, err := cluster.ReadJob(dir)
	if err != nil {
		return badInput(err)
	}
	if err := cluster.Wait(slurm, dir, j, *wait, *poll).Err(slurm, dir, j); err != nil {
		return exitError{2, err.Error()}
	}
	files := make([]string, j.Shards)
	for k := 1; k <= j.Shards; k++ {
		files[k-1] = j.ResultFile(dir, k)
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
