package tour

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// tourRun asks the native backend about a tour spec.
func tourRun(t testing.TB, heuristic, spec string, task puzzle.Task) puzzle.Answer {
	t.Helper()
	a, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Heuristic: heuristic})
	if err != nil {
		t.Fatalf("%s %s %s: %v", heuristic, spec, task, err)
	}
	return a
}

// tourRunKnown runs a count with the strategy and fails unless it gives
// the spec's published count (status ok, or unsat for none).
func tourRunKnown(t testing.TB, heuristic, spec string) puzzle.Answer {
	t.Helper()
	want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
	if !ok {
		t.Fatalf("no published count for %s", spec)
	}
	a := tourRun(t, heuristic, spec, puzzle.Count)
	if a.CountString() != fmt.Sprint(want) || (a.Status == puzzle.OK) != (want > 0) {
		t.Errorf("%s %s: %s %s, want %d", heuristic, spec, a.Status, a.CountString(), want)
	}
	return a
}

// tourMustCheck fails unless a is an OK answer whose tour passes the checker.
func tourMustCheck(t testing.TB, what, spec string, a puzzle.Answer) {
	t.Helper()
	if a.Status != puzzle.OK || a.Solution == nil {
		t.Fatalf("%s %s: status %s (%s), want a tour", what, spec, a.Status, a.Message)
	}
	if err := puzzle.Check(puzzle.MustParse(spec), *a.Solution); err != nil {
		t.Fatalf("%s %s: checker: %v", what, spec, err)
	}
}

// tourBrute counts tours by plain depth-first search, sharing no code with
// the solvers: open tours directed from start (all starts if start < 0),
// closed tours as directed cycles through square 0, halved.
func tourBrute(b puzzle.Board, start int, closed bool) uint64 {
	n := b.Size()
	knight := func(s, u int) bool {
		df, dr := s%b.W-u%b.W, s/b.W-u/b.W
		return df*dr == 2 || df*dr == -2
	}
	seen := make([]bool, n)
	var count uint64
	var walk func(s, depth, first int)
	walk = func(s, depth, first int) {
		if depth == n {
			if !closed || (n > 2 && knight(s, first)) {
				count++
			}
			return
		}
		for u := range n {
			if !seen[u] && knight(s, u) {
				seen[u] = true
				walk(u, depth+1, first)
				seen[u] = false
			}
		}
	}
	run := func(s int) {
		seen[s] = true
		walk(s, 1, s)
		seen[s] = false
	}
	switch {
	case closed:
		run(0)
		return count / 2
	case start >= 0:
		run(start)
	default:
		for s := range n {
			run(s)
		}
	}
	return count
}

func TestTourCountKnown(t *testing.T) {
	for _, spec := range []string{
		"tour:5x5:a1", "tour:5x5:e1", "tour:5x5:a5", "tour:5x5:e5", "tour:5x5:*",
		"tour:6x6:*:closed", "tour:6x6:a1:closed", "tour:6x6:c4:closed",
	} {
		want, ok := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
		if !ok {
			t.Fatalf("no known count for %s", spec)
		}
		for _, h := range []string{"exhaustive", ""} {
			a := tourRun(t, h, spec, puzzle.Count)
			if a.Status != puzzle.OK || a.Count != want {
				t.Errorf("%s %q: status %s count %d, want %d", spec, h, a.Status, a.Count, want)
			}
			// auto counts closed 6x6 with the split DP, which reports
			// states, not search nodes.
			if stat := puzzle.StatNodes; a.Stats[stat] <= 0 && (a.Method != "split" || a.Stats[puzzle.StatStates] <= 0) {
				t.Errorf("%s %q (%s): no nodes or states reported", spec, h, a.Method)
			}
		}
	}
}

