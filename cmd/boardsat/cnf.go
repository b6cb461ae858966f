package main

import (
	"context"
	"flag"
	"io"
	"os"
	"time"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/formats/competition"
	"github.com/boardsat/boardsat/internal/atomicfile"
	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	commands["cnf"] = command{"boardsat as a solver of any DIMACS file, in the competitions' formats: count, solve, check", runCNF}
	helps["cnf"] = help{
		usage: []string{
			"cnf count [--timeout D] [--threads N] F.cnf",
			"cnf solve [--timeout D] [--proof FILE [--proof-format binary|ascii] [--force]] F.cnf",
			"cnf check [--format ascii|binary|auto] [--all] [--lrat OUT.lrat [--force]] F.cnf F.drat",
		},
		about: `boardsat's own solvers on any DIMACS CNF file, with the competitions' command
lines and outputs, so that a harness written for them runs boardsat unchanged:
  count  the exact projected model count, in the Model Counting Competition
         2024 format ("c t mc|pmc" and "c p show ... 0" read; answers
         "s SATISFIABLE"/"s UNSATISFIABLE", "c s type", "c s log10-estimate",
         "c s exact arb int N"; exit 0)
  solve  the SAT Competition's solver interface: "s SATISFIABLE" with "v"
         lines ending in 0 (exit 10), "s UNSATISFIABLE" (exit 20), with
         --proof a DRAT proof of it, checked before it is written
  check  the same as "boardsat proof check"
A search stopped by --timeout prints "s UNKNOWN" (exit 0, the competitions'
"no answer"); SIGINT or SIGTERM stops it the same way with exit 130. A file
that is not strict DIMACS: one line on stderr naming the line, exit 2.
docs/export.md describes each protocol.`,
		examples: []string{
			"cnf count F.cnf",
			"cnf solve --proof proof.out F.cnf",
			"cnf check F.cnf proof.out",
		},
	}
	// Registered so that its messages name it ("boardsat cnf check: ...",
	// not "boardsat cnf: ..."); -h prints proof check's help, the same
	// command.
	helps["cnf check"] = help{
		usage:    []string{"cnf check [--format ascii|binary|auto] [--all] [--lrat OUT.lrat [--force]] F.cnf F.drat"},
		about:    `The same as boardsat proof check (boardsat proof check -h).`,
		examples: []string{"cnf check F.cnf proof.out"},
	}
	helps["cnf count"] = help{
		usage: []string{"cnf count [--timeout D] [--threads N] F.cnf"},
		about: `Counts the models of F.cnf exactly with boardsat's projected counter: every
variable for "c t mc" (or no "c t" line), the "c p show" variables for
"c t pmc". Prints the Model Counting Competition 2024 answer lines, exit 0;
"s UNKNOWN" when --timeout or a signal stops the count (exit 0, or 130 on a
signal). Weighted counting (wmc, pwmc) is refused (exit 2).`,
		examples: []string{"cnf count F.cnf", "cnf count --timeout 60s F.cnf"},
	}
	helps["cnf solve"] = help{
		usage: []string{"cnf solve [--timeout D] [--proof FILE [--proof-format binary|ascii] [--force]] F.cnf"},
		about: `Decides F.cnf with gophersat in-process and answers as the SAT Competition asks:
"s SATISFIABLE" and the model as "v" lines ending in 0 (exit 10), or
"s UNSATISFIABLE" (exit 20); "s UNKNOWN" when --timeout or a signal stops it
(exit 0, or 130 on a signal). With --proof, an UNSAT's DRAT proof is checked by
boardsat's DRAT and LRAT checkers against F.cnf and then written to FILE
(binary DRAT by default, as cadical and kissat write it to a file; --proof-format
ascii for text); a proof they reject is an error (exit 1), never UNSAT. FILE is
not replaced without --force.`,
		examples: []string{"cnf solve F.cnf", "cnf solve --proof proof.out F.cnf"},
	}
}

func runCNF(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return badInputf("cnf needs a subcommand: count, solve or check")
	}
	switch args[0] {
	case "count":
		return runCNFCount(args[1:], stdout)
	case "solve":
		return runCNFSolve(args[1:], stdout)
	case "check":
		return runProofCheck(args[1:], stdout)
	case "-h", "--help", "-help":
		printHelp(helpOut, flag.NewFlagSet("cnf", flag.ContinueOnError))
		return nil
	}
	return badInputf("unknown cnf subcommand %q (count, solve or check)", args[0])
}

