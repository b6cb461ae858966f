package suites_test

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/boardsat/boardsat/brute" // the backends the built-in suites name
	_ "github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/harness/suites"
	_ "github.com/boardsat/boardsat/native"
	_ "github.com/boardsat/boardsat/paradigm/cpsolve"
	_ "github.com/boardsat/boardsat/paradigm/mipsolve"
	"github.com/boardsat/boardsat/puzzle"
)

// These tests hold the suite format alone: its parsing, its refusals, the
// built-in suites and what the documentation says of them. What a suite
// plans and runs is tested in harness/bench.

func mustSuite(t *testing.T, text string) suites.Suite {
	t.Helper()
	s, err := suites.Parse("test", text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestParseSuite: specs expanded from brace groups in order, the options
// read, comments and blank lines skipped, the defaults of a group that
// sets no option.
func TestParseSuite(t *testing.T) {
	s := mustSuite(t, `
# a comment
queens:{4..6} pieces:{3,4}x3:K1  backends=native/bitboard,native/plain task=count repeat=2 timeout=3s mem=100M
swap:4x3   # default task and backends
`)
	if len(s.Groups) != 2 {
		t.Fatalf("%d groups", len(s.Groups))
	}
	g := s.Groups[0]
	var specs []string
	for _, sp := range g.Specs {
		specs = append(specs, sp.String())
	}
	if want := []string{"queens:4", "queens:5", "queens:6", "pieces:3x3:K1", "pieces:4x3:K1"}; !slices.Equal(specs, want) {
		t.Errorf("specs %v, want %v", specs, want)
	}
	if g.Repeat != 2 || g.Timeout != 3*time.Second || g.MemMB != 100 || g.Task != puzzle.Count || g.Line != 3 {
		t.Errorf("options: %+v", g)
	}
	if h := s.Groups[1]; h.Backends != "all" || h.Task != "" || h.Repeat != 1 || h.Timeout != suites.DefaultTimeout || h.MemMB != suites.DefaultMemMB {
		t.Errorf("defaults: %+v", h)
	}
}

// TestSuiteCPULimitSpelling: the option is cpu-limit=, named as bench's
// flag --cpu-limit; the older cpulimit= reads the same; one line giving
// both gives the option twice.
func TestSuiteCPULimitSpelling(t *testing.T) {
	for _, line := range []string{"queens:6 cpu-limit=20s", "queens:6 cpulimit=20s"} {
		if g := mustSuite(t, line).Groups[0]; g.CPULimit != 20*time.Second || len(g.Specs) != 1 {
			t.Errorf("%q: CPU limit %s, %d specs; want 20s and one spec", line, g.CPULimit, len(g.Specs))
		}
	}
	for line, want := range map[string]string{
		"queens:6 cpu-limit=20s cpulimit=10s": "option cpu-limit given twice",
		"queens:6 cpu-limit=20":               "bad cpu-limit=20: want a positive duration like 30s or 2m",
	} {
		if _, err := suites.Parse("s", line); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%q: %v, want %q", line, err, want)
		}
	}
}

func TestParseSuiteErrors(t *testing.T) {
	for _, bad := range []string{
		"", "# only a comment",
		"queens:{4..2}", "queens:{4..", "queens:0", "queens:8 repeat=0", "queens:8 repeat=x", "queens:8 timeout=soon",
		"queens:8 mem=lots", "queens:8 task=fly", "queens:8 backends=nosuch", "queens:8 backends=native/nosuch",
		"queens:8 repeat=2 repeat=3", "backends=all", "queens:8 ladder=maybe",
	} {
		if _, err := suites.Parse("bad", bad); err == nil {
			t.Errorf("suites.Parse(%q) accepted", bad)
		}
	}
	if _, err := suites.Load("/nonexistent/suite"); err == nil || !strings.Contains(err.Error(), "quick") {
		t.Errorf("Load of a missing file: %v", err)
	}
}

func TestBuiltinSuitesParse(t *testing.T) {
	for _, name := range suites.Builtin.Names() {
		s, err := suites.Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(s.Groups) == 0 {
			t.Errorf("%s: empty", name)
		}
	}
}

// TestDominateSuiteRangeDocumented: the range of boards the suite
// "dominate" runs, n = min..max over its specs, is the range its own
// description (bench -h) and docs/families/dominate.md state.
func TestDominateSuiteRangeDocumented(t *testing.T) {
	text, err := suites.Builtin.Lookup("dominate")
	if err != nil {
		t.Fatal(err)
	}
	s := mustSuite(t, text)
	lo, hi := 0, 0
	for _, g := range s.Groups {
		for _, sp := range g.Specs {
			n := puzzle.BoardOf(sp).W
			if lo == 0 || n < lo {
				lo = n
			}
			hi = max(hi, n)
		}
	}
	want := fmt.Sprintf("n = %d..%d", lo, hi)
	if first, _, _ := strings.Cut(text, "\n"); !strings.Contains(first, "queen domination, "+want) {
		t.Errorf("the suite's description %q does not say %s, the range it runs", first, want)
	}
	doc, err := os.ReadFile("../../docs/families/dominate.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "runs the native strategies and the SAT models on "+want+" as ladders") {
		t.Errorf("docs/families/dominate.md does not say the suite dominate runs %s", want)
	}
}

// TestSuiteDefaultsDocumented: the limits of a group that sets none are
// the ones docs/harness.md and docs/contract.md state.
func TestSuiteDefaultsDocumented(t *testing.T) {
	timeout := strings.TrimSuffix(suites.DefaultTimeout.String(), "0s") // 1m0s -> 1m
	want := fmt.Sprintf("`timeout=%s`", timeout)
	mem := fmt.Sprintf("`mem=%dM`", suites.DefaultMemMB)
	for _, page := range []string{"../../docs/harness.md", "../../docs/contract.md"} {
		doc, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(doc)), " ")
		if !strings.Contains(text, "sets no limit runs with "+want) || !strings.Contains(text, mem) {
			t.Errorf("%s does not give the suite defaults %s and %s", page, want, mem)
		}
	}
}

