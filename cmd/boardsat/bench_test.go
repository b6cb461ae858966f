package main

import (
	"github.com/boardsat/boardsat/harness/suites"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/harness/results"
)

// testMainEnv makes the test binary act as boardsat itself (main, as the
// built command runs it), so that bench's child runs (os.Executable) and
// the tests' own child processes (boardsatExe) go through the real
// commands.
const testMainEnv = "BOARDSAT_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	sat.ServeWorker()
	if os.Getenv(testMainEnv) == "1" {
		main()
	}
	os.Setenv(testMainEnv, "1") // inherited by bench's children
	os.Exit(m.Run())
}

func writeSuite(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.suite")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBenchThenResults(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "r.csv")
	suite := writeSuite(t, "queens:{4..6} backends=native/bitboard,native/plain repeat=2 timeout=20s\nswap:4x3 backends=native/bfs")
	status, _, stderr := runCLI("bench", suite, "-o", csv)
	if status != 0 {
		t.Fatalf("bench: status %d, %s", status, stderr)
	}
	rows, err := results.ReadFiles(csv)
	if err != nil || len(rows) != 13 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		if r.Status != results.StatusOK || r.MaxRSSKB <= 0 || r.Seconds <= 0 || !r.HasAnswer {
			t.Errorf("row %+v", r)
		}
		if r.Instance == "swap:4x3:w=a1,a2,a3:b=d1,d2,d3:rule=own:turns=alternate" && r.Answer != 22 {
			t.Errorf("swap answer %d", r.Answer)
		}
	}
	if _, err := os.Stat(results.MetaPath(csv)); err != nil {
		t.Errorf("no sidecar: %v", err)
	}
	if status, out, _ := runCLI("bench", suite, "--dry-run", "--repeat", "3"); status != 0 || !strings.Contains(out, "21 runs planned") {
		t.Errorf("dry run: %d\n%s", status, out)
	}
	// The same command line again would lose the rows: refused, one line.
	before, _ := os.ReadFile(csv)
	if status, _, stderr := runCLI("bench", suite, "-o", csv); status != 2 || strings.Count(stderr, "\n") != 1 ||
		!strings.Contains(stderr, "--resume") || !strings.Contains(stderr, "--force") {
		t.Errorf("bench onto an existing file: status %d, %q", status, stderr)
	}
	if after, _ := os.ReadFile(csv); string(after) != string(before) {
		t.Error("the refused bench changed the file")
	}
	// Resume with everything done runs nothing.
	if status, _, stderr := runCLI("bench", suite, "-o", csv, "--resume"); status != 0 {
		t.Fatalf("resume: %d %s", status, stderr)
	}
	if rows, _ := results.ReadFiles(csv); len(rows) != 13 {
		t.Errorf("resume added rows: %d", len(rows))
	}

	status, out, stderr := runCLI("results", "summarize", csv)
	if status != 0 || !strings.Contains(out, "| queens:6") || !strings.Contains(out, "Speed-up over native/bitboard") {
		t.Errorf("summarize: %d %s\n%s", status, stderr, out)
	}
	status, out, _ = runCLI("results", "table", csv, "--format", "latex", "--what", "speedup", "--baseline", "native/plain")
	if status != 0 || !strings.Contains(out, `\toprule`) || !strings.Contains(out, "native/bitboard") {
		t.Errorf("table: %d\n%s", status, out)
	}
	// The grid: the tasks side by side, each with its answer.
	status, out, _ = runCLI("results", "table", csv, "--what", "grid")
	if status != 0 || !strings.Contains(out, "| count: answer | count: native/bitboard | count: native/plain | shortest: answer | shortest: native/bfs |") ||
		!regexp.MustCompile(`\| queens:5 +\| +10 \|`).MatchString(out) {
		t.Errorf("grid: %d\n%s", status, out)
	}
	status, out, _ = runCLI("results", "table", csv, "--what", "grid", "--variants", "native/plain,native/b*")
	if status != 0 || !strings.Contains(out, "| count: answer | count: native/plain | count: native/bitboard | shortest: answer | shortest: native/bfs |") {
		t.Errorf("grid in the order of --variants: %d\n%s", status, out)
	}
	status, out, stderr = runCLI("results", "plot", csv, "--out-dir", dir, "--ext", "png")
	if status != 0 || !strings.Contains(out, "r-cactus.png") || !strings.Contains(out, "r-scaling.png") || !strings.Contains(out, "r-scatter.png") {
		t.Errorf("plot: %d %s\n%s", status, stderr, out)
	}
	for _, f := range strings.Fields(out) {
		if st, err := os.Stat(f); err != nil || st.Size() < 1000 {
			t.Errorf("figure %s: %v", f, err)
		}
	}
	status, out, _ = runCLI("results", "benchfmt", csv)
	if status != 0 || strings.Count(out, "BenchmarkBoardsat/") != 13 || !strings.Contains(out, "goos: linux") {
		t.Errorf("benchfmt: %d\n%s", status, out)
	}
	merged := filepath.Join(dir, "m.csv")
	status, _, stderr = runCLI("results", "merge", csv, csv, "-o", merged)
	if status != 0 || !strings.Contains(stderr, "dropped 13 duplicated row(s)") {
		t.Fatalf("merge: %d %s", status, stderr)
	}
	if rows, err := results.ReadFiles(merged); err != nil || len(rows) != 13 {
		t.Errorf("merged %d rows, %v; want the 13 runs once each", len(rows), err)
	}
	for _, f := range []string{merged, results.MetaPath(merged), filepath.Join(dir, "r-cactus.png")} {
		if st, err := os.Stat(f); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v %v, want mode 0644", f, st, err)
		}
	}
}

