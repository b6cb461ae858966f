// Package card encodes cardinality constraints (at most, at least, exactly k
// of a set of literals) into clauses, each encoding a named value: the
// catalogue of PySAT's pysat.card plus more, and "native", which keeps the
// constraint as a pseudo-Boolean constraint for solvers that take them.
package card

import (
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// Encoding is one way to write a cardinality constraint into a formula.
type Encoding struct {
	// Name selects it.
	Name string
	// Doc says in one line what it is.
	Doc string
	// CountPreserving is true when every assignment of the input literals
	// that meets the constraint extends to exactly one assignment of the
	// encoding's auxiliary variables, so unprojected model counts are right.
	CountPreserving bool
	// Native is true when the encoding adds PB constraints, not clauses.
	Native bool
	// Encode adds clauses (and auxiliary variables) to f that hold exactly
	// when the number of true lits compares with k by op. It returns an error
	// for a constraint it cannot express.
	Encode func(f *cnf.Formula, lits []cnf.Lit, op cnf.Op, k int) error
}

// Registry holds the encodings in the order added.
var Registry = puzzle.NewRegistry[Encoding]("cardinality encoding")

// Lookup returns the encoding with the given name.
func Lookup(name string) (Encoding, error) { return Registry.Lookup(name) }

// All returns every encoding, in registry order.
func All() []Encoding {
	var out []Encoding
	for _, n := range Registry.Names() {
		e, _ := Registry.Lookup(n)
		out = append(out, e)
	}
	return out
}
