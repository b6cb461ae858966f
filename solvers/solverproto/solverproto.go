// Package solverproto reads the answers of external solvers in the
// competitions' protocols, strictly: the SAT Competition's (s and v lines),
// minisat's result file, the PB Competition's (s, o and v x1 -x2 lines),
// the MaxSAT Evaluation 2022+ (o, s and a v line of 0s and 1s) and the
// Model Counting Competition 2024 (s SATISFIABLE and c s exact arb int N,
// or the older s mc N). A line that breaks the protocol is an error naming
// the line; the caller names the solver. Whether a model satisfies the
// formula and whether a cost is the model's are the caller's checks
// (encode/sat), which knows the formula; this package knows the number of
// variables only. docs/solvers.md states every rule.
package solverproto

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// The answers an s line gives.
const (
	Sat     = "SATISFIABLE"
	Unsat   = "UNSATISFIABLE"
	Unknown = "UNKNOWN"
	Optimum = "OPTIMUM FOUND"
)

// Answer is what a solver's output says.
type Answer struct {
	// Status is Sat, Unsat, Unknown or Optimum.
	Status string
	// Model holds Model[v] for v = 1..n when the output gave one (values
	// it leaves out are false), else nil.
	Model []bool
	// Cost is the last o line's value; HasCost says there was one.
	Cost    int64
	HasCost bool
	// Count is a counter's count (ReadCount only).
	Count *big.Int
}

// lineError names the line of the output at fault.
func lineError(no int, line, why string) error {
	return fmt.Errorf("line %d %q: %s", no, clip(line), why)
}

// clip shortens a quoted line to 60 bytes.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// scan calls each for every line of out with its number (from 1), the
// line with trailing blanks removed; it stops at each's first error.
func scan(out []byte, each func(no int, line string) error) error {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<30)
	for no := 1; sc.Scan(); no++ {
		if err := each(no, strings.TrimRight(sc.Text(), " \t\r")); err != nil {
			return err
		}
	}
	return sc.Err()
}

// comment reports whether a line is a comment or empty.
func comment(line string) bool {
	return line == "" || line == "c" || strings.HasPrefix(line, "c ")
}

// status reads an s line's answer (one of those allowed) into *got: a
// second s line or an answer not allowed is an error.
func status(no int, line string, got *string, allowed ...string) error {
	if *got != "" {
		return lineError(no, line, "a second s line")
	}
	s := strings.TrimPrefix(line, "s ")
	for _, a := range allowed {
		if s == a {
			*got = a
			return nil
		}
	}
	return lineError(no, line, "not an s line of the protocol (want s "+strings.Join(allowed, ", s ")+")")
}

// model collects the values of a model's literals.
type model struct {
	n      int
	values []bool
	seen   []bool
	// ended: the model's closing 0 has been read.
	ended bool
}

// literals records the literals of one model line (its fields, the line's
// mark left out), up to the closing 0: a field that is not a literal, or
// a literal after the 0, is an error naming the line.
func (m *model) literals(no int, line string, fields []string) error {
	for _, t := range fields {
		l, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return lineError(no, line, fmt.Sprintf("%q is not a literal", clip(t)))
		}
		if m.ended {
			return lineError(no, line, "a literal after the model's closing 0")
		}
		if l == 0 {
			m.ended = true
			continue
		}
		if err := m.set(no, line, l); err != nil {
			return err
		}
	}
	return nil
}

func newModel(n int) *model { return &model{n: n, values: make([]bool, n+1), seen: make([]bool, n+1)} }

// set records literal l (±v, v in 1..n).
func (m *model) set(no int, line string, l int64) error {
	v := l
	if v < 0 {
		v = -v
	}
	if v == 0 || v > int64(m.n) {
		return lineError(no, line, fmt.Sprintf("literal %d names a variable the formula does not have (it has %d)", l, m.n))
	}
	if m.seen[v] && m.values[v] != (l > 0) {
		return lineError(no, line, fmt.Sprintf("variable %d given both values", v))
	}
	m.seen[v], m.values[v] = true, l > 0
	return nil
}

// ReadSAT reads a SAT Competition answer for a formula of n variables:
// comment lines (c), exactly one s line (SATISFIABLE, UNSATISFIABLE or
// UNKNOWN), and with SATISFIABLE v lines of literals whose last ends in 0;
// no other line. A v line without SATISFIABLE, SATISFIABLE without a
// model (of a formula with variables), a literal after the 0, or one of a
// variable the formula does not have is an error.
func ReadSAT(out []byte, n int) (Answer, error) {
	var a Answer
	m := newModel(n)
	vlines := 0
	err := scan(out, func(no int, line string) error {
		switch {
		case comment(line):
		case strings.HasPrefix(line, "s "):
			return status(no, line, &a.Status, Sat, Unsat, Unknown)
		case line == "v" || strings.HasPrefix(line, "v "):
			vlines++
			return m.literals(no, line, strings.Fields(line)[1:])
		default:
			return lineError(no, line, "not a line of the SAT Competition's output (c, s or v)")
		}
		return nil
	})
	if err != nil {
		return Answer{}, err
	}
	if err := finish(&a, m, vlines, n); err != nil {
		return Answer{}, err
	}
	if a.Status == Sat && !m.ended {
		return Answer{}, errors.New("the model's v lines do not end in 0")
	}
	return a, nil
}

