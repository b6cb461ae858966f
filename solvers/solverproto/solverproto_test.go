package solverproto

import (
	"slices"
	"strings"
	"testing"
)

func TestReadSAT(t *testing.T) {
	a, err := ReadSAT([]byte("c hello\ns SATISFIABLE\nv 1 -2\nv 3 0\n"), 3)
	if err != nil || a.Status != Sat || !slices.Equal(a.Model, []bool{false, true, false, true}) {
		t.Errorf("sat: %+v, %v", a, err)
	}
	if a, err := ReadSAT([]byte("s UNSATISFIABLE\n"), 3); err != nil || a.Status != Unsat || a.Model != nil {
		t.Errorf("unsat: %+v, %v", a, err)
	}
	bad := map[string]string{
		"c nothing\n":                         "no s line",
		"s SATISFIABLE\ns SATISFIABLE\nv 1 0": `line 2 "s SATISFIABLE": a second s line`,
		"s SATISFIABLE\nv 1 4 0\n":            `line 2 "v 1 4 0": literal 4 names a variable the formula does not have`,
		"s SATISFIABLE\nv 1 2\n":              "do not end in 0",
		"s SATISFIABLE\nv 1 0 2\n":            "a literal after the model's closing 0",
		"s SATISFIABLE\n":                     "printed no v line",
		"s UNSATISFIABLE\nv 1 0\n":            "printed a model",
		"s SAT\n":                             `line 1 "s SAT": not an s line`,
		"s SATISFIABLE\nv 1 -1 0\n":           "variable 1 given both values",
		"s SATISFIABLE\nv x1 0\n":             `"x1" is not a literal`,
		"SATISFIABLE\n":                       `line 1 "SATISFIABLE": not a line of the SAT Competition's output`,
	}
	for out, want := range bad {
		if _, err := ReadSAT([]byte(out), 3); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", out, err, want)
		}
	}
}

func TestReadMinisatResult(t *testing.T) {
	if a, err := ReadMinisatResult([]byte("SAT\n-1 2 0\n"), 2); err != nil || !slices.Equal(a.Model, []bool{false, false, true}) {
		t.Errorf("sat: %+v %v", a, err)
	}
	if a, err := ReadMinisatResult([]byte("UNSAT\n"), 2); err != nil || a.Status != Unsat {
		t.Errorf("unsat: %+v %v", a, err)
	}
	for out, want := range map[string]string{"": "empty result file", "SAT\n1 2\n": "does not end in 0", "UNSAT\n1 0\n": "more after the answer", "MAYBE\n": "want SAT, UNSAT or INDET"} {
		if _, err := ReadMinisatResult([]byte(out), 2); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", out, err, want)
		}
	}
}

func TestReadPB(t *testing.T) {
	a, err := ReadPB([]byte("c x\no 5\no 2\ns OPTIMUM FOUND\nv x1 -x2\nv x3\n"), 3)
	if err != nil || a.Status != Optimum || !a.HasCost || a.Cost != 2 || !slices.Equal(a.Model, []bool{false, true, false, true}) {
		t.Errorf("optimum: %+v, %v", a, err)
	}
	for out, want := range map[string]string{
		"s SATISFIABLE\nv 1 -2\n":        `"1" is not a literal (want x3 or -x3)`,
		"o two\ns OPTIMUM FOUND\nv x1\n": "the o value is not a whole number",
		"s SATISFIABLE\nv x9\n":          "literal 9 names a variable",
		"s OPTIMUM\n":                    "not an s line",
	} {
		if _, err := ReadPB([]byte(out), 3); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", out, err, want)
		}
	}
}

