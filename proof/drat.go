package proof

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// Step is one line of a DRAT proof: a lemma (a clause added) or a deletion
// of a clause, as literals v or -v. A lemma's first literal is its RAT
// pivot.
type Step struct {
	Delete bool
	Lits   []int
}

// Format is a DRAT proof's encoding.
type Format int

const (
	// Auto detects the encoding: binary when the proof starts with 'a' or
	// holds a NUL byte (every binary step ends with one), ASCII otherwise.
	Auto Format = iota
	// ASCII is drat-trim's text format: "l1 l2 ... 0" adds a lemma, "d l1
	// ... 0" deletes a clause, lines starting with c are comments.
	ASCII
	// Binary is drat-trim's binary format: a byte 'a' (add) or 'd'
	// (delete), then each literal l as the unsigned variable-length
	// (7 bits a byte, low first) number 2|l| + (1 if l < 0), then a 0 byte.
	Binary
)

// String names the format as --format spells it.
func (f Format) String() string {
	switch f {
	case ASCII:
		return "ascii"
	case Binary:
		return "binary"
	}
	return "auto"
}

// ParseFormat reads a --format value: ascii, binary or auto.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "ascii":
		return ASCII, nil
	case "binary":
		return Binary, nil
	case "auto", "":
		return Auto, nil
	}
	return Auto, fmt.Errorf("unknown proof format %q (ascii, binary or auto)", s)
}

// Proof is a DRAT proof as read: its steps, the format it was read in and
// its size in bytes.
type Proof struct {
	Steps  []Step
	Format Format
	Bytes  int64
}

// ErrEmpty is returned for a proof with no step.
var ErrEmpty = errors.New("drat: the proof is empty")

// ReadDRAT reads a whole DRAT proof in format f (Auto detects it). A proof
// with no step, a last step without its terminating 0 (a truncated file),
// or bytes that the format does not allow are errors; in particular a
// binary proof read as ASCII is an error, never an empty or short proof.
func ReadDRAT(r io.Reader, f Format) (*Proof, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("drat: %w", err)
	}
	return ParseDRAT(data, f)
}

// readAll reads r to its end, in one allocation when r is a file.
func readAll(r io.Reader) ([]byte, error) {
	if st, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			var b bytes.Buffer
			b.Grow(int(fi.Size()) + bytes.MinRead)
			_, err := b.ReadFrom(r)
			return b.Bytes(), err
		}
	}
	return io.ReadAll(r)
}

// ParseDRAT is ReadDRAT on a proof held in memory.
func ParseDRAT(data []byte, f Format) (*Proof, error) {
	if f == Auto {
		f = Detect(data)
	}
	var steps []Step
	var err error
	if f == Binary {
		steps, err = parseBinary(data)
	} else {
		steps, err = parseASCII(data)
	}
	if err != nil {
		return nil, formatHint(data, f, err)
	}
	if len(steps) == 0 {
		return nil, ErrEmpty
	}
	return &Proof{Steps: steps, Format: f, Bytes: int64(len(data))}, nil
}

// formatError is a byte that the format a proof is read in does not allow.
type formatError struct{ msg string }

func (e *formatError) Error() string { return e.msg }

func notFormat(format string, args ...any) error {
	return &formatError{fmt.Sprintf(format, args...)}
}

// formatHint adds to a byte the format f does not allow what the proof is
// instead: the other DRAT format when the proof reads as that (the proof
// check's --format or a solver definition's "proof" field names the wrong
// one), or neither (a solver that writes FRAT, such as cryptominisat5, or
// LRAT, or no proof at all). Advice to read it the other way round when
// that fails too would send the user back and forth.
func formatHint(data []byte, f Format, err error) error {
	var fe *formatError
	if !errors.As(err, &fe) {
		return err
	}
	other, parse, flag, field := "a binary", parseBinary, "binary", "drat-binary"
	if f == Binary {
		other, parse, flag, field = "an ASCII", parseASCII, "ascii", "drat-ascii"
	}
	if steps, oerr := parse(data); oerr == nil && len(steps) > 0 {
		return fmt.Errorf("%w (%s proof? it reads as one: proof check --format %s, or \"proof\": %q in a solver definition)", err, other, flag, field)
	}
	return fmt.Errorf("%w (neither ASCII nor binary DRAT: a FRAT or LRAT proof, or no proof?)", err)
}

// Detect guesses a proof's format: binary when it starts with 'a' or
// holds a NUL byte, which no ASCII proof does.
func Detect(data []byte) Format {
	if len(data) > 0 && data[0] == 'a' || bytes.IndexByte(data, 0) >= 0 {
		return Binary
	}
	return ASCII
}

// stepBuilder collects steps with their literals in one shared array, so
// that a proof of millions of steps is not millions of small allocations.
type stepBuilder struct {
	steps []Step
	lits  []int
	ends  []int // where each step's literals end in lits
}

