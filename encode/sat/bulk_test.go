package sat

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// TestCountBulkRandom: sparse random formulas, whose branches satisfy
// every clause long before every projected variable is set (so the
// enumerator counts them 2^free at a time), count as the brute force does,
// on one engine and split into cubes.
func TestCountBulkRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := range 200 {
		f := randomFormula(rng, 16, 13, 1+rng.Intn(6), 0)
		want := bruteCount(f)
		for _, opt := range []CountOptions{{Threads: 1}, {Threads: 2}} {
			if got := mustCount(t, f, opt); got != want {
				t.Fatalf("formula %d, %+v: count %d, brute force %d", i, opt, got, want)
			}
		}
	}
}

// oneClause is a formula of n projected variables and the one clause
// x1 or ... or xk.
func oneClause(n, k int) *cnf.Formula {
	f := cnf.New()
	var c []cnf.Lit
	for i := range n {
		l := f.Var(fmt.Sprint("x", i+1))
		if i < k {
			c = append(c, l)
		}
	}
	f.Add(c...)
	return f
}

// TestCountBulkAtOnce: a formula of 40 variables and one clause of two of
// them has 3 * 2^38 models, counted at once: under a limit of a minute it
// answers (one model at a time it ran past any limit and answered
// UNKNOWN). A count past 2^64 (70 variables; a clause of 200,000
// literals) is one error line, also at once, never a wrong count.
func TestCountBulkAtOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := Count(ctx, oneClause(40, 2), CountOptions{})
	if err != nil || r.Status != puzzle.OK || r.Count != 3<<38 {
		t.Errorf("40 variables, one clause of 2: %+v, %v; want ok, %d", r, err, uint64(3)<<38)
	}
	for _, c := range [][2]int{{70, 3}, {200_000, 200_000}} {
		r, err := Count(ctx, oneClause(c[0], c[1]), CountOptions{})
		if err != nil || r.Status != puzzle.Error || !strings.Contains(r.Message, "exceeds 2^64") {
			t.Errorf("%d variables, one clause of %d: %+v, %v; want an error naming 2^64", c[0], c[1], r.Status, err)
		}
	}
}
