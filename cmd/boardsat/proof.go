package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boardsat/boardsat/internal/atomicfile"
	"github.com/boardsat/boardsat/internal/inputfile"
	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/proof/lrat"
)

func init() {
	commands["proof"] = command{"check a DRAT or LRAT proof that a CNF formula is unsatisfiable", runProof}
	helps["proof"] = help{
		usage: []string{
			"proof check [--format ascii|binary|auto] [--all] [--lrat OUT.lrat [--force]] F.cnf F.drat",
			"proof check-lrat F.cnf F.lrat",
		},
		about: `Checks a proof that the DIMACS CNF F.cnf is unsatisfiable:
  check       a DRAT proof (as cadical and drat-trim write it, ASCII or
              binary), by a backward, core-first DRAT checker that writes an
              LRAT proof, which the small LRAT checker then checks on its own;
              verified only when both accept
  check-lrat  an LRAT proof, by the small LRAT checker alone
Prints "s VERIFIED" (exit 0) or "s NOT VERIFIED: REASON" naming the lemma
(exit 1). An unreadable, empty or truncated proof, a CNF whose header does not
match its clauses, or a binary proof given as --format ascii: one line on
stderr, exit 2. Run "boardsat proof SUBCOMMAND -h" for a subcommand's flags.`,
		examples: []string{
			"proof check F.cnf F.drat",
			"proof check-lrat F.cnf F.lrat",
		},
	}
	helps["proof check"] = help{
		usage: []string{"proof check [--format ascii|binary|auto] [--all] [--lrat OUT.lrat [--force]] F.cnf F.drat"},
		about: `Checks a DRAT proof that F.cnf is unsatisfiable. The DRAT checker applies the
steps up to the first conflict at the top level, then verifies backwards each
lemma the refutation needs (every lemma with --all) as RUP or as RAT on its
first literal, propagating the clauses already needed first, as drat-trim
does; deletions of unit clauses are ignored, as drat-trim ignores them. It
writes an LRAT proof of the lemmas it verified, and the small LRAT checker,
which shares no code with it, checks that proof against F.cnf read again.
Prints "s VERIFIED" (exit 0), with the counts and times as c lines, or
"s NOT VERIFIED: REASON" naming the lemma (exit 1); unreadable input: one line
on stderr, exit 2. --lrat keeps the LRAT proof (written only when verified);
an existing OUT.lrat is refused before the check unless --force is given.`,
		examples: []string{
			"proof check F.cnf F.drat",
			"proof check --format binary --lrat F.lrat F.cnf F.drat",
		},
	}
	helps["proof check-lrat"] = help{
		usage: []string{"proof check-lrat F.cnf F.lrat"},
		about: `Checks an ASCII LRAT proof that F.cnf is unsatisfiable with the small LRAT
checker alone: every added clause by unit propagation on its hints in order
(RUP), or per the LRAT rule for RAT steps; verified when the empty clause is
added. Prints "s VERIFIED" (exit 0) or "s NOT VERIFIED: REASON" naming the line
(exit 1); unreadable or malformed input: one line on stderr, exit 2.`,
		examples: []string{"proof check-lrat F.cnf F.lrat"},
	}
}

func runProof(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return badInputf("proof needs a subcommand: check or check-lrat")
	}
	switch args[0] {
	case "check":
		return runProofCheck(args[1:], stdout)
	case "check-lrat":
		return runProofCheckLRAT(args[1:], stdout)
	case "-h", "--help", "-help":
		printHelp(helpOut, flag.NewFlagSet("proof", flag.ContinueOnError))
		return nil
	}
	return badInputf("unknown proof subcommand %q (check or check-lrat)", args[0])
}

// openInputs opens the two files a proof subcommand reads.
func openInputs(pos []string, what string) (*os.File, *os.File, error) {
	if len(pos) != 2 {
		return nil, nil, badInputf("%s takes two files: F.cnf and the proof", what)
	}
	// Regular files only (a FIFO would hang, /dev/zero never end), each
	// at most proof.MaxInputBytes.
	cnf, err := inputfile.OpenMax(pos[0], proof.MaxInputBytes)
	if err != nil {
		return nil, nil, badInput(err)
	}
	pf, err := inputfile.OpenMax(pos[1], proof.MaxInputBytes)
	if err != nil {
		cnf.Close()
		return nil, nil, badInput(err)
	}
	return cnf, pf, nil
}

