package solverproc

import (
	"fmt"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

// Listing is how a backend lists one of its external solvers for
// --solver: the name it is chosen by, the binary that must be on PATH for
// it to run, and a line of doc.
type Listing struct {
	Name, Binary, Doc string
}

// Choices returns a backend's solvers (the default first) as its --solver
// choices; a solver whose binary is not on PATH has " [not installed]"
// added to its doc. list tells what each solver is.
func Choices[S any](solvers []S, list func(S) Listing) []puzzle.Choice {
	var out []puzzle.Choice
	for i, s := range solvers {
		l := list(s)
		doc := l.Doc
		if Available(l.Name, l.Binary) != nil {
			doc += " [not installed]"
		}
		out = append(out, puzzle.Choice{Field: "solver", Name: l.Name, Doc: doc, Default: i == 0})
	}
	return out
}

// Lookup returns the solver called name among a backend's solvers ("" for
// the first, the default), with Available's error when its binary is not
// on PATH; an unknown name is an error naming the backend and listing the
// solvers.
func Lookup[S any](backend string, solvers []S, list func(S) Listing, name string) (S, error) {
	if name == "" {
		name = list(solvers[0]).Name
	}
	names := make([]string, len(solvers))
	for i, s := range solvers {
		l := list(s)
		if l.Name == name {
			return s, Available(l.Name, l.Binary)
		}
		names[i] = l.Name
	}
	var none S
	return none, fmt.Errorf("unknown %s solver %q: want one of %s", backend, name, strings.Join(names, ", "))
}

// NamedOnly is a backend's reason to stay out of compare's "all" (its
// NamedOnly method) when it runs external solvers: they are optional, and
// a backend that needs one is compared only when named.
func NamedOnly(backend string) string {
	return "runs an external solver; name it (" + backend + "/SOLVER) to compare it"
}
