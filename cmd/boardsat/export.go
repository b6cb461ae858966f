package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/boardsat/boardsat/harness/suites"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/formats/export"
)

func init() {
	commands["export"] = command{"write a suite's instances as CNF, OPB, WCNF, MiniZinc and LP files with their expected answers", runExport}
	helps["export"] = help{
		usage: []string{"export SUITE --out DIR [--force] [--formats cnf,opb,wcnf,mzn,lp] [--timeout D]"},
		about: `Writes every instance of SUITE (a built-in suite or a suite file, as bench
takes it; each spec and task once) in each format that applies, and
DIR/instances.csv with one row per file: file, spec, task, format, encoding,
gbd_hash (GBD's identifier of a cnf, opb or wcnf file), answer (sat, unsat or
unknown), count (a cnf file's projected model count, count tasks), optimum
(of a file with an objective) and known_by (published, native, certified or
unknown). Formulas are the sat backend's model for the task, without symmetry
breaking; mzn and lp are the cp and mip backends' models. What has no file is
listed as "skipped" lines with the reason. A DIR that holds anything is refused
without --force; a file in it of the same name is replaced only when it is a
regular file. --timeout (default 1m) bounds each search behind an expected
answer (past it the answer is unknown). docs/export.md describes the
columns.`,
		examples: []string{
			"export quick --out quick-export",
			"export quick --out q --formats cnf,opb --timeout 10s",
		},
	}
}

func runExport(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	out := fs.String("out", "", "the directory to write (created when missing)")
	force := fs.Bool("force", false, "write into a directory that is not empty, replacing files of the same names")
	formats := fs.String("formats", strings.Join(export.Formats, ","), "the formats to write, comma-separated")
	timeout := fs.Duration("timeout", time.Minute, "limit of each search behind an expected answer (then unknown); 0 means none")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInputf("export takes one SUITE, got %d arguments", len(pos))
	}
	if *out == "" {
		return badInputf("export needs --out DIR")
	}
	var fmts []string
	for _, f := range strings.Split(*formats, ",") {
		fmts = append(fmts, strings.TrimSpace(f))
	}
	suite, err := suites.Load(pos[0])
	if err != nil {
		return badInput(err)
	}
	if err := export.CheckDir(*out, *force); err != nil {
		return badInput(err)
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	items, skipped, err := export.Plan(ctx, suite, export.Options{Formats: fmts, Timeout: *timeout})
	if interruption(ctx) != nil {
		return exitError{status: answer.ExitInterrupted, msg: "interrupted: nothing written"}
	}
	if errors.Is(err, export.ErrUnknownFormat) {
		return badInput(err)
	}
	if err != nil {
		return err // answers that disagree: a bug, exit status 1
	}
	if err := export.Write(*out, items, *force); err != nil {
		return badInput(err) // a refused directory or any error writing a file
	}
	for _, s := range skipped {
		fmt.Fprintf(stdout, "skipped %s\n", s)
	}
	fmt.Fprintf(stdout, "wrote %d files and %s\n", len(items), filepath.Join(*out, export.CSVName))
	return nil
}
