package bench

import (
	"context"
	"flag"
	"fmt"
	"github.com/boardsat/boardsat/harness/suites"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/answer"
	_ "github.com/boardsat/boardsat/brute" // the reference for small instances
	"github.com/boardsat/boardsat/harness/compare"
	"github.com/boardsat/boardsat/harness/measure"

	_ "github.com/boardsat/boardsat/encode" // real sat backends, for the built-in suites
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/harness/results"
	_ "github.com/boardsat/boardsat/native"            // real native backend
	_ "github.com/boardsat/boardsat/paradigm/cpsolve"  // the cp backend, for the built-in suites
	_ "github.com/boardsat/boardsat/paradigm/mipsolve" // the mip backend, for the built-in suites
	"github.com/boardsat/boardsat/puzzle"
)

// The test binary doubles as the child: with BOARDSAT_BENCH_CHILD=1 it acts
// as "boardsat solve ... --format json" (a minimal version of the real
// command, same JSON fields), so the harness is tested end to end without
// building the real binary (cmd/boardsat's tests run the real one).
const childEnv = "BOARDSAT_BENCH_CHILD"

var childMode bool

func TestMain(m *testing.M) {
	sat.ServeWorker()
	if os.Getenv(childEnv) == "1" {
		childMode = true
		os.Exit(childSolve(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func childSolve(args []string) int {
	if len(args) < 2 || args[0] != "solve" {
		fmt.Fprintln(os.Stderr, "want solve SPEC")
		return 2
	}
	spec, err := puzzle.Parse(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	backend := fs.String("backend", "native", "")
	task := fs.String("task", "count", "")
	fs.String("format", "json", "")
	timeout := fs.Duration("timeout", 0, "")
	fs.Bool("quiet", false, "")
	fs.Int64("seed", 0, "")
	h, e, s := fs.String("heuristic", "", ""), fs.String("encoding", "", ""), fs.String("solver", "", "")
	if err := fs.Parse(args[2:]); err != nil {
		return 2
	}
	req := puzzle.Request{Spec: spec, Task: puzzle.Task(*task), Heuristic: *h, Encoding: *e, Solver: *s}
	refuse := func(err error) int {
		// As the real command: one line on stderr, the refusal on stdout.
		fmt.Fprintln(os.Stderr, "boardsat solve:", err)
		answer.Refusal(spec.String(), *backend, *task, err).Write(os.Stdout)
		return 2
	}
	b, err := puzzle.Backends.Lookup(*backend)
	if err != nil {
		return refuse(err)
	}
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	start := time.Now()
	ans, err := b.Solve(ctx, req)
	if err != nil {
		return refuse(err)
	}
	answer.New(*backend, req, ans, time.Since(start).Seconds()).Write(os.Stdout)
	return 0
}

// testBackend is a backend with planted behaviour, registered only in tests.
type testBackend struct {
	name string
	run  func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error)
}

func (b testBackend) Name() string             { return b.name }
func (b testBackend) Doc() string              { return "test backend" }
func (b testBackend) Choices() []puzzle.Choice { return nil }
func (b testBackend) Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	return b.run(ctx, req)
}

// queensCount answers queens with the published count (plus delta).
func queensCount(delta uint64) func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	return func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
		q, ok := req.Spec.(puzzle.Queens)
		if !ok || req.Task != puzzle.Count {
			return puzzle.Answer{}, fmt.Errorf("queens count only")
		}
		n, _ := puzzle.KnownCount(q, puzzle.Count)
		return puzzle.Answer{Status: puzzle.OK, Count: n + delta, Stats: map[string]int64{puzzle.StatNodes: 42}}, nil
	}
}

func init() {
	puzzle.Backends.Add("bt-good", testBackend{"bt-good", queensCount(0)})
	puzzle.Backends.Add("bt-wrong", testBackend{"bt-wrong", queensCount(1)})
	// bt-sleep ignores its deadline in a child, so the harness must kill it.
	puzzle.Backends.Add("bt-sleep", testBackend{"bt-sleep", func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
		if childMode {
			time.Sleep(time.Minute)
		}
		return puzzle.Answer{Status: puzzle.Timeout}, nil
	}})
	// bt-hog touches 400 MiB in a child.
	puzzle.Backends.Add("bt-hog", testBackend{"bt-hog", func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
		if childMode {
			buf := make([]byte, 400<<20)
			for i := 0; i < len(buf); i += 4096 {
				buf[i] = 1
			}
			time.Sleep(5 * time.Second)
			_ = buf[len(buf)-1]
		}
		return puzzle.Answer{Status: puzzle.OK, Count: 1}, nil
	}})
	// bt-crash dies.
	puzzle.Backends.Add("bt-crash", testBackend{"bt-crash", func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
		if childMode {
			os.Exit(3)
		}
		return puzzle.Answer{Status: puzzle.OK}, nil
	}})
	// bt-exit2 ends as bad input looks (one line on stderr, exit status 2)
	// but gives no refusal answer: a failure, not a refusal.
	puzzle.Backends.Add("bt-exit2", testBackend{"bt-exit2", func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
		if childMode {
			fmt.Fprintln(os.Stderr, "boardsat solve: something odd")
			os.Exit(2)
		}
		return puzzle.Answer{Status: puzzle.OK}, nil
	}})
}

func testRunner() Runner {
	return Runner{Exe: os.Args[0], Args: []string{"solve"}, Env: []string{childEnv + "=1"}}
}

