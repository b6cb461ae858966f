package tour

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/native/search"

	"github.com/boardsat/boardsat/puzzle"
)

// TestSplitAgreesWithFrontier: the split counter and the frontier DP agree
// on closed tours of small boards (up to 48 squares) and on open tours from
// all starts (up to 36), both orientations; on open tours of up to 25
// squares the exhaustive counter agrees too.
func TestSplitAgreesWithFrontier(t *testing.T) {
	var specs []string
	for w := 3; w <= 6; w++ {
		for h := w; h <= 9; h++ {
			for _, closed := range []bool{true, false} {
				if closed && (h > 8 || w*h > 48) || !closed && (h < 4 || w*h > 36) {
					continue
				}
				specs = append(specs, puzzle.Tour{Board: puzzle.Board{W: w, H: h}, Closed: closed, AllStarts: !closed}.String(),
					puzzle.Tour{Board: puzzle.Board{W: h, H: w}, Closed: closed, AllStarts: !closed}.String())
			}
		}
	}
	specs = append(specs, "tour:3x10:a1:closed", "tour:3x12:a1:closed", "tour:12x3:a1:closed", "tour:3x12:*", "tour:12x3:*", "tour:4x10:*")
	for _, spec := range specs {
		want := tourRun(t, "frontier", spec, puzzle.Count)
		got := tourRun(t, "split", spec, puzzle.Count)
		if got.CountString() != want.CountString() || got.Status != want.Status {
			t.Errorf("%s: split %s (%s) %s, frontier %s (%s)", spec, got.CountString(), got.Status, got.Message, want.CountString(), want.Status)
			continue
		}
		if tr := puzzle.MustParse(spec).(puzzle.Tour); !tr.Closed && tr.Board.Size() <= 25 {
			if ex := tourRun(t, "exhaustive", spec, puzzle.Count); ex.CountString() != got.CountString() {
				t.Errorf("%s: split and frontier %s, exhaustive %s", spec, got.CountString(), ex.CountString())
			}
		}
		t.Logf("%s: %s", spec, got.CountString())
	}
}

// TestSplitHalfSizes: the half DP sizes of the estimate's table
// (splitHalfStates) are the sizes the half DP has now, for every entry of
// up to 300,000 states (the larger ones were measured the same way, in
// runs of minutes), and the estimate returns them.
func TestSplitHalfSizes(t *testing.T) {
	for closed, tab := range splitHalfStates {
		for wr, want := range tab {
			if want > 300_000 {
				continue
			}
			w, r := wr[0], wr[1]
			res := newHalfPlan(w, 2*r, r, !closed).run(context.Background(), 2, nil)
			if got := max(res.peak, int64(len(res.table))); got != want {
				t.Errorf("closed %v, half %dx%d: %d states at most, table says %d", closed, w, r, got, want)
			}
			if e := splitEstimate(w, 2*r, closed); e != want {
				t.Errorf("closed %v: splitEstimate(%d, %d) = %d, want the table's %d", closed, w, 2*r, e, want)
			}
		}
	}
}

// TestSplitOpenOneStart: the split counter takes open tours from all
// starts only; a fixed start is refused with the reason.
func TestSplitOpenOneStart(t *testing.T) {
	_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("tour:6x6:a1"), Task: puzzle.Count, Heuristic: "split"})
	if err == nil || !strings.Contains(err.Error(), "from all starts only") {
		t.Errorf("split tour:6x6:a1: %v, want a refusal naming all starts", err)
	}
}

// TestAggTableZeroKey: the join's table sums the counts of the zero key
// (an open tour's pairing of square 0 alone, leading to a path end) like
// any other, across growth.
func TestAggTableZeroKey(t *testing.T) {
	a := newAggTable()
	want := map[uint64]uint64{}
	for i := range uint64(5000) {
		k := i % 7 * 0x1111 // key 0 every seventh add
		if a.add(k, i+1) {
			t.Fatal("overflow")
		}
		want[k] += i + 1
	}
	got := map[uint64]uint64{}
	for _, i := range a.used {
		if _, dup := got[a.key(i)]; dup {
			t.Fatalf("key %#x listed twice", a.key(i))
		}
		got[a.key(i)] = a.vals[i]
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sums %v, want %v", got, want)
	}
}

