package sat

import (
	"strings"
	"testing"
)

// claspOut is clasp 3.3.5's output of "clasp -n 0 -q --stats" on a formula
// of 3 variables with the one clause 1 2 (6 models), its status and count
// lines replaced by status and models.
func claspOut(status, models string) string {
	return "c clasp version 3.3.5\nc Reading from in.cnf\nc Solving...\n" + status +
		"\nc \n" + models + "\nc Calls          : 1\nc Time           : 0.000s (Solving: 0.00s 1st Model: 0.00s Unsat: 0.00s)\nc Model-Level    : 1.5\n"
}

// TestParseClaspCount: clasp's count is read from its one s line and its
// one "c Models" line (unprefixed when clasp reads aspif); an incomplete enumeration, a status that
// contradicts the count, and output that is not clasp's (a second s or
// Models line, a status in a comment, a count in words) are errors, never
// a count.
func TestParseClaspCount(t *testing.T) {
	for _, c := range []struct {
		out  string
		want uint64
	}{
		{claspOut("s SATISFIABLE", "c Models         : 6"), 6},
		{claspOut("s UNSATISFIABLE", "c Models         : 0"), 0},
		{"clasp version 3.3.5\nReading from in.aspif\nSolving...\nSATISFIABLE\n\nModels       : 92\nCalls        : 1\n", 92},
	} {
		if got, err := parseClaspCount([]byte(c.out)); err != nil || got != c.want {
			t.Errorf("%q: %d, %v; want %d", c.out, got, err, c.want)
		}
	}
	for _, c := range []struct{ name, out, want string }{
		{"incomplete", claspOut("s SATISFIABLE", "c Models         : 4911121+"), "enumeration incomplete"},
		{"unknown", claspOut("s UNKNOWN", "c Models         : 4"), "enumeration incomplete"},
		{"unsat with models", claspOut("s UNSATISFIABLE", "c Models         : 3"), "answered UNSATISFIABLE with 3 models"},
		{"sat without models", claspOut("s SATISFIABLE", "c Models         : 0"), "answered SATISFIABLE with 0 models"},
		{"no count", claspOut("s SATISFIABLE", "c"), "no model count"},
		{"no s line", claspOut("c", "c Models         : 6"), "no s line"},
		{"two s lines", claspOut("s SATISFIABLE\ns UNSATISFIABLE", "c Models         : 6"), `line 5 "s UNSATISFIABLE": a second s line`},
		{"two counts", claspOut("s SATISFIABLE", "c Models         : 6\nc Models         : 7"), `line 7 "c Models         : 7": a second count`},
		{"status in a comment", claspOut("c SATISFIABLE", "c Models         : 6"), "no s line"},
		{"not a status", claspOut("s SAT", "c Models         : 6"), `line 4 "s SAT": not an s line of clasp's`},
		{"count in words", claspOut("s SATISFIABLE", "c Models         : six"), `line 6 "c Models         : six": the count "six" is not a whole number`},
		{"two fields", claspOut("s SATISFIABLE", "c Models         : 6 7"), `line 6 "c Models         : 6 7": the count "6 7" is not a whole number`},
	} {
		got, err := parseClaspCount([]byte(c.out))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %d, %v; want an error saying %q", c.name, got, err, c.want)
		}
	}
}
