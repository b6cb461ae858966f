// Package cpsolve is boardsat's "cp" backend: it writes an instance as a
// MiniZinc model (package mzn) and solves it with a constraint-programming
// solver through the minizinc driver, Gecode by default. Every solution
// minizinc prints is read back, decoded and checked by the puzzle's
// independent checker; a solution that fails, an unreadable line, or a run
// that ends without minizinc's verdict is status error, never ok.
//
// Tasks: first (one solution; for an optimisation puzzle an optimal one,
// proven), optimum (the optimum, proven by minizinc's "==========" line),
// and count (every solution enumerated with --all-solutions, each checked;
// for a puzzle that counts its optimal solutions, the optimum first, then
// the solutions at it). Counting prints every solution, so it suits small
// counts only. Swaps, whose model is a plan of a fixed horizon, are
// answered by searching the horizon upward (tasks shortest, first, count).
package cpsolve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/paradigm/models"
	"github.com/boardsat/boardsat/paradigm/mzn"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverproc"
)

// Solver is one CP solver minizinc drives.
type Solver struct {
	// Name selects it with --solver; ID is minizinc's --solver value.
	Name, ID, Doc string
}

// Solvers lists the CP solvers, the default first.
var Solvers = []Solver{
	{Name: "gecode", ID: "gecode", Doc: "Gecode through minizinc (MiniZinc 2.x driver, FlatZinc)"},
}

// Binary is the driver every CP solver runs through.
var Binary = "minizinc"

func init() {
	puzzle.Backends.Add("cp", Backend{solvers})
	solvers.Register()
}

// solvers is the backend's solver set: every solver runs through Binary,
// its version is minizinc's with the solver's own.
var solvers = solverproc.Set[Solver]{Backend: "cp", Solvers: Solvers, List: func(s Solver) solverproc.Listing {
	return solverproc.Listing{Name: s.Name, Binary: Binary, Doc: s.Doc, Version: func() string { return version(s.ID) }}
}}

// version describes minizinc and the solver's own version (minizinc
// --solvers lists it), with the Debian packages.
func version(id string) string {
	v := solverproc.BinaryVersion(Binary)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, _ := solverproc.Command(ctx, Binary, "--solvers").Output()
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "(org."+id+".") || strings.Contains(strings.ToLower(l), "."+id+",") {
			name, _, _ := strings.Cut(strings.TrimSpace(l), " (")
			v += "; " + name
			break
		}
	}
	return v
}

// Backend is the "cp" backend.
//
// Its solver set gives its Choices (the --solver choices) and NamedOnly
// (it runs an optional external solver, so compare's "all" leaves it out).
type Backend struct{ solverproc.Set[Solver] }

// Name returns "cp".
func (Backend) Name() string { return "cp" }

// Doc describes the backend.
func (Backend) Doc() string {
	return "constraint programming: a MiniZinc model (boardsat encode --format mzn) solved by --solver through minizinc; every solution checked"
}

