// Package export writes the instances of a benchmark suite as files that
// any competition-style harness reads (DIMACS CNF, OPB, WCNF, MiniZinc, LP),
// each with the answer expected of it and how that answer is known, so that
// a researcher can run other solvers on boardsat's families and judge every
// answer without boardsat.
//
// Plan builds every file and its expected answer in memory; Write puts
// them in a directory with instances.csv, one row per file. The formulas
// are the sat backend's (its default model for the task, without the
// clauses of encode --symmetry, so that a count is the puzzle's count; a
// model's own symmetry breaking, such as dominate's lex-leader optimum
// model, stays and keeps the optimum), the MiniZinc and LP models the cp
// and mip backends'.
package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/boardsat/boardsat/harness/suites"
	"io"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/formats/competition"
	"github.com/boardsat/boardsat/formats/gbdhash"
	"github.com/boardsat/boardsat/paradigm/mip"
	"github.com/boardsat/boardsat/paradigm/mzn"
	"github.com/boardsat/boardsat/puzzle"
)

// The formats Plan writes, in this order per instance.
var Formats = []string{"cnf", "opb", "wcnf", "mzn", "lp"}

// The tasks an exported file answers; a suite line of another task (value,
// shortest, unique, all) is skipped with its reason.
var Tasks = []puzzle.Task{puzzle.Count, puzzle.First, puzzle.Optimum}

// How an expected answer is known (Row.KnownBy).
const (
	KnownPublished = "published" // the puzzle's table of published values
	KnownNative    = "native"    // boardsat's native search, finished
	KnownCertified = "certified" // a SAT answer checked: the model against the file, or the UNSAT's DRAT proof by both checkers
	KnownUnknown   = "unknown"   // not established within the time limit
)

// The answers of Row.Answer.
const (
	AnswerSat     = "sat"
	AnswerUnsat   = "unsat"
	AnswerUnknown = "unknown"
)

// Row is one line of instances.csv: a file and what is expected of it.
type Row struct {
	// File is the file's name in the directory.
	File string
	// Spec and Task are the instance and the question the file answers.
	Spec, Task string
	// Format is one of Formats.
	Format string
	// Encoding names the model: MODEL+CARD for cnf, opb and wcnf (the sat
	// backend's), "minizinc" or "mip" for the others.
	Encoding string
	// GBDHash is the file's GBD identifier (package gbdhash) for cnf, opb
	// and wcnf; "" for mzn and lp, which GBD does not identify.
	GBDHash string
	// Answer is sat or unsat (whether the file has a model or solution),
	// or unknown.
	Answer string
	// Count is the file's model count, projected on its "c p show"
	// variables (cnf files of count tasks only; "" otherwise or unknown).
	Count string
	// Optimum is the optimum of the file's objective (opb and wcnf files
	// with one, mzn and lp models that optimise; "" otherwise or unknown).
	Optimum string
	// KnownBy says how the answer is known: KnownPublished, KnownNative,
	// KnownCertified or KnownUnknown.
	KnownBy string
}

// Header is instances.csv's first line.
var Header = []string{"file", "spec", "task", "format", "encoding", "gbd_hash", "answer", "count", "optimum", "known_by"}

// Record returns the row's fields in Header's order.
func (r Row) Record() []string {
	return []string{r.File, r.Spec, r.Task, r.Format, r.Encoding, r.GBDHash, r.Answer, r.Count, r.Optimum, r.KnownBy}
}

// Item is one file of an export: its row and its content.
type Item struct {
	Row  Row
	Data []byte
}

// Options say what Plan writes.
type Options struct {
	// Formats lists the formats to write (nil: all of Formats).
	Formats []string
	// Timeout bounds each search that establishes an expected answer (a
	// native count, a certified SAT answer); past it the answer is
	// unknown. 0 means no limit.
	Timeout time.Duration
}

// ErrUnknownFormat is the refusal of a format not in Formats.
var ErrUnknownFormat = errors.New("unknown format")

// Plan builds every file of the suite's instances, each (spec, task) once
// in suite order, and its expected answer. Skipped lists, one line each,
// what has no file and why (a task no format answers, a format that does
// not apply). The error is for a request that cannot run (an unknown
// format) or for answers that disagree (a certified SAT answer against the
// native search's), which is a bug to report, never a row.
func Plan(ctx context.Context, s suites.Suite, opt Options) (items []Item, skipped []string, err error) {
	formats := opt.Formats
	if formats == nil {
		formats = Formats
	}
	for _, f := range formats {
		if !slices.Contains(Formats, f) {
			return nil, nil, fmt.Errorf("%w %q: want some of %v", ErrUnknownFormat, f, Formats)
		}
	}
	seen := map[string]bool{}
	names := map[string]string{}
	for _, g := range s.Groups {
		for _, spec := range g.Specs {
			task := g.Task
			if task == "" {
				task = puzzle.DefaultTask(spec)
			}
			key := spec.String() + " " + string(task)
			if seen[key] {
				continue
			}
			seen[key] = true
			if !slices.Contains(Tasks, task) {
				skipped = append(skipped, fmt.Sprintf("%s: task %s: no file format answers it (exported tasks: count, first, optimum)", spec, task))
				continue
			}
			in := instance{spec: spec, task: task, timeout: opt.Timeout}
			for _, format := range formats {
				item, why, err := in.file(ctx, format)
				if err != nil {
					return nil, nil, err
				}
				if why != "" {
					skipped = append(skipped, fmt.Sprintf("%s %s %s: %s", spec, task, format, why))
					continue
				}
				if other, dup := names[item.Row.File]; dup {
					return nil, nil, fmt.Errorf("%s and %s would both be written as %s", other, key, item.Row.File)
				}
				names[item.Row.File] = key
				items = append(items, item)
			}
		}
	}
	return items, skipped, nil
}

// instance is one (spec, task) being exported, with what is known of it
// so far.
type instance struct {
	spec    puzzle.Spec
	task    puzzle.Task
	timeout time.Duration
	// The sat backend's formula, once built (built marks the attempt).
	built    bool
	formula  *cnf.Formula
	encoding string
	whyNo    string
	// The expected answer, once established (answered marks the attempt).
	answered bool
	exp      expected
	// The certified answer of a first task's clausal formula, once
	// established (certDone marks the attempt).
	certDone bool
	cert     string
}