func TestReadMaxSAT(t *testing.T) {
	a, err := ReadMaxSAT([]byte("o 3\no 1\ns OPTIMUM FOUND\nv 101\n"), 3)
	if err != nil || a.Cost != 1 || !slices.Equal(a.Model, []bool{false, true, false, true}) {
		t.Errorf("optimum: %+v, %v", a, err)
	}
	for out, want := range map[string]string{
		"o 1\ns OPTIMUM FOUND\nv 10\n":         "2 values, the formula has 3 variables",
		"o 1\ns OPTIMUM FOUND\nv 1 0 1\n":      "5 values",
		"o 1\ns OPTIMUM FOUND\nv 1x1\n":        "want a string of 0s and 1s",
		"s OPTIMUM FOUND\nv 101\n":             "without an o line",
		"o 1\ns OPTIMUM FOUND\nv 101\nv 101\n": "a second v line",
	} {
		if _, err := ReadMaxSAT([]byte(out), 3); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", out, err, want)
		}
	}
}

func TestReadCount(t *testing.T) {
	mcc := "c o some counter\ns SATISFIABLE\nc s type pmc\nc s log10-estimate 1.96379\nc s exact arb int 92\n"
	if a, err := ReadCount([]byte(mcc), "pmc"); err != nil || a.Count.String() != "92" || a.Status != Sat {
		t.Errorf("MCC 2024: %+v, %v", a, err)
	}
	if a, err := ReadCount([]byte("c old\ns mc 724\n"), "mc"); err != nil || a.Count.String() != "724" {
		t.Errorf("old: %+v, %v", a, err)
	}
	if a, err := ReadCount([]byte("s UNSATISFIABLE\nc s exact arb int 0\n"), "mc"); err != nil || a.Count.Sign() != 0 || a.Status != Unsat {
		t.Errorf("unsat: %+v, %v", a, err)
	}
	if a, err := ReadCount([]byte("s mc 123456789012345678901234567890\n"), "mc"); err != nil || a.Count.String() != "123456789012345678901234567890" {
		t.Errorf("big: %+v, %v", a, err)
	}
	for out, want := range map[string]string{
		"s SATISFIABLE\nc s exact arb int 9x2\n":                      `the count "9x2" is not a whole number`,
		"s mc 92a\n":                                                  `the count "92a" is not a whole number`,
		"s SATISFIABLE\nc s exact arb int -3\n":                       "not a whole number",
		"s SATISFIABLE\n":                                             "without a count line",
		"c s exact arb int 92\n":                                      "no s line",
		"s SATISFIABLE\ns SATISFIABLE\nc s exact arb int 92\n":        "a second s line",
		"s SATISFIABLE\nc s exact arb int 92\nc s exact arb int 92\n": "a second count line",
		"s SATISFIABLE\nc s type mc\nc s exact arb int 92\n":          "the answer's type is not the input's (pmc)",
		"s UNSATISFIABLE\nc s exact arb int 4\n":                      "UNSATISFIABLE with a count of 4",
		"s SATISFIABLE\nc s exact double prec-sci 9.2e1\n":            "want c s exact arb int N",
		"92\n":                                 `line 1 "92": not a line`,
		"s SATISFIABLE\nc s exact arb int 0\n": "SATISFIABLE with a count of 0",
		"s UNKNOWN\nc s exact arb int 5\n":     "UNKNOWN with a count",
		// Two counts, whichever form comes first.
		"c s exact arb int 5\ns mc 7\n": `line 2 "s mc 7": a second count line`,
		"s mc 7\nc s exact arb int 5\n": `line 2 "c s exact arb int 5": a second count line`,
	} {
		if _, err := ReadCount([]byte(out), "pmc"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", out, err, want)
		}
	}
}

func TestCheckExit(t *testing.T) {
	for _, c := range []struct {
		code   int
		status string
		ok     bool
	}{{0, Sat, true}, {10, Sat, true}, {10, Optimum, true}, {20, Unsat, true}, {30, Sat, true},
		{10, Unsat, false}, {20, Sat, false}, {1, Sat, false}, {139, Unsat, false}} {
		if err := CheckExit(c.code, c.status); (err == nil) != c.ok {
			t.Errorf("CheckExit(%d, %s) = %v", c.code, c.status, err)
		}
	}
}
