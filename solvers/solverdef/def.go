// Package solverdef reads solver definitions: one JSON file per external
// solver, saying what kind of solver it is (sat, pb, maxsat, mc, pmc), the
// command line that runs it (with the placeholders {input}, {proof},
// {seed}, {cpu_seconds} and {output}), the proof it writes and how to ask
// its version. The built-in external solvers are definitions in the same
// format embedded in the binary (builtin/*.json); a user's are found
// through --solvers paths and the environment variable BOARDSAT_SOLVERS.
// One mechanism runs every external SAT-side solver: encode/sat reads the
// definitions, encode/solverproto reads the solvers' answers.
//
// The format is documented in docs/solvers.md; every fault of a
// definition is an error naming its file and field.
package solverdef

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The kinds of solver, each with its competition's protocol.
const (
	KindSAT    = "sat"    // SAT Competition: DIMACS in, s/v lines out
	KindPB     = "pb"     // PB Competition: OPB in, s/o/v lines out
	KindMaxSAT = "maxsat" // MaxSAT Evaluation 2022+: WCNF in, o/s/v lines out
	KindMC     = "mc"     // Model Counting Competition 2024, model counting
	KindPMC    = "pmc"    // Model Counting Competition 2024, projected model counting
)

// Kinds lists the kinds in the order the docs give them.
var Kinds = []string{KindSAT, KindPB, KindMaxSAT, KindMC, KindPMC}

// The proof formats a sat solver may write to {proof}.
const (
	ProofNone       = "none"
	ProofDRATASCII  = "drat-ascii"
	ProofDRATBinary = "drat-binary"
)

// Proofs lists the proof formats.
var Proofs = []string{ProofNone, ProofDRATASCII, ProofDRATBinary}

// The protocols a definition may name instead of its kind's own.
const (
	// ProtocolMinisatResult: the solver writes "SAT" and the model's
	// literals, or "UNSAT", to the file {output} (minisat's result file).
	ProtocolMinisatResult = "minisat-result"
	// ProtocolClaspModels: a count's output is clasp's "Models : N" line
	// with SATISFIABLE or UNSATISFIABLE (only in a definition's count).
	ProtocolClaspModels = "clasp-models"
)

// The placeholders of a command line.
const (
	PInput      = "{input}"
	PProof      = "{proof}"
	PSeed       = "{seed}"
	PCPUSeconds = "{cpu_seconds}"
	POutput     = "{output}"
	// PProofArgs stands, as a whole argument of command, for the
	// definition's proof_args: the arguments that ask for a proof, all
	// left out when no proof is asked (a flag and its file, "-r {proof}").
	PProofArgs = "{proof_args}"
)

// Placeholders lists every placeholder.
var Placeholders = []string{PInput, PProof, PSeed, PCPUSeconds, POutput, PProofArgs}

// Def is one solver definition, as its JSON file says it.
type Def struct {
	// Name is the solver's name for --solver and sat/NAME.
	Name string `json:"name"`
	// Kind is one of Kinds.
	Kind string `json:"kind"`
	// Doc says in one line what the solver is (optional).
	Doc string `json:"doc,omitempty"`
	// Command is the program and its arguments, with placeholders.
	Command []string `json:"command"`
	// Proof is the proof format written to {proof} ("" is none).
	Proof string `json:"proof,omitempty"`
	// Version is the command that prints the solver's version (optional;
	// without it, the program's --version).
	Version []string `json:"version,omitempty"`
	// Protocol names a protocol other than the kind's own (sat only:
	// ProtocolMinisatResult).
	Protocol string `json:"protocol,omitempty"`
	// Count, for a sat solver that counts models by its own enumeration,
	// is how it does (optional).
	Count *Count `json:"count,omitempty"`
	// Replaces says a user's definition replaces the built-in of its name.
	Replaces bool `json:"replaces,omitempty"`
	// ProofArgs are the arguments that ask for a proof, with {proof}
	// among them, standing where command has {proof_args} and left out
	// together when no proof is asked (optional).
	ProofArgs []string `json:"proof_args,omitempty"`

	// Source is "built in" or the path the definition was read from.
	Source string `json:"-"`
	// JSON is the definition's file as read.
	JSON []byte `json:"-"`
}

// Count is a sat solver's own model counting: Command on the formula's
// DIMACS form when every variable is projected, Projected on its ASP
// (aspif) form with the projection as shown atoms otherwise; the output is
// read by Protocol (ProtocolClaspModels).
type Count struct {
	Protocol  string   `json:"protocol"`
	Command   []string `json:"command"`
	Projected []string `json:"projected"`
}

// BuiltIn is the Source of an embedded definition.
const BuiltIn = "built in"

// Builtin reports whether the definition is embedded in the binary.
func (d Def) Builtin() bool { return d.Source == BuiltIn }

// Program is the program the definition runs: its command's first word.
func (d Def) Program() string { return d.Command[0] }