// expected is the instance's answer: for the task, and for the files.
type expected struct {
	answer  string // AnswerSat, AnswerUnsat or AnswerUnknown
	count   string // the count of a count task, when known
	optimum string // the optimum of the spec, when asked and known
	by      string
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// fileName names the file of spec, task and format: the spec with every
// character outside [A-Za-z0-9._-] as "_", the task, the format.
func fileName(spec puzzle.Spec, task puzzle.Task, format string) string {
	return unsafeName.ReplaceAllString(spec.String(), "_") + "." + string(task) + "." + format
}

// build makes the sat backend's formula for the task once: its default
// model for the task (the first that does it), or when that model answers
// by its own search over several formulas, the first registered model that
// answers the task from one formula (the generic path of the sat backend:
// a projected count, a solve, a minimisation of the formula's objective),
// with its default cardinality encoding.
func (in *instance) build() {
	if in.built {
		return
	}
	in.built = true
	e, c, err := encode.ResolveTask(in.spec.Puzzle(), "", in.task)
	if err != nil {
		in.whyNo = err.Error()
		return
	}
	if e.Solve != nil {
		for _, o := range encode.Encoders(in.spec.Puzzle()) {
			if o.Solve == nil && slices.Contains(o.Tasks, in.task) {
				if e, c, err = encode.ResolveTask(in.spec.Puzzle(), o.Name+"+", in.task); err != nil {
					in.whyNo = err.Error()
					return
				}
				break
			}
		}
	}
	if e.Solve != nil && in.task == puzzle.Optimum && !puzzle.Describe(in.spec).Maximize {
		// An optimum is one formula's whatever search the sat backend
		// runs on it: the model's formula with its objective (Minimize),
		// as a PB or MaxSAT solver minimises it.
		if inst, err := e.Build(in.spec, c, encode.Options{}); err == nil {
			if obj, _ := inst.Formula.Objective(); obj != nil {
				in.formula, in.encoding = inst.Formula, e.Name+"+"+c.Name
				return
			}
		}
	}
	if !slices.Contains(e.Tasks, in.task) {
		in.whyNo = fmt.Sprintf("the sat backend's model %s does not do task %s", e.Name, in.task)
		return
	}
	if e.Solve != nil {
		in.whyNo = fmt.Sprintf("every model of the sat backend that does %s (the default %s among them) answers by a search over several formulas, not by one file", in.task, e.Name)
		return
	}
	inst, err := e.Build(in.spec, c, encode.Options{})
	if err != nil {
		in.whyNo = err.Error()
		return
	}
	in.formula, in.encoding = inst.Formula, e.Name+"+"+c.Name
}

// Formula returns the formula Plan writes for spec and task (as cnf, opb
// and wcnf files) and its model's name, or why there is none.
func Formula(spec puzzle.Spec, task puzzle.Task) (f *cnf.Formula, encoding, whyNot string) {
	in := instance{spec: spec, task: task}
	in.build()
	return in.formula, in.encoding, in.whyNo
}

// file builds one file, or says why the format does not apply.
func (in *instance) file(ctx context.Context, format string) (Item, string, error) {
	row := Row{File: fileName(in.spec, in.task, format), Spec: in.spec.String(), Task: string(in.task), Format: format}
	var data []byte
	objective := false
	switch format {
	case "cnf", "opb", "wcnf":
		in.build()
		if in.formula == nil {
			return Item{}, in.whyNo, nil
		}
		f := in.formula
		obj, _ := f.Objective()
		objective = obj != nil && format != "cnf"
		write := f.WriteOPB
		switch {
		case format == "cnf" && len(f.PBs()) > 0:
			return Item{}, fmt.Sprintf("model %s keeps %d pseudo-Boolean constraints, which CNF cannot express", in.encoding, len(f.PBs())), nil
		case format == "wcnf" && len(f.PBs()) > 0:
			return Item{}, fmt.Sprintf("model %s keeps %d pseudo-Boolean constraints, which WCNF cannot express", in.encoding, len(f.PBs())), nil
		case format == "wcnf" && obj == nil:
			return Item{}, fmt.Sprintf("model %s has no objective, which WCNF (MaxSAT) needs", in.encoding), nil
		case format == "cnf":
			write = f.WriteDIMACS
		case format == "wcnf":
			write = f.WriteWCNF
		}
		if objective && puzzle.Describe(in.spec).Maximize {
			return Item{}, fmt.Sprintf("the puzzle maximises, and model %s's objective is a cost it minimises, whose optimum is not the puzzle's", in.encoding), nil
		}
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return Item{}, "", err
		}
		data = b.Bytes()
		hash := gbdhash.CNF
		switch format {
		case "opb":
			hash = gbdhash.OPB
		case "wcnf":
			hash = gbdhash.WCNF
		}
		h, err := hash(data)
		if err != nil {
			return Item{}, "", fmt.Errorf("%s: %v", row.File, err)
		}
		row.Encoding, row.GBDHash = in.encoding, h
	case "mzn", "lp":
		if mzn.NeedsHorizon(in.spec.Puzzle()) {
			return Item{}, "the model is a plan of a given number of moves, which the suite does not give", nil
		}
		var write func(io.Writer) error
		if format == "mzn" {
			m, err := mzn.Build(in.spec, mzn.Options{Count: in.task == puzzle.Count})
			if err != nil {
				return Item{}, err.Error(), nil
			}
			write, objective, row.Encoding = m.Write, m.Sense != "", "minizinc"
		} else {
			m, err := mip.Build(in.spec, mip.Options{})
			if err != nil {
				return Item{}, err.Error(), nil
			}
			write, objective, row.Encoding = m.WriteLP, len(m.Objective) > 0, "mip"
		}
		if objective && in.task != puzzle.Optimum {
			return Item{}, fmt.Sprintf("the model optimises, so it answers the optimum task, not %s", in.task), nil
		}
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return Item{}, "", err
		}
		data = b.Bytes()
	}
	exp, err := in.expected(ctx, format)
	if err != nil {
		return Item{}, "", err
	}
	row.Answer, row.KnownBy = exp.answer, exp.by
	if format == "cnf" && in.task == puzzle.Count {
		row.Count = exp.count
	}
	if objective {
		row.Optimum = exp.optimum
	}
	return Item{Row: row, Data: data}, "", nil
}

