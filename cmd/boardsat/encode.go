package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/internal/atomicfile"
	"github.com/boardsat/boardsat/paradigm/mip"
	"github.com/boardsat/boardsat/paradigm/mzn"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	commands["encode"] = command{"write an instance's SAT encoding (DIMACS CNF, OPB, WCNF), MiniZinc model or integer program (LP, MPS)", runEncode}
	helps["encode"] = help{
		usage: []string{"encode SPEC [--encoding [MODEL+]CARD] [--format dimacs|opb|wcnf] [-o FILE] [flags]",
			"encode SPEC --format mzn|lp|mps [-o FILE]"},
		about: `Writes the SAT encoding of the instance SPEC, to FILE or stdout. DIMACS follows
the model counting competition's 2024 format: "c t mc" when every variable is
the puzzle's own, else "c t pmc" with one "c p show V... 0" line naming the
projection; OPB is for pseudo-Boolean solvers such as minisat+ (with a "min:"
line for models with an objective, such as dominate's); WCNF (classic "p wcnf")
is for MaxSAT solvers and clasp, for models with an objective only.

--format mzn writes a self-contained MiniZinc model (run it with minizinc
--solver gecode, add --all-solutions to enumerate); --format lp (CPLEX LP)
and --format mps (free MPS) write an integer program (run it with cbc FILE
solve or glpsol). A plan's model has --steps T moves. docs/paradigms.md
describes every model.`,
		// Read from the registries when the help is printed, so that a
		// puzzle registered after this init (a test build's) is listed.
		extra: func(w io.Writer) {
			fmt.Fprintf(w, "The puzzles with a model:\n  mzn:      %s\n  lp, mps:  %s\n",
				modelList(mzn.Puzzles(), mzn.NeedsHorizon), modelList(mip.Puzzles(), mip.NeedsHorizon))
		},
		specs: true,
		examples: []string{
			"encode queens:8 --encoding pairwise -o q8.cnf",
			"encode pieces:5x5:K2Q1N2 --encoding totalizer -v -o p.cnf",
			"encode queens:8 --encoding native --format opb -o q8.opb",
			"encode dominate:8x8:Q --format wcnf -o dq8.wcnf",
			"encode queens:8 --format mzn -o q8.mzn",
			"encode dominate:8x8:Q --format lp -o dq8.lp",
		},
	}
}

// modelList names the puzzles a model writer registered, in its order, a
// plan of --steps T moves marked "(plan)": the help says what the writer
// has, not what it had when the help was written.
func modelList(puzzles []string, plan func(string) bool) string {
	out := make([]string, len(puzzles))
	for i, p := range puzzles {
		out[i] = p
		if plan(p) {
			out[i] += " (plan)"
		}
	}
	return strings.Join(out, ", ")
}

// encodeStderr receives the -v statistics; tests replace it.
var encodeStderr io.Writer = os.Stderr

