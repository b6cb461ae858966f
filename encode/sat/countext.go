package sat

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/solverproc"
	"github.com/boardsat/boardsat/progress"
	"github.com/boardsat/boardsat/puzzle"
)

// cloneFormula copies f (variables, names, clauses, PB constraints).
func cloneFormula(f *cnf.Formula) *cnf.Formula {
	g := cnf.New()
	for v := 1; v <= f.NumVars(); v++ {
		if f.Primary(v) {
			g.Var(f.Name(v))
		} else {
			g.Aux(f.Name(v))
		}
	}
	for i := 0; i < f.NumClauses(); i++ {
		g.Add(f.Clause(i)...)
	}
	for _, p := range f.PBs() {
		g.AddPB(p.Lits, p.Weights, p.Op, p.K)
	}
	return g
}

// countExternalLoop counts by re-running an external solver, adding one
// clause that blocks each model's projection.
func countExternalLoop(ctx context.Context, f *cnf.Formula, s Solver, emit func([]bool) error) (CountResult, error) {
	g := cloneFormula(f)
	proj := f.Projection()
	stats := map[string]int64{}
	var n uint64
	for {
		r := s.run(ctx, g)
		for k, v := range r.Stats {
			stats[k] += v
		}
		switch r.Status {
		case puzzle.Timeout:
			return CountResult{Status: puzzle.Timeout, Stats: stats, Message: fmt.Sprintf("time limit reached after %d projected models", n)}, nil
		case puzzle.Error:
			return CountResult{Status: puzzle.Error, Stats: stats, Message: r.Message}, nil
		case puzzle.Unsat:
			return CountResult{Status: puzzle.OK, Count: n, Stats: stats}, nil
		}
		n++
		progress.Notef(ctx, "%d projected models, one blocking clause each", n)
		if emit != nil {
			if err := emit(r.Model); err != nil {
				return CountResult{Status: puzzle.Error, Stats: stats, Message: err.Error()}, err
			}
		}
		if len(proj) == 0 {
			return CountResult{Status: puzzle.OK, Count: n, Stats: stats}, nil
		}
		block := make([]cnf.Lit, len(proj))
		for i, v := range proj {
			block[i] = cnf.Lit(v)
			if r.Model[v] {
				block[i] = -cnf.Lit(v)
			}
		}
		g.Add(block...)
	}
}

// writeASPIF writes f as an ASP program in clasp's aspif format: a choice
// over every variable, each clause as an integrity constraint, and the
// projected variables as shown atoms, so that "clasp --project=show"
// enumerates projected models. (clasp ignores "c p show" in DIMACS.)
func writeASPIF(f *cnf.Formula, path string) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fh, 1<<16)
	n := f.NumVars()
	w.WriteString("asp 1 0 0\n")
	if n > 0 {
		w.WriteString("1 1 " + strconv.Itoa(n))
		for v := 1; v <= n; v++ {
			w.WriteString(" " + strconv.Itoa(v))
		}
		w.WriteString(" 0 0\n")
	}
	for i := 0; i < f.NumClauses(); i++ {
		c := f.Clause(i)
		w.WriteString("1 0 0 0 " + strconv.Itoa(len(c)))
		for _, l := range c {
			w.WriteString(" " + strconv.Itoa(int(-l)))
		}
		w.WriteByte('\n')
	}
	for _, v := range f.Projection() {
		name := "x" + strconv.Itoa(v)
		w.WriteString("4 " + strconv.Itoa(len(name)) + " " + name + " 1 " + strconv.Itoa(v) + "\n")
	}
	w.WriteString("0\n")
	err = w.Flush()
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeFile creates path and fills it with write.
func writeFile(path string, write func(io.Writer) error) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(fh)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// countClasp counts with clasp's own enumeration: "clasp -n 0" on the DIMACS
// form of f when every variable is projected (the plain count is then the
// projected one), else "clasp -n 0 --project=show" on its aspif form; it
// names the one it ran.
func countClasp(ctx context.Context, f *cnf.Formula) (CountResult, string) {
	dir, err := os.MkdirTemp("", "boardsat-clasp-")
	if err != nil {
		return CountResult{Status: puzzle.Error, Message: err.Error()}, MethodNameClaspDIMACS
	}
	defer os.RemoveAll(dir)
	var args []string
	method := MethodNameClaspASPIF
	if len(f.Projection()) == f.NumVars() {
		method = MethodNameClaspDIMACS
		in := filepath.Join(dir, "in.cnf")
		err = writeFile(in, f.WriteDIMACS)
		args = []string{"-n", "0", "-q", "--stats", in}
	} else {
		in := filepath.Join(dir, "in.aspif")
		err = writeASPIF(f, in)
		args = []string{"-n", "0", "--project=show", "-q", "--stats", in}
	}
	if err != nil {
		return CountResult{Status: puzzle.Error, Message: fmt.Sprintf("writing input for clasp: %v", err)}, method
	}
	cmd := solverproc.Command(ctx, "clasp", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	stats := parseStats(stdout.Bytes())
	stats[puzzle.StatSolverCalls] = 1
	if ctx.Err() != nil {
		return CountResult{Status: puzzle.Timeout, Stats: stats, Message: "time limit reached"}, method
	}
	if runErr != nil {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) || !ee.Exited() || (ee.ExitCode() != 10 && ee.ExitCode() != 20 && ee.ExitCode() != 30) {
			return CountResult{Status: puzzle.Error, Stats: stats, Message: fmt.Sprintf("clasp failed: %v%s", runErr, solverproc.Tail(stderr.Bytes()))}, method
		}
	}
	n, err := parseClaspCount(stdout.Bytes())
	if err != nil {
		return CountResult{Status: puzzle.Error, Stats: stats, Message: "clasp: " + err.Error()}, method
	}
	return CountResult{Status: puzzle.OK, Count: n, Stats: stats}, method
}

// parseClaspCount reads the model count of a complete "clasp -n 0" run: the
// "Models : N" line, with SATISFIABLE, or UNSATISFIABLE and N = 0. A count
// marked incomplete ("N+") is an error.
func parseClaspCount(out []byte) (uint64, error) {
	var status string
	var count string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "c ") || strings.HasPrefix(line, "s ") {
			line = strings.TrimSpace(line[2:])
		}
		switch {
		case line == "SATISFIABLE" || line == "UNSATISFIABLE" || line == "UNKNOWN":
			status = line
		case strings.HasPrefix(line, "Models"):
			if _, rest, ok := strings.Cut(line, ":"); ok {
				if fs := strings.Fields(rest); len(fs) > 0 {
					count = fs[0]
				}
			}
		}
	}
	if status == "" || count == "" {
		return 0, errors.New("no model count in its output")
	}
	if status == "UNKNOWN" || strings.HasSuffix(count, "+") {
		return 0, errors.New("enumeration incomplete")
	}
	n, err := strconv.ParseUint(count, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("unreadable model count %q", solverproc.Clip(count))
	}
	if (status == "UNSATISFIABLE") != (n == 0) {
		return 0, fmt.Errorf("answered %s with %d models", status, n)
	}
	return n, nil
}