// Solve answers first, optimum and count; any other task, a puzzle
// without a MiniZinc model, an unknown solver or an absent minizinc is an
// error.
func (Backend) Solve(ctx context.Context, req puzzle.Request) (ans puzzle.Answer, err error) {
	if req.Heuristic != "" || req.Encoding != "" {
		return puzzle.Answer{}, errors.New("the cp backend takes --solver only, no --heuristic or --encoding (the model is boardsat's MiniZinc model)")
	}
	horizon := mzn.NeedsHorizon(req.Spec.Puzzle())
	switch req.Task {
	case puzzle.First, puzzle.Optimum, puzzle.Count:
	case puzzle.Shortest:
		if !horizon {
			return puzzle.Answer{}, fmt.Errorf("the cp backend does task shortest for plans (swap), not for %s", req.Spec.Puzzle())
		}
	case puzzle.Value:
		return puzzle.Answer{}, errors.New("the cp backend does not do task value: a game's value under best play is a quantified question, not a CP one; use --backend native")
	default:
		return puzzle.Answer{}, fmt.Errorf("the cp backend does tasks first, optimum and count (and shortest for swaps), not %s", req.Task)
	}
	s, err := solvers.Lookup(req.Solver)
	if err != nil {
		return puzzle.Answer{}, err
	}
	if horizon {
		ans, err = solvePlan(ctx, s, req)
		ans.Unchecked = puzzle.UncheckedClaim(s.Name, req.Task, ans)
		return ans, err
	}
	m, err := mzn.Build(req.Spec, mzn.Options{Count: req.Task == puzzle.Count})
	if err != nil {
		return puzzle.Answer{}, err
	}
	if req.Task == puzzle.Optimum && m.Sense == "" {
		return puzzle.Answer{}, fmt.Errorf("the cp backend does task optimum for puzzles with an objective; %s has none", req.Spec.Puzzle())
	}
	ans = puzzle.Answer{Solver: s.Name, Encoding: "mzn", Stats: map[string]int64{}}
	start := time.Now()
	// ans is the named result: the deferred timing lands in what returns.
	defer func() {
		ans.SolveSeconds = time.Since(start).Seconds()
		ans.Unchecked = puzzle.UncheckedClaim(s.Name, req.Task, ans)
	}()
	if req.Task != puzzle.Count {
		r := run(ctx, s, req.Spec, m, false)
		fill(&ans, r)
		switch {
		case r.status == puzzle.OK && r.best != nil:
			ans.Solution = r.best
			if m.Sense != "" {
				ans.Objective, ans.Bound = big.NewInt(r.objective), big.NewInt(r.objective)
			}
		case r.status == puzzle.Timeout && r.best != nil && m.Sense != "" && req.Task == puzzle.Optimum:
			// The best checked solution before the limit, never claimed optimal.
			ans.Objective = big.NewInt(r.objective)
		}
		return ans, nil
	}
	if m.Sense != "" {
		// The count is of the optimal solutions: the optimum first.
		r := run(ctx, s, req.Spec, m, false)
		fill(&ans, r)
		if r.status != puzzle.OK {
			return ans, nil
		}
		opt := r.objective
		if m, err = mzn.Build(req.Spec, mzn.Options{Count: true, Fix: &opt}); err != nil {
			return puzzle.Answer{}, err
		}
		ans.Method = "optimum, then --all-solutions at it"
	}
	r := run(ctx, s, req.Spec, m, true)
	calls := ans.Stats[puzzle.StatSolverCalls]
	fill(&ans, r)
	ans.Stats[puzzle.StatSolverCalls] += calls
	if r.status == puzzle.OK {
		if r.count%m.PerSolution != 0 {
			ans.Status, ans.Message = puzzle.Error, fmt.Sprintf("%d model solutions, not a multiple of the %d per instance solution", r.count, m.PerSolution)
			return ans, nil
		}
		ans.Count = r.count / m.PerSolution
	}
	if r.status == puzzle.Timeout && r.count >= m.PerSolution {
		// Stopped: the solutions checked so far, a lower bound (whole
		// instance solutions only).
		ans.Found = new(big.Int).SetUint64(r.count / m.PerSolution)
	}
	return ans, nil
}

// solvePlan answers a planning puzzle (swap) by solving its model for
// horizons T = 1, 2, ... until one has a plan (models.SearchHorizon): that
// T is the shortest length (tasks shortest and first: the plan found;
// count: every plan of that length, --all-solutions).
func solvePlan(ctx context.Context, s Solver, req puzzle.Request) (ans puzzle.Answer, err error) {
	if req.Task == puzzle.Optimum {
		return puzzle.Answer{}, fmt.Errorf("the cp backend does task optimum for puzzles with an objective; %s has none", req.Spec.Puzzle())
	}
	ans = puzzle.Answer{Solver: s.Name, Encoding: "mzn", Stats: map[string]int64{}}
	start := time.Now()
	// ans is the named result: the deferred timing lands in what returns.
	defer func() { ans.SolveSeconds = time.Since(start).Seconds() }()
	err = models.SearchHorizon(&ans, func(T int) error {
		m, err := mzn.Build(req.Spec, mzn.Options{Steps: T})
		if err != nil {
			return err
		}
		r := run(ctx, s, req.Spec, m, false)
		fill(&ans, r)
		if r.status != puzzle.OK {
			return nil
		}
		ans.Length = T
		if req.Task != puzzle.Count {
			ans.Solution = r.best
			return nil
		}
		// Every plan of the shortest length; a count of none is OK, not
		// Unsat, so the search ends here.
		r = run(ctx, s, req.Spec, m, true)
		fill(&ans, r)
		if r.status == puzzle.OK {
			ans.Count = r.count
		}
		return nil
	})
	if err != nil {
		return puzzle.Answer{}, err
	}
	return ans, nil
}

