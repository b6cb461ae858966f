// Package proof reads, writes and checks DRAT proofs of unsatisfiability:
// a strict DIMACS CNF reader, DRAT in ASCII and binary, and a backward,
// core-first DRAT checker in the manner of drat-trim that emits an LRAT
// proof. Verify runs that checker and then checks its LRAT with the small,
// independent checker of package proof/lrat, and calls a proof verified
// only when both accept.
//
// The package shares no code with any SAT solver or encoder: it imports the
// standard library and its own sub-package only, so that a solver's or an
// encoder's bug cannot also hide in the check of its answer.
package proof

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
)

// MaxVar is the largest variable number read, in a formula or a proof: it
// bounds the checker's memory (about 70 bytes a variable) whatever a file
// says.
const MaxVar = 1 << 22

// CNF is a formula in conjunctive normal form as a DIMACS file states it:
// Vars variables, numbered from 1, and the clauses in file order (literal
// v or -v). Clause i (from 0) has LRAT id i+1.
type CNF struct {
	Vars    int
	Clauses [][]int
}

// ReadCNF reads a DIMACS CNF strictly: comment lines start with c, the
// header "p cnf V C" comes before the first clause, every clause ends with
// 0, no literal names a variable above V, and there are exactly C clauses.
// A header that does not match the clauses is an error, not a warning.
func ReadCNF(r io.Reader) (*CNF, error) {
	t := newTokens(r)
	f := &CNF{}
	header := false
	want := 0
	var cur []int
	for {
		tok, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("cnf: %w", err)
		}
		if !header {
			if string(tok) != "p" {
				return nil, fmt.Errorf("cnf: line %d: expected the header \"p cnf VARS CLAUSES\", found %q", t.line, clip(tok))
			}
			v, c, err := t.header()
			if err != nil {
				return nil, fmt.Errorf("cnf: %w", err)
			}
			if v > MaxVar {
				return nil, fmt.Errorf("cnf: line %d: %d variables, more than the %d this checker takes", t.line, v, MaxVar)
			}
			f.Vars, want, header = v, c, true
			continue
		}
		n, err := parseInt(tok)
		if err != nil {
			return nil, fmt.Errorf("cnf: line %d: %w", t.line, err)
		}
		if n == 0 {
			f.Clauses = append(f.Clauses, cur)
			cur = nil
			continue
		}
		if n > f.Vars || n < -f.Vars {
			return nil, fmt.Errorf("cnf: line %d: literal %d names a variable above the header's %d", t.line, n, f.Vars)
		}
		cur = append(cur, n)
	}
	switch {
	case !header:
		return nil, errors.New("cnf: no header \"p cnf VARS CLAUSES\" (empty file?)")
	case cur != nil:
		return nil, fmt.Errorf("cnf: the last clause does not end with 0 (truncated file?)")
	case len(f.Clauses) != want:
		return nil, fmt.Errorf("cnf: the header says %d clauses, the file has %d", want, len(f.Clauses))
	}
	return f, nil
}

// tokens splits DIMACS-like text into whitespace-separated tokens, skipping
// comment lines (lines whose first token starts with c).
type tokens struct {
	r         *bufio.Reader
	line      int
	lineStart bool
	buf       []byte
}

func newTokens(r io.Reader) *tokens {
	return &tokens{r: bufio.NewReaderSize(r, 1<<16), line: 1, lineStart: true}
}

// next returns the next token (valid until the following call), io.EOF at
// the end, or a read error.
func (t *tokens) next() ([]byte, error) {
	t.buf = t.buf[:0]
	for {
		b, err := t.r.ReadByte()
		if err != nil {
			if err == io.EOF && len(t.buf) > 0 {
				return t.buf, nil
			}
			return nil, err
		}
		switch {
		case b == '\n':
			if len(t.buf) > 0 {
				t.r.UnreadByte()
				return t.buf, nil
			}
			t.line++
			t.lineStart = true
		case b == ' ' || b == '\t' || b == '\r':
			if len(t.buf) > 0 {
				return t.buf, nil
			}
		case b == 'c' && t.lineStart && len(t.buf) == 0:
			if _, err := t.r.ReadSlice('\n'); err != nil && err != bufio.ErrBufferFull {
				if err == io.EOF {
					return nil, io.EOF
				}
				return nil, err
			} else if err == bufio.ErrBufferFull {
				// A very long comment: skip the rest of it.
				for err == bufio.ErrBufferFull {
					_, err = t.r.ReadSlice('\n')
				}
				if err == io.EOF {
					return nil, io.EOF
				}
			}
			t.line++
		case b == 0 || b >= 0x80:
			return nil, fmt.Errorf("line %d: byte 0x%02x is not text", t.line, b)
		default:
			t.lineStart = false
			t.buf = append(t.buf, b)
		}
	}
}

// header reads "cnf V C" after the p of a header line.
func (t *tokens) header() (vars, clauses int, err error) {
	line := t.line
	var f [3]string
	for i := range f {
		tok, err := t.next()
		if err != nil || t.line != line {
			return 0, 0, fmt.Errorf("line %d: the header is not \"p cnf VARS CLAUSES\"", line)
		}
		f[i] = string(tok)
	}
	if f[0] != "cnf" {
		return 0, 0, fmt.Errorf("line %d: the header is not \"p cnf VARS CLAUSES\" (format %q)", line, f[0])
	}
	v, err1 := parseInt([]byte(f[1]))
	c, err2 := parseInt([]byte(f[2]))
	if err1 != nil || err2 != nil || v < 0 || c < 0 {
		return 0, 0, fmt.Errorf("line %d: the header is not \"p cnf VARS CLAUSES\" (%s %s)", line, f[1], f[2])
	}
	return v, c, nil
}

// parseInt reads a decimal int32 literal or count.
func parseInt(tok []byte) (int, error) {
	if len(tok) == 0 {
		return 0, errors.New("empty number")
	}
	neg := tok[0] == '-'
	digits := tok
	if neg {
		digits = tok[1:]
	}
	if len(digits) == 0 {
		return 0, fmt.Errorf("%q is not a number", clip(tok))
	}
	n := 0
	for _, b := range digits {
		if b < '0' || b > '9' {
			return 0, fmt.Errorf("%q is not a number", clip(tok))
		}
		n = n*10 + int(b-'0')
		if n > math.MaxInt32 {
			return 0, fmt.Errorf("%q is out of range", clip(tok))
		}
	}
	if neg {
		if n == 0 {
			return 0, fmt.Errorf("%q is no literal, and only 0 ends a clause", clip(tok))
		}
		n = -n
	}
	return n, nil
}

// clip shortens a token quoted in an error message.
func clip(tok []byte) string {
	if len(tok) > 20 {
		return string(tok[:20]) + "..."
	}
	return string(tok)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
