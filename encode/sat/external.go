package sat

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
	"github.com/boardsat/boardsat/solvers/solverproc"
	"github.com/boardsat/boardsat/solvers/solverproto"
)

// defSolver is the Solver a definition runs: every external solver, built
// in or the user's, is one (package solverdef).
func defSolver(d solverdef.Def) Solver {
	doc := d.Doc
	if doc == "" {
		doc = fmt.Sprintf("%s solver %s", d.Kind, d.Program())
	}
	if !d.Builtin() {
		doc += " (defined in " + d.Source + ")"
	}
	s := Solver{Name: d.Name, Doc: doc, PB: d.Kind == solverdef.KindPB, Binary: d.Program(), Proofs: d.Proves(), Def: d,
		run: func(ctx context.Context, f *cnf.Formula) Result { return runDef(ctx, d, f, "") }}
	if d.Proves() {
		s.prove = func(ctx context.Context, f *cnf.Formula, proof string) Result { return runDef(ctx, d, f, proof) }
	}
	return s
}

// NoLimitCPUSeconds is the value of {cpu_seconds} for a run without a
// time limit: the largest 32-bit signed integer.
const NoLimitCPUSeconds = math.MaxInt32

// cpuSeconds is the value of {cpu_seconds} under ctx: the whole seconds
// left before its deadline, rounded up.
func cpuSeconds(ctx context.Context) int64 {
	dl, ok := ctx.Deadline()
	if !ok {
		return NoLimitCPUSeconds
	}
	return max(1, int64(math.Ceil(time.Until(dl).Seconds())))
}

// run is one run of an external program: its output, its exit status
// (-1 when it did not exit by itself) and its statistics.
type run struct {
	stdout, stderr []byte
	exit           int
	err            error
	stats          map[string]int64
}

