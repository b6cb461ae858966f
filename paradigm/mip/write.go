package mip

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// lineWidth is where the writers break long rows: GLPK's CPLEX LP reader
// takes lines of at most 255 characters, so no line is let grow past it.
const lineWidth = 72

// WriteLP writes the program in CPLEX LP format (read by cbc, glpsol
// --lp, CPLEX, Gurobi, HiGHS, SCIP): comments, the objective (a
// feasibility program gets a zero objective), the rows, the bounds of
// integer and continuous variables, and the General and Binary sections.
func (p *Program) WriteLP(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, c := range p.Comments {
		fmt.Fprintf(bw, "\\ %s\n", c)
	}
	if p.Maximize {
		bw.WriteString("Maximize\n")
	} else {
		bw.WriteString("Minimize\n")
	}
	obj := p.Objective
	if len(obj) == 0 && len(p.Vars) > 0 {
		obj = []Term{{Coef: 0, Var: 0}}
	}
	p.lpTerms(bw, " obj:", obj)
	bw.WriteString("\nSubject To\n")
	for _, r := range p.Rows {
		p.lpTerms(bw, " "+r.Name+":", r.Terms)
		op := map[Sense]string{LE: "<=", GE: ">=", EQ: "="}[r.Sense]
		fmt.Fprintf(bw, " %s %d\n", op, r.RHS)
	}
	bw.WriteString("Bounds\n")
	for _, v := range p.Vars {
		if v.Kind != Binary {
			fmt.Fprintf(bw, " %d <= %s <= %d\n", v.Lo, v.Name, v.Hi)
		}
	}
	for _, sec := range []struct {
		name string
		kind Kind
	}{{"General", Integer}, {"Binary", Binary}} {
		p.lpNames(bw, sec.name, sec.kind)
	}
	bw.WriteString("End\n")
	return bw.Flush()
}

// lpTerms writes a label and terms as "+ 3 x - y", breaking lines.
func (p *Program) lpTerms(bw *bufio.Writer, label string, terms []Term) {
	bw.WriteString(label)
	n := len(label)
	for i, t := range terms {
		sign, c := "+", t.Coef
		if c < 0 {
			sign, c = "-", -c
		}
		tok := " " + sign + " " + strconv.FormatInt(c, 10) + " " + p.Vars[t.Var].Name
		if i == 0 && sign == "+" {
			tok = " " + strconv.FormatInt(c, 10) + " " + p.Vars[t.Var].Name
		}
		if n+len(tok) > lineWidth {
			bw.WriteString("\n  ")
			n = 2
		}
		bw.WriteString(tok)
		n += len(tok)
	}
}

// lpNames writes a section listing the variables of one kind, if any.
func (p *Program) lpNames(bw *bufio.Writer, section string, k Kind) {
	n, started := 0, false
	for _, v := range p.Vars {
		if v.Kind != k {
			continue
		}
		if !started {
			bw.WriteString(section + "\n")
			started = true
		}
		if n+len(v.Name)+1 > lineWidth {
			bw.WriteString("\n")
			n = 0
		}
		bw.WriteString(" " + v.Name)
		n += len(v.Name) + 1
	}
	if started {
		bw.WriteString("\n")
	}
}

// WriteMPS writes the program in free MPS (names without spaces, fields
// separated by blanks; read by cbc, glpsol --freemps, and every MPS
// reader that takes free format). A maximisation is written as the
// minimisation of the negated objective, noted in a comment, since the
// OBJSENSE section is not read by every solver. Columns come in the order
// of Program.Vars (glpsol's numbered solution file follows it); integer
// columns are bracketed by MARKER lines, binaries bounded BV.
func (p *Program) WriteMPS(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, c := range p.Comments {
		fmt.Fprintf(bw, "* %s\n", c)
	}
	sign := int64(1)
	if p.Maximize {
		sign = -1
		bw.WriteString("* maximisation written as: minimise the negated objective OBJ\n")
	}
	bw.WriteString("NAME boardsat FREE\nROWS\n N OBJ\n")
	for _, r := range p.Rows {
		t := map[Sense]string{LE: "L", GE: "G", EQ: "E"}[r.Sense]
		fmt.Fprintf(bw, " %s %s\n", t, r.Name)
	}
	// Each column's entries: the objective, then its rows in order.
	cols := make([][]string, len(p.Vars))
	for _, t := range p.Objective {
		cols[t.Var] = append(cols[t.Var], "OBJ "+strconv.FormatInt(sign*t.Coef, 10))
	}
	for _, r := range p.Rows {
		for _, t := range r.Terms {
			cols[t.Var] = append(cols[t.Var], r.Name+" "+strconv.FormatInt(t.Coef, 10))
		}
	}
	bw.WriteString("COLUMNS\n")
	inInt := false
	for i, v := range p.Vars {
		integral := v.Kind != Continuous
		if integral != inInt {
			if integral {
				bw.WriteString(" MARKER 'MARKER' 'INTORG'\n")
			} else {
				bw.WriteString(" MARKER 'MARKER' 'INTEND'\n")
			}
			inInt = integral
		}
		if len(cols[i]) == 0 {
			// A column in no row keeps its place (and its number).
			cols[i] = []string{"OBJ 0"}
		}
		for _, e := range cols[i] {
			fmt.Fprintf(bw, " %s %s\n", v.Name, e)
		}
	}
	if inInt {
		bw.WriteString(" MARKER 'MARKER' 'INTEND'\n")
	}
	bw.WriteString("RHS\n")
	for _, r := range p.Rows {
		if r.RHS != 0 {
			fmt.Fprintf(bw, " RHS %s %d\n", r.Name, r.RHS)
		}
	}
	bw.WriteString("BOUNDS\n")
	for _, v := range p.Vars {
		if v.Kind == Binary {
			fmt.Fprintf(bw, " BV BND %s\n", v.Name)
			continue
		}
		fmt.Fprintf(bw, " LO BND %s %d\n UP BND %s %d\n", v.Name, v.Lo, v.Name, v.Hi)
	}
	bw.WriteString("ENDATA\n")
	return bw.Flush()
}
