package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// fixtureCSV is a real bench run (see results/testdata).
const fixtureCSV = "../../harness/results/testdata/bench.csv"

// TestPlotOneFile checks that naming one figure file works for every kind
// on a normal bench CSV of several puzzles and tasks (one faceted image),
// with and without the --task, --puzzle and --variants filters, and that a
// filter naming nothing the results hold is bad input naming what they hold.
func TestPlotOneFile(t *testing.T) {
	dir := t.TempDir()
	cases := [][]string{
		{"--kind", "cactus"}, {"--kind", "scaling"}, {"--kind", "scatter"}, {}, // no --kind: cactus
		{"--kind", "scaling", "--task", "count", "--puzzle", "queens"},
		{"--kind", "cactus", "--variants", "native/*,sat/pairwise", "--time", "wall"},
		{"--kind", "scatter", "--x", "sat/pairwise", "--y", "sat/seqcounter", "--puzzle", "queens,pieces"},
	}
	for i, c := range cases {
		for _, ext := range []string{"svg", "png", "pdf"} {
			name := filepath.Join(dir, "f"+string(rune('a'+i))+"."+ext)
			status, out, stderr := runCLI(append([]string{"results", "plot", fixtureCSV, "-o", name}, c...)...)
			if status != 0 || strings.TrimSpace(out) != name {
				t.Errorf("%v -o %s: exit %d, stdout %q, stderr %q", c, name, status, out, stderr)
				continue
			}
			if st, err := os.Stat(name); err != nil || st.Size() < 1000 || st.Mode().Perm() != 0o644 {
				t.Errorf("%s: %v %v", name, st, err)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--kind", "cactus,scaling", "-o", filepath.Join(dir, "x.svg")}, "-o names one figure"},
		{[]string{"--puzzle", "rooks"}, "hold queens, pieces, tour"},
		{[]string{"--task", "shortest"}, "hold count, first"},
		{[]string{"--variants", "sat/nonesuch"}, "matches nothing"},
		{[]string{"--time", "user"}, "unknown --time \"user\": want cpu, wall or solver"},
		{[]string{"-o", filepath.Join(dir, "x.gif")}, "figure format"},
		{[]string{"--size", "a4"}, "bad figure size \"a4\""},
		{[]string{"--max-variants", "-1"}, "--max-variants must be 0"},
	} {
		status, out, stderr := runCLI(append([]string{"results", "plot", fixtureCSV}, c.args...)...)
		if status != 2 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, status, out, stderr, c.want)
		}
	}
}

// TestPlotPicksVariants: a cactus figure of more variants than
// --max-variants draws the best of each backend in each panel first (here
// queens count, the fixture's one puzzle and task of 3 instances or more,
// in CPU seconds, the default: native/plain and sat/totalizer, even beyond
// --max-variants 1), says
// the rule, names on stderr the variants left out and the puzzles and
// tasks too small for a panel; --max-variants 0 draws all.
func TestPlotPicksVariants(t *testing.T) {
	dir := t.TempDir()
	status, out, stderr := runCLI("results", "plot", fixtureCSV, "--max-variants", "3", "-o", filepath.Join(dir, "c.pdf"))
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if status != 0 || len(lines) != 2 || !strings.Contains(lines[0], "draw 3 of 9 variants: in each puzzle and task, the best variant of each backend") ||
		strings.Count(lines[0][strings.Index(lines[0], "left out: "):], ", ") != 5 ||
		!strings.HasSuffix(lines[1], "fewer than 3 instances: queens first (1 instance), pieces count (2 instances), tour first (2 instances)") {
		t.Errorf("exit %d, stdout %q, stderr %q; want a note naming the 6 variants left out and one naming the 3 small panels", status, out, stderr)
	}
	status, _, stderr = runCLI("results", "plot", fixtureCSV, "--max-variants", "1", "-o", filepath.Join(dir, "one.pdf"))
	if status != 0 || !strings.Contains(stderr, "draw 2 of 9 variants") || strings.Contains(stderr, "native/plain,") || strings.Contains(stderr, "sat/totalizer,") {
		t.Errorf("--max-variants 1: exit %d, stderr %q; want native/plain and sat/totalizer kept", status, stderr)
	}
	status, _, stderr = runCLI("results", "plot", fixtureCSV, "--max-variants", "0", "--size", "page", "-o", filepath.Join(dir, "all.pdf"))
	if status != 0 || strings.Contains(stderr, "left out:") {
		t.Errorf("--max-variants 0: exit %d, stderr %q", status, stderr)
	}
}

