// Package competition puts boardsat's own solver and counter behind the
// interfaces of the competitions, so that a harness written for them
// (BenchExec, runsolver, a competition's scripts) runs boardsat unchanged:
// it reads a DIMACS file as the SAT Competition and the Model Counting
// Competition (MCC) 2024 hand it out, and writes the answers in their
// output formats.
//
// The clauses are read by the proof checker's strict DIMACS reader
// (proof.ReadCNF): one reader for every DIMACS file boardsat takes in. This
// package adds the MCC's directives, which that reader skips as comments:
// "c t mc|pmc" (the counting task) and "c p show V... 0" (the projection).
package competition

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/puzzle"
)

// The MCC's task types this package counts.
const (
	TypeMC  = "mc"  // every variable counts
	TypePMC = "pmc" // the models projected on the "c p show" variables
)

// Instance is a DIMACS CNF file as a competition hands it out.
type Instance struct {
	// Text is the file as read (the proof checker reads it again).
	Text []byte
	// CNF holds the variables and clauses.
	CNF *proof.CNF
	// Type is TypeMC or TypePMC: from the "c t" line, TypeMC without one.
	Type string
	// Show is the projection of a pmc instance: the variables of its
	// "c p show" lines in the order given, each once.
	Show []int
}

// Read reads a DIMACS CNF strictly (proof.ReadCNF) with its MCC
// directives: at most one "c t mc" or "c t pmc" line; "c p show" lines
// only in a pmc instance, each a list of variables of the header's range
// ending with 0. A weighted task (wmc, pwmc), a "c p weight" line or a
// malformed directive is an error naming its line.
func Read(r io.Reader) (*Instance, error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	f, err := proof.ReadCNF(bytes.NewReader(text))
	if err != nil {
		return nil, err
	}
	in := &Instance{Text: text, CNF: f, Type: TypeMC}
	typeLine, showLine := 0, 0
	seen := map[int]bool{}
	for i, line := range strings.Split(string(text), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != "c" {
			continue
		}
		n := i + 1
		switch fields[1] {
		case "t":
			if typeLine != 0 {
				return nil, fmt.Errorf("cnf: line %d: a second \"c t\" line (the first is line %d)", n, typeLine)
			}
			if len(fields) != 3 || (fields[2] != TypeMC && fields[2] != TypePMC) {
				return nil, fmt.Errorf("cnf: line %d: %q is not \"c t mc\" or \"c t pmc\" (weighted counting is not supported)", n, strings.TrimSpace(line))
			}
			typeLine, in.Type = n, fields[2]
		case "p":
			if len(fields) < 3 {
				return nil, fmt.Errorf("cnf: line %d: %q is not a directive \"c p show ... 0\"", n, strings.TrimSpace(line))
			}
			switch fields[2] {
			case "show":
			case "weight":
				return nil, fmt.Errorf("cnf: line %d: weights (\"c p weight\") are for weighted counting, which is not supported", n)
			default:
				return nil, fmt.Errorf("cnf: line %d: unknown directive \"c p %s\" (only \"c p show\" is read)", n, fields[2])
			}
			if showLine == 0 {
				showLine = n
			}
			vars := fields[3:]
			if len(vars) == 0 || vars[len(vars)-1] != "0" {
				return nil, fmt.Errorf("cnf: line %d: the \"c p show\" line does not end with 0", n)
			}
			for _, v := range vars[:len(vars)-1] {
				x, err := strconv.Atoi(v)
				if err != nil || x < 1 || x > f.Vars {
					return nil, fmt.Errorf("cnf: line %d: %q in \"c p show\" is not a variable from 1 to %d", n, v, f.Vars)
				}
				if !seen[x] {
					seen[x] = true
					in.Show = append(in.Show, x)
				}
			}
		}
	}
	if showLine != 0 && in.Type != TypePMC {
		return nil, fmt.Errorf("cnf: line %d: a \"c p show\" line in an instance that is not \"c t pmc\"", showLine)
	}
	return in, nil
}