// TestSplitKnown: published tour counts (puzzle's tour table) from the
// split counter. Closed: 6x6, 5x6, 6x7, 6x8 and the 3 x n and 5 x n
// tables, in both orientations, and the boards without a closed tour
// (8x4). Open from all starts (directed): 5x5 and 6x6 (A165134) and the
// 3 x n and 5 x n tables, both orientations.
func TestSplitKnown(t *testing.T) {
	specs := []string{"tour:6x6:a1:closed", "tour:5x6:a1:closed", "tour:6x5:a1:closed", "tour:6x7:a1:closed", "tour:7x6:a1:closed",
		"tour:6x8:a1:closed", "tour:8x6:a1:closed", "tour:8x4:a1:closed", "tour:5x5:*", "tour:6x6:*"}
	for n := 10; n <= 16; n++ {
		specs = append(specs, fmt.Sprintf("tour:3x%d:a1:closed", n), fmt.Sprintf("tour:%dx3:b1:closed", n))
		if n%3 == 1 {
			specs = append(specs, fmt.Sprintf("tour:3x%d:*", n), fmt.Sprintf("tour:%dx3:*", n))
		}
	}
	for n := 6; n <= 10; n++ {
		specs = append(specs, fmt.Sprintf("tour:5x%d:a1:closed", n), fmt.Sprintf("tour:%dx5:b1:closed", n))
		if n <= 8 {
			specs = append(specs, fmt.Sprintf("tour:5x%d:*", n), fmt.Sprintf("tour:%dx5:*", n))
		}
	}
	for _, spec := range specs {
		tourRunKnown(t, "split", spec)
	}
}

// TestSplitShards: the shards of a split count add up to the whole count,
// and a checkpointed count resumed from its file gives it again without
// solving anything; for closed tours and for open tours from all starts.
func TestSplitShards(t *testing.T) {
	for _, c := range []struct {
		spec string
		want uint64
	}{{"tour:6x7:a1:closed", 1067638}, {"tour:6x6:*", 6637920}} {
		spec := puzzle.MustParse(c.spec)
		whole := tourRun(t, "split", spec.String(), puzzle.Count)
		var sum uint64
		for k := 1; k <= 3; k++ {
			a, err := search.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Count, Threads: 2,
				Split: &puzzle.SplitOptions{Shard: puzzle.Shard{K: k, N: 3}}})
			if err != nil || a.Status != puzzle.OK {
				t.Fatalf("%s shard %d/3: %v %s", spec, k, err, a.Status)
			}
			if a.Method != "split" {
				t.Errorf("%s shard %d/3 ran %q, want split", spec, k, a.Method)
			}
			sum += a.Count
		}
		if fmt.Sprint(sum) != whole.CountString() || sum != c.want {
			t.Errorf("%s: shards add up to %d, whole count %s, want %d", spec, sum, whole.CountString(), c.want)
		}
		ck := filepath.Join(t.TempDir(), "ck.json")
		for run := range 2 {
			opts := &puzzle.SplitOptions{Checkpoint: ck}
			a, err := search.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Count, Heuristic: "split", Split: opts})
			rep := opts.Ran
			if err != nil || a.Status != puzzle.OK || a.Count != c.want {
				t.Fatalf("%s checkpointed run %d: %v %s %s", spec, run, err, a.Status, a.CountString())
			}
			if rep == nil {
				t.Fatal("no split report")
			}
			if want := run * rep.Subproblems; rep.Resumed != want || rep.Subproblems == 0 {
				t.Errorf("%s run %d resumed %d of %d subproblems, want %d", spec, run, rep.Resumed, rep.Subproblems, want)
			}
		}
	}
}

// TestSplitAuto: auto counts closed tours, and open tours from all
// starts, of boards over 30 squares with the split counter or the frontier
// DP and names the method; a board no exact method takes is refused with
// the estimates.
func TestSplitAuto(t *testing.T) {
	for _, c := range []struct{ spec, method string }{
		{"tour:6x6:a1:closed", "split"}, {"tour:8x6:a1:closed", "split"}, {"tour:5x14:a1:closed", "frontier"},
		{"tour:5x5:a1", "exhaustive"}, {"tour:5x6:a1:closed", "exhaustive"},
		{"tour:6x6:*", "split"}, {"tour:3x24:*", "frontier"}, {"tour:5x6:*", "exhaustive"},
	} {
		spec := puzzle.MustParse(c.spec)
		a, err := search.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Count})
		want, ok := puzzle.KnownCount(spec, puzzle.Count)
		if err != nil || !ok || a.Method != c.method || a.CountString() != fmt.Sprint(want) {
			t.Errorf("%s: %v method %q count %s, want %q %d", c.spec, err, a.Method, a.CountString(), c.method, want)
		}
	}
	for _, spec := range []string{"tour:10x10:a1:closed", "tour:9x12:a1:closed", "tour:8x8:*"} {
		_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count})
		if err == nil || !strings.Contains(err.Error(), "split: refused") || !strings.Contains(err.Error(), "interfaces") ||
			!strings.Contains(err.Error(), "frontier: refused") {
			t.Errorf("%s: %v, want both refusals with their estimates", spec, err)
		}
	}
	for _, spec := range []string{"tour:8x8:*", "tour:9x10:a1:closed"} {
		_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count, Heuristic: "split"})
		if err == nil {
			t.Errorf("split %s: no refusal", spec)
		}
	}
}