func runProofCheck(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("proof check", flag.ContinueOnError)
	format := fs.String("format", "auto", "the DRAT proof's format: ascii, binary or auto")
	all := fs.Bool("all", false, "verify every lemma, not only those the refutation needs")
	out := fs.String("lrat", "", "write the LRAT proof to this file when the proof is verified (an existing file is refused without --force)")
	force := fs.Bool("force", false, "replace the --lrat file if it exists")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	// Refused before the check, as encode -o and results -o refuse: a
	// file the user has is not replaced unless asked.
	if err := refuseExisting(*out, *force); err != nil {
		return err
	}
	f, err := proof.ParseFormat(*format)
	if err != nil {
		return badInput(err)
	}
	cnf, pf, err := openInputs(pos, "proof check")
	if err != nil {
		return err
	}
	defer cnf.Close()
	defer pf.Close()
	var lratText []byte
	opts := proof.Options{Format: f, All: *all}
	if *out != "" {
		opts.LRAT = writerFunc(func(p []byte) (int, error) {
			lratText = append(lratText, p...)
			return len(p), nil
		})
	}
	rep, err := proof.Verify(cnf, pf, opts)
	if errors.Is(err, proof.ErrEmpty) {
		// A proof of no step proves nothing: a verdict, not bad input.
		rep.Verified, rep.Reason, err = false, "the proof is empty: no lemma and no empty clause", nil
	}
	if err != nil {
		return badInputf("%s", proofInputError(err, pos))
	}
	if !rep.Verified {
		fmt.Fprintf(stdout, "s NOT VERIFIED: %s\n", rep.Reason)
		return exitError{status: 1}
	}
	if *out != "" {
		if err := atomicfile.WriteBytes(*out, lratText); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "c lemmas %d, deletions %d, core lemmas %d (RAT %d), ignored deletions %d, proof %d bytes, LRAT %d bytes\n",
		rep.Lemmas, rep.Deletions, rep.CoreLemmas, rep.RATLemmas, rep.IgnoredDeletions+rep.MissingDeletions, rep.Bytes, rep.LRATBytes)
	fmt.Fprintf(stdout, "c checked in %.3f s (DRAT %.3f s, LRAT %.3f s) by %s\n", rep.Seconds, rep.DRATSeconds, rep.LRATSeconds, rep.Checker)
	fmt.Fprintln(stdout, "s VERIFIED")
	return nil
}

func runProofCheckLRAT(args []string, stdout io.Writer) error {
	pos, err := parseFlags(flag.NewFlagSet("proof check-lrat", flag.ContinueOnError), args)
	if err != nil {
		return err
	}
	cnf, pf, err := openInputs(pos, "proof check-lrat")
	if err != nil {
		return err
	}
	defer cnf.Close()
	defer pf.Close()
	clauses, err := lrat.ReadCNF(cnf)
	if err != nil {
		return badInputf("%s: %v", pos[0], err)
	}
	res, err := lrat.Check(clauses, pf)
	if err != nil {
		return badInputf("%s: %v", pos[1], err)
	}
	if !res.Verified {
		fmt.Fprintf(stdout, "s NOT VERIFIED: %s\n", res.Reason)
		return exitError{status: 1}
	}
	fmt.Fprintf(stdout, "c added %d, deletion lines %d\n", res.Added, res.Deleted)
	fmt.Fprintln(stdout, "s VERIFIED")
	return nil
}

// proofInputError names the file an input error is about: the CNF for the
// readers' "cnf:" errors, the proof for the others.
func proofInputError(err error, pos []string) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "cnf") || strings.HasPrefix(msg, "lrat: cnf") {
		return fmt.Sprintf("%s: %s", pos[0], msg)
	}
	return fmt.Sprintf("%s: %s", pos[1], msg)
}

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }
