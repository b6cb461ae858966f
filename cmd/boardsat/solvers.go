package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/proof/solvercheck"
	"github.com/boardsat/boardsat/solvers/solverdef"
	"github.com/boardsat/boardsat/solvers/solverproc"
)

func init() {
	commands["solvers"] = command{"list every solver (kind, definition, installed, version); check one against its protocol", runSolvers}
	helps["solvers"] = help{
		usage: []string{"solvers [--solvers PATH]", "solvers check NAME [--solvers PATH]"},
		about: `Lists every solver boardsat can run: the in-process ones, every external
solver definition (built in, or read from --solvers PATH and the paths in
BOARDSAT_SOLVERS) with its kind (sat, pb, maxsat, mc, pmc), where its
definition came from, whether its program is on PATH and its version, and
the cp and mip backends' solvers.

"solvers check NAME" runs the solver on tiny formulas with known answers for
its kind (satisfiable; unsatisfiable, with its proof checked by boardsat's
DRAT and LRAT checkers when it writes one; a count; an optimum) and prints
what conformed to its protocol and what did not. Exit status 0 only when
every check conformed, 1 otherwise. docs/solvers.md has the format and the
protocols.`,
		examples: []string{"solvers", "solvers check cadical", "solvers --solvers examples/solvers check cadical-user"},
	}
}

// solversFlag is --solvers PATH (repeatable): each path's definitions are
// read at once, and the path is added to BOARDSAT_SOLVERS so that the
// child runs of bench and compare read them too.
type solversFlag struct{}

func (solversFlag) String() string { return "" }

func (solversFlag) Set(path string) error {
	if err := solverdef.Load(path); err != nil {
		return err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	env := os.Getenv(solverdef.EnvVar)
	if env != "" {
		env += string(os.PathListSeparator)
	}
	return os.Setenv(solverdef.EnvVar, env+abs)
}

// registerSolvers adds --solvers to a command that takes --solver.
func registerSolvers(fs *flag.FlagSet) {
	fs.Var(solversFlag{}, "solvers", "read solver definitions from `PATH` (a JSON file or a directory of them; repeatable; see docs/solvers.md)")
}

// startSolvers reads the definitions of BOARDSAT_SOLVERS for one command
// line, and returns what restores the environment after it: the user's
// definitions of one command line (tests run many in one process) do not
// stay for the next.
func startSolvers() (func(), error) {
	env, had := os.LookupEnv(solverdef.EnvVar)
	restore := func() {
		solverdef.Forget()
		if had {
			os.Setenv(solverdef.EnvVar, env)
		} else {
			os.Unsetenv(solverdef.EnvVar)
		}
	}
	solverdef.Forget()
	if err := solverdef.LoadEnv(); err != nil {
		return restore, badInput(err)
	}
	return restore, nil
}

func runSolvers(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("solvers", flag.ContinueOnError)
	registerSolvers(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return listSolvers(stdout)
	case pos[0] == "check" && len(pos) == 2:
		return checkSolver(pos[1], stdout)
	case pos[0] == "check":
		return badInputf("solvers check takes one solver NAME")
	}
	return badInputf("unknown solvers argument %q: want no argument (the list) or check NAME", pos[0])
}

// listSolvers prints the table of every solver.
func listSolvers(stdout io.Writer) error {
	// A signal stops the version probes at once (they answer "version
	// unknown"); the table is printed all the same, with exit 130.
	ctx, stop := interruptible(context.Background())
	defer stop()
	type row struct{ backend, name, kind, source, installed, version string }
	var rows []*row
	var wg sync.WaitGroup
	for _, s := range sat.All() {
		r := &row{backend: "sat", name: s.Name, kind: "sat", source: "in process", installed: "yes", version: "(linked in)"}
		if d := s.Def; d.Name != "" {
			r.kind, r.source = d.Kind, d.Source
			if d.Installed() != nil {
				r.installed, r.version = "no", "-"
			} else {
				wg.Go(func() { r.version = d.VersionLine() })
			}
		}
		rows = append(rows, r)
	}
	for _, x := range solverproc.Externals() {
		r := &row{backend: x.Backend, name: x.Name, kind: x.Backend, source: solverdef.BuiltIn, installed: "yes"}
		if solverproc.Available(x.Name, x.Binary) != nil {
			r.installed, r.version = "no", "-"
		} else if x.Version != nil {
			wg.Go(func() { r.version = x.Version() })
		} else {
			wg.Go(func() { r.version = solverproc.BinaryVersion(x.Binary) })
		}
		rows = append(rows, r)
	}
	wg.Wait()
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BACKEND\tSOLVER\tKIND\tDEFINITION\tINSTALLED\tVERSION")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.backend, r.name, r.kind, r.source, r.installed, r.version)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if why := interruption(ctx); why != nil {
		return exitError{answer.ExitInterrupted, why.Error() + ": versions not probed are unknown"}
	}
	return nil
}

// checkSolver prints the battery's table for one solver.
func checkSolver(name string, stdout io.Writer) error {
	rows, err := solvercheck.Run(context.Background(), name)
	if err != nil {
		return badInput(err)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	// RESULT before GOT: a GOT that is an error message runs long, and the
	// verdict must not be pushed off the screen by it.
	fmt.Fprintln(tw, "CHECK\tWANT\tRESULT\tGOT")
	failed := 0
	for _, r := range rows {
		verdict := "conforms"
		if !r.OK {
			verdict, failed = "DOES NOT CONFORM", failed+1
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Check, r.Want, verdict, strings.ReplaceAll(r.Got, "\t", " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if failed > 0 {
		return exitError{status: 1, msg: fmt.Sprintf("solver %s: %d of %d checks did not conform to its protocol", name, failed, len(rows))}
	}
	fmt.Fprintf(stdout, "solver %s: all %d checks conformed\n", name, len(rows))
	return nil
}
