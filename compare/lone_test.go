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
	if _, err := ParsePattern("sat/nosuch"); err == nil || !strings.Contains(err.Error(), `unknown encoding "nosuch"`) {
		t.Errorf("sat/nosuch: %v", err)
	}
}