func mustSuite(t *testing.T, text string) suites.Suite {
	t.Helper()
	s, err := suites.Parse("test", text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPlanOrder: the plan interleaves repetitions: every run of
// repetition 1 (specs in order, variants in order), then repetition 2.
func TestPlanOrder(t *testing.T) {
	runs, _ := Plan(context.Background(), mustSuite(t, "queens:{4..5} backends=native/bitboard,native/plain repeat=2"), Overrides{})
	var order []string
	for _, r := range runs {
		order = append(order, fmt.Sprintf("%d %s %s", r.Rep, r.Spec, r.Variant))
	}
	want := []string{"1 queens:4 native/bitboard", "1 queens:4 native/plain", "1 queens:5 native/bitboard", "1 queens:5 native/plain",
		"2 queens:4 native/bitboard", "2 queens:4 native/plain", "2 queens:5 native/bitboard", "2 queens:5 native/plain"}
	if !slices.Equal(order, want) {
		t.Errorf("plan order %v, want %v", order, want)
	}
}

// TestMethodsSuite checks the built-in suite "methods", the table of
// queen domination by method: every method a ladder under a CPU limit over
// n = 4..16, each n once per method and task, three runs a cell and then
// one; MIP in the optimum only (it does not count); and every variant
// supports its task (none left out of the plan).
func TestMethodsSuite(t *testing.T) {
	s, err := suites.Load("methods")
	if err != nil {
		t.Fatal(err)
	}
	const sat = "sat/unsatsat-lines-hilbert-lex+totalizer/"
	want := map[string][]string{
		"optimum": {"native/bnb", sat + "gophersat", sat + "cadical", "cp/gecode", "mip/cbc"},
		"count":   {"native/bnb", sat + "gophersat-blocking", sat + "cadical", "cp/gecode"},
	}
	got := map[string][]string{}
	sizes := map[string][]int{}
	repeats := map[string][]int{}
	for _, g := range s.Groups {
		if !g.Ladder || g.CPULimit <= 0 || g.Timeout < 2*g.CPULimit {
			t.Errorf("line %d: ladder %v, cpulimit %s, timeout %s: want a ladder under a CPU limit, the wall limit well above it", g.Line, g.Ladder, g.CPULimit, g.Timeout)
		}
		for _, v := range compare.Expand(g.Patterns, "dominate") {
			k := string(g.Task) + " " + v.String()
			if !slices.Contains(got[string(g.Task)], v.String()) {
				got[string(g.Task)] = append(got[string(g.Task)], v.String())
			}
			for _, sp := range g.Specs {
				b := puzzle.BoardOf(sp)
				if b.W != b.H || sp.String() != fmt.Sprintf("dominate:%dx%d:Q", b.W, b.W) {
					t.Errorf("line %d: spec %s", g.Line, sp)
				}
				sizes[k] = append(sizes[k], b.W)
				repeats[k] = append(repeats[k], g.Repeat)
			}
		}
	}
	var ladder []int
	for n := 4; n <= 16; n++ {
		ladder = append(ladder, n)
	}
	for task, vs := range want {
		if !slices.Equal(got[task], vs) {
			t.Errorf("task %s: variants %q, want %q", task, got[task], vs)
		}
		for _, v := range vs {
			k := task + " " + v
			if !slices.Equal(sizes[k], ladder) {
				t.Errorf("%s: n = %v, want 4..16 once each, in order", k, sizes[k])
			}
			if r := repeats[k]; r[0] != 3 || !slices.IsSortedFunc(r, func(a, b int) int { return b - a }) || r[len(r)-1] < 1 {
				t.Errorf("%s: repeats %v, want 3 and then fewer", k, r)
			}
		}
	}
	runs, unsupported := Plan(context.Background(), s, Overrides{})
	for _, u := range unsupported {
		if strings.Contains(u, "not on PATH") && os.Getenv("CI") != "true" {
			t.Logf("skipped: %s", u)
			continue
		}
		t.Errorf("left out of the plan: %s", u)
	}
	if len(runs) == 0 {
		t.Error("no runs planned")
	}
}

// runOne executes one run of variant on spec through the child path.
func runOne(t *testing.T, spec, variant string, task puzzle.Task, timeout time.Duration, memMB int64) results.Row {
	t.Helper()
	s := mustSuite(t, fmt.Sprintf("%s backends=%s task=%s timeout=%s mem=%dM", spec, variant, task, timeout, memMB))
	runs, _ := Plan(context.Background(), s, Overrides{})
	if len(runs) != 1 {
		t.Fatalf("%d runs planned", len(runs))
	}
	row, ok := testRunner().Exec(context.Background(), runs[0])
	if !ok {
		t.Fatal("run dropped")
	}
	jq := newJudgeQueue(context.Background(), nil)
	jq.expect(runs[0])
	rows := jq.add(row, runs[0])
	if len(rows) != 1 {
		t.Fatalf("%d rows judged", len(rows))
	}
	return rows[0]
}

func TestStatuses(t *testing.T) {
	for _, tc := range []struct {
		spec, variant string
		task          puzzle.Task
		timeout       time.Duration
		mem           int64
		status        string
		answer        uint64
	}{
		{"queens:8", "native/bitboard", puzzle.Count, 10 * time.Second, 1024, results.StatusOK, 92},
		{"queens:8", "bt-good", puzzle.Count, 10 * time.Second, 1024, results.StatusOK, 92},
		{"queens:3", "native/bitboard", puzzle.First, 10 * time.Second, 1024, results.StatusUnsat, 0},
		{"queens:6", "native/bitboard", puzzle.First, 10 * time.Second, 1024, results.StatusOK, 1},
		{"queens:8", "bt-wrong", puzzle.Count, 10 * time.Second, 1024, results.StatusWrong, 93},
		{"queens:8", "bt-sleep", puzzle.Count, 100 * time.Millisecond, 1024, results.StatusTimeout, 0},
		{"queens:8", "bt-hog", puzzle.Count, 10 * time.Second, 100, results.StatusMemout, 0},
		// A crash is an error of the backend's: wrong, never agreement.
		{"queens:8", "bt-crash", puzzle.Count, 10 * time.Second, 1024, results.StatusWrong, 0},
	} {
		row := runOne(t, tc.spec, tc.variant, tc.task, tc.timeout, tc.mem)
		if row.Status != tc.status || (row.HasAnswer && row.Answer != tc.answer) {
			t.Errorf("%s %s: status %s answer %d (%s), want %s %d", tc.spec, tc.variant, row.Status, row.Answer, row.Message, tc.status, tc.answer)
		}
		if row.Seconds <= 0 || (tc.status != results.StatusError && row.MaxRSSKB <= 0) {
			t.Errorf("%s %s: seconds %g maxrss %d", tc.spec, tc.variant, row.Seconds, row.MaxRSSKB)
		}
		switch tc.status {
		case results.StatusTimeout:
			if row.Seconds < 0.1 || row.Seconds > 30 {
				t.Errorf("timeout after %gs", row.Seconds)
			}
		case results.StatusMemout:
			if row.MaxRSSKB < 100*1024 {
				t.Errorf("memout at %d KiB", row.MaxRSSKB)
			}
		case results.StatusOK:
			if tc.variant == "bt-good" && row.Stats["nodes"] != 42 {
				t.Errorf("stats not recorded: %v", row.Stats)
			}
		}
	}
}

func TestUnsupportedLeftOut(t *testing.T) {
	runs, unsupported := Plan(context.Background(), mustSuite(t, "pieces:3x3:K1R2 queens:5 backends=bt-good,native/bitboard"), Overrides{})
	queens := 0
	for _, r := range runs {
		if r.Spec.String() == "queens:5" {
			queens++
		}
		if r.Variant.String() == "bt-good" && r.Spec.Puzzle() == "pieces" {
			t.Errorf("bt-good planned on pieces")
		}
	}
	if queens != 2 || !strings.HasPrefix(unsupported[0], "bt-good on pieces count: ") {
		t.Errorf("runs %v unsupported %q", runs, unsupported)
	}
}

// TestSplitVariantPlanned: the tour split counter, which refuses the tour
// probe's instance (an open tour from one start), is planned on the tours
// it takes and not left out as unsupported.
func TestSplitVariantPlanned(t *testing.T) {
	runs, unsupported := Plan(context.Background(), mustSuite(t, "tour:6x6:* tour:6x6:a1:closed backends=native/split,native/frontier task=count"), Overrides{})
	if len(runs) != 4 || len(unsupported) != 0 {
		t.Errorf("planned %d runs, want 4; unsupported %q", len(runs), unsupported)
	}
}

// TestRefusalsCounted: a backend that refuses an instance (the brute force
// on a board beyond its limit) leaves an error row marked as a refusal, and
// the summary counts it apart from the backend's failures.
func TestRefusalsCounted(t *testing.T) {
	s := mustSuite(t, "queens:7 backends=check,bt-crash,native/bitboard timeout=10s")
	sum, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: filepath.Join(t.TempDir(), "r.csv")})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Done != 3 || sum.Statuses[results.StatusError] != 1 || sum.Refused != 1 || sum.Statuses[results.StatusOK] != 1 {
		t.Errorf("summary %+v, want 3 rows: one ok, one refusal (check), one crash", sum)
	}
}

