package sat

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/internal/progress"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
	"github.com/boardsat/boardsat/solvers/solverproc"
	"github.com/boardsat/boardsat/solvers/solverproto"
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
			return CountResult{Status: puzzle.Timeout, Stats: stats, Found: n, Message: fmt.Sprintf("time limit reached after %d projected models", n)}, nil
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

// countOwn counts with a sat solver's own enumeration, as its definition's
// count says (protocol clasp-models): its command on the DIMACS form of f
// when every variable is projected (the plain count is then the projected
// one), else its projected command on the aspif form; it names the one it
// ran.
func countOwn(ctx context.Context, d solverdef.Def, f *cnf.Formula) (CountResult, string) {
	dir, err := os.MkdirTemp("", "boardsat-count-")
	method := d.Name + " -n 0 --project=show on aspif"
	if err != nil {
		return CountResult{Status: puzzle.Error, Message: err.Error()}, method
	}
	defer os.RemoveAll(dir)
	var in string
	cmd := d.Count.Projected
	if len(f.Projection()) == f.NumVars() {
		method = d.Name + " -n 0 on DIMACS (every variable projected)"
		in, cmd = filepath.Join(dir, "in.cnf"), d.Count.Command
		err = writeFile(in, f.WriteDIMACS)
	} else {
		in = filepath.Join(dir, "in.aspif")
		err = writeASPIF(f, in)
	}
	if err != nil {
		return CountResult{Status: puzzle.Error, Message: fmt.Sprintf("writing input for %s: %v", d.Name, err)}, method
	}
	r := execute(ctx, solverdef.Expand(cmd, solverdef.Args{Input: in, CPUSeconds: cpuSeconds(ctx), Seed: seedOf(ctx)}))
	if res, done := r.failed(ctx, d.Name); done {
		return CountResult{Status: res.Status, Stats: r.stats, Message: res.Message}, method
	}
	if r.exit != 0 && r.exit != 10 && r.exit != 20 && r.exit != 30 {
		return CountResult{Status: puzzle.Error, Stats: r.stats, Message: fmt.Sprintf("%s failed: exit status %d%s", d.Name, r.exit, solverproc.Tail(r.stderr))}, method
	}
	n, err := parseClaspCount(r.stdout)
	if err != nil {
		return CountResult{Status: puzzle.Error, Stats: r.stats, Message: d.Name + ": " + err.Error()}, method
	}
	noteUnchecked(ctx, d.Name+"'s count")
	return CountResult{Status: puzzle.OK, Count: n, Stats: r.stats}, method
}

// countWithCounter counts the models of f projected on its primary
// variables with a model counter (kind mc or pmc): f goes in the Model
// Counting Competition's DIMACS (c t mc, or c t pmc with c p show), the
// answer is read strictly (solverproto.ReadCount) and its exit status
// checked against it.
func countWithCounter(ctx context.Context, d solverdef.Def, f *cnf.Formula) CountResult {
	if len(f.PBs()) > 0 {
		return CountResult{Status: puzzle.Error, Message: fmt.Sprintf("solver %s counts CNF, and this formula has %d pseudo-Boolean constraints", d.Name, len(f.PBs()))}
	}
	dir, err := os.MkdirTemp("", "boardsat-counter-")
	if err != nil {
		return CountResult{Status: puzzle.Error, Message: err.Error()}
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.cnf")
	if err := writeFile(in, f.WriteDIMACS); err != nil {
		return CountResult{Status: puzzle.Error, Message: fmt.Sprintf("writing input for %s: %v", d.Name, err)}
	}
	typ := "mc"
	if len(f.Projection()) < f.NumVars() {
		typ = "pmc"
	}
	r := execute(ctx, solverdef.Expand(d.Command, solverdef.Args{Input: in, CPUSeconds: cpuSeconds(ctx), Seed: seedOf(ctx)}))
	if res, done := r.failed(ctx, d.Name); done {
		return CountResult{Status: res.Status, Stats: r.stats, Message: res.Message}
	}
	a, err := solverproto.ReadCount(r.stdout, typ)
	if err == nil {
		err = solverproto.CheckExit(r.exit, a.Status)
	}
	if err == nil && a.Status == solverproto.Unknown {
		err = errors.New("answered s UNKNOWN before any time limit")
	}
	if err == nil && !a.Count.IsUint64() {
		err = fmt.Errorf("counted %s, more than a count here can hold (64 bits)", a.Count)
	}
	if err != nil {
		return CountResult{Status: puzzle.Error, Stats: r.stats, Message: fmt.Sprintf("%s: %v%s", d.Name, err, solverproc.Tail(r.stderr))}
	}
	noteUnchecked(ctx, d.Name+"'s count")
	return CountResult{Status: puzzle.OK, Count: a.Count.Uint64(), Stats: r.stats}
}

// parseClaspCount reads the model count of a complete "clasp -n 0" run,
// strictly: its one s line (SATISFIABLE, UNSATISFIABLE or UNKNOWN) and its
// one "c Models : N" line (on aspif input clasp answers as an ASP solver:
// the same lines without "s " and "c "), SATISFIABLE with N > 0 or UNSATISFIABLE with
// N = 0. A count marked incomplete ("N+") or UNKNOWN is an error; so is a
// second s or Models line, or a count that is not a whole number, each
// naming its line. Other lines are clasp's comments and statistics.
func parseClaspCount(out []byte) (uint64, error) {
	var status string
	var count string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<30)
	for no := 1; sc.Scan(); no++ {
		line := strings.TrimSpace(sc.Text())
		bad := func(why string) error { return fmt.Errorf("line %d %q: %s", no, solverproc.Clip(line), why) }
		s, ok := strings.CutPrefix(line, "s ")
		if line == "SATISFIABLE" || line == "UNSATISFIABLE" || line == "UNKNOWN" {
			s, ok = line, true // on aspif clasp answers as an ASP solver, unprefixed
		}
		if ok {
			switch {
			case status != "":
				return 0, bad("a second s line")
			case s != "SATISFIABLE" && s != "UNSATISFIABLE" && s != "UNKNOWN":
				return 0, bad("not an s line of clasp's (SATISFIABLE, UNSATISFIABLE or UNKNOWN)")
			}
			status = s
			continue
		}
		name, rest, ok := strings.Cut(strings.TrimPrefix(line, "c "), ":")
		if !ok || strings.TrimSpace(name) != "Models" {
			continue
		}
		if count != "" {
			return 0, bad("a second count")
		}
		count = strings.TrimSpace(rest)
		if _, err := strconv.ParseUint(strings.TrimSuffix(count, "+"), 10, 64); err != nil {
			return 0, bad(fmt.Sprintf("the count %q is not a whole number", solverproc.Clip(count)))
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if status == "" {
		return 0, errors.New("no s line in its output")
	}
	if count == "" {
		return 0, errors.New("no model count in its output")
	}
	if status == "UNKNOWN" || strings.HasSuffix(count, "+") {
		return 0, errors.New("enumeration incomplete")
	}
	n, _ := strconv.ParseUint(count, 10, 64) // read whole above
	if (status == "UNSATISFIABLE") != (n == 0) {
		return 0, fmt.Errorf("answered %s with %d models", status, n)
	}
	return n, nil
}