// benchmarkSplitKnown benchmarks the split count of a spec with a published
// count, reporting the half-DP states.
func benchmarkSplitKnown(b *testing.B, spec string) {
	want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
	if !ok {
		b.Fatalf("no published count for %s", spec)
	}
	for b.Loop() {
		a := tourRun(b, "split", spec, puzzle.Count)
		if a.Status != puzzle.OK || a.CountString() != fmt.Sprint(want) {
			b.Fatalf("%s: %s %s, want %d", spec, a.Status, a.CountString(), want)
		}
		b.ReportMetric(float64(a.Stats[puzzle.StatStates]), "states")
	}
}

func BenchmarkSplit6x8Closed(b *testing.B) { benchmarkSplitKnown(b, "tour:6x8:a1:closed") }

// BenchmarkSplit6x6Open and BenchmarkSplit7x7Open: open tours from all
// starts, 6,637,920 and 165,575,218,320 (A165134).
func BenchmarkSplit6x6Open(b *testing.B)   { benchmarkSplitKnown(b, "tour:6x6:*") }
func BenchmarkSplit7x7Open(b *testing.B)   { benchmarkSplitKnown(b, "tour:7x7:*") }
func BenchmarkSplit7x8Closed(b *testing.B) { benchmarkSplitKnown(b, "tour:7x8:a1:closed") }

// BenchmarkSplit8x8Closed: McKay's 13,267,364,410,532 (A001230); hours on
// two cores so far (see the note), not minutes.
func BenchmarkSplit8x8Closed(b *testing.B) { benchmarkSplitKnown(b, "tour:8x8:a1:closed") }

// TestSplitStage: the half DPs report their progress (square of squares,
// states) through SplitOptions.Stage, and the join its subproblems through
// Progress.
func TestSplitStage(t *testing.T) {
	var notes []string
	last, total := 0, 0
	opts := &puzzle.SplitOptions{
		Stage:    func(done, n int, note string) { notes = append(notes, note) },
		Progress: func(done, n int) { last, total = done, n },
	}
	a, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("tour:5x6:a1:closed"), Task: puzzle.Count,
		Heuristic: "split", Split: opts})
	if err != nil || a.Count != 8 {
		t.Fatalf("5x6 closed: %v %s", err, a.CountString())
	}
	if len(notes) == 0 || !strings.HasPrefix(notes[0], "squares of half 1: ") || !strings.Contains(notes[len(notes)-1], "states") {
		t.Errorf("stage notes %q", notes)
	}
	if total == 0 || last != total {
		t.Errorf("progress %d of %d", last, total)
	}
}

// TestSplitFirst: auto's order of the two exact counters follows the
// boards measured (split first up to twice as long as wide).
func TestSplitFirst(t *testing.T) {
	for _, c := range []struct {
		w, h int
		want bool
	}{{6, 6, true}, {6, 8, true}, {7, 8, true}, {8, 8, true}, {7, 9, true}, {6, 10, true}, {7, 10, true}, {6, 12, true}, {6, 13, false}, {6, 16, false}, {5, 14, false}} {
		if got := splitFirst(c.w, c.h); got != c.want {
			t.Errorf("splitFirst(%d, %d) = %v, want %v", c.w, c.h, got, c.want)
		}
	}
}