func runEncode(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("encode", flag.ContinueOnError)
	encoding := fs.String("encoding", "", "encoding: MODEL+CARD, CARD or MODEL (see boardsat list; default: the puzzle's default model with its card encoding, "+encode.DefaultCard+" unless the model names another)")
	format := fs.String("format", "dimacs", "output: dimacs (model counting competition 2024 format: c t mc/pmc, c p show projection), opb, wcnf (MaxSAT, for models with an objective), mzn (MiniZinc), lp (CPLEX LP) or mps (free MPS)")
	out := fs.String("o", "", "write to this file (atomically) instead of stdout")
	symmetry := fs.Bool("symmetry", false, "add symmetry breaking (removes solutions: sound for finding one, not for counting)")
	steps := fs.Int("steps", 0, "plan length T for planning encodings (swaps)")
	verbose := fs.Bool("v", false, "print formula statistics to stderr")
	force := fs.Bool("force", false, "replace the -o file if it exists (refused without it)")
	mem := fs.String("mem", "", "memory budget, like 512M or 2G: past it the command ends with status memout, exit 4 (default: the machine's or the memory cgroup's, as for solve)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := refuseExisting(*out, *force); err != nil {
		return err
	}
	if len(pos) != 1 {
		return badInputf("encode takes one SPEC, got %d arguments", len(pos))
	}
	if *steps < 0 {
		return badInputf("--steps must be 0 or more, not %d", *steps)
	}
	switch *format {
	case "dimacs", "opb", "wcnf":
	case "mzn", "lp", "mps":
		return encodeModel(pos[0], *format, *out, *steps, *mem, stdout)
	default:
		return badInputf("unknown format %q: want dimacs, opb, wcnf, mzn, lp or mps", *format)
	}
	spec, err := puzzle.Parse(pos[0])
	if err != nil {
		return badInput(err)
	}
	if err := encodeLimits(pos[0], spec, true, true, *steps, *mem); err != nil {
		return err
	}
	model, enc, err := encode.Resolve(spec.Puzzle(), *encoding)
	if err != nil {
		return badInput(err)
	}
	stop := guardEncoding(pos[0])
	in, err := model.Build(spec, enc, encode.Options{SymmetryBreaking: *symmetry, Steps: *steps})
	stop()
	if err != nil {
		return badInputf("encoding %s with %s+%s: %v", spec, model.Name, enc.Name, err)
	}
	f := in.Formula
	if *format == "wcnf" {
		if obj, _ := f.Objective(); obj == nil {
			return badInputf("%s with %s+%s has no objective, which --format wcnf (MaxSAT) needs: use dimacs or opb", spec, model.Name, enc.Name)
		}
	}
	if *format != "opb" && len(f.PBs()) > 0 {
		return badInputf("encoding %s keeps %d pseudo-Boolean constraints, which DIMACS CNF cannot express: use --format opb or a CNF encoding", enc.Name, len(f.PBs()))
	}
	write := f.WriteDIMACS
	switch *format {
	case "opb":
		write = f.WriteOPB
	case "wcnf":
		write = f.WriteWCNF
	}
	if *out == "" {
		err = write(stdout)
	} else {
		err = atomicfile.Write(*out, write)
	}
	if err != nil {
		if errors.Is(err, cnf.ErrHasPB) {
			return badInput(err) // a PB formula asked for as DIMACS
		}
		return err
	}
	if *verbose {
		st := f.Stats()
		fmt.Fprintf(encodeStderr, "%s %s+%s: %d vars (%d primary, %d aux), %d clauses, %d PB constraints, %d literals\n",
			spec, model.Name, enc.Name, st.Variables, st.Primary, st.Aux, st.Clauses, st.PBConstraints, st.Literals)
	}
	return nil
}

// encodeModel writes spec as a MiniZinc model (format mzn) or an integer
// program (lp, mps); a puzzle without such a model is bad input.
func encodeModel(specText, format, out string, steps int, mem string, stdout io.Writer) error {
	spec, err := puzzle.Parse(specText)
	if err != nil {
		return badInput(err)
	}
	if err := encodeLimits(specText, spec, false, format != "mzn", steps, mem); err != nil {
		return err
	}
	stop := guardEncoding(specText)
	write, err := buildModel(spec, format, steps)
	stop()
	if err != nil {
		return badInput(err)
	}
	if out == "" {
		return write(stdout)
	}
	return atomicfile.Write(out, write)
}

// buildModel builds spec's MiniZinc model (format mzn) or integer program
// (lp, mps) and returns its writer.
func buildModel(spec puzzle.Spec, format string, steps int) (func(io.Writer) error, error) {
	if format == "mzn" {
		m, err := mzn.Build(spec, mzn.Options{Steps: steps})
		if err != nil {
			return nil, err
		}
		return m.Write, nil
	}
	m, err := mip.Build(spec, mip.Options{Steps: steps})
	if err != nil {
		return nil, err
	}
	if format == "mps" {
		return m.WriteMPS, nil
	}
	return m.WriteLP, nil
}