// TestTourCountUnsat: boards without closed (or open) tours answer unsat
// with count 0, not an error.
func TestTourCountUnsat(t *testing.T) {
	for _, spec := range []string{
		"tour:5x5:*:closed", "tour:4x6:a1:closed", "tour:4x4:*", "tour:4x4:a1",
		"tour:3x3:*", "tour:7x7:a1:closed", "tour:101x101:a1:closed", "tour:4x1000:*:closed",
		"tour:1x1:a1:closed", "tour:5x5:b1", "tour:3x4:b2",
	} {
		want, known := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
		if known && want != 0 {
			t.Fatalf("%s is known to have %d tours", spec, want)
		}
		for _, task := range []puzzle.Task{puzzle.Count, puzzle.First} {
			a := tourRun(t, "exhaustive", spec, task)
			if a.Status != puzzle.Unsat || a.Count != 0 || a.Solution != nil {
				t.Errorf("%s %s: status %s count %d, want unsat 0", spec, task, a.Status, a.Count)
			}
		}
	}
}

// TestTourCountBrute compares the exhaustive counter with a plain
// brute-force count on small boards, from every start, all starts, closed.
func TestTourCountBrute(t *testing.T) {
	boards := []puzzle.Board{{W: 1, H: 1}, {W: 1, H: 3}, {W: 2, H: 2}, {W: 2, H: 3}, {W: 3, H: 3}, {W: 3, H: 4}, {W: 4, H: 3}, {W: 3, H: 7}, {W: 4, H: 4}, {W: 4, H: 5}, {W: 5, H: 4}, {W: 3, H: 8}, {W: 5, H: 6}, {W: 3, H: 10}}
	for _, b := range boards {
		for s := -1; s < b.Size(); s++ {
			tour := puzzle.Tour{Board: b, Start: puzzle.Square(max(s, 0)), AllStarts: s < 0}
			if b.Size() > 24 || (b.Size() > 20 && s >= 0) {
				continue // brute force from every start only on the smaller boards
			}
			want := tourBrute(b, s, false)
			a := tourRun(t, "exhaustive", tour.String(), puzzle.Count)
			if a.Count != want || (want > 0) != (a.Status == puzzle.OK) {
				t.Errorf("%s: count %d status %s, brute force %d", tour, a.Count, a.Status, want)
			}
		}
		if b.Size() > 24 {
			continue
		}
		tour := puzzle.Tour{Board: b, AllStarts: true, Closed: true}
		want := tourBrute(b, 0, true)
		a := tourRun(t, "exhaustive", tour.String(), puzzle.Count)
		if a.Count != want {
			t.Errorf("%s: count %d, brute force %d", tour, a.Count, want)
		}
	}
}

func TestTourCountThreads(t *testing.T) {
	for _, threads := range []int{1, 2, 3} {
		a, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("tour:5x5:*"), Task: puzzle.Count, Threads: threads})
		if err != nil || a.Count != 1728 {
			t.Errorf("threads %d: %d %v, want 1728", threads, a.Count, err)
		}
	}
}

// TestTourCountRefused: the exhaustive counter refuses boards past its
// limits (auto counts the closed ones with split or frontier instead:
// TestSplitAuto).
func TestTourCountRefused(t *testing.T) {
	for _, spec := range []string{"tour:7x7:a1", "tour:6x7:*", "tour:8x8:*:closed", "tour:6x8:a1:closed"} {
		_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: puzzle.Count, Heuristic: "exhaustive"})
		if err == nil || !strings.Contains(err.Error(), "refuses") {
			t.Errorf("%s: err %v, want a refusal", spec, err)
		}
	}
	// Heuristic finders do not count.
	_, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("tour:5x5:a1"), Task: puzzle.Count, Heuristic: "warnsdorff"})
	if err == nil {
		t.Errorf("warnsdorff count: want an error")
	}
}

func TestTourTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	a, err := search.Solve(ctx, puzzle.Request{Spec: puzzle.MustParse("tour:6x6:*"), Task: puzzle.Count})
	if err != nil || a.Status != puzzle.Timeout {
		t.Errorf("6x6 count with 50ms: status %s err %v, want timeout", a.Status, err)
	}
}