// finish checks the s line against the model lines and keeps the model.
func finish(a *Answer, m *model, vlines, n int) error {
	switch {
	case a.Status == "":
		return errors.New("no s line (want s SATISFIABLE, s UNSATISFIABLE or s UNKNOWN)")
	case (a.Status == Sat || a.Status == Optimum) && vlines == 0 && n > 0:
		return fmt.Errorf("answered s %s but printed no v line", a.Status)
	case a.Status != Sat && a.Status != Optimum && vlines > 0:
		return fmt.Errorf("answered s %s but printed a model", a.Status)
	}
	if vlines > 0 || a.Status == Sat || a.Status == Optimum {
		a.Model = m.values
	}
	return nil
}

// ReadMinisatResult reads minisat's result file: "SAT" then one line of
// literals ending in 0, or "UNSAT" alone (or "INDET" for no answer).
func ReadMinisatResult(text []byte, n int) (Answer, error) {
	var a Answer
	m := newModel(n)
	lines := 0
	err := scan(text, func(no int, line string) error {
		switch {
		case no == 1:
			switch line {
			case "SAT":
				a.Status = Sat
			case "UNSAT":
				a.Status = Unsat
			case "INDET":
				a.Status = Unknown
			default:
				return lineError(no, line, "want SAT, UNSAT or INDET")
			}
		case line == "":
		case a.Status != Sat || m.ended:
			return lineError(no, line, "more after the answer")
		default:
			lines++
			return m.literals(no, line, strings.Fields(line))
		}
		return nil
	})
	if err != nil {
		return Answer{}, err
	}
	if a.Status == "" {
		return Answer{}, errors.New("an empty result file")
	}
	if a.Status == Sat {
		if !m.ended {
			return Answer{}, errors.New("the model does not end in 0")
		}
		a.Model = m.values
	}
	return a, nil
}

// ReadPB reads a PB Competition answer for an OPB formula of n variables
// (x1 ... xn): comment lines, o lines (each a whole number, the cost of
// the best model so far), exactly one s line (OPTIMUM FOUND, SATISFIABLE,
// UNSATISFIABLE or UNKNOWN), and with a model v lines of literals x3 or
// -x3; no other line.
func ReadPB(out []byte, n int) (Answer, error) {
	var a Answer
	m := newModel(n)
	vlines := 0
	err := scan(out, func(no int, line string) error {
		switch {
		case comment(line):
		case strings.HasPrefix(line, "s "):
			return status(no, line, &a.Status, Optimum, Sat, Unsat, Unknown)
		case strings.HasPrefix(line, "o "):
			return cost(no, line, &a)
		case line == "v" || strings.HasPrefix(line, "v "):
			vlines++
			for _, t := range strings.Fields(line)[1:] {
				neg := strings.HasPrefix(t, "-")
				num, ok := strings.CutPrefix(strings.TrimPrefix(t, "-"), "x")
				l, err := strconv.ParseInt(num, 10, 64)
				if !ok || err != nil || l <= 0 {
					return lineError(no, line, fmt.Sprintf("%q is not a literal (want x3 or -x3)", clip(t)))
				}
				if neg {
					l = -l
				}
				if err := m.set(no, line, l); err != nil {
					return err
				}
			}
		default:
			return lineError(no, line, "not a line of the PB Competition's output (c, s, o or v)")
		}
		return nil
	})
	if err != nil {
		return Answer{}, err
	}
	return a, finish(&a, m, vlines, n)
}

// cost reads an o line.
func cost(no int, line string, a *Answer) error {
	v, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(line, "o ")), 10, 64)
	if err != nil {
		return lineError(no, line, "the o value is not a whole number")
	}
	a.Cost, a.HasCost = v, true
	return nil
}