// TestBraceBombRefused: a suite whose brace groups expand past
// suites.MaxPlannedRuns is refused by their count, before anything is expanded
// (the heap barely grows), with the count in the message; so is one whose
// groups add up past it with their repetitions.
func TestBraceBombRefused(t *testing.T) {
	bomb := "queens:8" + strings.Repeat("{1..3}", 16) + " backends=native"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := suites.Parse("bomb", bomb)
	runtime.ReadMemStats(&after)
	want := `suite bomb line 1: "queens:8{1..3}{1..3}{1..3}{1..3}{1..3}{1..3}{1..3}{1..3}..." expands to 43046721 specs, which with repeat 1 take the suite past the 1000000 runs (specs x repeat) a suite may plan`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("brace bomb: %v\nwant %s", err, want)
	}
	// A few KiB of messages and regular expressions, not the gigabyte
	// of an expansion.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing the bomb allocated %d bytes", grew)
	}
	_, err = suites.Parse("sum", "queens:{1..1000} repeat=600 backends=native\nqueens:{1..1000} repeat=600 backends=native")
	if err == nil || !strings.HasPrefix(err.Error(), `suite sum line 2: "queens:{1..1000}" expands to 1000 specs, which with repeat 600 take the suite past the 1000000 runs`) {
		t.Errorf("two groups past the limit: %v", err)
	}
	// Nested groups are counted again as they are expanded.
	_, err = suites.Parse("nested", "queens:{1{0..9}{0..9}{0..9},{1..3}}"+strings.Repeat("{1..9}", 6)+" backends=native")
	if err == nil || !strings.Contains(err.Error(), "a suite may plan") {
		t.Errorf("nested bomb: %v", err)
	}
	// Up to the limit, a suite plans as before.
	s, err := suites.Parse("fine", "queens:{4..5}{0,1} repeat=2 backends=native/plain")
	if err != nil || len(s.Groups[0].Specs) != 4 {
		t.Fatalf("fine suite: %v %v", s, err)
	}
}