// TestTourSeed: Warnsdorff's rule, first minimum in the seed's move order,
// reproduces the seed's 8x8 tour from a1 (the seed prints rank 1 first).
func TestTourSeed(t *testing.T) {
	seed := [][]int{
		{1, 16, 51, 34, 3, 18, 21, 36},
		{50, 33, 2, 17, 52, 35, 4, 19},
		{15, 64, 49, 56, 45, 20, 37, 22},
		{32, 55, 44, 63, 48, 53, 42, 5},
		{61, 14, 57, 54, 43, 46, 23, 38},
		{28, 31, 62, 47, 58, 41, 6, 9},
		{13, 60, 29, 26, 11, 8, 39, 24},
		{30, 27, 12, 59, 40, 25, 10, 7},
	}
	a := tourRun(t, "warnsdorff", "tour:8x8:a1", puzzle.First)
	tourMustCheck(t, "warnsdorff", "tour:8x8:a1", a)
	if a.Stats[puzzle.StatBacktracks] != 0 || a.Stats[puzzle.StatNodes] != 63 {
		t.Errorf("stats %v, want 63 nodes and no backtracks", a.Stats)
	}
	b := a.Solution.Board
	for i, s := range a.Solution.Path {
		f, r := b.FileRank(s)
		if seed[r][f] != i+1 {
			t.Fatalf("step %d on %s, the seed has %d there", i+1, b.Name(s), seed[r][f])
		}
	}
}

var tourFinderNames = []string{
	"warnsdorff", "warnsdorff+bt", "warnsdorff-pohl", "warnsdorff-pohl+bt",
	"warnsdorff-roth", "warnsdorff-roth+bt", "warnsdorff-random", "warnsdorff-random+bt",
	"divide", "exhaustive", "",
}

// TestTourFinders: every tour a finder reports passes the checker; the
// backtracking finders, divide and exhaustive find tours wherever the specs
// below have them; no finder claims unsat where a tour exists.
func TestTourFinders(t *testing.T) {
	specs := []string{
		"tour:5x5:a1", "tour:5x5:c3", "tour:6x6:b2", "tour:8x8:a1", "tour:8x8:d5", "tour:7x7:d4",
		"tour:10x10:e4", "tour:9x12:c2", "tour:6x6:a1:closed", "tour:8x8:c2:closed", "tour:10x7:*:closed",
		"tour:12x12:*", "tour:30x30:a1", "tour:31x33:p16", "tour:32x30:f9:closed",
	}
	for _, h := range tourFinderNames {
		for _, spec := range specs {
			if h == "exhaustive" && puzzle.MustParse(spec).(puzzle.Tour).Board.Size() > 144 {
				continue
			}
			a := tourRun(t, h, spec, puzzle.First)
			if a.Status == puzzle.Unsat {
				t.Errorf("%s %s: unsat, but a tour exists", h, spec)
			}
			small := puzzle.MustParse(spec).(puzzle.Tour).Board.Size() <= 100
			needed := (small && strings.HasSuffix(h, "+bt")) || h == "divide" || h == "exhaustive" || h == ""
			if h == "divide" && strings.HasPrefix(spec, "tour:5x5") {
				needed = true
			}
			if a.Status == puzzle.OK || needed {
				tourMustCheck(t, h, spec, a)
			} else if a.Status != puzzle.Error || !strings.Contains(a.Message, "not found") {
				t.Errorf("%s %s: status %s %q, want ok or error not found", h, spec, a.Status, a.Message)
			}
		}
	}
}

// TestTourFinderHonest: where no tour exists but no structural rule says so
// (3x4 from b2), heuristics say "not found" and only exhaustive says unsat.
func TestTourFinderHonest(t *testing.T) {
	for _, spec := range []string{"tour:3x4:b2", "tour:3x4:a2"} {
		for _, h := range tourFinderNames {
			a := tourRun(t, h, spec, puzzle.First)
			want := puzzle.Error
			if h == "exhaustive" || h == "" {
				want = puzzle.Unsat
			}
			if a.Status != want {
				t.Errorf("%s %s: status %s, want %s", h, spec, a.Status, want)
			}
		}
	}
	// Structural impossibility is a proof for every strategy.
	for _, spec := range []string{"tour:5x5:a1:closed", "tour:4x4:a1", "tour:9x9:b1"} {
		for _, h := range tourFinderNames {
			if a := tourRun(t, h, spec, puzzle.First); a.Status != puzzle.Unsat {
				t.Errorf("%s %s: status %s, want unsat", h, spec, a.Status)
			}
		}
	}
}

