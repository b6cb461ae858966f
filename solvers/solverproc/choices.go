package solverproc

import (
	"fmt"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

// Listing is how a backend lists one of its solvers for --solver: the
// name it is chosen by, the binary that must be on PATH for it to run
// ("" for a solver that runs in-process, always available), a line of
// doc, and (optional) how to describe its installed version (nil:
// BinaryVersion of Binary).
type Listing struct {
	Name, Binary, Doc string
	Version           func() string
}

// Set is one backend's solvers, the default first: the one helper behind
// every backend's --solver choices, its lookup by name, its reason to
// stay out of compare's "all", and the registration of its external
// solvers for the sidecar's versions. List tells what each solver is.
type Set[S any] struct {
	Backend string
	Solvers []S
	List    func(S) Listing
}

// Register adds every solver of the set to the list Externals returns;
// a backend calls it from init.
func (s Set[S]) Register() {
	for _, x := range s.Solvers {
		l := s.List(x)
		Register(External{Name: l.Name, Backend: s.Backend, Binary: l.Binary, Version: l.Version})
	}
}

// Choices returns the solvers as --solver choices (the first the
// default); a solver whose binary is not on PATH has " [not installed]"
// added to its doc.
func (s Set[S]) Choices() []puzzle.Choice {
	var out []puzzle.Choice
	for i, x := range s.Solvers {
		l := s.List(x)
		out = append(out, Choice(l, i == 0))
	}
	return out
}

// Choice is one solver's --solver choice: its doc, with " [not
// installed]" when it has a binary that is not on PATH.
func Choice(l Listing, isDefault bool) puzzle.Choice {
	doc := l.Doc
	if Available(l.Name, l.Binary) != nil {
		doc += " [not installed]"
	}
	return puzzle.Choice{Field: "solver", Name: l.Name, Doc: doc, Default: isDefault}
}

// Lookup returns the solver called name ("" for the first, the default),
// with Available's error when its binary is not on PATH; an unknown name
// is an error naming the backend and listing the solvers.
func (s Set[S]) Lookup(name string) (S, error) {
	if name == "" {
		name = s.List(s.Solvers[0]).Name
	}
	names := make([]string, len(s.Solvers))
	for i, x := range s.Solvers {
		l := s.List(x)
		if l.Name == name {
			return x, Available(l.Name, l.Binary)
		}
		names[i] = l.Name
	}
	var none S
	return none, fmt.Errorf("unknown %s solver %q: want one of %s", s.Backend, name, strings.Join(names, ", "))
}

// NamedOnly is the set's backend's reason to stay out of compare's "all"
// (its NamedOnly method): its solvers are optional, and a backend that
// needs one is compared only when named.
func (s Set[S]) NamedOnly() string { return NamedOnly(s.Backend) }

// NamedOnly is the reason of a backend that runs external solvers to stay
// out of compare's "all".
func NamedOnly(backend string) string {
	return "runs an external solver; name it (" + backend + "/SOLVER) to compare it"
}