// fill copies a run's verdict and counters into ans.
func fill(ans *puzzle.Answer, r result) {
	ans.Status, ans.Message = r.status, r.message
	for k, v := range r.stats {
		ans.Stats[k] += v
	}
}

// result is what one minizinc run found.
type result struct {
	status  puzzle.Status
	message string
	// best is the last solution printed (checked); objective its value.
	best      *puzzle.Solution
	objective int64
	count     uint64
	stats     map[string]int64
}

// run writes m to a temporary file and runs minizinc on it (with
// --all-solutions when all), reading and checking every solution as it is
// printed.
func run(ctx context.Context, s Solver, spec puzzle.Spec, m *mzn.Model, all bool) result {
	r := result{stats: map[string]int64{puzzle.StatSolverCalls: 1}}
	if ctx.Err() != nil {
		r.status, r.message = puzzle.Timeout, "time limit reached before solving"
		return r
	}
	dir, err := os.MkdirTemp("", "boardsat-cp-")
	if err != nil {
		r.status, r.message = puzzle.Error, err.Error()
		return r
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "model.mzn")
	if err := os.WriteFile(file, []byte(m.Text), 0o644); err != nil {
		r.status, r.message = puzzle.Error, err.Error()
		return r
	}
	args := []string{"--solver", s.ID, "--statistics"}
	if all {
		args = append(args, "--all-solutions")
	}
	cmd := solverproc.Command(ctx, Binary, append(args, file)...)
	// minizinc writes its FlatZinc to TMPDIR and removes it only when it
	// ends by itself: killed at the time limit, it left it there. Its
	// temporaries go in the run's own directory, removed whatever ended it.
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		r.status, r.message = puzzle.Error, err.Error()
		return r
	}
	if err := cmd.Start(); err != nil {
		r.status, r.message = puzzle.Error, fmt.Sprintf("starting %s: %v", Binary, err)
		return r
	}
	verdict, perr := read(stdout, spec, m, &r)
	if perr != nil {
		io.Copy(io.Discard, stdout)
	}
	waitErr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		r.status, r.message = puzzle.Timeout, "time limit reached"
		if m.Sense != "" && r.best != nil && !all {
			r.message += fmt.Sprintf(" (best found %d, not proven optimal)", r.objective)
		}
	case perr != nil:
		r.status, r.message = puzzle.Error, fmt.Sprintf("%s (%s): %v", Binary, s.Name, perr)
	case waitErr != nil:
		r.status, r.message = puzzle.Error, fmt.Sprintf("%s (%s) failed: %v%s", Binary, s.Name, waitErr, solverproc.Tail([]byte(stderr.String())))
	default:
		r.status, r.message = verdictStatus(verdict, m, all, &r, stderr.String())
	}
	return r
}

// verdictStatus turns minizinc's final line into a status.
func verdictStatus(verdict string, m *mzn.Model, all bool, r *result, stderr string) (puzzle.Status, string) {
	switch verdict {
	case "==========":
		if r.count == 0 {
			return puzzle.Error, "search complete (==========) but no solution printed"
		}
		return puzzle.OK, ""
	case "=====UNSATISFIABLE=====":
		if r.count > 0 {
			return puzzle.Error, "UNSATISFIABLE after printing a solution"
		}
		if all {
			return puzzle.OK, "" // a count of 0
		}
		return puzzle.Unsat, ""
	case "":
		// A satisfaction search for one solution ends with no verdict
		// line after printing it.
		if !all && m.Sense == "" && r.count == 1 {
			return puzzle.OK, ""
		}
		return puzzle.Error, "minizinc ended without a verdict (no ========== or =====UNSATISFIABLE===== line)" + solverproc.Tail([]byte(stderr))
	}
	return puzzle.Error, "minizinc answered " + verdict + solverproc.Tail([]byte(stderr))
}