// TestTourDivideSweep: divide finds checked tours on every board with sides
// 5 to 20, open from several starts and closed where closed tours exist.
func TestTourDivideSweep(t *testing.T) {
	top := 20
	if testing.Short() {
		top = 12
	}
	for w := 5; w <= top; w++ {
		for h := 5; h <= top; h++ {
			b := puzzle.Board{W: w, H: h}
			starts := []puzzle.Square{0, b.Sq(w-1, h-1), b.Sq(w/2, h/2), b.Sq(1, 2), b.Sq(w-2, h/3)}
			for _, s := range starts {
				tour := puzzle.Tour{Board: b, Start: s}
				if tourImpossible(tour) != "" {
					continue
				}
				tourMustCheck(t, "divide", tour.String(), tourRun(t, "divide", tour.String(), puzzle.First))
			}
			tour := puzzle.Tour{Board: b, Start: b.Sq(w/2, h/2), Closed: true}
			a := tourRun(t, "divide", tour.String(), puzzle.First)
			if tourClosedImpossible(b) != "" {
				if a.Status != puzzle.Unsat {
					t.Errorf("%s: status %s, want unsat", tour, a.Status)
				}
				continue
			}
			tourMustCheck(t, "divide", tour.String(), a)
		}
	}
}

func TestTourLarge(t *testing.T) {
	odd := puzzle.Board{W: 1001, H: 999}
	specs := []string{"tour:1000x1000:a1", "tour:999x1001:b1:closed",
		puzzle.Tour{Board: odd, Start: odd.Sq(500, 400)}.String(), puzzle.Tour{Board: odd, Start: odd.Sq(500, 401)}.String()}
	if testing.Short() {
		specs = specs[:1]
	}
	for _, spec := range specs {
		want := puzzle.OK
		if tourImpossible(puzzle.MustParse(spec).(puzzle.Tour)) != "" {
			want = puzzle.Unsat
		}
		a := tourRun(t, "", spec, puzzle.First)
		if want == puzzle.Unsat {
			if a.Status != puzzle.Unsat {
				t.Errorf("%s: status %s, want unsat", spec, a.Status)
			}
			continue
		}
		tourMustCheck(t, "auto", spec, a)
	}
}

func TestTourClosedEveryStart(t *testing.T) {
	b := puzzle.Board{W: 6, H: 6}
	for s := range b.Size() {
		spec := puzzle.Tour{Board: b, Start: puzzle.Square(s), Closed: true}.String()
		for _, h := range []string{"exhaustive", "warnsdorff-roth+bt", "divide"} {
			tourMustCheck(t, h, spec, tourRun(t, h, spec, puzzle.First))
		}
	}
}

