// Package gbdhash computes the instance identifiers of GBD, the Global
// Benchmark Database: the MD5 hash of a normalised text of a DIMACS CNF,
// an OPB or a WCNF file, so that an instance boardsat exports can be looked
// up in GBD and named in results as the competitions name theirs.
//
// The normalisation follows GBD's own code (the gbdhash functions of the
// gbdc library, which GBD calls) step by step, quirks included, because an
// identifier that differs from GBD's in one byte identifies nothing:
//
//   - CNF: lines starting with p or c are skipped; each clause is written
//     as its literals, each followed by one space, then "0" (a last clause
//     without its 0 gets one), clauses separated by one space. A literal
//     keeps a leading minus and loses a leading plus.
//   - OPB: lines starting with * are skipped; the objective is written
//     "min:" then " COEF" and " xV" (" ~xV") per token, then ";"; each
//     constraint is written as "COEF " and "xV " per token, the relation,
//     " RHS" and ";", with nothing between constraints.
//   - WCNF: c lines are skipped; with a classic "p wcnf V C TOP" header,
//     each clause is "h " when its weight is TOP or more, else "W ", then
//     its literals as for CNF; in the 2022 format without a p line, an "h"
//     clause is "h " and its literals, and a soft clause "W L... 0" is
//     hashed as written (its weight read as a literal). Clauses are
//     separated by one space once a clause other than a 2022 "h" one was
//     written (GBD's code sets its separator flag after those only).
package gbdhash

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"hash"
	"strconv"
)

// CNF returns the GBD hash of a DIMACS CNF file's content.
func CNF(data []byte) (string, error) {
	s := &scanner{data: data, h: md5.New()}
	notFirst := false
	for s.skipSpace() {
		if c := s.peek(); c == 'p' || c == 'c' {
			if !s.skipLine() {
				break
			}
			continue
		}
		if notFirst {
			s.put(" ")
		}
		if err := s.clause(); err != nil {
			return "", err
		}
		notFirst = true
	}
	return s.sum(), nil
}

// OPB returns the GBD hash of an OPB file's content.
func OPB(data []byte) (string, error) {
	s := &scanner{data: data, h: md5.New()}
	num := ""
	for s.skipSpace() {
		switch c := s.peek(); {
		case c == '*':
			if !s.skipLine() {
				return s.sum(), nil
			}
			continue
		case c == 'm':
			if !s.skipString("min:") {
				return "", s.errorf("expected \"min:\"")
			}
			s.put("min:")
			s.skipSpace()
			for s.peek() != ';' {
				if s.eof() {
					return "", s.errorf("the objective does not end with ;")
				}
				switch s.peek() {
				case 'x':
					s.put(" x")
					s.pos++
				case '~':
					s.put(" ~x")
					s.pos++
					s.skipSpace()
					s.pos++
				default:
					s.put(" ")
				}
				if err := s.number(&num); err != nil {
					return "", err
				}
				s.put(num)
				s.skipSpace()
			}
			s.put(";")
		default:
			for !isRel(s.peek()) {
				if s.eof() {
					return "", s.errorf("a constraint without a relation (>=, <= or =)")
				}
				switch s.peek() {
				case 'x':
					s.put("x")
					s.pos++
				case '~':
					s.put("~x")
					s.pos++
					s.skipSpace()
					s.pos++
				}
				if err := s.number(&num); err != nil {
					return "", err
				}
				s.put(num)
				s.put(" ")
				s.skipSpace()
			}
			for isRel(s.peek()) {
				s.put(string(s.peek()))
				s.pos++
			}
			if err := s.number(&num); err != nil {
				return "", err
			}
			s.put(" ")
			s.put(num)
			s.put(";")
			s.skipSpace()
		}
		if s.peek() == ';' {
			s.pos++
		}
	}
	return s.sum(), nil
}