// expected returns the answer expected of a file: the task's answer from
// the published table or the native search, and for a first task's
// clausal formula (its CNF and OPB files) a certified SAT answer on its
// CNF, which must agree with the native one.
func (in *instance) expected(ctx context.Context, format string) (expected, error) {
	if !in.answered {
		in.answered = true
		e, err := in.establish(ctx)
		if err != nil {
			return expected{}, err
		}
		in.exp = e
	}
	if in.task != puzzle.First || format == "mzn" || format == "lp" || len(in.formula.PBs()) > 0 {
		return in.exp, nil
	}
	if !in.certDone {
		// Once per formula: its CNF, decided with a checked model or a
		// checked proof; the OPB of the same clauses has the same answer.
		in.certDone = true
		var b bytes.Buffer
		if err := in.formula.WriteDIMACS(&b); err != nil {
			return expected{}, err
		}
		c, err := in.certified(ctx, b.Bytes())
		if err != nil {
			return expected{}, err
		}
		in.cert = c
	}
	c := in.cert
	if c == AnswerUnknown {
		return in.exp, nil
	}
	if in.exp.answer != AnswerUnknown && in.exp.answer != c {
		return expected{}, fmt.Errorf("%s %s: the native search answers %s, the certified SAT answer on its CNF %s", in.spec, in.task, in.exp.answer, c)
	}
	return expected{answer: c, by: KnownCertified}, nil
}

// certified decides a CNF file with a checked model or a checked proof.
func (in *instance) certified(ctx context.Context, data []byte) (string, error) {
	inst, err := competition.Read(bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	ctx, cancel := in.limit(ctx)
	defer cancel()
	s, err := competition.Solve(ctx, inst, true)
	if err != nil {
		return "", err
	}
	switch s.Result.Status {
	case puzzle.OK:
		return AnswerSat, nil
	case puzzle.Unsat:
		return AnswerUnsat, nil
	}
	return AnswerUnknown, nil
}

// limit applies the time limit of one search.
func (in *instance) limit(ctx context.Context) (context.Context, context.CancelFunc) {
	if in.timeout > 0 {
		return context.WithTimeout(ctx, in.timeout)
	}
	return context.WithCancel(ctx)
}

// establish finds the task's answer: a published value, else the native
// backend's finished answer, else unknown.
func (in *instance) establish(ctx context.Context) (expected, error) {
	unknown := expected{answer: AnswerUnknown, by: KnownUnknown}
	switch in.task {
	case puzzle.Count:
		if n, ok := puzzle.KnownCount(in.spec, puzzle.Count); ok {
			return countAnswer(strconv.FormatUint(n, 10), n > 0, KnownPublished), nil
		}
	case puzzle.Optimum:
		if n, ok := puzzle.KnownOptimum(in.spec); ok {
			return expected{answer: AnswerSat, optimum: strconv.Itoa(n), by: KnownPublished}, nil
		}
	}
	native, err := puzzle.Backends.Lookup("native")
	if err != nil {
		return unknown, nil
	}
	ctx, cancel := in.limit(ctx)
	defer cancel()
	ans, err := native.Solve(ctx, puzzle.Request{Spec: in.spec, Task: in.task, Threads: 1})
	if err != nil {
		return unknown, nil // the native backend refuses the instance
	}
	switch {
	case ans.Status == puzzle.Unsat:
		return expected{answer: AnswerUnsat, by: KnownNative}, nil
	case ans.Status != puzzle.OK:
		return unknown, nil
	case in.task == puzzle.Count:
		return countAnswer(ans.CountString(), ans.CountString() != "0", KnownNative), nil
	case in.task == puzzle.Optimum && ans.Objective != nil:
		return expected{answer: AnswerSat, optimum: ans.Objective.String(), by: KnownNative}, nil
	case in.task == puzzle.First:
		return expected{answer: AnswerSat, by: KnownNative}, nil
	}
	return unknown, nil
}

func countAnswer(count string, sat bool, by string) expected {
	a := AnswerUnsat
	if sat {
		a = AnswerSat
	}
	return expected{answer: a, count: count, by: by}
}