// TestRefusalIsExplicit: only the child's refusal answer marks a refusal; a
// child that exits with status 2 and one line on stderr but answers nothing
// failed.
func TestRefusalIsExplicit(t *testing.T) {
	runs, _ := Plan(context.Background(), mustSuite(t, "queens:5 backends=bt-exit2,bt-good task=count timeout=10s"), Overrides{})
	row, _ := testRunner().Exec(context.Background(), runs[0])
	if row.Status != results.StatusError || row.Refused() || !strings.Contains(row.Message, "something odd") {
		t.Errorf("bt-exit2: status %s refused %v message %q, want an error that is no refusal", row.Status, row.Refused(), row.Message)
	}
	// The planner leaves out what a variant refuses; run it all the same.
	runs[1].Task = puzzle.First
	row, _ = testRunner().Exec(context.Background(), runs[1])
	if !row.Refused() || row.Message != "refused: queens count only" {
		t.Errorf("bt-good first: status %s message %q, want the refusal with the backend's reason", row.Status, row.Message)
	}
}

func TestBenchResumeAndInterrupt(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	s := mustSuite(t, "queens:{4..6} backends=native/bitboard,bt-good repeat=2 timeout=10s")
	opt := Options{Runner: testRunner(), Out: out, CommandLine: []string{"boardsat", "bench", "test"}}
	sum, err := Bench(context.Background(), s, opt)
	if err != nil || sum.Done != 12 || sum.Statuses["ok"] != 12 {
		t.Fatalf("first session: %+v %v", sum, err)
	}
	rows, err := results.ReadFiles(out)
	if err != nil || len(rows) != 12 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	// Cut the file after 7 rows (plus half a row, as a crash would leave).
	data, _ := os.ReadFile(out)
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(out, []byte(strings.Join(lines[:8], "")+lines[8][:10]), 0o644)
	opt.Resume = true
	sum, err = Bench(context.Background(), s, opt)
	if err != nil || sum.Kept != 7 || sum.Done != 5 {
		t.Fatalf("resume: %+v %v", sum, err)
	}
	rows, err = results.ReadFiles(out)
	if err != nil || len(rows) != 12 {
		t.Fatalf("after resume: %d rows, %v", len(rows), err)
	}
	keys := map[string]bool{}
	for _, r := range rows {
		keys[r.Key()] = true
	}
	if len(keys) != 12 {
		t.Errorf("%d distinct runs, want 12", len(keys))
	}
	meta, ok, err := results.ReadMeta(out)
	if err != nil || !ok || len(meta.Sessions) != 2 || meta.Sessions[0].Cores < 1 || meta.Sessions[0].GoVersion == "" ||
		!slices.Equal(meta.Sessions[1].CommandLine, opt.CommandLine) {
		t.Errorf("sidecar: %+v %v %v", meta, ok, err)
	}

	// Interrupt during a slow run: finished rows stay, the killed run leaves none.
	out2 := filepath.Join(dir, "i.csv")
	s = mustSuite(t, "queens:4 backends=bt-good,bt-sleep timeout=30s")
	ctx, cancel := context.WithCancel(context.Background())
	// bt-sleep sleeps a minute: cancelled once bt-good's row is in the
	// file (the version probes come first, and take seconds under load).
	cancelled := make(chan time.Time, 1)
	go func() {
		for ctx.Err() == nil {
			if rows, err := results.ReadFiles(out2); err == nil && len(rows) == 1 {
				time.Sleep(500 * time.Millisecond)
				cancelled <- time.Now()
				cancel()
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	sum, err = Bench(ctx, s, Options{Runner: testRunner(), Out: out2})
	if err != nil || !sum.Interrupted || sum.Done != 1 {
		t.Fatalf("interrupt: %+v %v", sum, err)
	}
	if start := <-cancelled; time.Since(start) > 20*time.Second {
		t.Errorf("interrupt took %s", time.Since(start))
	}
	rows, err = results.ReadFiles(out2)
	if err != nil || len(rows) != 1 || rows[0].Variant != "bt-good" {
		t.Errorf("after interrupt: %v %v", rows, err)
	}
}

func TestLadderStops(t *testing.T) {
	out := filepath.Join(t.TempDir(), "l.csv")
	s := mustSuite(t, "queens:{4..6} backends=bt-sleep,bt-good timeout=100ms ladder=true")
	sum, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: out})
	if err != nil || sum.Done != 6 {
		t.Fatalf("%+v %v", sum, err)
	}
	rows, _ := results.ReadFiles(out)
	for _, r := range rows {
		switch {
		case r.Variant == "bt-good" && r.Status != results.StatusOK,
			r.Variant == "bt-sleep" && r.Instance == "queens:4" && (r.Status != results.StatusTimeout || r.NotRun()),
			r.Variant == "bt-sleep" && r.Instance != "queens:4" && (r.Status != results.StatusSkipped || !r.NotRun() ||
				!strings.Contains(r.Message, "ladder stopped after a timeout or memout on queens:4") || r.Seconds != 0):
			t.Errorf("row %s %s %s %q", r.Instance, r.Variant, r.Status, r.Message)
		}
	}
	if sum.Statuses[results.StatusSkipped] != 2 || sum.Statuses[results.StatusTimeout] != 1 {
		t.Errorf("summary counts %v, want skipped 2 and timeout 1", sum.Statuses)
	}
}

// TestLadderResumesOldSkips: a file written before skipped had a status
// of its own (a ladder's runs not run as status timeout, "not run: " in
// the message) is resumed as before: those rows are kept, read as not
// run, and the ladder stays stopped, its later runs written as skipped.
func TestLadderResumesOldSkips(t *testing.T) {
	out := filepath.Join(t.TempDir(), "l.csv")
	s := mustSuite(t, "queens:{4..6} backends=bt-sleep timeout=100ms ladder=true")
	old := []results.Row{}
	for i, spec := range []string{"queens:4", "queens:5"} {
		r := newRow(Run{Spec: puzzle.MustParse(spec), Variant: compare.Variant{Backend: "bt-sleep"}, Task: puzzle.Count, Rep: 1, Timeout: 100 * time.Millisecond})
		r.Status = results.StatusTimeout
		if i == 1 {
			r.Message = results.NotRunMessage("ladder stopped after a timeout or memout on queens:4")
		}
		old = append(old, r)
	}
	var buf strings.Builder
	if err := results.Write(&buf, old); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte(buf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: out, Resume: true})
	if err != nil || sum.Kept != 2 || sum.Done != 1 || sum.Statuses[results.StatusSkipped] != 1 {
		t.Fatalf("%+v %v; want 2 kept and queens:6 skipped", sum, err)
	}
	rows, _ := results.ReadFiles(out)
	if len(rows) != 3 || !rows[1].NotRun() || rows[2].Status != results.StatusSkipped || rows[2].Instance != "queens:6" {
		t.Errorf("rows %+v", rows)
	}
}