// TestSplitAutoFallsBackOnError: when the first counter answers with an
// error (split's 64-bit overflow) rather than a refusal, auto counts with
// the other one and names the error among its fallbacks; when the last
// one errs, its error answer stands (never a count with status ok).
func TestSplitAutoFallsBackOnError(t *testing.T) {
	saved := slices.Clone(exactCounters)
	t.Cleanup(func() { copy(exactCounters, saved) })
	exactCounters[0].solve = func(context.Context, puzzle.Request) (puzzle.Answer, error) {
		return puzzle.Answer{Status: puzzle.Error, Message: "a subproblem's count overflowed 64 bits"}, nil
	}
	spec := puzzle.MustParse("tour:6x8:a1:closed")
	a, err := search.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Count})
	want, _ := puzzle.KnownCount(spec, puzzle.Count)
	if err != nil || a.Status != puzzle.OK || a.Method != "frontier" || a.CountString() != fmt.Sprint(want) ||
		len(a.Fallbacks) != 1 || !strings.Contains(a.Fallbacks[0], "split: error: a subproblem's count overflowed") {
		t.Errorf("6x8 with split erring: %v %s method %q count %s fallbacks %q, want frontier's %d after split's error", err, a.Status, a.Method, a.CountString(), a.Fallbacks, want)
	}
	// 5x14 goes to the frontier DP first; with it erring, split answers.
	exactCounters[0].solve = saved[0].solve
	exactCounters[1].solve = func(context.Context, puzzle.Request) (puzzle.Answer, error) {
		return puzzle.Answer{Status: puzzle.Error, Message: "broken"}, nil
	}
	spec = puzzle.MustParse("tour:5x14:a1:closed")
	a, err = search.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Count})
	want, _ = puzzle.KnownCount(spec, puzzle.Count)
	if err != nil || a.Status != puzzle.OK || a.Method != "split" || a.CountString() != fmt.Sprint(want) {
		t.Errorf("5x14 with frontier erring: %v %s method %q count %s, want split's %d", err, a.Status, a.Method, a.CountString(), want)
	}
	// Both erring: the last error answer stands.
	exactCounters[0].solve = exactCounters[1].solve
	a, err = search.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Count})
	if err == nil && a.Status == puzzle.OK {
		t.Errorf("5x14 with both counters erring: status ok, count %s", a.CountString())
	}
}

// TestSplitOrbit: of each orbit of pairs (top need vector, bottom need
// vector) under the left-right mirror (and the up-down flip), exactly one
// pair is joined, weighted by the orbit's number of distinct pairs, and it
// is one whose bottom need vector has the fewest interfaces.
func TestSplitOrbit(t *testing.T) {
	const w = 3
	var needs []uint32
	for d := uint32(0); d < 1<<(4*w); d += 37 {
		needs = append(needs, d)
	}
	size := func(d uint32) int32 { return int32(d%5 + splitMirror(d, w)%5) } // mirror images alike
	for _, flip := range []bool{false, true} {
		for _, d := range needs {
			for _, dB := range needs {
				orbit := map[[2]uint32]bool{{d, dB}: true, {splitMirror(d, w), splitMirror(dB, w)}: true}
				if flip {
					orbit[[2]uint32{dB, d}] = true
					orbit[[2]uint32{splitMirror(dB, w), splitMirror(d, w)}] = true
				}
				joined, least := 0, int32(1<<30)
				for p := range orbit {
					least = min(least, size(p[1]))
				}
				for p := range orbit {
					n := splitOrbit(p[0], p[1], splitMirror(p[0], w), splitMirror(p[1], w), size(p[0]), size(p[1]), flip)
					switch {
					case n == 0:
					case n != uint64(len(orbit)) || size(p[1]) != least:
						t.Fatalf("flip %v: pair %v of orbit %v weighs %d (bottom size %d, least %d)", flip, p, orbit, n, size(p[1]), least)
					default:
						joined++
					}
				}
				if joined != 1 {
					t.Fatalf("flip %v: orbit %v joined %d times", flip, orbit, joined)
				}
			}
		}
	}
}

// TestSplitRefusalInRealUnits: under a budget of 200 MiB (solve --mem
// 223M, say) the split counter's refusal names the budget and the need in
// units that show them, not "0 GiB".
func TestSplitRefusalInRealUnits(t *testing.T) {
	defer membudget.Set(math.MaxInt64)
	membudget.Set(200 << 20)
	_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("tour:7x7:*"), Task: puzzle.Count, Heuristic: "split"})
	if err == nil || !strings.Contains(err.Error(), "over its memory budget of 200 MiB") || strings.Contains(err.Error(), " 0 GiB") {
		t.Errorf("split under 200 MiB: %v", err)
	}
}
