package encode

import (
	"context"
	"fmt"
	"testing"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/puzzle"
)

// kingSAT answers a king-path request on the sat backend.
func kingSAT(t testing.TB, spec, encoding string, task puzzle.Task, emit func(puzzle.Solution) error) puzzle.Answer {
	t.Helper()
	ans, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Encoding: encoding, Emit: emit})
	if err != nil {
		t.Fatalf("%s %s: %v", spec, encoding, err)
	}
	return ans
}

// TestKingPathSATPublished: the projected count of the position model is
// OEIS A063001 (paths from a non-corner edge square of the 4x4 Boggle
// board), for the lengths gophersat enumerates quickly.
func TestKingPathSATPublished(t *testing.T) {
	for _, start := range []string{"b1", "d3"} {
		for l := 2; l <= 7; l++ {
			spec := fmt.Sprintf("kingpath:4x4:%s:%d", start, l)
			want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
			if !ok {
				t.Fatalf("%s: no published count", spec)
			}
			ans := kingSAT(t, spec, "", puzzle.Count, nil)
			if ans.Status != puzzle.OK || ans.CountString() != fmt.Sprint(want) {
				t.Errorf("%s: sat says %s %s, A063001 says %d", spec, ans.Status, ans.CountString(), want)
			}
		}
	}
}

// TestKingPathSATAllLengths: summed over every length from every start,
// the projected counts give OEIS A236690 for 1x1, 2x2 and 3x3 boards.
func TestKingPathSATAllLengths(t *testing.T) {
	for n, want := range []uint64{1: 1, 2: 64, 3: 10305} {
		if n == 0 {
			continue
		}
		var total uint64
		for l := 1; l <= n*n; l++ {
			ans := kingSAT(t, fmt.Sprintf("kingpath:%dx%d:*:%d", n, n, l), "", puzzle.Count, nil)
			if ans.Status != puzzle.OK {
				t.Fatalf("%dx%d length %d: %s %s", n, n, l, ans.Status, ans.Message)
			}
			total += ans.Count
		}
		if total != want {
			t.Errorf("%dx%d: %d paths of every length, A236690 says %d", n, n, total, want)
		}
	}
}

// TestKingPathSATEncodings: every cardinality encoding that expresses
// exactly one gives the same projected count, and the paths it emits pass
// the checker.
func TestKingPathSATEncodings(t *testing.T) {
	const spec = "kingpath:4x3:*:5"
	want := kingSAT(t, spec, "pairwise", puzzle.Count, nil)
	if want.Status != puzzle.OK || want.Count == 0 {
		t.Fatalf("pairwise: %s %d", want.Status, want.Count)
	}
	s := puzzle.MustParse(spec)
	tried := 0
	for _, c := range card.All() {
		if c.Name == "native" {
			continue // PB constraints: OPB solvers only
		}
		ans := kingSAT(t, spec, c.Name, puzzle.Count, nil)
		if ans.Status != puzzle.OK || ans.Count != want.Count {
			t.Errorf("%s: %s %d, pairwise %d", c.Name, ans.Status, ans.Count, want.Count)
		}
		tried++
	}
	if tried < 5 {
		t.Fatalf("only %d encodings tried", tried)
	}
	var emitted uint64
	all := kingSAT(t, spec, "", puzzle.All, func(sol puzzle.Solution) error {
		emitted++
		return puzzle.Check(s, sol)
	})
	if all.Status != puzzle.OK || all.Count != want.Count || emitted != want.Count {
		t.Errorf("all: %s, count %d, emitted %d; want %d", all.Status, all.Count, emitted, want.Count)
	}
	for _, c := range []struct {
		spec string
		sat  bool
	}{{"kingpath:4x4:a1:16", true}, {"kingpath:5x1:c1:4", false}, {"kingpath:1x1:a1:1", true}} {
		first := kingSAT(t, c.spec, "", puzzle.First, nil)
		switch {
		case !c.sat && first.Status != puzzle.Unsat:
			t.Errorf("%s: first says %s, want unsat", c.spec, first.Status)
		case c.sat && (first.Solution == nil || puzzle.Check(puzzle.MustParse(c.spec), *first.Solution) != nil):
			t.Errorf("%s: first gave %s %v", c.spec, first.Status, first.Solution)
		}
	}
}