// TestLadderResumeByTask: on resume, a timeout of the same variant in
// another task (its optimum beside its count) does not set the count's
// ladder: the count stops at its own first timeout, not at the other
// task's.
func TestLadderResumeByTask(t *testing.T) {
	out := filepath.Join(t.TempDir(), "l.csv")
	first := mustSuite(t, "queens:6 backends=bt-sleep task=first timeout=100ms")
	if sum, err := Bench(context.Background(), first, Options{Runner: testRunner(), Out: out}); err != nil || sum.Statuses[results.StatusTimeout] != 1 {
		t.Fatalf("%+v %v", sum, err)
	}
	count := mustSuite(t, "queens:{4..6} backends=bt-sleep task=count timeout=100ms ladder=true")
	if _, err := Bench(context.Background(), count, Options{Runner: testRunner(), Out: out, Resume: true}); err != nil {
		t.Fatal(err)
	}
	rows, _ := results.ReadFiles(out)
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, r := range rows[1:] {
		// Read back, a run not run is skipped, whatever status bench wrote.
		if want := map[bool]string{true: results.StatusTimeout, false: results.StatusSkipped}[r.Instance == "queens:4"]; r.Status != want || (r.Instance == "queens:4") == r.NotRun() {
			t.Errorf("count row %s: %s %q; want queens:4 run (and timed out), queens:5 and 6 not run", r.Instance, r.Status, r.Message)
		}
	}
}