func TestBenchResultsBadInput(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.csv")
	os.WriteFile(other, []byte("name,value\nx,1\n"), 0o644)
	broken := filepath.Join(dir, "broken.csv")
	os.WriteFile(broken, []byte(strings.Join(results.Columns, ",")+"\n\"open quote\n"), 0o644)
	good := filepath.Join(dir, "good.csv")
	r := results.Row{Instance: "queens:4", Puzzle: "queens", Variant: "native", Backend: "native", Task: "count", Rep: 1, Status: "ok", Seconds: 1}
	f, _ := os.Create(good)
	results.Write(f, []results.Row{r})
	f.Close()
	out := filepath.Join(dir, "out.csv")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench"}, "want exactly one SUITE"},
		{[]string{"bench", "nosuchsuite"}, "no built-in suite or suite file"},
		{[]string{"bench", writeSuite(t, "queens:{4..x}")}, "bad range"},
		{[]string{"bench", writeSuite(t, "queens:8 backends=oracle")}, "unknown backend"},
		{[]string{"bench", writeSuite(t, "queens:8 repeat=0")}, "bad repeat"},
		{[]string{"bench", "quick", "--mem", "lots"}, "bad memory size"},
		{[]string{"bench", "quick", "--cpu-limit", "-1s"}, "must not be negative"},
		{[]string{"bench", "quick", "--timeout", "-1s"}, "must not be negative"},
		{[]string{"bench", "quick", "--cpus", "0,4096"}, "core 4096 does not exist"},
		{[]string{"bench", "quick", "--cpus", "1-0"}, "bad --cpus"},
		{[]string{"bench", "quick", "--jobs", "0"}, "bad --jobs"},
		{[]string{"bench", "quick", "--jobs", "4096"}, "needs at least 4096 cores"},
		{[]string{"bench", writeSuite(t, "queens:8 cpulimit=-2s")}, "bad cpu-limit=-2s"},
		{[]string{"bench", "quick", "--resume"}, "--resume needs an output file"},
		{[]string{"results"}, "want a subcommand"},
		{[]string{"results", "draw", good}, "want a subcommand"},
		{[]string{"results", "summarize"}, "want at least one"},
		{[]string{"results", "summarize", other}, "not a boardsat results CSV"},
		{[]string{"results", "summarize", broken}, "malformed CSV"},
		{[]string{"results", "summarize", filepath.Join(dir, "missing.csv")}, "no such file"},
		{[]string{"results", "summarize", good, "--baseline", "sat/nosuch"}, "unknown baseline variant"},
		{[]string{"results", "table", good, "--format", "html"}, "unknown table format"},
		{[]string{"results", "table", good, "--what", "pivot", "--measure", "mean"}, "unknown --measure"},
		{[]string{"results", "table", good, "--what", "pie"}, "unknown --what"},
		{[]string{"results", "summarize", good, "--par", "-1"}, "bad --par"},
		{[]string{"results", "table", good, "--variants", "sat/*"}, "matches nothing"},
		{[]string{"results", "plot", good, "--kind", "pie"}, "unknown figure kind"},
		{[]string{"results", "plot", good, "--x", "native", "--y", "nosuch"}, "unknown variant"},
		{[]string{"results", "plot", good, "-o", filepath.Join(dir, "f.gif"), "--kind", "cactus"}, "figure format"},
		{[]string{"results", "merge", good, other, "-o", out}, "not a boardsat results CSV"},
		{[]string{"results", "merge", good, broken, "-o", out}, "malformed CSV"},
	} {
		status, stdout, stderr := runCLI(c.args...)
		if status != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d stderr %q, want 2 and one line with %q", c.args, status, stderr, c.want)
		}
		if stdout != "" {
			t.Errorf("%v: wrote %q on bad input", c.args, stdout)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a refused merge left an output file")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestQuickSuite is the acceptance line: bench quick, summarize, plot.
func TestQuickSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("the quick suite takes several seconds")
	}
	dir := t.TempDir()
	csv := filepath.Join(dir, "r.csv")
	if status, _, stderr := runCLI("bench", "quick", "-o", csv, "--repeat", "1"); status != 0 {
		t.Fatalf("bench quick: %d %s", status, stderr)
	}
	rows, err := results.ReadFiles(csv)
	if err != nil || len(rows) == 0 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		if r.Status == results.StatusWrong {
			t.Errorf("wrong answer: %s %s %s: %s", r.Instance, r.Variant, r.Task, r.Message)
		}
		if r.MeasuredBy == "" || r.CPULimit != 3 || r.WallLimit != 30 || r.MemLimitMB != suites.DefaultMemMB {
			t.Errorf("%s %s: measured by %q, CPU limit %g s, wall limit %g s, memory limit %d MiB: want a method and the suite's limits (3 s of CPU, 30 s, %d MiB)",
				r.Instance, r.Variant, r.MeasuredBy, r.CPULimit, r.WallLimit, r.MemLimitMB, suites.DefaultMemMB)
		}
	}
	if status, _, stderr := runCLI("results", "summarize", csv); status != 0 {
		t.Errorf("summarize: %d %s", status, stderr)
	}
	if status, _, stderr := runCLI("results", "plot", csv); status != 0 {
		t.Errorf("plot: %d %s", status, stderr)
	}
}

// TestRepeatNote checks that bench says how many repetitions benchstat
// needs when a group runs fewer times, and says nothing when all run often
// enough.
func TestRepeatNote(t *testing.T) {
	s, err := suites.Parse("t", "queens:4 backends=native/bitboard repeat=3\nqueens:5 backends=native/bitboard repeat=6")
	if err != nil {
		t.Fatal(err)
	}
	if n := repeatNote(s, 0); !strings.Contains(n, "ran 3 time(s)") || !strings.Contains(n, "at least 6") {
		t.Errorf("repeat 3: note %q", n)
	}
	if n := repeatNote(s, 6); n != "" {
		t.Errorf("--repeat 6: note %q, want none", n)
	}
}