// ReadMaxSAT reads a MaxSAT Evaluation (2022+) answer for a formula of n
// variables: comment lines, o lines, exactly one s line (OPTIMUM FOUND,
// SATISFIABLE, UNSATISFIABLE or UNKNOWN) and with a model one v line, a
// string of n characters 0 or 1 (the value of variable i at position i).
func ReadMaxSAT(out []byte, n int) (Answer, error) {
	var a Answer
	m := newModel(n)
	vlines := 0
	err := scan(out, func(no int, line string) error {
		switch {
		case comment(line):
		case strings.HasPrefix(line, "s "):
			return status(no, line, &a.Status, Optimum, Sat, Unsat, Unknown)
		case strings.HasPrefix(line, "o "):
			return cost(no, line, &a)
		case line == "v" || strings.HasPrefix(line, "v "):
			if vlines++; vlines > 1 {
				return lineError(no, line, "a second v line")
			}
			bits := strings.TrimSpace(strings.TrimPrefix(line, "v"))
			if len(bits) != n {
				return lineError(no, line, fmt.Sprintf("%d values, the formula has %d variables", len(bits), n))
			}
			for i, b := range bits {
				switch b {
				case '0', '1':
					m.values[i+1] = b == '1'
				default:
					return lineError(no, line, "want a string of 0s and 1s")
				}
			}
		default:
			return lineError(no, line, "not a line of the MaxSAT Evaluation's output (c, s, o or v)")
		}
		return nil
	})
	if err != nil {
		return Answer{}, err
	}
	if err := finish(&a, m, vlines, n); err != nil {
		return Answer{}, err
	}
	if a.Status == Optimum && !a.HasCost {
		return Answer{}, errors.New("answered s OPTIMUM FOUND without an o line")
	}
	return a, nil
}

// ReadCount reads a model counter's answer in the Model Counting
// Competition 2024's format for input of type kind (mc or pmc): comment
// lines, exactly one s line (SATISFIABLE, UNSATISFIABLE or UNKNOWN), "c s
// type KIND" if given naming kind, and with SATISFIABLE exactly one "c s
// exact arb int N" (N a whole number; "c s log10-estimate" and other "c s"
// lines are comments); or the older form, one line "s mc N" (or "s pmc
// N"). UNSATISFIABLE counts 0 (a count line must then say 0).
func ReadCount(out []byte, kind string) (Answer, error) {
	var a Answer
	var old bool
	err := scan(out, func(no int, line string) error {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "c" && f[1] == "s" && f[2] == "type":
			if len(f) != 4 || f[3] != kind {
				return lineError(no, line, "the answer's type is not the input's ("+kind+")")
			}
		case len(f) >= 3 && f[0] == "c" && f[1] == "s" && f[2] == "exact":
			if len(f) != 6 || f[3] != "arb" || f[4] != "int" {
				return lineError(no, line, "want c s exact arb int N")
			}
			if a.Count != nil {
				return lineError(no, line, "a second count line")
			}
			return count(no, line, f[5], &a)
		case comment(line):
		case len(f) == 3 && f[0] == "s" && (f[1] == "mc" || f[1] == "pmc"):
			if err := status(no, line, &a.Status, line[2:]); err != nil {
				return err
			}
			if a.Count != nil {
				return lineError(no, line, "a second count line")
			}
			old = true
			return count(no, line, f[2], &a)
		case strings.HasPrefix(line, "s "):
			return status(no, line, &a.Status, Sat, Unsat, Unknown)
		default:
			return lineError(no, line, "not a line of the Model Counting Competition's output (c or s)")
		}
		return nil
	})
	if err != nil {
		return Answer{}, err
	}
	switch {
	case a.Status == "":
		return Answer{}, errors.New("no s line (want s SATISFIABLE with c s exact arb int N, s UNSATISFIABLE, or s mc N)")
	case old:
		a.Status = Sat
		if a.Count.Sign() == 0 {
			a.Status = Unsat
		}
	case a.Status == Sat && a.Count == nil:
		return Answer{}, errors.New("answered s SATISFIABLE without a count line (c s exact arb int N)")
	case a.Status == Sat && a.Count.Sign() == 0:
		return Answer{}, errors.New("answered s SATISFIABLE with a count of 0")
	case a.Status == Unsat && a.Count != nil && a.Count.Sign() != 0:
		return Answer{}, fmt.Errorf("answered s UNSATISFIABLE with a count of %s", a.Count)
	case a.Status == Unsat:
		a.Count = new(big.Int)
	case a.Status == Unknown && a.Count != nil:
		return Answer{}, errors.New("answered s UNKNOWN with a count")
	}
	return a, nil
}

// count reads a count's digits.
func count(no int, line, digits string, a *Answer) error {
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok || n.Sign() < 0 || strings.ContainsAny(digits, "+-") {
		return lineError(no, line, fmt.Sprintf("the count %q is not a whole number", clip(digits)))
	}
	a.Count = n
	return nil
}

// CheckExit checks a solver's exit status against its answer: 0 says
// nothing; 10 (the competitions' satisfiable) goes with SATISFIABLE or
// OPTIMUM FOUND; 20 with UNSATISFIABLE; 30 (clasp: satisfiable, search
// space exhausted) with SATISFIABLE or OPTIMUM FOUND. Any other status is
// a failed run.
func CheckExit(code int, status string) error {
	want := map[int][]string{10: {Sat, Optimum}, 20: {Unsat}, 30: {Sat, Optimum}}
	switch w, ok := want[code]; {
	case code == 0:
		return nil
	case !ok:
		return fmt.Errorf("exit status %d (a failed run: the protocol's are 0, 10 and 20)", code)
	case status != w[0] && (len(w) == 1 || status != w[1]):
		return fmt.Errorf("exit status %d contradicts its answer s %s", code, status)
	}
	return nil
}