// Formula returns the instance as a formula whose primary variables (the
// projection sat.Count counts over) are every variable for mc and the
// "c p show" variables for pmc.
func (in *Instance) Formula() *cnf.Formula {
	f := cnf.New()
	show := map[int]bool{}
	for _, v := range in.Show {
		show[v] = true
	}
	for v := 1; v <= in.CNF.Vars; v++ {
		name := "x" + strconv.Itoa(v)
		if in.Type == TypeMC || show[v] {
			f.Var(name)
		} else {
			f.Aux(name)
		}
	}
	lits := make([]cnf.Lit, 0, 16)
	for _, c := range in.CNF.Clauses {
		lits = lits[:0]
		for _, l := range c {
			lits = append(lits, cnf.Lit(l))
		}
		f.Add(lits...)
	}
	return f
}

// Counted is the outcome of Count: Status OK with Count, or Timeout or
// Error with Message; never a count that did not finish.
type Counted struct {
	Status  puzzle.Status
	Count   uint64
	Message string
}

// Count counts the instance's models, projected on Show for pmc, with
// boardsat's projected counter (sat.Count, in-process, threads goroutines;
// 0 means one per core).
func Count(ctx context.Context, in *Instance, threads int) (Counted, error) {
	r, err := sat.Count(ctx, in.Formula(), sat.CountOptions{Threads: threads})
	if err != nil {
		return Counted{}, err
	}
	return Counted{Status: r.Status, Count: r.Count, Message: r.Message}, nil
}

// WriteCount writes a count in the MCC 2024 output format: "s
// SATISFIABLE" (a count above 0) or "s UNSATISFIABLE", then "c s type",
// "c s log10-estimate" and "c s exact arb int N"; a count that did not
// finish is "s UNKNOWN" with the reason as a comment, and nothing else.
func WriteCount(w io.Writer, typ string, c Counted) error {
	if c.Status != puzzle.OK {
		return writeUnknown(w, c.Status, c.Message)
	}
	s := "SATISFIABLE"
	if c.Count == 0 {
		s = "UNSATISFIABLE"
	}
	_, err := fmt.Fprintf(w, "s %s\nc s type %s\nc s log10-estimate %s\nc s exact arb int %d\n", s, typ, Log10(new(big.Int).SetUint64(c.Count)), c.Count)
	return err
}

// Log10 writes log10(n) as the MCC's estimate line wants it: "-inf" for 0,
// else the value to 15 significant digits (computed from the leading
// digits and the number of digits, so that the estimate of a count
// beyond float64's range is right too; log10(1) is exactly 0).
func Log10(n *big.Int) string {
	if n.Sign() <= 0 {
		return "-inf"
	}
	digits := n.String()
	lead := digits
	if len(lead) > 30 {
		lead = lead[:30]
	}
	m, _ := strconv.ParseFloat(lead[:1]+"."+lead[1:], 64)
	return strconv.FormatFloat(math.Log10(m)+float64(len(digits)-1), 'g', 15, 64)
}

// WriteSAT writes a SAT answer in the SAT Competition's output format: "s
// SATISFIABLE" with the model as "v" lines (every variable of the header,
// the last line ending with 0), "s UNSATISFIABLE", or "s UNKNOWN" with the
// reason as a comment for a search that stopped or failed.
func WriteSAT(w io.Writer, vars int, r sat.Result) error {
	switch r.Status {
	case puzzle.OK:
		if len(r.Model) < vars+1 {
			return fmt.Errorf("the solver's model has %d variables, the formula %d", len(r.Model)-1, vars)
		}
		var b strings.Builder
		b.WriteString("s SATISFIABLE\n")
		line := []byte("v")
		for v := 1; v <= vars; v++ {
			lit := v
			if !r.Model[v] {
				lit = -v
			}
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(lit), 10)
			if len(line) > 70 {
				b.Write(line)
				b.WriteByte('\n')
				line = append(line[:0], 'v')
			}
		}
		b.Write(line)
		b.WriteString(" 0\n")
		_, err := io.WriteString(w, b.String())
		return err
	case puzzle.Unsat:
		_, err := io.WriteString(w, "s UNSATISFIABLE\n")
		return err
	}
	return writeUnknown(w, r.Status, r.Message)
}