// read reads minizinc's output: "solution:" lines (decoded and checked),
// "objective:" lines (compared with the checked solution's value),
// "----------" after each solution, statistics, and the final verdict,
// which it returns.
func read(out io.Reader, spec puzzle.Spec, m *mzn.Model, r *result) (string, error) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	verdict := ""
	var pending *puzzle.Solution
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, mzn.SolutionPrefix):
			if verdict != "" {
				return "", fmt.Errorf("a solution after the verdict %s", verdict)
			}
			vals, err := parseValues(strings.TrimPrefix(line, mzn.SolutionPrefix))
			if err != nil {
				return "", err
			}
			sol, err := m.Decode(vals)
			if err != nil {
				return "", fmt.Errorf("decoding a solution: %v", err)
			}
			if err := puzzle.Check(spec, sol); err != nil {
				return "", fmt.Errorf("a solution fails the checker: %v", err)
			}
			pending = &sol
		case strings.HasPrefix(line, mzn.ObjectivePrefix):
			v, err := strconv.ParseInt(strings.TrimPrefix(line, mzn.ObjectivePrefix), 10, 64)
			if err != nil || pending == nil {
				return "", fmt.Errorf("unreadable objective line %q", line)
			}
			if got, _, _ := puzzle.ObjectiveOf(spec, *pending); got != v {
				return "", fmt.Errorf("solver reports objective %d, the solution's is %d", v, got)
			}
		case line == "----------":
			if pending == nil {
				return "", errors.New("a solution separator without a solution")
			}
			r.best, pending = pending, nil
			r.count++
			r.objective, _, _ = puzzle.ObjectiveOf(spec, *r.best)
		case strings.HasPrefix(line, "====="):
			if verdict != "" {
				return "", errors.New("two verdict lines")
			}
			verdict = line
		case strings.HasPrefix(line, "%%%mzn-stat: nodes="):
			n, _ := strconv.ParseInt(strings.TrimPrefix(line, "%%%mzn-stat: nodes="), 10, 64)
			r.stats[puzzle.StatNodes] += n
		case strings.HasPrefix(line, "%"):
		default:
			return "", fmt.Errorf("unreadable output line %q", solverproc.Clip(line))
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	if pending != nil {
		return "", errors.New("a solution without its ---------- separator")
	}
	return verdict, nil
}

// parseValues reads the values of a model's "solution: [...]" line (the
// prefix, mzn.SolutionPrefix, already cut): integers, or true/false, separated by commas.
func parseValues(list string) ([]int64, error) {
	list = strings.TrimSpace(list)
	if !strings.HasPrefix(list, "[") || !strings.HasSuffix(list, "]") {
		return nil, fmt.Errorf("unreadable solution line %q: want [v1, v2, ...]", solverproc.Clip(list))
	}
	list = strings.TrimSpace(list[1 : len(list)-1])
	if list == "" {
		return []int64{}, nil
	}
	fields := strings.Split(list, ",")
	out := make([]int64, len(fields))
	for i, f := range fields {
		f = strings.TrimSpace(f)
		switch f {
		case "true":
			out[i] = 1
		case "false":
			out[i] = 0
		default:
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("unreadable value %q in a solution line", solverproc.Clip(f))
			}
			out[i] = v
		}
	}
	return out, nil
}

// Describe names the solver req runs, as its answer would
// (puzzle.Describer).
func (b Backend) Describe(req puzzle.Request) (heuristic, encoding, solver string) {
	if s, err := b.Lookup(req.Solver); err == nil {
		solver = s.Name
	}
	return "", "mzn", solver
}