func newStepBuilder(lits int) *stepBuilder { return &stepBuilder{lits: make([]int, 0, lits)} }

// end closes a step.
func (b *stepBuilder) end(del bool) {
	b.steps = append(b.steps, Step{Delete: del})
	b.ends = append(b.ends, len(b.lits))
}

// done returns the steps (a step without literals has Lits nil).
func (b *stepBuilder) done() []Step {
	start := 0
	for i, e := range b.ends {
		if e > start {
			b.steps[i].Lits = b.lits[start:e:e]
		}
		start = e
	}
	return b.steps
}

func parseASCII(data []byte) ([]Step, error) {
	sb := newStepBuilder(len(data) / 4)
	line := 1
	del := false
	open := false // inside a step, before its 0
	lineStart := true
	for i := 0; i < len(data); {
		b := data[i]
		switch {
		case b == '\n':
			line++
			lineStart = true
			i++
		case b == ' ' || b == '\t' || b == '\r':
			i++
		case b == 'c' && lineStart && !open:
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case b == 'd' && !open:
			if i+1 < len(data) && !isSpace(data[i+1]) {
				return nil, notFormat("drat: line %d: 'd' not followed by a space", line)
			}
			del = true
			open = true
			lineStart = false
			i++
		case b == '-' || b >= '0' && b <= '9':
			j := i + 1
			for j < len(data) && data[j] >= '0' && data[j] <= '9' {
				j++
			}
			n, err := parseInt(data[i:j])
			if err != nil {
				return nil, fmt.Errorf("drat: line %d: %w", line, err)
			}
			if n > MaxVar || n < -MaxVar {
				return nil, fmt.Errorf("drat: line %d: literal %d is above the %d variables this checker takes", line, n, MaxVar)
			}
			if j < len(data) && !isSpace(data[j]) {
				return nil, notFormat("drat: line %d: byte 0x%02x after a number is not ASCII DRAT", line, data[j])
			}
			i = j
			lineStart = false
			if n == 0 {
				sb.end(del)
				del, open = false, false
				continue
			}
			open = true
			sb.lits = append(sb.lits, n)
		default:
			return nil, notFormat("drat: line %d: byte 0x%02x is not ASCII DRAT", line, b)
		}
	}
	if open {
		return nil, fmt.Errorf("drat: line %d: the last step does not end with 0 (truncated proof?)", line)
	}
	return sb.done(), nil
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

func parseBinary(data []byte) ([]Step, error) {
	sb := newStepBuilder(len(data) / 2)
	for i := 0; i < len(data); {
		start := i
		del := false
		switch data[i] {
		case 'a':
		case 'd':
			del = true
		default:
			return nil, notFormat("drat: byte %d: 0x%02x starts no binary step", i, data[i])
		}
		i++
		for {
			var u uint64
			shift := uint(0)
			for {
				if i >= len(data) {
					return nil, fmt.Errorf("drat: the step at byte %d does not end with 0 (truncated proof?)", start)
				}
				b := data[i]
				i++
				u |= uint64(b&0x7f) << shift
				if b < 0x80 {
					break
				}
				shift += 7
				if shift >= 35 {
					return nil, fmt.Errorf("drat: byte %d: a literal longer than 5 bytes", i)
				}
			}
			if u == 0 {
				break
			}
			v := u >> 1
			if v == 0 || v > MaxVar {
				return nil, fmt.Errorf("drat: the step at byte %d has the invalid literal code %d", start, u)
			}
			l := int(v)
			if u&1 == 1 {
				l = -l
			}
			sb.lits = append(sb.lits, l)
		}
		sb.end(del)
	}
	return sb.done(), nil
}

// WriteDRAT writes steps in format f (Auto writes ASCII). A literal 0 or
// beyond MaxVar is an error (nothing is written for its step on).
func WriteDRAT(w io.Writer, steps []Step, f Format) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf []byte
	for i, st := range steps {
		for _, l := range st.Lits {
			if l == 0 || l > MaxVar || l < -MaxVar {
				bw.Flush()
				return fmt.Errorf("drat: step %d holds the literal %d", i+1, l)
			}
		}
		buf = buf[:0]
		if f == Binary {
			if st.Delete {
				buf = append(buf, 'd')
			} else {
				buf = append(buf, 'a')
			}
			for _, l := range st.Lits {
				u := uint64(2 * abs(l))
				if l < 0 {
					u++
				}
				for u >= 0x80 {
					buf = append(buf, byte(u)|0x80)
					u >>= 7
				}
				buf = append(buf, byte(u))
			}
			buf = append(buf, 0)
		} else {
			if st.Delete {
				buf = append(buf, "d "...)
			}
			for _, l := range st.Lits {
				buf = strconv.AppendInt(buf, int64(l), 10)
				buf = append(buf, ' ')
			}
			buf = append(buf, "0\n"...)
		}
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