// TestResultsTime: summarize, table and plot take one --time, with one
// default (CPU seconds), named in what they print; a bad --time is one
// line on stderr and exit 2 for each.
func TestResultsTime(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"summarize"}, "CPU seconds"},
		{[]string{"table", "--what", "scores"}, "in CPU seconds"},
		{[]string{"table", "--what", "scores", "--time", "solver"}, "in solver seconds"},
		{[]string{"table", "--what", "pivot", "--format", "latex", "--time", "wall"}, "\\caption{Median wall-clock seconds"},
		{[]string{"table", "--what", "grid", "--time", "cpu"}, "Median CPU seconds per instance"},
	} {
		status, out, stderr := runCLI(append(append([]string{"results"}, c.args[0], fixtureCSV), c.args[1:]...)...)
		if status != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q in\n%s", c.args, status, stderr, c.want, out)
		}
	}
	for _, sub := range []string{"summarize", "table", "plot"} {
		args := []string{"results", sub, fixtureCSV, "--time", "user"}
		if sub == "plot" {
			args = append(args, "--out-dir", dir) // nothing beside the fixture, should it draw
		}
		status, out, stderr := runCLI(args...)
		if status != 2 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, `unknown --time "user": want cpu, wall or solver`) {
			t.Errorf("%s --time user: exit %d, stdout %q, stderr %q", sub, status, out, stderr)
		}
	}
}

// TestSpeedupCSVOneTable checks that the speed-up table as CSV is one
// table with a puzzle column, not blocks with repeated headers.
func TestSpeedupCSVOneTable(t *testing.T) {
	status, out, stderr := runCLI("results", "table", fixtureCSV, "--what", "speedup", "--format", "csv")
	if status != 0 {
		t.Fatalf("exit %d: %s", status, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "puzzle,baseline,variant,task,") || strings.Count(out, "puzzle,baseline") != 1 {
		t.Fatalf("not one table:\n%s", out)
	}
	puzzles := map[string]bool{}
	for _, l := range lines[1:] {
		if l == "" {
			t.Fatalf("blank line inside the CSV:\n%s", out)
		}
		puzzles[strings.Split(l, ",")[0]] = true
	}
	if !puzzles["queens"] || !puzzles["pieces"] || !puzzles["tour"] {
		t.Errorf("puzzles %v, want queens, pieces and tour rows", puzzles)
	}
}

// TestJSONKeys checks that --format json always prints every key the
// contract (docs/contract.md) lists, null where it does not apply, for native and SAT runs of every
// task kind.
func TestJSONKeys(t *testing.T) {
	keys := []string{"instance", "puzzle", "backend", "heuristic", "encoding", "solver", "task", "status",
		"count", "solution", "length", "seconds", "encode_seconds", "solve_seconds", "stats"}
	contract, err := os.ReadFile("../../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !strings.Contains(string(contract), "`"+k+"`") {
			t.Errorf("docs/contract.md does not list the JSON key %s", k)
		}
	}
	for _, args := range [][]string{
		{"solve", "queens:6"},
		{"solve", "queens:6", "--task", "first", "--backend", "sat"},
		{"solve", "swap:4x3"},
		{"solve", "tour:5x5:a1"},
		{"solve", "queens:3", "--backend", "sat", "--task", "first"}, // unsat: no solution, null
	} {
		status, out, stderr := runCLI(append(args, "--format", "json")...)
		if status != 0 {
			t.Fatalf("%v: exit %d %s", args, status, stderr)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("%v: key %s missing: %s", args, k, out)
			}
		}
		if string(m["heuristic"]) != "null" && slices.Contains(args, "sat") {
			t.Errorf("%v: heuristic %s for a SAT run, want null", args, m["heuristic"])
		}
	}
}

