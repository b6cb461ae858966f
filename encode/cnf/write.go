package cnf

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// ErrHasPB is returned when a formula with PB constraints is written as
// DIMACS CNF: its encoding left constraints that CNF cannot express.
var ErrHasPB = errors.New("formula has pseudo-Boolean constraints, which DIMACS CNF cannot express: pick a CNF encoding or write OPB")

// WriteDIMACS writes the formula as DIMACS CNF in the model counting
// competition's format (2024): a "c t pmc" line (or "c t mc" when every
// variable is primary, so the plain count is the answer), the "p cnf"
// header, for pmc one "c p show V... 0" line naming the projection, one
// "c var V NAME" comment per variable, then the clauses. No other comment
// starts with "c p" or "c t", which counters read as directives.
func (f *Formula) WriteDIMACS(w io.Writer) error { return f.writeDIMACS(w, false) }

// WriteDIMACSCommentsFirst writes the same lines as WriteDIMACS with every
// comment before the "p cnf" header, and only clauses after it: the form
// for a formula that proof checkers read. drat-trim, in its binary mode
// (which it also picks for an empty proof), does not skip comments in the
// formula and reads a comment after the header as an empty clause, so
// that it would call any proof of such a file verified.
func (f *Formula) WriteDIMACSCommentsFirst(w io.Writer) error { return f.writeDIMACS(w, true) }

