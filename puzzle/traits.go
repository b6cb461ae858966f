package puzzle

// What a backend may declare about itself, beyond the Backend interface,
// with a method the harness and the command line look for: they name no
// backend, so that a new backend is drawn, certified and recorded by what
// it declares.

// Family is the kind of solving a backend does, for readers: the figures
// draw the variants of one family alike (marker fill, line pattern).
type Family int

const (
	// FamilySearch is a native search.
	FamilySearch Family = iota
	// FamilySAT is a SAT/PB encoding solved by a SAT solver.
	FamilySAT
	// FamilyOther is any other (brute force, CP, MIP): a backend that
	// declares no family is of it.
	FamilyOther
)

// declared returns the registered backend name as the interface I of one
// declaration; ok is false when it does not declare it or is not
// registered.
func declared[I any](name string) (i I, ok bool) {
	b, err := Backends.Lookup(name)
	if err != nil {
		return i, false
	}
	i, ok = b.(I)
	return i, ok
}

// FamilyOf returns the family the registered backend name declares with a
// method Family() Family; FamilyOther when it declares none or is not
// registered.
func FamilyOf(name string) Family {
	if f, ok := declared[interface{ Family() Family }](name); ok {
		return f.Family()
	}
	return FamilyOther
}

// WritesProofs reports whether the registered backend name writes proofs
// of its refutations (--certify), which it declares with a method
// WritesProofs() bool.
func WritesProofs(name string) bool {
	p, ok := declared[interface{ WritesProofs() bool }](name)
	return ok && p.WritesProofs()
}

// TakesSolverDefinitions reports whether the registered backend name's
// solver field names solver definitions (solvers/solverdef), whose
// definitions bench records in the sidecar; the backend declares it with a
// method SolverDefinitions() bool.
func TakesSolverDefinitions(name string) bool {
	d, ok := declared[interface{ SolverDefinitions() bool }](name)
	return ok && d.SolverDefinitions()
}

// BackendsWhere returns the registered backends, in registration order,
// for which keep holds: the names a message lists ("--certify needs one
// of ...").
func BackendsWhere(keep func(name string) bool) []string {
	var out []string
	for _, n := range Backends.Names() {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}
