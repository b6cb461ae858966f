// Package mipsolve is boardsat's "mip" backend: it writes an instance as
// an integer program (package mip) and solves it with a MIP solver, CBC
// (cbc, reading CPLEX LP) by default or GLPK (glpsol, reading free MPS).
// The values the solver reports are read back, rounded (a fractional
// value is an error), decoded and checked by the puzzle's independent
// checker; the objective the solver reports must equal the checked
// solution's. A solution that fails, an unreadable file, or a run that
// ends without a verdict is status error, never ok.
//
// Tasks: first (a feasible point; for an optimisation puzzle an optimal
// one, proven), optimum, and for swaps shortest (the horizon searched
// upward). A MIP solver finds one optimum, it does not enumerate: task
// count is refused.
package mipsolve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/paradigm/mip"
	"github.com/boardsat/boardsat/paradigm/models"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverproc"
)

// Solver is one MIP solver binary and how to run it and read its answer.
type Solver struct {
	Name, Binary, Doc string
	// mps: the solver reads the free MPS file (else CPLEX LP).
	mps bool
	// args returns the command line for model file in, solution file out.
	args func(in, out string) []string
	// read reads the solution file: the verdict, the values by variable
	// index, and the objective the solver reports (as it optimised it).
	read func(p *mip.Program, text []byte) (verdict, []float64, float64, error)
	// nodes reads the branch-and-bound nodes from the solver's log (-1
	// when it does not say).
	nodes func(log []byte) int64
}

// verdict is a MIP solver's final word.
type verdict int8

const (
	optimal    verdict = iota // proven optimal (or feasible, without objective)
	infeasible                // proven to have no integer point
	unfinished                // stopped without proof
)

// Solvers lists the MIP solvers, the default first.
var Solvers = []Solver{
	{Name: "cbc", Binary: "cbc", Doc: "COIN-OR CBC branch and cut (cbc FILE.lp solve)",
		args: func(in, out string) []string { return []string{in, "solve", "solu", out} },
		read: readCBC, nodes: cbcNodes},
	{Name: "glpk", Binary: "glpsol", Doc: "GNU GLPK branch and bound (glpsol --freemps FILE.mps)", mps: true,
		args: func(in, out string) []string { return []string{"--freemps", in, "-w", out} },
		read: readGLPK, nodes: func([]byte) int64 { return -1 }},
}

func init() {
	puzzle.Backends.Add("mip", Backend{solvers})
	solvers.Register()
}

// solvers is the backend's solver set.
var solvers = solverproc.Set[Solver]{Backend: "mip", Solvers: Solvers, List: func(s Solver) solverproc.Listing {
	return solverproc.Listing{Name: s.Name, Binary: s.Binary, Doc: s.Doc}
}}

// Backend is the "mip" backend.
//
// Its solver set gives its Choices (the --solver choices) and NamedOnly
// (it runs an optional external solver, so compare's "all" leaves it out).
type Backend struct{ solverproc.Set[Solver] }

// Name returns "mip".
func (Backend) Name() string { return "mip" }

// Doc describes the backend.
func (Backend) Doc() string {
	return "integer programming: boardsat's integer program (encode --format lp|mps) solved by --solver; every solution checked; no counting"
}

