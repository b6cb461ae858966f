// Package lrat is a small checker of LRAT proofs of unsatisfiability, the
// trusted base of boardsat's proof checking. It is kept short so that it
// can be read in one sitting, and trusts nothing else: it reads the CNF
// itself, imports only the standard library, and shares no code with the
// DRAT checker that writes the LRAT it checks.
//
// An LRAT proof is a text file of steps, one a line, lines starting with c
// being comments. The formula's clauses have ids 1..m in file order.
//
//	ID l1 ... lk 0 h1 ... hn 0   adds clause (l1 ... lk) with a new ID
//	ID d i1 ... in 0             deletes clauses i1 ... in
//
// An added clause is checked by reverse unit propagation: with every lk
// false, each hint h, in order, must name a clause in the database with at
// most one literal that is not false, which then becomes true, until a hint
// has none (a conflict). When the positive hints end without a conflict,
// the step is a RAT step on its first literal p: the remaining hints form
// groups "-c h1 h2 ...", and for every clause c in the database that holds
// -p (there may be none), either c without -p has a true literal, or its group makes every
// literal of c except -p false too and then reaches a conflict by its hints
// (as above). Ids of added clauses increase. The proof is verified when it
// adds the empty clause.
package lrat

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Result is the verdict on an LRAT proof.
type Result struct {
	Verified bool
	// Reason says why the proof was not verified.
	Reason string
	// Line is the failing step's line number (from 1), 0 when none.
	Line int
	// Added and Deleted count the steps read.
	Added, Deleted int
}

// maxVar bounds variable numbers, so that a hostile file cannot make the
// checker allocate without limit.
const maxVar = 1 << 26

// ReadCNF reads a DIMACS CNF strictly: a header "p cnf V C" before the
// clauses, every clause ended by 0, no variable above V, exactly C clauses.
func ReadCNF(r io.Reader) ([][]int, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var clauses [][]int
	var cur []int
	vars, want := -1, 0
	for n, line := range bytes.Split(data, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) == 0 || f[0][0] == 'c' {
			continue
		}
		if vars < 0 {
			if len(f) != 4 || string(f[0]) != "p" || string(f[1]) != "cnf" {
				return nil, fmt.Errorf("cnf line %d: expected the header \"p cnf VARS CLAUSES\"", n+1)
			}
			v, err1 := strconv.Atoi(string(f[2]))
			c, err2 := strconv.Atoi(string(f[3]))
			if err1 != nil || err2 != nil || v < 0 || c < 0 || v > maxVar {
				return nil, fmt.Errorf("cnf line %d: bad header", n+1)
			}
			vars, want = v, c
			continue
		}
		for _, tok := range f {
			l, err := strconv.Atoi(string(tok))
			// A clause ends at "0" alone: "-0", "+0" or "00" is no
			// literal and no terminator.
			if err != nil || l > vars || l < -vars || (l == 0 && string(tok) != "0") {
				return nil, fmt.Errorf("cnf line %d: %q is not a literal of %d variables", n+1, tok, vars)
			}
			if l == 0 {
				clauses = append(clauses, cur)
				cur = nil
			} else {
				cur = append(cur, l)
			}
		}
	}
	switch {
	case vars < 0:
		return nil, errors.New("cnf: no header")
	case cur != nil:
		return nil, errors.New("cnf: the last clause does not end with 0")
	case len(clauses) != want:
		return nil, fmt.Errorf("cnf: the header says %d clauses, the file has %d", want, len(clauses))
	}
	return clauses, nil
}

// checker holds the clause database and the assignment of one step.
type checker struct {
	db    map[int64][]int
	order []int64 // ids in the order added, for RAT candidates
	last  int64   // the largest id so far
	val   []int8  // by variable: 1 true, -1 false, 0 unassigned
	undo  []int   // variables assigned in this step
}

// value is 1 when literal l is true, -1 when false, 0 when unassigned.
func (c *checker) value(l int) int8 {
	v := l
	if v < 0 {
		v = -v
	}
	if v >= len(c.val) {
		return 0
	}
	if l < 0 {
		return -c.val[v]
	}
	return c.val[v]
}

// set makes literal l true.
func (c *checker) set(l int) {
	v, s := l, int8(1)
	if v < 0 {
		v, s = -v, -1
	}
	for v >= len(c.val) {
		c.val = append(c.val, 0)
	}
	c.val[v] = s
	c.undo = append(c.undo, v)
}

// reset unassigns back to n assigned variables.
func (c *checker) reset(n int) {
	for _, v := range c.undo[n:] {
		c.val[v] = 0
	}
	c.undo = c.undo[:n]
}

// propagate applies the hints in order; it reports whether one of them
// reached a conflict, or an error for a hint that is not unit.
func (c *checker) propagate(hints []int64) (bool, error) {
	for _, h := range hints {
		cl, ok := c.db[h]
		if !ok {
			return false, fmt.Errorf("hint %d names no clause in the database", h)
		}
		unit := 0
		for _, l := range cl {
			if c.value(l) == -1 || l == unit {
				continue
			}
			if unit != 0 {
				return false, fmt.Errorf("hint %d is not unit", h)
			}
			unit = l
		}
		if unit == 0 {
			return true, nil
		}
		c.set(unit)
	}
	return false, nil
}

// falsify makes every literal of lits but skip false; it reports whether
// one of them was already true (the clause is then satisfied).
func (c *checker) falsify(lits []int, skip int) bool {
	for _, l := range lits {
		switch {
		case l == skip || c.value(l) == -1:
		case c.value(l) == 1:
			return true
		default:
			c.set(-l)
		}
	}
	return false
}

