package compare

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/boardsat/boardsat/brute"  // the brute-force reference "check"
	_ "github.com/boardsat/boardsat/encode" // the real sat backends
	_ "github.com/boardsat/boardsat/native" // the real native backend
	"github.com/boardsat/boardsat/puzzle"
)

func mustList(t *testing.T, list string) []Pattern {
	t.Helper()
	ps, err := ParseList(list)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func names(vs []Variant) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

var opt = Options{Timeout: 30 * time.Second}

func TestPublishedAgreement(t *testing.T) {
	for _, tc := range []struct {
		spec string
		task puzzle.Task
		want string
	}{
		{"pieces:3x3:K1R2", puzzle.Count, "4"},
		{"pieces:4x4:R2N4", puzzle.Count, "8"},
		{"pieces:3x3:K1R2", puzzle.All, "4"},
		{"queens:5", puzzle.Count, "10"},
		{"queens:3", puzzle.First, "unsat"},
		{"queens:5", puzzle.First, "sat"},
	} {
		spec := puzzle.MustParse(tc.spec)
		vs := Expand(mustList(t, "test-brute/*"), spec.Puzzle())
		r := Run(context.Background(), spec, tc.task, vs, opt)
		if !r.OK() || r.Reference != tc.want || r.RefSource != "published" {
			var buf bytes.Buffer
			r.Print(&buf)
			t.Errorf("%s %s: ok=%v reference %s (%s), want %s published\n%s", tc.spec, tc.task, r.OK(), r.Reference, r.RefSource, tc.want, buf.String())
		}
		for _, o := range r.Outcomes {
			if o.Value != tc.want {
				t.Errorf("%s: %s answered %q, want %s", tc.spec, o.Variant, o.Value, tc.want)
			}
		}
	}
}

func TestWrongBackendIsNamed(t *testing.T) {
	spec := puzzle.MustParse("pieces:4x4:R2N4")
	r := Run(context.Background(), spec, puzzle.Count, Expand(mustList(t, "test-brute,test-wrong"), "pieces"), opt)
	if got := r.Disagreeing(); !slices.Equal(got, []string{"test-wrong"}) {
		t.Fatalf("disagreeing = %v, want [test-wrong]", got)
	}
	var buf bytes.Buffer
	r.Print(&buf)
	if !strings.Contains(buf.String(), "DISAGREEMENT on pieces:4x4:R2N4: test-wrong") || !strings.Contains(buf.String(), "(published)") {
		t.Errorf("report does not name the disagreement:\n%s", buf.String())
	}
	// Without a published value the brute force decides where it can
	// (52 by the checker alone)...
	spec = puzzle.MustParse("pieces:3x4:N2")
	r = Run(context.Background(), spec, puzzle.Count, Expand(mustList(t, "test-wrong,test-brute/plain"), "pieces"), opt)
	if r.RefSource != "check" || r.Reference != "52" || !slices.Equal(r.Disagreeing(), []string{"test-wrong"}) {
		t.Errorf("brute force: reference %s (%s), disagreeing %v", r.Reference, r.RefSource, r.Disagreeing())
	}
	// ... and the majority past its limits, whatever runs first.
	spec = puzzle.MustParse("pieces:7x6:N2")
	r = Run(context.Background(), spec, puzzle.Count, Expand(mustList(t, "test-wrong,test-brute/plain,test-brute/reversed"), "pieces"), opt)
	if r.RefSource != "majority" || !slices.Equal(r.Disagreeing(), []string{"test-wrong"}) {
		t.Errorf("majority: reference %s (%s), disagreeing %v", r.Reference, r.RefSource, r.Disagreeing())
	}
}

func TestUnreliableOnlyWhenNamed(t *testing.T) {
	Unreliable["test-wrong"] = "planted in a test"
	defer delete(Unreliable, "test-wrong")
	all := names(Expand(mustList(t, "all"), "pieces"))
	if slices.Contains(all, "test-wrong") || !slices.Contains(all, "test-brute/plain") || !slices.Contains(all, "test-brute/reversed") {
		t.Fatalf("all = %v: want test-brute's heuristics and not test-wrong", all)
	}
	if got := names(Expand(mustList(t, "all,test-wrong"), "pieces")); !slices.Contains(got, "test-wrong") {
		t.Fatalf("named, the known-wrong backend must be included: %v", got)
	}
	vs := Expand(mustList(t, "test-brute/*,test-wrong"), "pieces")
	r := Run(context.Background(), puzzle.MustParse("pieces:3x3:N2"), puzzle.Count, vs, opt)
	var buf bytes.Buffer
	r.Print(&buf)
	if !slices.Equal(r.Disagreeing(), []string{"test-wrong"}) || !strings.Contains(buf.String(), "known wrong: planted in a test") {
		t.Errorf("the known-wrong backend's disagreement must show and say so:\n%s", buf.String())
	}
}

func TestShrinkFindsPlantedBug(t *testing.T) {
	vs := Expand(mustList(t, "test-brute,test-wrong"), "pieces")
	for _, start := range []string{"pieces:4x5:K1B1N3", "pieces:5x3:Q1N2", "pieces:4x4:N4"} {
		r := Run(context.Background(), puzzle.MustParse(start), puzzle.Count, vs, opt)
		if r.OK() {
			t.Fatalf("%s: the planted bug should show", start)
		}
		g, _ := Generators.Lookup("pieces")
		m := Shrink(context.Background(), g, r, vs, opt)
		if m.Spec.String() != "pieces:3x3:N2" || m.OK() {
			t.Errorf("shrinking %s reached %s (ok=%v), want pieces:3x3:N2", start, m.Spec, m.OK())
		}
	}
}

func TestSweepShrinks(t *testing.T) {
	var log bytes.Buffer
	res, err := Sweep(context.Background(), []string{"pieces", "queens"}, Limits{MaxSide: 3, MaxPieces: 3, MaxQueens: 5},
		mustList(t, "test-brute,test-wrong"), opt, &log)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) == 0 || res.Minimal == nil {
		t.Fatalf("sweep found no disagreement:\n%s", log.String())
	}
	if got := res.Minimal.Spec.String(); got != "pieces:3x3:N2" {
		t.Errorf("minimal spec %s, want pieces:3x3:N2", got)
	}
	for _, f := range res.Failures {
		p := f.Spec.(puzzle.Pieces)
		if p.Count[puzzle.Knight] < 2 || p.Board.W < 3 || p.Board.H < 3 {
			t.Errorf("false alarm on %s", f.Spec)
		}
	}
	// Every instance with the planted condition was caught: 2 or 3 knights
	// (plus at most one other piece) on the 3x3 board.
	if len(res.Failures) != 6 {
		t.Errorf("%d failures, want 6", len(res.Failures))
	}
}