// Solve answers first and optimum; count (a MIP solver does not
// enumerate), any other task, a puzzle without an integer program, an
// unknown solver or an absent binary is an error.
func (Backend) Solve(ctx context.Context, req puzzle.Request) (ans puzzle.Answer, err error) {
	if req.Heuristic != "" || req.Encoding != "" {
		return puzzle.Answer{}, errors.New("the mip backend takes --solver only, no --heuristic or --encoding (the model is boardsat's integer program)")
	}
	switch req.Task {
	case puzzle.First, puzzle.Optimum, puzzle.Shortest:
	case puzzle.Count:
		return puzzle.Answer{}, errors.New("the mip backend does not do task count: a MIP solver proves one optimum, it does not enumerate solutions; use --backend cp, sat or native")
	default:
		return puzzle.Answer{}, fmt.Errorf("the mip backend does tasks first and optimum (and shortest for swaps), not %s", req.Task)
	}
	s, err := solvers.Lookup(req.Solver)
	if err != nil {
		return puzzle.Answer{}, err
	}
	format := "lp"
	if s.mps {
		format = "mps"
	}
	ans = puzzle.Answer{Solver: s.Name, Encoding: format, Stats: map[string]int64{}}
	start := time.Now()
	// ans is the named result: the deferred timing lands in what returns.
	defer func() {
		ans.SolveSeconds = time.Since(start).Seconds()
		ans.Unchecked = puzzle.UncheckedClaim(s.Name, req.Task, ans)
	}()
	if mip.NeedsHorizon(req.Spec.Puzzle()) {
		return solvePlan(ctx, s, req, ans)
	}
	if req.Task == puzzle.Shortest {
		return puzzle.Answer{}, fmt.Errorf("the mip backend does task shortest for plans (swap), not for %s", req.Spec.Puzzle())
	}
	m, err := mip.Build(req.Spec, mip.Options{})
	if err != nil {
		return puzzle.Answer{}, err
	}
	if req.Task == puzzle.Optimum && len(m.Objective) == 0 {
		return puzzle.Answer{}, fmt.Errorf("the mip backend does task optimum for puzzles with an objective; %s has none", req.Spec.Puzzle())
	}
	sol := runInto(ctx, s, req.Spec, m, &ans)
	if ans.Status == puzzle.OK {
		ans.Solution = sol
		if v, _, ok := puzzle.ObjectiveOf(req.Spec, *sol); ok && len(m.Objective) > 0 {
			ans.Objective, ans.Bound = big.NewInt(v), big.NewInt(v)
		}
	}
	return ans, nil
}

// runInto runs the solver on m and records the verdict and counters in
// ans; it returns the checked solution when the status is OK.
func runInto(ctx context.Context, s Solver, spec puzzle.Spec, m *mip.Model, ans *puzzle.Answer) *puzzle.Solution {
	sol, nodes, status, msg := run(ctx, s, spec, m)
	ans.Status, ans.Message = status, msg
	ans.Stats[puzzle.StatVariables] = int64(len(m.Vars))
	ans.Stats[puzzle.StatClauses] = int64(len(m.Rows))
	ans.Stats[puzzle.StatSolverCalls]++
	if nodes >= 0 {
		ans.Stats[puzzle.StatNodes] += nodes
	}
	return sol
}

// solvePlan answers a planning puzzle (swap), tasks shortest and first,
// by solving its program for horizons T = 1, 2, ... until one is feasible
// (models.SearchHorizon): that T is the shortest length, the plan found a
// shortest plan.
func solvePlan(ctx context.Context, s Solver, req puzzle.Request, ans puzzle.Answer) (puzzle.Answer, error) {
	if req.Task != puzzle.Shortest && req.Task != puzzle.First {
		return puzzle.Answer{}, fmt.Errorf("the mip backend does tasks shortest and first for %s, not %s", req.Spec.Puzzle(), req.Task)
	}
	err := models.SearchHorizon(&ans, func(T int) error {
		m, err := mip.Build(req.Spec, mip.Options{Steps: T})
		if err != nil {
			return err
		}
		if sol := runInto(ctx, s, req.Spec, m, &ans); ans.Status == puzzle.OK {
			ans.Solution, ans.Length = sol, T
		}
		return nil
	})
	if err != nil {
		return puzzle.Answer{}, err
	}
	return ans, nil
}