// TestResultsJudgeShardsTogether: two shard CSVs that each agree with
// themselves (pieces:7x7:N2: nothing published, beyond the brute force, so
// each shard judged by its own majority) disagree with each other; every
// results subcommand judges their rows together and says so, and merge
// writes the outvoted row as wrong. A whole run's CSV is left as it is.
func TestResultsJudgeShardsTogether(t *testing.T) {
	dir := t.TempDir()
	row := func(variant string, n uint64) results.Row {
		return results.Row{Instance: "pieces:7x7:N2", Puzzle: "pieces", Variant: variant, Backend: strings.Split(variant, "/")[0],
			Task: "count", Rep: 1, Status: results.StatusOK, Answer: n, HasAnswer: true, Seconds: 1}
	}
	write := func(name string, rows ...results.Row) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := results.Write(f, rows); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	a := write("shard-1.csv", row("native/bitboard", 1100))
	b := write("shard-2.csv", row("sat/pairwise", 1099), row("sat/totalizer", 1099))
	merged := filepath.Join(dir, "all.csv")
	status, _, stderr := runCLI("results", "merge", a, b, "-o", merged)
	if status != 0 || !strings.Contains(stderr, "1 row(s) now wrong, 0 no longer wrong") {
		t.Fatalf("merge: exit %d, stderr %q", status, stderr)
	}
	rows, err := results.ReadFiles(merged)
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		want := results.StatusOK
		if r.Variant == "native/bitboard" {
			want = results.StatusWrong
		}
		if r.Status != want {
			t.Errorf("%s: %s (%s), want %s", r.Variant, r.Status, r.Message, want)
		}
	}
	// summarize reads the shards as one, with the same verdicts.
	status, out, stderr := runCLI("results", "summarize", a, b)
	if status != 0 || !strings.Contains(stderr, "1 row(s) now wrong") || !strings.Contains(out, "wrong") {
		t.Errorf("summarize: exit %d, stderr %q, stdout %q", status, stderr, out)
	}
	// The merged file, and a real whole run, are already judged as one.
	for _, f := range []string{merged, fixtureCSV} {
		if status, _, stderr := runCLI("results", "summarize", f); status != 0 || stderr != "" {
			t.Errorf("summarize %s: exit %d, stderr %q", f, status, stderr)
		}
	}
}

// TestResultsHeaderOnly: a results file with a header and no rows is named
// as such, not blamed on filters that were never given.
func TestResultsHeaderOnly(t *testing.T) {
	data, err := os.ReadFile(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(string(data), "\n")
	empty := filepath.Join(t.TempDir(), "empty.csv")
	os.WriteFile(empty, []byte(header+"\n"), 0o644)
	for _, sub := range []string{"plot", "table", "summarize"} {
		args := []string{"results", sub, empty}
		if sub == "plot" {
			args = append(args, "-o", filepath.Join(t.TempDir(), "p.svg"))
		}
		status, out, errOut := runCLI(args...)
		if status != 2 || out != "" || !strings.Contains(errOut, "hold no rows") || strings.Contains(errOut, "filter") {
			t.Errorf("%v: %d %q %q", args, status, out, errOut)
		}
	}
}

// TestResultsMixedCommits: results refuses rows of two commits in one line
// (exit 2), and pools them with --mixed, saying which commits it pooled.
func TestResultsMixedCommits(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, c := range []string{"aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"} {
		r := results.Row{Instance: "queens:4", Puzzle: "queens", Variant: "native", Backend: "native", Task: "count", Rep: i + 1,
			Status: "ok", Seconds: 1, Commit: c}
		r.SetAnswerString("2")
		p := filepath.Join(dir, c+".csv")
		f, _ := os.Create(p)
		results.Write(f, []results.Row{r})
		f.Close()
		files = append(files, p)
	}
	status, out, stderr := runCLI(append([]string{"results", "summarize"}, files...)...)
	if status != 2 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--mixed") {
		t.Errorf("two commits: %d %q %q", status, out, stderr)
	}
	status, out, stderr = runCLI(append([]string{"results", "summarize", "--mixed"}, files...)...)
	if status != 0 || !strings.Contains(stderr, "pooled the rows of 2 commits: aaaaaaaaaaaa (1 rows), bbbbbbbbbbbb (1 rows)") || !strings.Contains(out, "queens:4") {
		t.Errorf("--mixed: %d %q %q", status, out, stderr)
	}
}
