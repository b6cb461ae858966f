package kingpath

import (
	"context"
	"fmt"
	"testing"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

func kingSolve(t testing.TB, spec string, task puzzle.Task, emit func(puzzle.Solution) error) puzzle.Answer {
	t.Helper()
	ans, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Emit: emit})
	if err != nil {
		t.Fatal(err)
	}
	if task == puzzle.Count && ans.Status != puzzle.OK {
		t.Fatalf("%s: status %s (%s)", spec, ans.Status, ans.Message)
	}
	return ans
}

// TestKingPathPublished: every count the puzzle publishes (OEIS A063001,
// paths from the non-corner edge squares of the 4x4 Boggle board), from
// each of those squares.
func TestKingPathPublished(t *testing.T) {
	checked := 0
	for _, start := range []string{"b1", "c1", "a2", "a3", "d2", "d3", "b4", "c4"} {
		for l := 2; l <= 16; l++ {
			spec := fmt.Sprintf("kingpath:4x4:%s:%d", start, l)
			want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
			if !ok {
				t.Fatalf("%s: no published count", spec)
			}
			if got := kingSolve(t, spec, puzzle.Count, nil).CountString(); got != fmt.Sprint(want) {
				t.Errorf("%s: %s paths, A063001 says %d", spec, got, want)
			}
			checked++
		}
	}
	if checked != 120 {
		t.Fatalf("checked %d published counts, want 120", checked)
	}
}

// TestKingPathAllLengths: summed over every length from every start, the
// counts give OEIS A236690, the simple directed paths of the n x n king
// graph; and "*" (one start per symmetry class, weighted) equals the sum
// over the starts one by one.
func TestKingPathAllLengths(t *testing.T) {
	a236690 := []uint64{1: 1, 2: 64, 3: 10305, 4: 12029640}
	for n := 1; n <= 4; n++ {
		var total uint64
		for l := 1; l <= n*n; l++ {
			all := kingSolve(t, fmt.Sprintf("kingpath:%dx%d:*:%d", n, n, l), puzzle.Count, nil).Count
			total += all
			if n <= 3 || l%5 == 0 {
				var sum uint64
				b := puzzle.Board{W: n, H: n}
				for q := range b.Size() {
					sum += kingSolve(t, fmt.Sprintf("kingpath:%dx%d:%s:%d", n, n, b.Name(puzzle.Square(q)), l), puzzle.Count, nil).Count
				}
				if sum != all {
					t.Errorf("kingpath:%dx%d:*:%d = %d, sum over starts %d", n, n, l, all, sum)
				}
			}
		}
		if total != a236690[n] {
			t.Errorf("%dx%d: %d paths of every length, A236690 says %d", n, n, total, a236690[n])
		}
	}
}

// TestKingPathFirstAll: every path emitted passes the checker, their number
// is the count, and first finds a path exactly when the count is not 0.
func TestKingPathFirstAll(t *testing.T) {
	for _, spec := range []string{"kingpath:3x3:a1:4", "kingpath:3x2:*:6", "kingpath:4x1:b1:4", "kingpath:4x1:a1:4", "kingpath:1x1:*:1", "kingpath:5x1:c1:4"} {
		s := puzzle.MustParse(spec)
		count := kingSolve(t, spec, puzzle.Count, nil).Count
		seen := map[string]bool{}
		all := kingSolve(t, spec, puzzle.All, func(sol puzzle.Solution) error {
			if err := puzzle.Check(s, sol); err != nil {
				t.Errorf("%s: emitted %v: %v", spec, sol.SquareNames(), err)
			}
			seen[fmt.Sprint(sol.Path)] = true
			return nil
		})
		if all.Count != count || uint64(len(seen)) != count {
			t.Errorf("%s: all counts %d, emits %d distinct, count says %d", spec, all.Count, len(seen), count)
		}
		first := kingSolve(t, spec, puzzle.First, nil)
		switch {
		case count == 0 && first.Status != puzzle.Unsat:
			t.Errorf("%s: no path, but first says %s", spec, first.Status)
		case count > 0 && (first.Solution == nil || puzzle.Check(s, *first.Solution) != nil):
			t.Errorf("%s: first gave %v", spec, first.Solution)
		}
	}
}

// BenchmarkKingPath4x4: the longest Boggle paths from an edge square
// (17,681, A063001).
func BenchmarkKingPath4x4(b *testing.B) {
	for b.Loop() {
		if n := kingSolve(b, "kingpath:4x4:b1:16", puzzle.Count, nil).Count; n != 17681 {
			b.Fatal(n)
		}
	}
}

// TestKingPathShards: the count's subproblems, split into shards, add up
// to the whole count, on one thread or two.
func TestKingPathShards(t *testing.T) {
	for _, spec := range []string{"kingpath:5x4:*:7", "kingpath:4x4:b2:9", "kingpath:3x3:*:1"} {
		whole := kingSolve(t, spec, puzzle.Count, nil).Count
		var sum uint64
		for k := 1; k <= 3; k++ {
			req := puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count, Threads: k%2 + 1,
				Split: &puzzle.SplitOptions{Shard: puzzle.Shard{K: k, N: 3}}}
			ans, err := search.Solve(context.Background(), req)
			if err != nil || ans.Status != puzzle.OK {
				t.Fatalf("%s shard %d/3: %v %s", spec, k, err, ans.Status)
			}
			sum += ans.Count
		}
		if sum != whole || whole == 0 {
			t.Errorf("%s: shards sum to %d, whole count %d", spec, sum, whole)
		}
	}
}

// TestKingPathTooLarge: a board past the limit is refused with an error
// (exit status 2 on the command line), not searched.
func TestKingPathTooLarge(t *testing.T) {
	req := puzzle.Request{Spec: puzzle.MustParse("kingpath:1000x1000:*:2"), Task: puzzle.Count}
	if _, err := search.Solve(context.Background(), req); err == nil {
		t.Fatal("kingpath:1000x1000:*:2 accepted")
	}
}

// TestKingPathShortClosedForm: paths of 2 and 3 squares from every start
// follow from the squares' degrees (a king has 8, 5 or 3 moves inside, on
// an edge, in a corner of an n x n board, n >= 2): sum deg and
// sum deg*(deg-1), computed here without any search.
func TestKingPathShortClosedForm(t *testing.T) {
	for _, n := range []uint64{2, 3, 7, 64, 300} {
		inner, edge, corner := (n-2)*(n-2), 4*(n-2), uint64(4)
		two := inner*8 + edge*5 + corner*3
		three := inner*8*7 + edge*5*4 + corner*3*2
		for l, want := range map[int]uint64{2: two, 3: three} {
			spec := fmt.Sprintf("kingpath:%dx%d:*:%d", n, n, l)
			if got := kingSolve(t, spec, puzzle.Count, nil).Count; got != want {
				t.Errorf("%s: %d, closed form %d", spec, got, want)
			}
		}
	}
}
