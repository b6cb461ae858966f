package compare

import (
	"slices"
	"strings"
	"testing"
)

// TestLoneSolver: a lone value that names no encoding but a solver is the
// solver (sat/cadical is sat//cadical); an encoding stays an encoding; a
// name of neither is still refused.
func TestLoneSolver(t *testing.T) {
	for item, want := range map[string][]string{
		"sat/cadical":          {"", "cadical"},
		"sat/direct":           {"direct"},
		"sat//cadical":         {"", "cadical"},
		"sat/direct/cadical":   {"direct", "cadical"},
		"sat/direct+totalizer": {"direct+totalizer"},
	} {
		p, err := ParsePattern(item)
		if err != nil || !slices.Equal(p.Values, want) {
			t.Errorf("%s: %q, %v; want %q", item, p.Values, err, want)
		}
	}
	v, err := ParseVariant("sat/cadical")
	if err != nil || v.String() != "sat//cadical" || v.Value("solver") != "cadical" {
		t.Errorf("variant sat/cadical: %v (%s), %v", v, v.String(), err)
	}
	// A name of neither: the error says it is neither and lists the
	// solvers (the field a user bringing one most likely meant), not only
	// the encodings (a list too long for one line).
	_, err = ParsePattern("sat/nosuch")
	if err == nil {
		t.Fatal("sat/nosuch accepted")
	}
	for _, want := range []string{`bad variant "sat/nosuch": "nosuch" is no encoding nor solver of backend sat`, "solvers: gophersat, ", "cadical", "--solvers PATH", "encodings: boardsat list"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("sat/nosuch: %v; want it to say %q", err, want)
		}
	}
	// Two values: each field is checked on its own, as before.
	if _, err := ParsePattern("sat/nosuch/cadical"); err == nil || !strings.Contains(err.Error(), `unknown encoding "nosuch"`) {
		t.Errorf("sat/nosuch/cadical: %v", err)
	}
}