// TestReferenceNotFirstAnswer: the first answer in a file is never the
// reference. Beyond the brute force's limits (pieces:7x7:N2, nothing
// published) a wrong first answer is outvoted by the majority; within them
// (pieces:3x4:N2, 52 by brute force through the checker) it is judged
// against the brute force at once.
func TestReferenceNotFirstAnswer(t *testing.T) {
	mk := func(spec puzzle.Spec, variant string, n uint64) results.Row {
		return results.Row{Instance: spec.String(), Variant: variant, Task: "count", Status: results.StatusOK, Answer: n, HasAnswer: true}
	}
	big := puzzle.MustParse("pieces:7x7:N2")
	run := Run{Spec: big, Task: puzzle.Count}
	q := newJudgeQueue(context.Background(), nil)
	for range 3 {
		q.expect(run)
	}
	if out := q.add(mk(big, "a", 1100), run); out != nil {
		t.Fatalf("judged before the majority was known: %+v", out)
	}
	q.add(mk(big, "b", 1099), run)
	out := q.add(mk(big, "c", 1099), run)
	if len(out) != 3 || out[0].Status != results.StatusWrong || out[1].Status != results.StatusOK || out[2].Status != results.StatusOK {
		t.Errorf("majority: %+v", out)
	}
	small := puzzle.MustParse("pieces:3x4:N2")
	run = Run{Spec: small, Task: puzzle.Count}
	q = newJudgeQueue(context.Background(), nil)
	q.expect(run)
	q.expect(run)
	first := q.add(mk(small, "a", 51), run)
	second := q.add(mk(small, "b", 52), run)
	if len(first) != 1 || first[0].Status != results.StatusWrong || len(second) != 1 || second[0].Status != results.StatusOK {
		t.Errorf("brute-force reference: %+v %+v", first, second)
	}
}

// shardRows judges rows as one shard of a bench would: all of them planned
// in that shard, released once the last has ended.
func shardRows(t *testing.T, spec puzzle.Spec, task puzzle.Task, rows ...results.Row) []results.Row {
	t.Helper()
	run := Run{Spec: spec, Task: task}
	q := newJudgeQueue(context.Background(), nil)
	for range rows {
		q.expect(run)
	}
	var out []results.Row
	for _, r := range rows {
		out = append(out, q.add(r, run)...)
	}
	if len(out) != len(rows) {
		t.Fatalf("%d of %d rows judged", len(out), len(rows))
	}
	return out
}