// ProofFormat is the proof format, ProofNone when the field is absent.
func (d Def) ProofFormat() string {
	if d.Proof == "" {
		return ProofNone
	}
	return d.Proof
}

// Proves reports whether the solver writes a proof of unsatisfiability.
func (d Def) Proves() bool { return d.ProofFormat() != ProofNone }

// Input is the format the solver reads: "dimacs", "opb" or "wcnf".
func (d Def) Input() string {
	switch d.Kind {
	case KindPB:
		return "opb"
	case KindMaxSAT:
		return "wcnf"
	}
	return "dimacs"
}

// Counter reports whether the solver is a model counter (mc or pmc).
func (d Def) Counter() bool { return d.Kind == KindMC || d.Kind == KindPMC }

// placeholder matches anything in braces, so that a typo is caught.
var placeholder = regexp.MustCompile(`\{[^{}]*\}`)

// validName is the syntax of a solver's name.
var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9+._-]*$`)

// Parse reads one definition from data (from the file source), strictly:
// valid JSON with one object, no unknown field, every field's value
// allowed. The error names the field at fault. It does not look for the
// program (see Installed).
func Parse(data []byte, source string) (Def, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return Def{}, errors.New("empty file, want one JSON solver definition")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var d Def
	if err := dec.Decode(&d); err != nil {
		return Def{}, jsonError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Def{}, errors.New("not valid JSON: more after the definition's object")
	}
	d.Source, d.JSON = source, data
	return d, d.validate()
}

// withArticle is a JSON value kind as encoding/json names it ("array",
// "string", "number"), with its article.
func withArticle(kind string) string {
	if kind == "array" {
		return "an array"
	}
	return "a " + kind
}

// jsonError says what is wrong with a definition's JSON, naming the field
// for an unknown field or a value of the wrong type.
func jsonError(data []byte, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field == "":
		// The whole document is of the wrong type (an array, a string):
		// there is no field to name, nor a Go type to show.
		return fmt.Errorf("not one JSON object: want one solver definition {\"name\": ..., \"kind\": ..., \"command\": [...]}, not %s", withArticle(te.Value))
	case errors.As(err, &te):
		return fmt.Errorf("field %s: want %s, not %s", te.Field, te.Type, te.Value)
	case errors.As(err, &se):
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Errorf("not valid JSON: line %d: %v", line, se)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		f, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return fmt.Errorf("field %s: unknown field (want name, kind, doc, command, proof, proof_args, version, protocol, count, replaces)", f)
	}
	return fmt.Errorf("not valid JSON: %v", strings.TrimPrefix(err.Error(), "json: "))
}

// validate checks every field of d.
func (d Def) validate() error {
	if !validName.MatchString(d.Name) {
		return fmt.Errorf("field name: %q is not a solver name (lower-case letters, digits and + . _ -, starting with a letter or digit)", d.Name)
	}
	if !slices.Contains(Kinds, d.Kind) {
		return fmt.Errorf("field kind: unknown kind %q (want %s)", d.Kind, strings.Join(Kinds, ", "))
	}
	if d.Proof != "" && !slices.Contains(Proofs, d.Proof) {
		return fmt.Errorf("field proof: unknown proof format %q (want %s)", d.Proof, strings.Join(Proofs, ", "))
	}
	if d.Proves() && d.Kind != KindSAT {
		return fmt.Errorf("field proof: a %s solver writes no DRAT proof (proofs are for kind sat)", d.Kind)
	}
	switch d.Protocol {
	case "":
	case ProtocolMinisatResult:
		if d.Kind != KindSAT {
			return fmt.Errorf("field protocol: %s is for kind sat", d.Protocol)
		}
	default:
		return fmt.Errorf("field protocol: unknown protocol %q (want %s, or none for the kind's own)", d.Protocol, ProtocolMinisatResult)
	}
	if err := checkCommand("command", d.Command); err != nil {
		return err
	}
	uses := func(cmd []string, p string) bool {
		return slices.ContainsFunc(cmd, func(a string) bool { return strings.Contains(a, p) })
	}
	if !uses(d.Command, PInput) {
		return errors.New("field command: no {input} placeholder (where the formula's file goes)")
	}
	if err := d.validateProofArgs(); err != nil {
		return err
	}
	if d.Proves() != uses(slices.Concat(d.Command, d.ProofArgs), PProof) {
		if d.Proves() {
			return fmt.Errorf("field command: proof is %s but no argument has the {proof} placeholder", d.Proof)
		}
		return errors.New("field command: {proof} placeholder, but proof is none (say drat-ascii or drat-binary)")
	}
	if (d.Protocol == ProtocolMinisatResult) != uses(d.Command, POutput) {
		return errors.New("field command: the {output} placeholder goes with protocol minisat-result, and only with it")
	}
	if len(d.Version) > 0 {
		if err := checkCommand("version", d.Version); err != nil {
			return err
		}
		if slices.ContainsFunc(d.Version, placeholder.MatchString) {
			return errors.New("field version: a version command takes no placeholder")
		}
	}
	if c := d.Count; c != nil {
		if d.Kind != KindSAT {
			return fmt.Errorf("field count: kind %s counts by its kind's own protocol, not by a count field", d.Kind)
		}
		if c.Protocol != ProtocolClaspModels {
			return fmt.Errorf("field count: unknown protocol %q (want %s)", c.Protocol, ProtocolClaspModels)
		}
		for _, x := range []struct {
			field string
			cmd   []string
		}{{"count.command", c.Command}, {"count.projected", c.Projected}} {
			if err := checkCommand(x.field, x.cmd); err != nil {
				return err
			}
			if !uses(x.cmd, PInput) || uses(x.cmd, PProof) || uses(x.cmd, POutput) || uses(x.cmd, PProofArgs) {
				return fmt.Errorf("field %s: want the {input} placeholder, and no {proof}, {proof_args} or {output}", x.field)
			}
		}
	}
	return nil
}

// validateProofArgs checks proof_args and the {proof_args} that stands
// for them: both or neither, {proof_args} a whole argument of command and
// only there, {proof} among proof_args.
func (d Def) validateProofArgs() error {
	n := 0
	for i, a := range d.Command {
		if strings.Contains(a, PProofArgs) {
			if a != PProofArgs || i == 0 {
				return fmt.Errorf("field command: %s stands alone, as a whole argument after the program, not in %q", PProofArgs, a)
			}
			n++
		}
	}
	switch {
	case len(d.ProofArgs) == 0 && n == 0:
		return nil
	case len(d.ProofArgs) == 0:
		return fmt.Errorf("field command: %s, but no proof_args to stand for", PProofArgs)
	case n != 1:
		return fmt.Errorf("field proof_args: want %s once in command, where they go (found %d)", PProofArgs, n)
	case !d.Proves():
		return errors.New("field proof_args: proof is none (say drat-ascii or drat-binary)")
	}
	for _, a := range d.ProofArgs {
		if strings.Contains(a, PProofArgs) || strings.Contains(a, PInput) {
			return fmt.Errorf("field proof_args: %q: only {proof} and the values {seed}, {cpu_seconds} go here", a)
		}
	}
	if !slices.ContainsFunc(d.ProofArgs, func(a string) bool { return strings.Contains(a, PProof) }) {
		return errors.New("field proof_args: no argument has the {proof} placeholder")
	}
	return checkCommand("proof_args", append([]string{"proof"}, d.ProofArgs...))
}

// checkCommand checks a command line: a program, and no placeholder but
// the known ones.
func checkCommand(field string, cmd []string) error {
	if len(cmd) == 0 || strings.TrimSpace(cmd[0]) == "" {
		return fmt.Errorf("field %s: empty, want the program and its arguments", field)
	}
	if placeholder.MatchString(cmd[0]) {
		return fmt.Errorf("field %s: the program %q is a placeholder", field, cmd[0])
	}
	for _, a := range cmd {
		for _, p := range placeholder.FindAllString(a, -1) {
			if !slices.Contains(Placeholders, p) {
				return fmt.Errorf("field %s: unknown placeholder %s in %q (want %s)", field, p, a, strings.Join(Placeholders, ", "))
			}
		}
		if strings.Count(a, "{") != strings.Count(a, "}") || strings.Count(a, "{") != len(placeholder.FindAllString(a, -1)) {
			return fmt.Errorf("field %s: unbalanced braces in %q (a placeholder is {input}, {proof}, ...)", field, a)
		}
	}
	return nil
}

// Args are the values of the placeholders of one run.
type Args struct {
	// Input is the formula's file; Proof where the proof goes ("": no
	// proof asked, and every argument with {proof} is dropped); Output the
	// result file of ProtocolMinisatResult.
	Input, Proof, Output string
	// Seed is the run's random seed; CPUSeconds the CPU time it may use.
	Seed, CPUSeconds int64
	// ProofArgs are the definition's proof_args, for {proof_args}.
	ProofArgs []string
}

// Expand returns cmd with its placeholders replaced by a's values; an
// argument holding {proof} is left out when a.Proof is "".
func Expand(cmd []string, a Args) []string {
	var out []string
	for _, arg := range cmd {
		if arg == PProofArgs {
			if a.Proof != "" {
				out = append(out, Expand(a.ProofArgs, a)...)
			}
			continue
		}
		if strings.Contains(arg, PProof) && a.Proof == "" {
			continue
		}
		arg = strings.NewReplacer(PInput, a.Input, PProof, a.Proof, POutput, a.Output,
			PSeed, strconv.FormatInt(a.Seed, 10), PCPUSeconds, strconv.FormatInt(a.CPUSeconds, 10)).Replace(arg)
		out = append(out, arg)
	}
	return out
}