// run writes the model, runs the solver under ctx and reads its answer.
func run(ctx context.Context, s Solver, spec puzzle.Spec, m *mip.Model) (*puzzle.Solution, int64, puzzle.Status, string) {
	if ctx.Err() != nil {
		return nil, -1, puzzle.Timeout, "time limit reached before solving"
	}
	dir, err := os.MkdirTemp("", "boardsat-mip-")
	if err != nil {
		return nil, -1, puzzle.Error, err.Error()
	}
	defer os.RemoveAll(dir)
	in, write := filepath.Join(dir, "model.lp"), m.WriteLP
	if s.mps {
		in, write = filepath.Join(dir, "model.mps"), m.WriteMPS
	}
	out := filepath.Join(dir, "solution.txt")
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return nil, -1, puzzle.Error, err.Error()
	}
	if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
		return nil, -1, puzzle.Error, err.Error()
	}
	cmd := solverproc.Command(ctx, s.Binary, s.args(in, out)...)
	// Any temporaries of the solver go in the run's own directory,
	// removed whatever ended it.
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	nodes := s.nodes(stdout.Bytes())
	if ctx.Err() != nil {
		return nil, nodes, puzzle.Timeout, "time limit reached"
	}
	if runErr != nil {
		return nil, nodes, puzzle.Error, fmt.Sprintf("%s failed: %v%s", s.Name, runErr, solverproc.Tail(stderr.Bytes()))
	}
	text, err := os.ReadFile(out)
	if err != nil {
		return nil, nodes, puzzle.Error, fmt.Sprintf("%s wrote no solution file%s", s.Name, solverproc.Tail(stderr.Bytes()))
	}
	v, values, obj, err := s.read(&m.Program, text)
	switch {
	case err != nil:
		return nil, nodes, puzzle.Error, fmt.Sprintf("%s: %v", s.Name, err)
	case v == infeasible:
		return nil, nodes, puzzle.Unsat, ""
	case v == unfinished:
		return nil, nodes, puzzle.Error, fmt.Sprintf("%s stopped without proving its answer", s.Name)
	}
	ints, err := m.Round(values)
	if err != nil {
		return nil, nodes, puzzle.Error, fmt.Sprintf("%s: %v", s.Name, err)
	}
	sol, err := m.Decode(ints)
	if err != nil {
		return nil, nodes, puzzle.Error, fmt.Sprintf("%s: decoding its solution: %v", s.Name, err)
	}
	if err := puzzle.Check(spec, sol); err != nil {
		return nil, nodes, puzzle.Error, fmt.Sprintf("%s: its solution fails the checker: %v", s.Name, err)
	}
	// The objective as the solver optimised it: the MPS file minimises
	// the negation of a maximisation.
	want := float64(0)
	for _, t := range m.Objective {
		want += float64(t.Coef) * float64(ints[t.Var])
	}
	if s.mps && m.Maximize {
		want = -want
	}
	if math.Abs(obj-want) > 1e-6*math.Max(1, math.Abs(want)) {
		return nil, nodes, puzzle.Error, fmt.Sprintf("%s reports objective %v, its solution's is %v", s.Name, obj, want)
	}
	return &sol, nodes, puzzle.OK, ""
}

// readCBC reads cbc's solution file: a status line ("Optimal - objective
// value V", "Infeasible - ...", "Integer infeasible - ...", "Stopped on
// ...") and a line "INDEX NAME VALUE REDUCED" per nonzero column (cbc
// leaves zeros out; "**" marks a value cbc itself found infeasible).
func readCBC(p *mip.Program, text []byte) (verdict, []float64, float64, error) {
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	if !sc.Scan() {
		return 0, nil, 0, errors.New("empty solution file")
	}
	head := strings.TrimSpace(sc.Text())
	status, objText, _ := strings.Cut(head, " - objective value ")
	switch {
	case status == "Optimal":
	case strings.HasPrefix(status, "Infeasible") || strings.HasPrefix(status, "Integer infeasible"):
		return infeasible, nil, 0, nil
	case strings.HasPrefix(status, "Stopped"):
		return unfinished, nil, 0, nil
	default:
		return 0, nil, 0, fmt.Errorf("unreadable status line %q", solverproc.Clip(head))
	}
	obj, err := strconv.ParseFloat(strings.TrimSpace(objText), 64)
	if err != nil {
		return 0, nil, 0, fmt.Errorf("unreadable objective in %q", solverproc.Clip(head))
	}
	index := p.Index()
	values := make([]float64, len(p.Vars))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if f[0] == "**" {
			return 0, nil, 0, fmt.Errorf("cbc marks its own solution infeasible: %q", solverproc.Clip(sc.Text()))
		}
		if len(f) != 4 {
			return 0, nil, 0, fmt.Errorf("unreadable solution line %q", solverproc.Clip(sc.Text()))
		}
		i, ok := index[f[1]]
		x, err := strconv.ParseFloat(f[2], 64)
		if !ok || err != nil {
			return 0, nil, 0, fmt.Errorf("unreadable solution line %q", solverproc.Clip(sc.Text()))
		}
		values[i] = x
	}
	return optimal, values, obj, sc.Err()
}