// TestTourSuccessTable writes the success-rate table of the finders: for
// every n x n board with 5 <= n <= BOARDSAT_TOUR_TABLE_MAX (default 100), every
// heuristic, every start. Set BOARDSAT_TOUR_TABLE to the CSV path to run it
// (columns n, heuristic, starts, successes, seconds). Starts from which no
// open tour can exist (minority colour on odd boards) are left out.
func TestTourSuccessTable(t *testing.T) {
	path := os.Getenv("BOARDSAT_TOUR_TABLE")
	if path == "" {
		t.Skip("set BOARDSAT_TOUR_TABLE=out.csv (and BOARDSAT_TOUR_TABLE_MAX) to write the success-rate table")
	}
	maxN := 100
	if v := os.Getenv("BOARDSAT_TOUR_TABLE_MAX"); v != "" {
		maxN, _ = strconv.Atoi(v)
	}
	minN := 5
	if v := os.Getenv("BOARDSAT_TOUR_TABLE_MIN"); v != "" {
		minN, _ = strconv.Atoi(v)
	}
	// BOARDSAT_TOUR_TABLE_STARTS > 0 samples that many starts per board,
	// evenly spaced in square order, instead of every start.
	sample := 0
	if v := os.Getenv("BOARDSAT_TOUR_TABLE_STARTS"); v != "" {
		sample, _ = strconv.Atoi(v)
	}
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	w := csv.NewWriter(file)
	w.Write([]string{"n", "heuristic", "starts", "successes", "seconds"})
	finders := []struct {
		name string
		tie  tourTie
		bt   bool
	}{
		{"warnsdorff", tourTieFirst, false}, {"warnsdorff+bt", tourTieFirst, true},
		{"warnsdorff-pohl", tourTiePohl, false}, {"warnsdorff-pohl+bt", tourTiePohl, true},
		{"warnsdorff-roth", tourTieRoth, false}, {"warnsdorff-roth+bt", tourTieRoth, true},
		{"warnsdorff-random", tourTieRandom, false}, {"warnsdorff-random+bt", tourTieRandom, true},
		{"divide", 0, false},
	}
	type row struct {
		n                 int
		name              string
		starts, successes int
		seconds           float64
	}
	var mu sync.Mutex
	for n := minN; n <= maxN; n++ {
		b := puzzle.Board{W: n, H: n}
		g := newTourGraph(b)
		rows := make([]row, len(finders))
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.NumCPU())
		for i, fd := range finders {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				start := time.Now()
				r := row{n: n, name: fd.name}
				var f *tourFinder
				if fd.name != "divide" {
					f = newTourFinder(g, fd.tie, false, fd.bt)
				}
				step := 1
				if sample > 0 && g.n > sample {
					step = (g.n + sample - 1) / sample
				}
				for s := 0; s < g.n; s += step {
					tour := puzzle.Tour{Board: b, Start: puzzle.Square(s)}
					if tourImpossible(tour) != "" {
						continue
					}
					r.starts++
					ok := false
					if f != nil {
						ok = f.run(int32(s))
					} else {
						path, _ := tourDivide(context.Background(), tour)
						ok = path != nil
					}
					if ok {
						r.successes++
					}
				}
				r.seconds = time.Since(start).Seconds()
				mu.Lock()
				rows[i] = r
				mu.Unlock()
			}()
		}
		wg.Wait()
		for _, r := range rows {
			w.Write([]string{strconv.Itoa(r.n), r.name, strconv.Itoa(r.starts), strconv.Itoa(r.successes), fmt.Sprintf("%.3f", r.seconds)})
		}
		w.Flush()
		t.Logf("n=%d done", n)
	}
}

func TestTourStrategiesListed(t *testing.T) {
	var names []string
	defaults := 0
	for _, s := range search.Strategies("tour") {
		names = append(names, s.Name)
		if s.Default {
			defaults++
			if !slices.Contains(s.Tasks, puzzle.Count) || !slices.Contains(s.Tasks, puzzle.First) {
				t.Errorf("default %s must do count and first", s.Name)
			}
		}
	}
	for _, want := range tourFinderNames[:len(tourFinderNames)-1] {
		if !slices.Contains(names, want) {
			t.Errorf("strategy %s not registered (have %v)", want, names)
		}
	}
	if defaults != 1 {
		t.Errorf("%d default tour strategies, want 1", defaults)
	}
}

func BenchmarkTour1000(b *testing.B) {
	for b.Loop() {
		a := tourRun(b, "divide", "tour:1000x1000:a1", puzzle.First)
		if a.Status != puzzle.OK {
			b.Fatal(a.Message)
		}
	}
}

func benchmarkTourCount(b *testing.B, spec string) {
	want, _ := puzzle.KnownCount(puzzle.MustParse(spec), puzzle.Count)
	for b.Loop() {
		if a := tourRun(b, "exhaustive", spec, puzzle.Count); a.Count != want {
			b.Fatalf("%s: %d, want %d", spec, a.Count, want)
		}
	}
}

func BenchmarkCount5x5All(b *testing.B)    { benchmarkTourCount(b, "tour:5x5:*") }
func BenchmarkCount6x6Closed(b *testing.B) { benchmarkTourCount(b, "tour:6x6:*:closed") }
func BenchmarkCount6x6All(b *testing.B)    { benchmarkTourCount(b, "tour:6x6:*") }