// WCNF returns the GBD hash of a WCNF file's content, in the classic
// format (with a "p wcnf" header and its top weight) or the 2022 one.
func WCNF(data []byte) (string, error) {
	s := &scanner{data: data, h: md5.New()}
	var top uint64
	notFirst := false
	for s.skipSpace() {
		switch s.peek() {
		case 'c':
			if !s.skipLine() {
				return s.sum(), nil
			}
		case 'p':
			s.pos++
			s.skipSpace()
			if !s.skipString("wcnf") {
				return "", s.errorf("expected \"p wcnf\"")
			}
			var skip string
			for i := 0; i < 2; i++ {
				if err := s.number(&skip); err != nil {
					return "", err
				}
			}
			t, err := s.uint64()
			if err != nil {
				return "", err
			}
			top = t
			s.skipLine()
		case 'h':
			if top != 0 {
				return "", s.errorf("an \"h\" clause in a file with a \"p wcnf\" header")
			}
			s.pos++
			if notFirst {
				s.put(" ")
			}
			s.put("h ")
			if err := s.clause(); err != nil {
				return "", err
			}
		default:
			if notFirst {
				s.put(" ")
			}
			if top > 0 {
				w, err := s.uint64()
				if err != nil {
					return "", err
				}
				if w >= top {
					s.put("h ")
				} else {
					s.put(strconv.FormatUint(w, 10) + " ")
				}
			}
			if err := s.clause(); err != nil {
				return "", err
			}
			notFirst = true
		}
	}
	return s.sum(), nil
}

// scanner reads a file's bytes as GBD's stream buffer does.
type scanner struct {
	data []byte
	pos  int
	h    hash.Hash
}

func (s *scanner) eof() bool { return s.pos >= len(s.data) }

// peek returns the current byte, 0 at the end.
func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.data[s.pos]
}

func (s *scanner) put(text string) { s.h.Write([]byte(text)) }

func (s *scanner) sum() string { return hex.EncodeToString(s.h.Sum(nil)) }

func (s *scanner) line() int {
	n := 1
	for _, b := range s.data[:min(s.pos, len(s.data))] {
		if b == '\n' {
			n++
		}
	}
	return n
}

func (s *scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("gbd hash: line %d: %s", s.line(), fmt.Sprintf(format, args...))
}

// isSpace is C's isspace.
func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\v' || b == '\f' || b == '\r'
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isRel(b byte) bool { return b == '>' || b == '<' || b == '=' }

// skipSpace skips white space; false at the end of the data.
func (s *scanner) skipSpace() bool {
	for !s.eof() && isSpace(s.data[s.pos]) {
		s.pos++
	}
	return !s.eof()
}

// skipLine skips to the end of the line and the white space after it;
// false at the end of the data.
func (s *scanner) skipLine() bool {
	for !s.eof() && s.data[s.pos] != '\n' && s.data[s.pos] != '\r' {
		s.pos++
	}
	return s.skipSpace()
}

// skipString skips text when the data continues with it.
func (s *scanner) skipString(text string) bool {
	if len(s.data)-s.pos < len(text) || string(s.data[s.pos:s.pos+len(text)]) != text {
		return false
	}
	s.pos += len(text)
	return true
}

// readNumber reads a number after white space as GBD does: a leading
// minus kept, a plus dropped, white space allowed after the sign, then
// digits, kept as written. It returns false at the end of the data
// (out unchanged), and an error where no digit follows.
func (s *scanner) readNumber(out *string) (bool, error) {
	if !s.skipSpace() {
		return false, nil
	}
	var res []byte
	switch s.peek() {
	case '-':
		res = append(res, '-')
		s.pos++
	case '+':
		s.pos++
	}
	if s.eof() {
		return false, nil
	}
	if !isDigit(s.peek()) {
		if !s.skipSpace() {
			return false, nil
		}
		if !isDigit(s.peek()) {
			return false, s.errorf("unexpected character %q where a number belongs", s.peek())
		}
	}
	for !s.eof() && isDigit(s.peek()) {
		res = append(res, s.peek())
		s.pos++
	}
	*out = string(res)
	return true, nil
}

// number is readNumber where the end of the data keeps out unchanged, as
// GBD ignores readNumber's result there.
func (s *scanner) number(out *string) error {
	_, err := s.readNumber(out)
	return err
}

// uint64 reads an unsigned weight (C's strtoull after white space).
func (s *scanner) uint64() (uint64, error) {
	s.skipSpace()
	start := s.pos
	if s.peek() == '+' {
		s.pos++
	}
	for !s.eof() && isDigit(s.peek()) {
		s.pos++
	}
	text := string(s.data[start:s.pos])
	if len(text) > 0 && text[0] == '+' {
		text = text[1:]
	}
	w, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return 0, s.errorf("%q is not a weight", text)
	}
	return w, nil
}

// clause hashes literals up to a 0 (or the end of the data) as
// "L1 L2 ... 0".
func (s *scanner) clause() error {
	var lit string
	for {
		ok, err := s.readNumber(&lit)
		if err != nil {
			return err
		}
		if !ok || lit == "0" {
			break
		}
		s.put(lit)
		s.put(" ")
	}
	s.put("0")
	return nil
}