// writeDIMACS writes the DIMACS text, the comments before or after the
// header.
func (f *Formula) writeDIMACS(w io.Writer, commentsFirst bool) error {
	if len(f.pbs) > 0 {
		return ErrHasPB
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	proj := f.Projection()
	projected := len(proj) < len(f.names)
	buf := make([]byte, 0, 64)
	if projected {
		bw.WriteString("c t pmc\n")
	} else {
		bw.WriteString("c t mc\n")
	}
	header := func() {
		buf = append(buf[:0], "p cnf "...)
		buf = strconv.AppendInt(buf, int64(len(f.names)), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(len(f.starts)), 10)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	if !commentsFirst {
		header()
	}
	if projected {
		bw.WriteString("c p show")
		for _, v := range proj {
			buf = append(buf[:0], ' ')
			bw.Write(strconv.AppendInt(buf, int64(v), 10))
		}
		bw.WriteString(" 0\n")
	}
	f.writeNames(bw, "c var ")
	if commentsFirst {
		header()
	}
	for i := range f.starts {
		buf = buf[:0]
		for _, l := range f.Clause(i) {
			buf = strconv.AppendInt(buf, int64(l), 10)
			buf = append(buf, ' ')
		}
		buf = append(buf, "0\n"...)
		bw.Write(buf)
	}
	return bw.Flush()
}

// ErrNoObjective is returned when a formula without an objective is
// written as WCNF: a MaxSAT instance needs soft clauses.
var ErrNoObjective = errors.New("formula has no objective, which WCNF (MaxSAT) needs: this puzzle's model sets none; write DIMACS or OPB")

// WriteWCNF writes the formula as weighted partial MaxSAT in the classic
// DIMACS WCNF format that MaxSAT solvers and clasp read: the header "p wcnf
// V C TOP", one "c var V NAME" comment per variable, every clause hard
// (weight TOP, one more than the soft weights' sum), and for each variable
// x of the objective (Minimize) with weight w the soft clause "w -x 0", so
// that a model of least cost minimises the objective. Formulas with PB
// constraints (ErrHasPB) or without an objective (ErrNoObjective) are
// refused.
func (f *Formula) WriteWCNF(w io.Writer) error {
	if len(f.pbs) > 0 {
		return ErrHasPB
	}
	obj, weights := f.Objective()
	if obj == nil {
		return ErrNoObjective
	}
	top := int64(1)
	for _, wt := range weights {
		top += int64(wt)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	buf := make([]byte, 0, 64)
	buf = append(buf, "p wcnf "...)
	buf = strconv.AppendInt(buf, int64(len(f.names)), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(len(f.starts)+len(obj)), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, top, 10)
	buf = append(buf, '\n')
	bw.Write(buf)
	f.writeNames(bw, "c var ")
	f.writeWeighted(bw, strconv.AppendInt(nil, top, 10), obj, weights)
	return bw.Flush()
}

// WriteWCNF2022 writes the formula in the MaxSAT Evaluation's WCNF format
// of 2022 on: no p line, every clause hard ("h ... 0"), and for each
// variable x of the objective with weight w the soft clause "w -x 0", so
// that the cost of a model is the objective's value. A formula without an
// objective is a MaxSAT instance of hard clauses alone; one with PB
// constraints is refused (ErrHasPB).
func (f *Formula) WriteWCNF2022(w io.Writer) error {
	if len(f.pbs) > 0 {
		return ErrHasPB
	}
	obj, weights := f.Objective()
	bw := bufio.NewWriterSize(w, 1<<16)
	f.writeWeighted(bw, []byte("h"), obj, weights)
	return bw.Flush()
}

// writeWeighted writes the WCNF body: every clause after the hard mark,
// then one soft clause "w -x 0" for each literal x of weight w of obj.
func (f *Formula) writeWeighted(bw *bufio.Writer, hard []byte, obj []Lit, weights []int) {
	buf := make([]byte, 0, 64)
	for i := range f.starts {
		buf = append(buf[:0], hard...)
		for _, l := range f.Clause(i) {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(l), 10)
		}
		buf = append(buf, " 0\n"...)
		bw.Write(buf)
	}
	for i, l := range obj {
		buf = strconv.AppendInt(buf[:0], int64(weights[i]), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(-l), 10)
		buf = append(buf, " 0\n"...)
		bw.Write(buf)
	}
}

// writeNames writes one comment line per variable, "PREFIX<number> <name>",
// in the comment syntax of the format at hand.
func (f *Formula) writeNames(bw *bufio.Writer, prefix string) {
	buf := make([]byte, 0, 64)
	for v, name := range f.names {
		buf = append(buf[:0], prefix...)
		buf = strconv.AppendInt(buf, int64(v+1), 10)
		buf = append(buf, ' ')
		buf = append(buf, name...)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
}

// WriteOPB writes the formula in the OPB format of the pseudo-Boolean
// competitions: each clause as a sum >= 1, each PB constraint as itself.
// Negative literals are rewritten over positive variables (w*~x = w - w*x),
// since not every OPB reader accepts "~x". Variable names follow as comments,
// then the objective as the "min:" line if the formula has one (Minimize).
// A constraint that always holds is left out, and an "=" constraint one of
// whose halves always holds is written as the other half: gophersat's reader
// panics on a constraint that always holds.
func (f *Formula) WriteOPB(w io.Writer) error {
	kept := len(f.starts)
	for _, c := range f.pbs {
		if _, skip := opbForm(c.Lits, c.Weights, c.Op, c.K); !skip {
			kept++
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	buf := make([]byte, 0, 64)
	buf = append(buf, "* #variable= "...)
	// An empty constraint is written over x1 (see appendPB), so declare it.
	buf = strconv.AppendInt(buf, int64(max(len(f.names), 1)), 10)
	buf = append(buf, " #constraint= "...)
	buf = strconv.AppendInt(buf, int64(kept), 10)
	buf = append(buf, '\n')
	bw.Write(buf)
	f.writeNames(bw, "* var x")
	if obj, w := f.Objective(); obj != nil {
		buf = append(buf[:0], "min:"...)
		for i, l := range obj {
			buf = append(buf, " +"...)
			buf = strconv.AppendInt(buf, int64(w[i]), 10)
			buf = append(buf, " x"...)
			buf = strconv.AppendInt(buf, int64(l.Var()), 10)
		}
		buf = append(buf, " ;\n"...)
		bw.Write(buf)
	}
	var ones []int
	for i := range f.starts {
		c := f.Clause(i)
		for len(ones) < len(c) {
			ones = append(ones, 1)
		}
		bw.Write(appendPB(buf[:0], c, ones[:len(c)], AtLeast, 1))
	}
	for _, c := range f.pbs {
		op, skip := opbForm(c.Lits, c.Weights, c.Op, c.K)
		if !skip {
			bw.Write(appendPB(buf[:0], c.Lits, c.Weights, op, c.K))
		}
	}
	return bw.Flush()
}

// opbForm returns the comparison to write a constraint with, or skip if it
// always holds: for "=", the half that does not always hold.
func opbForm(lits []Lit, weights []int, op Op, k int) (Op, bool) {
	sum := 0 // the sum ranges over 0..sum
	for _, w := range weights[:len(lits)] {
		sum += w
	}
	geHolds, leHolds := k <= 0, sum <= k
	switch {
	case op == AtLeast && geHolds, op == AtMost && leHolds, op == Exactly && geHolds && leHolds:
		return op, true
	case op == Exactly && geHolds:
		return AtMost, false
	case op == Exactly && leHolds:
		return AtLeast, false
	}
	return op, false
}

// appendPB appends one OPB constraint line, moving negations to the bound.
// A constraint without terms (the empty clause, say) is "0 op k", which OPB
// readers reject as an empty expression: it is written as "+1 x1 >= 2",
// which never holds (opbForm has dropped those that always hold).
func appendPB(buf []byte, lits []Lit, weights []int, op Op, k int) []byte {
	if len(lits) == 0 {
		return append(buf, "+1 x1 >= 2 ;\n"...)
	}
	for i, l := range lits {
		wt := weights[i]
		if l < 0 {
			wt, k = -wt, k-weights[i]
		}
		if wt >= 0 {
			buf = append(buf, '+')
		}
		buf = strconv.AppendInt(buf, int64(wt), 10)
		buf = append(buf, " x"...)
		buf = strconv.AppendInt(buf, int64(l.Var()), 10)
		buf = append(buf, ' ')
	}
	switch op {
	case AtMost:
		// OPB has no <=: negate both sides.
		for i := 0; i < len(buf); i++ {
			switch buf[i] {
			case '+':
				buf[i] = '-'
			case '-':
				buf[i] = '+'
			}
		}
		buf = append(buf, ">= "...)
		k = -k
	case AtLeast:
		buf = append(buf, ">= "...)
	case Exactly:
		buf = append(buf, "= "...)
	}
	buf = strconv.AppendInt(buf, int64(k), 10)
	return append(buf, " ;\n"...)
}