// TestRejudgeAcrossShards: the rows of several shards, judged together,
// get the verdicts one run would have given. pieces:7x7:N2 has no
// published count and is beyond the brute force, so a shard judges it by
// its own majority.
func TestRejudgeAcrossShards(t *testing.T) {
	big := puzzle.MustParse("pieces:7x7:N2")
	mk := func(variant string, n uint64, msg string) results.Row {
		return results.Row{Instance: big.String(), Variant: variant, Backend: variant, Task: "count", Status: results.StatusOK, Answer: n, HasAnswer: true, Message: msg}
	}
	statuses := func(rows []results.Row) string {
		var b strings.Builder
		for _, r := range rows {
			fmt.Fprintf(&b, "%s=%s ", r.Variant, r.Status)
		}
		return strings.TrimSpace(b.String())
	}

	// Each shard alone agrees with itself; together, a is outvoted.
	rows := append(shardRows(t, big, puzzle.Count, mk("a", 1100, "")),
		shardRows(t, big, puzzle.Count, mk("b", 1099, ""), mk("c", 1099, ""))...)
	if got := statuses(rows); got != "a=ok b=ok c=ok" {
		t.Fatalf("shards alone: %s", got)
	}
	if w, r := Rejudge(rows); w != 1 || r != 0 || statuses(rows) != "a=wrong b=ok c=ok" ||
		rows[0].Message != "answer 1100, reference 1099 (majority)" {
		t.Errorf("together: %d now wrong, %d back: %s (%q)", w, r, statuses(rows), rows[0].Message)
	}

	// A shard's own majority is overturned by the others: a (with a message
	// of its backend's) turns back to ok, b and c turn wrong.
	rows = append(shardRows(t, big, puzzle.Count, mk("a", 1100, "from the checkpoint"), mk("b", 1099, ""), mk("c", 1099, "")),
		shardRows(t, big, puzzle.Count, mk("d", 1100, ""), mk("e", 1100, ""), mk("f", 1100, ""))...)
	if got := statuses(rows); got != "a=wrong b=ok c=ok d=ok e=ok f=ok" {
		t.Fatalf("shards alone: %s", got)
	}
	if w, r := Rejudge(rows); w != 2 || r != 1 || statuses(rows) != "a=ok b=wrong c=wrong d=ok e=ok f=ok" ||
		rows[0].Message != "from the checkpoint" {
		t.Errorf("together: %d now wrong, %d back: %s (%q)", w, r, statuses(rows), rows[0].Message)
	}
	// Judging again changes nothing.
	if w, r := Rejudge(rows); w != 0 || r != 0 {
		t.Errorf("judged twice: %d now wrong, %d back", w, r)
	}

	// An unsat answer (first solution) turns back to unsat, not ok.
	first := func(variant string, st string) results.Row {
		return results.Row{Instance: big.String(), Variant: variant, Backend: variant, Task: "first", Status: st}
	}
	rows = append(shardRows(t, big, puzzle.First, first("a", results.StatusUnsat), first("b", results.StatusOK), first("c", results.StatusOK)),
		shardRows(t, big, puzzle.First, first("d", results.StatusUnsat), first("e", results.StatusUnsat), first("f", results.StatusUnsat))...)
	if w, r := Rejudge(rows); w != 2 || r != 1 || statuses(rows) != "a=unsat b=wrong c=wrong d=unsat e=unsat f=unsat" {
		t.Errorf("first: %d now wrong, %d back: %s", w, r, statuses(rows))
	}

	// Rows judged against the brute force (pieces:3x4:N2, 52) keep their
	// verdicts whatever the other shards' majority: 51 stays wrong.
	small := puzzle.MustParse("pieces:3x4:N2")
	sm := func(variant string, n uint64) results.Row {
		return results.Row{Instance: small.String(), Variant: variant, Backend: variant, Task: "count", Status: results.StatusOK, Answer: n, HasAnswer: true}
	}
	rows = append(shardRows(t, small, puzzle.Count, sm("a", 51), sm("b", 51)), shardRows(t, small, puzzle.Count, sm("c", 52))...)
	if w, r := Rejudge(rows); w != 0 || r != 0 || statuses(rows) != "a=wrong b=wrong c=ok" {
		t.Errorf("brute-force reference: %d now wrong, %d back: %s", w, r, statuses(rows))
	}
}

// BenchmarkExecChild measures a trivial run through the child path (start
// the binary, solve queens:4, read its JSON, wait); BenchmarkInProcess the
// same solve in process. Their difference is the harness's per-run overhead.
// BenchmarkExecChild is the harness's cost of one tiny run: with the best
// measurement the machine allows (a cgroup per run, its memory capped),
// the same with the memory limit sampled (BOARDSAT_MEM_SAMPLED=1), and with
// rusage (no cgroup). Besides the mean (ns/op) it reports the medians of
// the harness's time per run (median-ms), of the run's wall seconds as
// measured (median-wall-ms) and of its CPU (median-cpu-ms):
// docs/measurements/harness-clock.md.
func BenchmarkExecChild(b *testing.B) {
	runs, _ := Plan(context.Background(), mustSuiteB(b, "queens:4 backends=native/bitboard timeout=10s"), Overrides{})
	for _, c := range []struct{ name, method, sampled string }{
		{"cgroup", "", ""}, {"cgroup-sampled-mem", "", "1"}, {"rusage", measure.Rusage, ""},
	} {
		rn := testRunner()
		rn.Measure = c.method
		b.Run("measure="+c.name, func(b *testing.B) {
			b.Setenv(measure.SampledEnv, c.sampled)
			var per, wall, cpu []float64
			for b.Loop() {
				start := time.Now()
				row, _ := rn.Exec(context.Background(), runs[0])
				per = append(per, time.Since(start).Seconds()*1000)
				if row.Status != results.StatusOK {
					b.Fatal(row.Status, row.Message)
				}
				wall, cpu = append(wall, row.Seconds*1000), append(cpu, (row.User+row.Sys)*1000)
			}
			b.ReportMetric(median(per), "median-ms")
			b.ReportMetric(median(wall), "median-wall-ms")
			b.ReportMetric(median(cpu), "median-cpu-ms")
		})
	}
}

// median returns the median of xs (sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	if n := len(xs); n%2 == 1 {
		return xs[n/2]
	} else {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
}

func BenchmarkInProcess(b *testing.B) {
	nb, _ := puzzle.Backends.Lookup("native")
	req := puzzle.Request{Spec: puzzle.Queens{N: 4}, Task: puzzle.Count, Heuristic: "bitboard"}
	for b.Loop() {
		if ans, err := nb.Solve(context.Background(), req); err != nil || ans.Count != 2 {
			b.Fatal(err)
		}
	}
}