// add checks the addition of clause lits with the given hints.
func (c *checker) add(lits []int, hints []int64) error {
	defer c.reset(0)
	if c.falsify(lits, 0) {
		return nil // a tautology
	}
	i := 0
	for i < len(hints) && hints[i] > 0 {
		i++
	}
	conflict, err := c.propagate(hints[:i])
	if err != nil || conflict {
		return err
	}
	if len(lits) == 0 {
		return errors.New("the hints reach no conflict")
	}
	// RAT on the first literal: read the groups, then check every
	// clause that holds its negation.
	p := lits[0]
	groups := map[int64][]int64{}
	for i < len(hints) {
		cand := -hints[i]
		j := i + 1
		for j < len(hints) && hints[j] > 0 {
			j++
		}
		if _, dup := groups[cand]; dup {
			return fmt.Errorf("two RAT hint groups for clause %d", cand)
		}
		if !slices.Contains(c.db[cand], -p) {
			return fmt.Errorf("RAT hint group for clause %d, which is not in the database with %d", cand, -p)
		}
		groups[cand] = hints[i+1 : j]
		i = j
	}
	base := len(c.undo)
	for _, id := range c.order {
		d, ok := c.db[id]
		if !ok || !slices.Contains(d, -p) {
			continue
		}
		if !c.falsify(d, -p) {
			g, ok := groups[id]
			if !ok && len(groups) == 0 {
				return fmt.Errorf("the hints reach no conflict (nor RAT on %d: no hints for clause %d)", p, id)
			}
			if !ok {
				return fmt.Errorf("RAT on %d: no hints for clause %d", p, id)
			}
			conflict, err := c.propagate(g)
			if err != nil {
				return fmt.Errorf("RAT on %d, clause %d: %w", p, id, err)
			}
			if !conflict {
				return fmt.Errorf("RAT on %d, clause %d: the hints reach no conflict", p, id)
			}
		}
		c.reset(base)
	}
	return nil
}

// Check checks an ASCII LRAT proof of the formula clauses. The error is
// for a proof that cannot be read (unreadable, malformed, truncated);
// a proof that reads but does not refute the formula gives a Result with
// Verified false and the reason.
func Check(clauses [][]int, proof io.Reader) (Result, error) {
	data, err := io.ReadAll(proof)
	if err != nil {
		return Result{}, fmt.Errorf("lrat: %w", err)
	}
	return CheckText(clauses, data)
}

// CheckText is Check on the text of a proof held in memory.
func CheckText(clauses [][]int, data []byte) (Result, error) {
	c := &checker{db: map[int64][]int{}}
	for i, cl := range clauses {
		c.db[int64(i+1)] = cl
		c.order = append(c.order, int64(i+1))
	}
	c.last = int64(len(clauses))
	var res Result
	lines := bytes.Split(data, []byte("\n"))
	for n, line := range lines {
		f := bytes.Fields(line)
		if len(f) == 0 || f[0][0] == 'c' {
			continue
		}
		if len(f) < 2 {
			return res, fmt.Errorf("lrat line %d: a step needs an id and more", n+1)
		}
		id, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil || id <= 0 {
			return res, fmt.Errorf("lrat line %d: %q is not a clause id", n+1, f[0])
		}
		failf := func(format string, args ...any) (Result, error) {
			res.Line = n + 1
			res.Reason = fmt.Sprintf("line %d: step %d: ", n+1, id) + fmt.Sprintf(format, args...)
			return res, nil
		}
		if string(f[1]) == "d" {
			ids, rest, err := numbers(f[2:], 1<<62)
			if err != nil || len(rest) != 0 || slices.ContainsFunc(ids, func(d int64) bool { return d < 0 }) {
				return res, fmt.Errorf("lrat line %d: a deletion is \"ID d IDS 0\"", n+1)
			}
			for _, d := range ids {
				if _, ok := c.db[d]; !ok {
					return failf("deletes clause %d, which is not in the database", d)
				}
				delete(c.db, d)
			}
			res.Deleted++
			continue
		}
		lits, rest, err := numbers(f[1:], maxVar)
		var hints []int64
		if err == nil {
			hints, rest, err = numbers(rest, 1<<62)
		}
		if err != nil || len(rest) != 0 {
			return res, fmt.Errorf("lrat line %d: an addition is \"ID LITERALS 0 HINTS 0\"", n+1)
		}
		if id <= c.last {
			return failf("the id is not above every earlier id (%d)", c.last)
		}
		cl := make([]int, len(lits))
		for i, l := range lits {
			cl[i] = int(l)
		}
		if err := c.add(cl, hints); err != nil {
			return failf("%v", err)
		}
		res.Added++
		c.db[id] = cl
		c.order = append(c.order, id)
		c.last = id
		if len(cl) == 0 {
			res.Verified = true
			return res, nil
		}
	}
	res.Reason = "the proof does not derive the empty clause"
	return res, nil
}

// numbers reads nonzero integers of absolute value at most max up to a 0,
// and returns them and the fields after the 0.
func numbers(f [][]byte, max int64) ([]int64, [][]byte, error) {
	var out []int64
	for i, tok := range f {
		n, err := strconv.ParseInt(string(tok), 10, 64)
		if err != nil || n > max || n < -max { // not -n > max: -n overflows for the least int64
			return nil, nil, fmt.Errorf("%q is not a number", tok)
		}
		if n == 0 {
			return out, f[i+1:], nil
		}
		out = append(out, n)
	}
	return nil, nil, errors.New("no terminating 0")
}