// execute runs the program of args[0] with the rest under ctx in its own
// process group (solverproc.Command).
func execute(ctx context.Context, args []string) run {
	cmd := solverproc.Command(ctx, args[0], args[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := run{stdout: stdout.Bytes(), stderr: stderr.Bytes(), err: err, stats: parseStats(stdout.Bytes())}
	r.stats[puzzle.StatSolverCalls] = 1
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Exited():
		r.exit, r.err = ee.ExitCode(), nil
	default:
		r.exit = -1
	}
	return r
}

// failed is the Result of a run that did not answer: a timeout when ctx
// ended, else an error naming the solver (a crash, a signal, a program
// that did not start).
func (r run) failed(ctx context.Context, name string) (Result, bool) {
	if ctx.Err() != nil {
		return timeoutResult(r.stats), true
	}
	if r.err != nil {
		return Result{Status: puzzle.Error, Stats: r.stats, Message: fmt.Sprintf("%s failed: %v%s", name, r.err, solverproc.Tail(r.stderr))}, true
	}
	return Result{}, false
}

// writeInput writes f to path in the format the definition reads.
func writeInput(d solverdef.Def, f *cnf.Formula, path string) error {
	write := f.WriteDIMACS
	switch d.Input() {
	case "opb":
		write = f.WriteOPB
	case "wcnf":
		write = f.WriteWCNF2022
	}
	return writeFile(path, write)
}

// runDef runs the definition's solver on f under ctx and reads its answer
// by its protocol; with proof != "", the solver also writes its proof
// there. Every answer is checked: the exit status against the s line, the
// model against f, an o value against the model's cost.
func runDef(ctx context.Context, d solverdef.Def, f *cnf.Formula, proof string) Result {
	if d.Counter() {
		return Result{Status: puzzle.Error, Message: fmt.Sprintf("solver %s is a model counter (kind %s): it counts (task count), it does not solve", d.Name, d.Kind)}
	}
	dir, err := os.MkdirTemp("", "boardsat-solver-")
	if err != nil {
		return Result{Status: puzzle.Error, Message: err.Error()}
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in."+map[string]string{"dimacs": "cnf", "opb": "opb", "wcnf": "wcnf"}[d.Input()])
	if err := writeInput(d, f, in); err != nil {
		return Result{Status: puzzle.Error, Message: fmt.Sprintf("writing input for %s: %v", d.Name, err)}
	}
	out := filepath.Join(dir, "result.txt")
	r := execute(ctx, solverdef.Expand(d.Command, solverdef.Args{Input: in, Proof: proof, Output: out, CPUSeconds: cpuSeconds(ctx), Seed: seedOf(ctx), ProofArgs: d.ProofArgs}))
	if res, done := r.failed(ctx, d.Name); done {
		return res
	}
	bad := func(err error) Result {
		return Result{Status: puzzle.Error, Stats: r.stats, Message: fmt.Sprintf("%s: %v%s", d.Name, err, solverproc.Tail(r.stderr))}
	}
	var a solverproto.Answer
	n := f.NumVars()
	switch {
	case d.Protocol == solverdef.ProtocolMinisatResult:
		text, rerr := os.ReadFile(out)
		if rerr != nil {
			return bad(errors.New("wrote no result file"))
		}
		a, err = solverproto.ReadMinisatResult(text, n)
	case d.Kind == solverdef.KindPB:
		a, err = solverproto.ReadPB(r.stdout, n)
	case d.Kind == solverdef.KindMaxSAT:
		a, err = solverproto.ReadMaxSAT(r.stdout, n)
	default:
		a, err = solverproto.ReadSAT(r.stdout, n)
	}
	if err == nil {
		err = solverproto.CheckExit(r.exit, a.Status)
	}
	if err != nil {
		return bad(err)
	}
	switch a.Status {
	case solverproto.Unknown:
		return bad(errors.New("answered s UNKNOWN before any time limit"))
	case solverproto.Unsat:
		noteUnchecked(ctx, d.Name+"'s UNSAT")
		return Result{Status: puzzle.Unsat, Stats: r.stats}
	}
	res := checkModel(d.Name, f, a.Model, r.stats)
	res.Optimal = res.Status == puzzle.OK && a.Status == solverproto.Optimum
	if res.Optimal {
		noteUnchecked(ctx, d.Name+"'s optimum")
	}
	if res.Status == puzzle.OK && a.HasCost {
		lits, weights := f.Objective()
		if c := (Objective{Lits: lits, Weights: weights}).Cost(a.Model); c != a.Cost {
			return bad(fmt.Errorf("its o line says %d, and its model's cost is %d", a.Cost, c))
		}
	}
	return res
}

// statNames maps the counter names solvers print to puzzle.Stat* keys.
var statNames = map[string]string{
	"conflicts":    puzzle.StatConflicts,
	"decisions":    puzzle.StatDecisions,
	"choices":      puzzle.StatDecisions, // clasp
	"propagations": puzzle.StatPropagations,
	"restarts":     puzzle.StatRestarts,
}

// parseStats reads solver statistics from comment lines in the forms
// "c conflicts: 12 ...", "conflicts : 12 ..." (minisat) and "c 12
// conflicts" (picosat). The last value printed wins.
func parseStats(out []byte) map[string]int64 {
	stats := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<30)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimSpace(strings.TrimPrefix(line, "c "))
		if name, rest, ok := strings.Cut(line, ":"); ok {
			key, known := statNames[strings.ToLower(strings.TrimSpace(name))]
			fields := strings.Fields(rest)
			if known && len(fields) > 0 {
				if v, err := strconv.ParseInt(fields[0], 10, 64); err == nil {
					stats[key] = v
				}
			}
			continue
		}
		if fields := strings.Fields(line); len(fields) == 2 {
			if key, known := statNames[strings.ToLower(fields[1])]; known {
				if v, err := strconv.ParseInt(fields[0], 10, 64); err == nil {
					stats[key] = v
				}
			}
		}
	}
	return stats
}