func TestSweepAgreesWithoutBug(t *testing.T) {
	res, err := Sweep(context.Background(), []string{"pieces"}, Limits{MaxSide: 3, MaxPieces: 2},
		mustList(t, "test-brute/*"), opt, &bytes.Buffer{})
	if err != nil || len(res.Failures) != 0 || res.Minimal != nil {
		t.Fatalf("err %v, failures %d", err, len(res.Failures))
	}
	// Boards 1x1..3x3 (9) with every multiset of 1 or 2 pieces (5 + 15) that fits.
	if res.Instances == 0 || res.Runs != 2*res.Instances {
		t.Errorf("instances %d runs %d", res.Instances, res.Runs)
	}
}

func TestParseListErrors(t *testing.T) {
	for _, bad := range []string{"nosuch", "test-brute/nosuch", "test-brute/plain/extra", "", "test-brute,,", "native/nosuchheuristic"} {
		if _, err := ParseList(bad); err == nil {
			t.Errorf("ParseList(%q) accepted", bad)
		}
	}
	v, err := ParseVariant("test-brute/reversed")
	if err != nil || v.String() != "test-brute/reversed" || v.Request(puzzle.Queens{N: 4}, puzzle.Count).Heuristic != "reversed" {
		t.Errorf("ParseVariant: %v %v", v, err)
	}
	if _, err := ParseVariant("test-brute/*"); err == nil {
		t.Error("a pattern is not a variant")
	}
}

func TestSkippedIsNotFailure(t *testing.T) {
	// test-brute does not do tours: skipped, not a disagreement.
	spec := puzzle.MustParse("tour:5x5:a1")
	r := Run(context.Background(), spec, puzzle.Count, Expand(mustList(t, "test-brute"), "tour"), opt)
	if !r.OK() || r.Outcomes[0].Skipped == nil {
		t.Errorf("want one skipped outcome, got %+v", r.Outcomes)
	}
}

// TestRealQueens runs every registered reliable variant for queens on small
// boards: they must agree with the published counts (and the checker).
func TestRealQueens(t *testing.T) {
	vs := Expand(mustList(t, "all"), "queens")
	vs = slices.DeleteFunc(vs, func(v Variant) bool { return strings.HasPrefix(v.Backend, "test-") })
	if len(vs) < 3 {
		t.Fatalf("only %d real queens variants registered: %v", len(vs), names(vs))
	}
	t.Logf("variants: %v", names(vs))
	for n := 1; n <= 8; n++ {
		for _, task := range []puzzle.Task{puzzle.Count, puzzle.First} {
			r := Run(context.Background(), puzzle.Queens{N: n}, task, vs, opt)
			if !r.OK() {
				var buf bytes.Buffer
				r.Print(&buf)
				t.Errorf("queens:%d %s:\n%s", n, task, buf.String())
			}
		}
	}
}