// readInstance reads the one DIMACS file a cnf subcommand takes.
func readInstance(pos []string, what string) (*competition.Instance, error) {
	if len(pos) != 1 {
		return nil, badInputf("%s takes one file F.cnf, got %d arguments", what, len(pos))
	}
	// Refused before it is opened: opening a FIFO waits for a writer.
	if st, err := os.Stat(pos[0]); err == nil && !st.Mode().IsRegular() {
		return nil, badInputf("%s is not a regular file", pos[0])
	}
	fh, err := os.Open(pos[0])
	if err != nil {
		return nil, badInput(err)
	}
	defer fh.Close()
	in, err := competition.Read(fh)
	if err != nil {
		return nil, badInputf("%s: %v", pos[0], err)
	}
	return in, nil
}

// cnfContext is the context of a cnf search: ended by --timeout or, as
// every command's, by SIGINT or SIGTERM (interruptible; interrupted then
// reports that a signal ended it).
func cnfContext(timeout time.Duration) (ctx context.Context, interrupted func() bool, stop func()) {
	sigCtx, stopSig := interruptible(context.Background())
	ctx = sigCtx
	cancel := func() {}
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(sigCtx, timeout)
	}
	return ctx, func() bool { return interruption(sigCtx) != nil }, func() { cancel(); stopSig() }
}

// signalMessage is the reason printed for a search stopped by SIGINT or
// SIGTERM.
const signalMessage = "interrupted by a signal"

// unknownExit is the exit of an answer that is not given: 130 when a
// signal stopped the search, 1 for an error, 0 (the competitions' "no
// answer") for a time limit.
func unknownExit(status puzzle.Status, interrupted bool) error {
	switch {
	case interrupted:
		return exitError{status: answer.ExitInterrupted}
	case status == puzzle.Timeout:
		return nil
	}
	return exitError{status: answer.ExitFailed}
}

func runCNFCount(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("cnf count", flag.ContinueOnError)
	timeout := fs.Duration("timeout", 0, "give up after this long (s UNKNOWN); 0 means never")
	threads := fs.Int("threads", 0, "goroutines of the count; 0 means one per core")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *threads < 0 {
		return badInputf("--threads must be 0 or more, not %d", *threads)
	}
	in, err := readInstance(pos, "cnf count")
	if err != nil {
		return err
	}
	ctx, interrupted, stop := cnfContext(*timeout)
	defer stop()
	c, err := competition.Count(ctx, in, *threads)
	if err != nil {
		return err
	}
	if c.Status != puzzle.OK && interrupted() {
		c.Message = signalMessage
	}
	if err := competition.WriteCount(stdout, in.Type, c); err != nil {
		return err
	}
	if c.Status == puzzle.OK {
		return nil
	}
	return unknownExit(c.Status, interrupted())
}

func runCNFSolve(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("cnf solve", flag.ContinueOnError)
	timeout := fs.Duration("timeout", 0, "give up after this long (s UNKNOWN); 0 means never")
	proofPath := fs.String("proof", "", "write a checked DRAT proof of unsatisfiability to this file")
	proofFormat := fs.String("proof-format", "binary", "the --proof file's DRAT format: binary or ascii")
	force := fs.Bool("force", false, "replace the --proof file if it exists (refused without it)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	format, err := proof.ParseFormat(*proofFormat)
	if err != nil || format == proof.Auto {
		return badInputf("--proof-format %q: want binary or ascii", *proofFormat)
	}
	if err := refuseExisting(*proofPath, *force); err != nil {
		return err
	}
	if *proofPath != "" {
		if st, err := os.Lstat(*proofPath); err == nil && !st.Mode().IsRegular() {
			return badInputf("--proof %s is not a regular file: name a file", *proofPath)
		}
	}
	in, err := readInstance(pos, "cnf solve")
	if err != nil {
		return err
	}
	ctx, interrupted, stop := cnfContext(*timeout)
	defer stop()
	s, err := competition.Solve(ctx, in, *proofPath != "")
	if err != nil {
		return err
	}
	r := s.Result
	if r.Status != puzzle.OK && r.Status != puzzle.Unsat && interrupted() {
		r.Message = signalMessage
	}
	if r.Status == puzzle.Unsat && *proofPath != "" {
		if err := atomicfile.Write(*proofPath, func(w io.Writer) error { return proof.WriteDRAT(w, s.Proof, format) }); err != nil {
			return err
		}
	}
	if err := competition.WriteSAT(stdout, in.CNF.Vars, r); err != nil {
		return err
	}
	if code := competition.ExitSATStatus(r); code != competition.ExitUnknown {
		return exitError{status: code}
	}
	if r.Status == puzzle.Error {
		return exitError{status: answer.ExitFailed, msg: r.Message}
	}
	return unknownExit(r.Status, interrupted())
}
