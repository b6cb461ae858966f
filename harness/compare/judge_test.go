package compare

import (
	"context"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestJudgePolicy: the policy's rules, one case each.
func TestJudgePolicy(t *testing.T) {
	ok := func(name, v string) Vote { return Vote{Name: name, Status: puzzle.OK, Value: v} }
	cases := []struct {
		name             string
		votes            []Vote
		ref, src, thm    string
		wantRef, wantSrc string
		wrong            []bool
		confirmations    int
	}{
		{"published beats a wrong majority", []Vote{ok("a", "5"), ok("b", "5"), ok("c", "4")}, "4", "published", "",
			"4", "published", []bool{true, true, false}, 2},
		{"majority, not the first answer", []Vote{ok("a", "7"), ok("b", "6"), ok("c", "6")}, "", "", "",
			"6", "majority", []bool{true, false, false}, 2},
		{"an error is wrong, and never agrees", []Vote{{Name: "a", Status: puzzle.Error, Message: "boom"}, ok("b", "6")}, "6", "published", "",
			"6", "published", []bool{true, false}, 2},
		{"an error everywhere is wrong everywhere", []Vote{{Name: "a", Status: puzzle.Error}, {Name: "b", Status: puzzle.Error}}, "", "", "",
			"", "", []bool{true, true}, 0},
		{"an invalid model is wrong even with the right value", []Vote{{Name: "a", Status: puzzle.OK, Value: "6", Invalid: "checker rejects"}, ok("b", "6")}, "", "", "",
			"6", "majority", []bool{true, false}, 1},
		{"errors and invalid answers do not vote", []Vote{{Name: "a", Status: puzzle.OK, Value: "9", Invalid: "x"}, {Name: "e", Status: puzzle.Error}, ok("b", "6")}, "", "", "",
			"6", "majority", []bool{true, true, false}, 1},
		{"an incomplete method that gave up is no answer", []Vote{{Name: "w", Status: puzzle.Error, Message: puzzle.NotFound + "stuck"}, ok("b", "sat")}, "", "", "",
			"sat", "majority", []bool{false, false}, 1},
		{"timeouts and refusals are no answer", []Vote{{Name: "a", Status: puzzle.Timeout}, {Name: "r"}, ok("b", "6")}, "6", "published", "",
			"6", "published", []bool{false, false, false}, 2},
		{"known-wrong backends do not make the majority", []Vote{{Name: "k", Status: puzzle.OK, Value: "103", Known: "over-counts"}, {Name: "k2", Status: puzzle.OK, Value: "103", Known: "over-counts"}, ok("b", "92")}, "", "", "",
			"92", "majority", []bool{true, true, false}, 1},
		{"a theorem confirms once", []Vote{{Name: "n", Status: puzzle.Unsat, Value: "0", Theorem: "colour count"}, {Name: "m", Status: puzzle.Unsat, Value: "0", Theorem: "colour count"}}, "0", "published", "colour count",
			"0", "published", []bool{false, false}, 1},
		{"a search beside a theorem confirms", []Vote{{Name: "n", Status: puzzle.Unsat, Value: "0", Theorem: "colour count"}, {Name: "sat", Status: puzzle.Unsat, Value: "0"}}, "0", "published", "colour count",
			"0", "published", []bool{false, false}, 2},
		{"the brute force is not its own confirmation", []Vote{{Name: "check", Status: puzzle.OK, Value: "52"}, ok("n", "52")}, "52", BruteBackend, "",
			"52", BruteBackend, []bool{false, false}, 2},
		{"variants of one backend confirm once", []Vote{{Name: "native/a", Backend: "native", Status: puzzle.OK, Value: "92"}, {Name: "native/b", Backend: "native", Status: puzzle.OK, Value: "92"}, {Name: "sat/x", Backend: "sat", Status: puzzle.OK, Value: "92"}}, "92", "published", "",
			"92", "published", []bool{false, false, false}, 3},
	}
	for _, c := range cases {
		j := Judge(c.votes, c.ref, c.src, c.thm)
		if j.Reference != c.wantRef || j.Source != c.wantSrc || j.Confirmations != c.confirmations {
			t.Errorf("%s: reference %q (%s), %d confirmations; want %q (%s), %d", c.name, j.Reference, j.Source, j.Confirmations, c.wantRef, c.wantSrc, c.confirmations)
		}
		for i, v := range j.Verdicts {
			if v.Wrong != c.wrong[i] {
				t.Errorf("%s: vote %s wrong=%v (%s), want %v", c.name, c.votes[i].Name, v.Wrong, v.Reason, c.wrong[i])
			}
		}
	}
}

// TestReferenceSources: published first, then the brute force within its
// limits, then none (majority).
func TestReferenceSources(t *testing.T) {
	for _, c := range []struct {
		spec, value, source string
		ok                  bool
	}{
		{"queens:8", "92", "published", true},
		{"pieces:3x4:N2", "52", BruteBackend, true},
		{"pieces:7x7:N2", "", "", false},
	} {
		v, src, _, ok := Reference(context.Background(), puzzle.MustParse(c.spec), puzzle.Count)
		if v != c.value || src != c.source || ok != c.ok {
			t.Errorf("%s: %q %q %v, want %q %q %v", c.spec, v, src, ok, c.value, c.source, c.ok)
		}
	}
}

// TestParseMismatch: the reason of a wrong verdict on a differing value is
// read back (value, source, the message after it); other messages are not.
func TestParseMismatch(t *testing.T) {
	j := Judge([]Vote{{Name: "a", Status: puzzle.OK, Value: "5"}, {Name: "b", Status: puzzle.OK, Value: "6"}, {Name: "c", Status: puzzle.OK, Value: "6"}}, "", "", "")
	reason := j.Verdicts[0].Reason
	for _, c := range []struct{ msg, value, source, rest string }{
		{reason, "5", "majority", ""},
		{reason + "; stopped at the checkpoint", "5", "majority", "stopped at the checkpoint"},
		{mismatchReason("none", "22", "published"), "none", "published", ""},
	} {
		value, source, rest, ok := ParseMismatch(c.msg)
		if !ok || value != c.value || source != c.source || rest != c.rest {
			t.Errorf("%q: %q %q %q %v, want %q %q %q", c.msg, value, source, rest, ok, c.value, c.source, c.rest)
		}
	}
	for _, msg := range []string{"", "error: solver crashed", "invalid: a1 attacks b3", "the answer 5, reference 6 (majority)"} {
		if _, _, _, ok := ParseMismatch(msg); ok {
			t.Errorf("%q read as a mismatch", msg)
		}
	}
}
