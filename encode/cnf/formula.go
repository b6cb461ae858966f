// Package cnf holds a propositional formula under construction: named
// variables, clauses, and pseudo-Boolean constraints, with the split between
// the puzzle's own variables (the projection a model count is taken over) and
// auxiliary variables that encodings introduce. It writes DIMACS CNF and OPB.
//
// Clauses are stored flat, so a formula of millions of clauses costs little
// more than its literals.
package cnf

import "fmt"

// Lit is a literal in DIMACS convention: +v is variable v, -v its negation,
// variables numbered from 1. Zero is no literal.
type Lit int32

// Var returns the literal's variable.
func (l Lit) Var() int {
	if l < 0 {
		return int(-l)
	}
	return int(l)
}

// Not returns the negated literal.
func (l Lit) Not() Lit { return -l }

// Op compares a weighted sum with a bound.
type Op int8

// The comparisons of cardinality and PB constraints.
const (
	AtMost  Op = iota // sum <= k
	AtLeast           // sum >= k
	Exactly           // sum == k
)

var opNames = [...]string{"at-most", "at-least", "exactly"}

// String names the comparison.
func (o Op) String() string { return opNames[o] }

// Holds reports whether sum compared with k satisfies the comparison.
func (o Op) Holds(sum, k int) bool {
	switch o {
	case AtMost:
		return sum <= k
	case AtLeast:
		return sum >= k
	}
	return sum == k
}

// PB is a pseudo-Boolean constraint: the sum of Weights[i] over the true
// Lits[i], compared by Op with K. Weights are positive.
type PB struct {
	Lits    []Lit
	Weights []int
	Op      Op
	K       int
}

// Formula is a CNF formula with optional PB constraints. The zero value is
// not ready for use; call New.
type Formula struct {
	names   []string // names[v-1]
	primary []bool   // primary[v-1]: v is a puzzle variable, in the projection
	lits    []Lit    // all clause literals, clause after clause
	starts  []int    // starts[i]: index in lits of clause i's first literal
	pbs     []PB
	// objective is the sum to minimise (nil: none), see Minimize.
	objective *PB
}

// New returns an empty formula.
func New() *Formula { return &Formula{} }

// Var adds a primary variable: one of the puzzle's own, part of the projection
// that models are counted over. The name maps a model back to the puzzle.
func (f *Formula) Var(name string) Lit { return f.newVar(name, true) }

// Aux adds an auxiliary variable, introduced by an encoding and left out of
// the projection.
func (f *Formula) Aux(name string) Lit { return f.newVar(name, false) }

func (f *Formula) newVar(name string, primary bool) Lit {
	f.names = append(f.names, name)
	f.primary = append(f.primary, primary)
	return Lit(len(f.names))
}

// NumVars returns the number of variables.
func (f *Formula) NumVars() int { return len(f.names) }

// Name returns variable v's name.
func (f *Formula) Name(v int) string { return f.names[v-1] }

// Primary reports whether variable v is in the projection.
func (f *Formula) Primary(v int) bool { return f.primary[v-1] }

// Projection returns the primary variables in increasing order.
func (f *Formula) Projection() []int {
	var out []int
	for i, p := range f.primary {
		if p {
			out = append(out, i+1)
		}
	}
	return out
}

// Add appends the clause l1 ∨ l2 ∨ ... . An empty clause makes the formula
// unsatisfiable. It panics on a literal of an unknown variable.
func (f *Formula) Add(lits ...Lit) {
	f.starts = append(f.starts, len(f.lits))
	for _, l := range lits {
		if l == 0 || l.Var() > len(f.names) {
			panic(fmt.Sprintf("cnf: literal %d of unknown variable", l))
		}
	}
	f.lits = append(f.lits, lits...)
}

// NumClauses returns the number of clauses.
func (f *Formula) NumClauses() int { return len(f.starts) }

// Clause returns clause i. The slice aliases the formula: do not modify it.
func (f *Formula) Clause(i int) []Lit {
	end := len(f.lits)
	if i+1 < len(f.starts) {
		end = f.starts[i+1]
	}
	return f.lits[f.starts[i]:end:end]
}

// AddPB appends a pseudo-Boolean constraint. Weights may be nil for all 1 (a
// cardinality constraint). CNF writers refuse a formula that has any.
func (f *Formula) AddPB(lits []Lit, weights []int, op Op, k int) {
	if weights == nil {
		weights = make([]int, len(lits))
		for i := range weights {
			weights[i] = 1
		}
	}
	if len(weights) != len(lits) {
		panic("cnf: AddPB with mismatched weights")
	}
	f.pbs = append(f.pbs, PB{Lits: append([]Lit(nil), lits...), Weights: append([]int(nil), weights...), Op: op, K: k})
}

// PBs returns the PB constraints. The slice aliases the formula.
func (f *Formula) PBs() []PB { return f.pbs }

// Minimize sets the formula's objective: minimise the sum of weights[i]
// (nil for all 1) over the true vars[i], positive literals only (so that
// the objective has no constant to carry). It changes no model: the
// solvers of encode/sat decide and ignore it; WriteOPB writes it as the
// "min:" line, so that an optimiser (minisat+, clasp) run on the export
// minimises it.
func (f *Formula) Minimize(vars []Lit, weights []int) {
	if weights == nil {
		weights = make([]int, len(vars))
		for i := range weights {
			weights[i] = 1
		}
	}
	for _, l := range vars {
		if l <= 0 || l.Var() > len(f.names) {
			panic(fmt.Sprintf("cnf: objective literal %d is not a known variable", l))
		}
	}
	if len(weights) != len(vars) {
		panic("cnf: Minimize with mismatched weights")
	}
	f.objective = &PB{Lits: append([]Lit(nil), vars...), Weights: append([]int(nil), weights...)}
}

// Objective returns the objective set by Minimize (its variables and
// weights), or nil, nil.
func (f *Formula) Objective() ([]Lit, []int) {
	if f.objective == nil {
		return nil, nil
	}
	return f.objective.Lits, f.objective.Weights
}

// Stats describes a formula's size.
type Stats struct {
	Variables, Primary, Aux int
	Clauses, Literals       int
	PBConstraints           int
}

// Stats returns the formula's size.
func (f *Formula) Stats() Stats {
	s := Stats{Variables: len(f.names), Clauses: len(f.starts), Literals: len(f.lits), PBConstraints: len(f.pbs)}
	for _, p := range f.primary {
		if p {
			s.Primary++
		}
	}
	s.Aux = s.Variables - s.Primary
	for _, c := range f.pbs {
		s.Literals += len(c.Lits)
	}
	return s
}

// Satisfied reports whether a full assignment (model[v] for variable v;
// model[0] unused) satisfies every clause and PB constraint.
func (f *Formula) Satisfied(model []bool) bool {
	val := func(l Lit) bool { return model[l.Var()] == (l > 0) }
	for i := range f.starts {
		ok := false
		for _, l := range f.Clause(i) {
			if val(l) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, c := range f.pbs {
		sum := 0
		for i, l := range c.Lits {
			if val(l) {
				sum += c.Weights[i]
			}
		}
		if !c.Op.Holds(sum, c.K) {
			return false
		}
	}
	return true
}