// writeUnknown writes the answer of a search that gave none: the reason
// as a comment ("c stopped: ..." for a limit or a signal, "c error: ..."),
// then "s UNKNOWN".
func writeUnknown(w io.Writer, st puzzle.Status, msg string) error {
	label := "error"
	if st == puzzle.Timeout || st == puzzle.Memout {
		label = "stopped"
	}
	_, err := fmt.Fprintf(w, "c %s: %s\ns UNKNOWN\n", label, oneLine(msg))
	return err
}

// The SAT Competition's exit statuses.
const (
	ExitSAT     = 10
	ExitUNSAT   = 20
	ExitUnknown = 0
)

// ExitSATStatus returns the SAT Competition's exit status of a result.
func ExitSATStatus(r sat.Result) int {
	switch r.Status {
	case puzzle.OK:
		return ExitSAT
	case puzzle.Unsat:
		return ExitUNSAT
	}
	return ExitUnknown
}

// proofKeeper is the sat.ProofSink of Solve: it keeps the refutation of
// the one formula solved, as the solver wrote it (ASCII DRAT), for Solve
// to check against the file as read.
type proofKeeper struct {
	text []byte
}

func (k *proofKeeper) Refuted(_ context.Context, r sat.Refutation) error {
	data, err := os.ReadFile(r.ProofFile)
	if err != nil {
		return err
	}
	k.text = data
	return nil
}

// Solved is the outcome of Solve: the result and, for an UNSAT asked with
// a proof, the proof checked against the instance.
type Solved struct {
	Result sat.Result
	// Proof holds the DRAT steps of a verified refutation (Solve with
	// proof true and Result.Status Unsat).
	Proof []proof.Step
}

// ErrProofRejected marks an UNSAT whose proof the checkers rejected: the
// answer is not given (status Error), whatever the solver said.
var ErrProofRejected = errors.New("the proof of unsatisfiability was rejected")

// Solve decides the instance with boardsat's default solver (gophersat,
// in-process). With proof, an UNSAT comes with its DRAT proof, checked by
// the project's DRAT and LRAT checkers (proof.Verify) against the file as
// read; a proof they reject makes the result an Error, never UNSAT.
func Solve(ctx context.Context, in *Instance, withProof bool) (Solved, error) {
	f := in.Formula()
	if !withProof {
		r, err := sat.Solve(ctx, f, "")
		return Solved{Result: r}, err
	}
	keep := &proofKeeper{}
	r, err := sat.Solve(sat.WithProofs(ctx, keep), f, "")
	if err != nil || r.Status != puzzle.Unsat {
		return Solved{Result: r}, err
	}
	steps, err := checkProof(in.Text, keep.text)
	if err != nil {
		return Solved{Result: sat.Result{Status: puzzle.Error, Message: err.Error()}}, nil
	}
	return Solved{Result: r, Proof: steps}, nil
}

// checkProof checks an ASCII DRAT proof against the CNF text with the
// project's DRAT and LRAT checkers (proof.Verify) and returns its steps;
// a proof they do not verify is ErrProofRejected with the reason.
func checkProof(cnfText, drat []byte) ([]proof.Step, error) {
	rep, err := proof.Verify(bytes.NewReader(cnfText), bytes.NewReader(drat), proof.Options{Format: proof.ASCII})
	if err == nil && !rep.Verified {
		err = errors.New(rep.Reason)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrProofRejected, err)
	}
	p, err := proof.ParseDRAT(drat, proof.ASCII)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrProofRejected, err)
	}
	return p.Steps, nil
}

// oneLine folds a message onto one comment line.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")
}