// cbcNodes reads "Enumerated nodes: N" from cbc's log.
func cbcNodes(log []byte) int64 {
	for _, l := range strings.Split(string(log), "\n") {
		if rest, ok := strings.CutPrefix(l, "Enumerated nodes:"); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64); err == nil {
				return n
			}
		}
	}
	return -1
}

// readGLPK reads glpsol's plain-text MIP solution (-w): comment lines "c",
// the status line "s mip ROWS COLS STATUS OBJ" (o optimal, f feasible, n
// no integer point, u undefined), "i ROW VALUE" and "j COL VALUE" (columns
// numbered from 1 in the MPS file's order), "e o f" at the end.
func readGLPK(p *mip.Program, text []byte) (verdict, []float64, float64, error) {
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	values := make([]float64, len(p.Vars))
	seen := make([]bool, len(p.Vars))
	v, obj, status, ended := optimal, 0.0, false, false
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] == "c" || f[0] == "i" {
			continue
		}
		switch f[0] {
		case "s":
			if len(f) != 6 || f[1] != "mip" || status {
				return 0, nil, 0, fmt.Errorf("unreadable status line %q", solverproc.Clip(sc.Text()))
			}
			if n, err := strconv.Atoi(f[3]); err != nil || n != len(p.Vars) {
				return 0, nil, 0, fmt.Errorf("solution of %s columns, the model has %d", f[3], len(p.Vars))
			}
			switch f[4] {
			case "o":
			case "n":
				v = infeasible
			case "f", "u":
				v = unfinished
			default:
				return 0, nil, 0, fmt.Errorf("unknown status %q", f[4])
			}
			x, err := strconv.ParseFloat(f[5], 64)
			if err != nil {
				return 0, nil, 0, fmt.Errorf("unreadable objective %q", f[5])
			}
			obj, status = x, true
		case "j":
			if len(f) != 3 {
				return 0, nil, 0, fmt.Errorf("unreadable column line %q", solverproc.Clip(sc.Text()))
			}
			j, err1 := strconv.Atoi(f[1])
			x, err2 := strconv.ParseFloat(f[2], 64)
			if err1 != nil || err2 != nil || j < 1 || j > len(values) || seen[j-1] {
				return 0, nil, 0, fmt.Errorf("unreadable or repeated column line %q", solverproc.Clip(sc.Text()))
			}
			values[j-1], seen[j-1] = x, true
		case "e":
			ended = true
		default:
			return 0, nil, 0, fmt.Errorf("unreadable line %q", solverproc.Clip(sc.Text()))
		}
	}
	if err := sc.Err(); err != nil {
		return 0, nil, 0, err
	}
	if !status || !ended {
		return 0, nil, 0, errors.New("truncated solution file (no s line or no e line)")
	}
	if v != optimal {
		return v, nil, 0, nil
	}
	for j, ok := range seen {
		if !ok {
			return 0, nil, 0, fmt.Errorf("no value for column %d", j+1)
		}
	}
	return v, values, obj, nil
}

// Describe names the solver req runs, as its answer would
// (puzzle.Describer).
func (b Backend) Describe(req puzzle.Request) (heuristic, encoding, solver string) {
	if s, err := b.Lookup(req.Solver); err == nil {
		solver, encoding = s.Name, "lp"
		if s.mps {
			encoding = "mps"
		}
	}
	return "", encoding, solver
}