func mustSuiteB(b *testing.B, text string) suites.Suite {
	s, err := suites.Parse("bench", text)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// TestExistingOutputRefused checks that a session onto a results file that
// exists is refused, the file untouched, unless --resume or --force says
// what to do with it.
func TestExistingOutputRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.csv")
	s := mustSuite(t, "queens:4 backends=bt-good")
	if _, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: out}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(out)
	meta, _ := os.ReadFile(results.MetaPath(out))
	_, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: out})
	if err == nil || !strings.Contains(err.Error(), "--resume") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("second session onto %s: %v, want a refusal naming --resume and --force", out, err)
	}
	after, _ := os.ReadFile(out)
	metaAfter, _ := os.ReadFile(results.MetaPath(out))
	if string(after) != string(before) || string(metaAfter) != string(meta) {
		t.Error("the refused session changed the file or its sidecar")
	}
	if _, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: out, Resume: true, Force: true}); err == nil {
		t.Error("--resume with --force accepted")
	}
	sum, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: out, Force: true})
	if err != nil || sum.Done != 1 {
		t.Fatalf("--force: %+v %v", sum, err)
	}
	if rows, err := results.ReadFiles(out); err != nil || len(rows) != 1 {
		t.Errorf("after --force: %d rows, %v, want the one new row", len(rows), err)
	}
}

// measureMethods are the measurement methods this machine allows, the
// best first: the cgroup one if any, and always rusage.
func measureMethods(t *testing.T) []string {
	m, err := measure.New("")
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	if m.Method() == measure.Rusage {
		t.Logf("no writable cgroups here: only the rusage path is tested")
		return []string{measure.Rusage}
	}
	return []string{m.Method(), measure.Rusage}
}

// TestWorkerCPUMeasured runs a search whose time is spent in the gophersat
// worker, a child of the run's child, and checks the run's CPU time counts
// it: its CPU / wall ratio at least 0.8 of the share of a core that a busy
// loop beside it got over the same time (busyShare: 1 on an idle machine,
// about 0.2 on two cores beside eight other busy loops), so that the
// judgement holds at any steady load. A run that missed the worker once
// reported 0.05 s of user+sys for 1.4 s of wall: a ratio near 0 at any
// load. Up to three tries, any one will do; a load that comes and goes
// (other packages' tests beside this one) skips the judgement unless the
// test runs alone (BOARDSAT_ALONE=1, as make test runs it a second time).
func TestWorkerCPUMeasured(t *testing.T) {
	if testing.Short() {
		t.Skip("a search of about a second per method")
	}
	s := mustSuite(t, "queens:40 backends=sat/cardnet task=first timeout=60s")
	runs, _ := Plan(context.Background(), s, Overrides{})
	for _, method := range measureMethods(t) {
		rn := testRunner()
		rn.Measure = method
		var tries []string
		for range 3 {
			stop := busyShare(t)
			row, ok := rn.Exec(context.Background(), runs[0])
			share := stop()
			if !ok || row.Status != results.StatusOK || row.MeasuredBy != method {
				t.Fatalf("%s: %+v", method, row)
			}
			cpu := row.User + row.Sys
			t.Logf("%s: wall %.3f s, user %.3f s, sys %.3f s; a busy loop beside it got %.2f of a core", method, row.Seconds, row.User, row.Sys, share)
			if cpu >= 0.8*share*row.Seconds {
				tries = nil
				break
			}
			tries = append(tries, fmt.Sprintf("CPU %.3f s (user %.3f, sys %.3f) of wall %.3f s, busy loop's share %.2f", cpu, row.User, row.Sys, row.Seconds, share))
		}
		if tries == nil {
			continue
		}
		if load := loadAverage(); os.Getenv("BOARDSAT_ALONE") != "1" && len(load) > 0 && load[0] > float64(runtime.NumCPU()) {
			t.Skipf("%s: CPU under 0.8 x wall x share in every try (%s) with the machine loaded beyond its %d cores (load %.1f): not judged", method, strings.Join(tries, "; "), runtime.NumCPU(), load[0])
		}
		t.Errorf("%s: CPU under 0.8 x wall x the busy loop's share in every try, the worker's time missed: %s", method, strings.Join(tries, "; "))
	}
}

