package compare

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestRealDominate: every native strategy and every SAT model and
// cardinality encoding but pairwise (those that can express the bound; the others are
// skipped, not failed) agree on the optimum and the count of minimum sets
// of small domination instances (and on unique, natively and through the
// lex-leader models), with each other, the brute force and the published
// values; and at least two of them answer each.
func TestRealDominate(t *testing.T) {
	vs := Expand(mustList(t, "native/*,sat/*,check"), "dominate")
	// pairwise's binomial at-most-k takes seconds here; the SAT sweep
	// against the brute force (package encode) covers it on small boards.
	vs = slices.DeleteFunc(vs, func(v Variant) bool { return strings.Contains(v.String(), "pairwise") })
	for _, v := range []string{"native/bnb", "native/naive", "sat/seqcounter", "sat/totalizer", "sat/unsatsat+seqcounter", "sat/bisect+seqcounter"} {
		if !strings.Contains(" "+strings.Join(names(vs), " ")+" ", " "+v+" ") {
			t.Fatalf("variant %s not registered: %v", v, names(vs))
		}
	}
	for _, s := range []string{"dominate:4x4:Q", "dominate:5x5:Q", "dominate:6x6:Q", "dominate:5x5:N", "dominate:4x4:K:independent",
		"dominate:5x4:B:k=5", "dominate:4x4:R:k=3"} {
		for _, task := range []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.Unique} {
			r := Run(context.Background(), puzzle.MustParse(s), task, vs, opt)
			var buf bytes.Buffer
			r.Print(&buf)
			if !r.OK() || strings.Count(buf.String(), " yes") < 2 {
				t.Errorf("%s %s:\n%s", s, task, buf.String())
			}
		}
	}
}
