package sat

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/solverproc"
	"github.com/boardsat/boardsat/puzzle"
)

// external describes how to run one external solver binary.
type external struct {
	name, binary, doc string
	pb                bool // reads OPB (else DIMACS)
	// args returns the command line for input file in, result file out.
	args func(in, out string) []string
	// resultFile: the model is in the result file (minisat), not on stdout.
	resultFile bool
	// proof, for a solver that writes DRAT proofs, returns the command
	// line that also writes its ASCII DRAT proof to the file proof.
	proof func(in, proof string) []string
}

var externals = []external{
	{name: "cadical", binary: "cadical", doc: "CaDiCaL CDCL solver (external binary, DIMACS)",
		args:  func(in, _ string) []string { return []string{in} },
		proof: func(in, proof string) []string { return []string{"--no-binary", in, proof} }},
	{name: "minisat", binary: "minisat", doc: "MiniSat 2 (external binary, DIMACS)", resultFile: true,
		args: func(in, out string) []string { return []string{"-verb=1", in, out} }},
	{name: "cryptominisat5", binary: "cryptominisat5", doc: "CryptoMiniSat 5 (external binary, DIMACS)",
		args: func(in, _ string) []string { return []string{"--verb=1", in} }},
	{name: "picosat", binary: "picosat", doc: "PicoSAT (external binary, DIMACS)",
		args: func(in, _ string) []string { return []string{"-v", in} }},
	{name: "clasp", binary: "clasp", doc: "clasp (external binary, DIMACS; counts with its own projected enumeration)",
		args: func(in, _ string) []string { return []string{"--stats", in} }},
	{name: "minisat+", binary: "minisat+", doc: "MiniSat+ pseudo-Boolean solver (external binary, OPB; takes native PB constraints)", pb: true,
		args: func(in, _ string) []string { return []string{"-v1", in} }},
}

// runExternal writes f to a temporary file, runs the solver on it under ctx,
// and reads its answer; with proof != "", the solver also writes its DRAT
// proof there (x.proof).
func runExternal(ctx context.Context, x external, f *cnf.Formula, proof string) Result {
	dir, err := os.MkdirTemp("", "boardsat-"+strings.ReplaceAll(x.name, "+", "p")+"-")
	if err != nil {
		return Result{Status: puzzle.Error, Message: err.Error()}
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.cnf")
	write := f.WriteDIMACS
	if x.pb {
		in = filepath.Join(dir, "in.opb")
		write = f.WriteOPB
	}
	out := filepath.Join(dir, "result.txt")
	fh, err := os.Create(in)
	if err != nil {
		return Result{Status: puzzle.Error, Message: err.Error()}
	}
	err = write(fh)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Result{Status: puzzle.Error, Message: fmt.Sprintf("writing input for %s: %v", x.name, err)}
	}
	args := x.args(in, out)
	if proof != "" {
		args = x.proof(in, proof)
	}
	cmd := solverproc.Command(ctx, x.binary, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	stats := parseStats(stdout.Bytes())
	stats[puzzle.StatSolverCalls] = 1
	if ctx.Err() != nil {
		return timeoutResult(stats)
	}
	if runErr != nil {
		var ee *exec.ExitError
		// 10 = satisfiable, 20 = unsatisfiable (the competitions'
		// convention); clasp adds 30 = satisfiable with its search space
		// exhausted. The answer itself is read from the output and checked.
		if !errors.As(runErr, &ee) || !ee.Exited() || (ee.ExitCode() != 10 && ee.ExitCode() != 20 && ee.ExitCode() != 30) {
			return Result{Status: puzzle.Error, Stats: stats, Message: fmt.Sprintf("%s failed: %v%s", x.name, runErr, solverproc.Tail(stderr.Bytes()))}
		}
	}
	text := stdout.Bytes()
	if x.resultFile {
		if text, err = os.ReadFile(out); err != nil {
			return Result{Status: puzzle.Error, Stats: stats, Message: fmt.Sprintf("%s wrote no result file%s", x.name, solverproc.Tail(stderr.Bytes()))}
		}
	}
	status, model, err := parseAnswer(text, f.NumVars(), x.resultFile, x.pb)
	if err != nil {
		return Result{Status: puzzle.Error, Stats: stats, Message: fmt.Sprintf("%s: %v%s", x.name, err, solverproc.Tail(stderr.Bytes()))}
	}
	if status == puzzle.Unsat {
		return Result{Status: puzzle.Unsat, Stats: stats}
	}
	return checkModel(x.name, f, model, stats)
}

// parseAnswer reads a solver's answer: the competition format ("s
// SATISFIABLE" then "v" lines; minisat+ writes literals as x3 / -x3), or
// minisat's result file ("SAT" then the literals, or "UNSAT"). Anything else,
// a literal out of range, a contradictory literal, or a missing status, is an
// error. Variables the model leaves out are false.
func parseAnswer(text []byte, n int, resultFile, opb bool) (puzzle.Status, []bool, error) {
	var status puzzle.Status
	model := make([]bool, n+1)
	seen := make([]bool, n+1)
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	first := true
	modelLines := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		var lits []string
		if resultFile {
			if first {
				first = false
				switch line {
				case "SAT":
					status = puzzle.OK
				case "UNSAT":
					status = puzzle.Unsat
				default:
					return "", nil, fmt.Errorf("unreadable result %q", solverproc.Clip(line))
				}
				continue
			}
			if line == "" {
				continue
			}
			lits = strings.Fields(line)
		} else {
			switch {
			case line == "s SATISFIABLE" || line == "s OPTIMUM FOUND":
				if status != "" {
					return "", nil, errors.New("two status lines")
				}
				status = puzzle.OK
				continue
			case line == "s UNSATISFIABLE":
				if status != "" {
					return "", nil, errors.New("two status lines")
				}
				status = puzzle.Unsat
				continue
			case strings.HasPrefix(line, "s "):
				return "", nil, fmt.Errorf("solver answered %q", solverproc.Clip(line))
			case line == "v" || strings.HasPrefix(line, "v "):
				lits = strings.Fields(line)[1:]
			default:
				continue
			}
		}
		modelLines++
		for _, t := range lits {
			if opb {
				neg := strings.HasPrefix(t, "-")
				t = strings.TrimPrefix(t, "-")
				if !strings.HasPrefix(t, "x") {
					return "", nil, fmt.Errorf("unreadable literal %q", solverproc.Clip(t))
				}
				t = t[1:]
				if neg {
					t = "-" + t
				}
			}
			l, err := strconv.Atoi(t)
			if err != nil {
				return "", nil, fmt.Errorf("unreadable literal %q", solverproc.Clip(t))
			}
			if l == 0 {
				continue
			}
			v := l
			if v < 0 {
				v = -v
			}
			if v > n {
				return "", nil, fmt.Errorf("literal %d of a variable the formula does not have (%d variables)", l, n)
			}
			if seen[v] && model[v] != (l > 0) {
				return "", nil, fmt.Errorf("variable %d given both values", v)
			}
			seen[v], model[v] = true, l > 0
		}
	}
	if err := sc.Err(); err != nil {
		return "", nil, err
	}
	switch {
	case status == "":
		return "", nil, errors.New("no answer (no s SATISFIABLE / s UNSATISFIABLE line)")
	case status == puzzle.Unsat && modelLines > 0:
		return "", nil, errors.New("answered UNSATISFIABLE but printed a model")
	case status == puzzle.OK && modelLines == 0 && n > 0:
		return "", nil, errors.New("answered SATISFIABLE but printed no model")
	}
	return status, model, nil
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