// TestMaxRSSIsTheRunsOwn: the harness holds 300 MiB while it counts
// queens:13; the run's peak must not carry them (ru_maxrss
// of the child inherits the parent's RSS across fork and exec, so no row
// was below the harness's own 15 MiB).
func TestMaxRSSIsTheRunsOwn(t *testing.T) {
	ballast := make([]byte, 300<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	// A run of a few tenths of a second: the rusage method samples the
	// tree every PollInterval, and a run that ends before its first
	// sample (queens:4 does, on a loaded machine) has no peak of its own.
	s := mustSuite(t, "queens:13 backends=native/plain task=count timeout=60s")
	runs, _ := Plan(context.Background(), s, Overrides{})
	for _, method := range measureMethods(t) {
		rn := testRunner()
		rn.Measure = method
		row, ok := rn.Exec(context.Background(), runs[0])
		if !ok || row.Status != results.StatusOK {
			t.Fatalf("%s: %+v", method, row)
		}
		t.Logf("%s: queens:13 peak %d KiB", method, row.MaxRSSKB)
		if row.MaxRSSKB <= 0 || row.MaxRSSKB > 100<<10 {
			t.Errorf("%s: queens:13 peaks at %d KiB beside a harness of 300 MiB: want the run's own peak, above 0 and under 100 MiB", method, row.MaxRSSKB)
		}
	}
	runtime.KeepAlive(ballast)
}

// TestCPULimitUnderLoad runs one CPU-limited suite alone and beside busy
// competing processes: the statuses and the limit that ended each run
// agree (a wall-clock limit would turn the loaded run's ok into timeout).
func TestCPULimitUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a suite twice, once under load")
	}
	s := mustSuite(t, "queens:6 backends=native/plain task=count cpu-limit=1s timeout=2m\nqueens:20 backends=native/plain task=count cpu-limit=1s timeout=2m")
	suite := func() []string {
		var out []string
		var buf strings.Builder
		sum, err := Bench(context.Background(), s, Options{Runner: testRunner(), Stdout: &buf})
		if err != nil || sum.Done != 2 {
			t.Fatalf("%+v %v", sum, err)
		}
		rows, err := results.Read(strings.NewReader(buf.String()), "stdout")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.CPULimit != 1 || r.WallLimit != 120 || r.MemLimitMB != suites.DefaultMemMB {
				t.Errorf("%s: limits cpu %g wall %g mem %d", r.Instance, r.CPULimit, r.WallLimit, r.MemLimitMB)
			}
			out = append(out, r.Instance+" "+r.Status+" "+r.Limit)
			t.Logf("%s %s limit %q: CPU %.3f s, wall %.3f s (%s)", r.Instance, r.Status, r.Limit, r.User+r.Sys, r.Seconds, r.MeasuredBy)
		}
		return out
	}
	quiet := suite()
	want := []string{"queens:6 ok ", "queens:20 timeout cpu"}
	if !slices.Equal(quiet, want) {
		t.Errorf("quiet: %q, want %q", quiet, want)
	}
	var hogs []*exec.Cmd
	for range runtime.NumCPU() + 1 {
		c := exec.Command("sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		hogs = append(hogs, c)
	}
	loaded := suite()
	for _, c := range hogs {
		c.Process.Kill()
		c.Wait()
	}
	if !slices.Equal(loaded, quiet) {
		t.Errorf("loaded: %q, quiet: %q", loaded, quiet)
	}
}

// TestSidecarProvenance checks what the sidecar records beyond the
// machine: the session's end and the load average around it, the external
// solvers' versions, how runs were measured, the pinning of --jobs 2; and
// that every row carries the commit of the sidecar.
func TestSidecarProvenance(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("--jobs 2 needs two cores")
	}
	out := filepath.Join(t.TempDir(), "r.csv")
	s := mustSuite(t, "queens:{4..7} backends=bt-good,native/plain")
	sum, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: out, Jobs: 2, CPUs: []int{0, 1}})
	if err != nil || sum.Done != 8 || sum.Statuses["ok"] != 8 {
		t.Fatalf("%+v %v", sum, err)
	}
	m, ok, err := results.ReadMeta(out)
	if err != nil || !ok || len(m.Sessions) != 1 {
		t.Fatalf("%+v %v %v", m, ok, err)
	}
	sess := m.Sessions[0]
	if sess.End == "" || len(sess.LoadBefore) != 3 || len(sess.LoadAfter) != 3 || sess.MeasuredBy == "" {
		t.Errorf("session end, load or measurement missing: %+v", sess)
	}
	if _, ok := sess.Solvers["cadical"]; !ok {
		t.Errorf("no cadical entry in solver versions %v", sess.Solvers)
	}
	if sess.Jobs != 2 || !slices.Equal(sess.Pinning, []string{"0", "1"}) {
		t.Errorf("jobs %d pinning %q, want 2 and [0 1]", sess.Jobs, sess.Pinning)
	}
	rows, err := results.ReadFiles(out)
	if err != nil || len(rows) != 8 {
		t.Fatalf("%d rows %v", len(rows), err)
	}
	for _, r := range rows {
		if r.Commit != sess.GitCommit || r.MeasuredBy != sess.MeasuredBy {
			t.Errorf("row commit %q measured by %q, sidecar %q %q", r.Commit, r.MeasuredBy, sess.GitCommit, sess.MeasuredBy)
		}
	}
}

// TestDefinitions: the sidecar's definitions are those of the solvers the
// plan's runs name, once each, with their JSON, program hash and version.
func TestDefinitions(t *testing.T) {
	v, err := compare.ParseVariant("sat/cadical")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := compare.ParseVariant("sat")
	n, _ := compare.ParseVariant("native")
	defs := Definitions([]Run{{Variant: v}, {Variant: g}, {Variant: n}, {Variant: v}})
	if len(defs) != 1 || defs[0].Name != "cadical" || defs[0].Source != "built in" || !strings.Contains(string(defs[0].Definition), `"kind":"sat"`) {
		t.Fatalf("definitions %+v, want cadical's alone", defs)
	}
	if _, err := exec.LookPath("cadical"); err == nil && (len(defs[0].ProgramSHA256) != 64 || defs[0].Version == "") {
		t.Errorf("cadical installed, and its sha256 %q, version %q", defs[0].ProgramSHA256, defs[0].Version)
	}
}
