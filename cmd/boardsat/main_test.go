package main

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/puzzle"
)

// runCLI runs one command line in-process and returns its exit status, stdout and stderr.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	status := run(args, &out, &errb)
	return status, out.String(), errb.String()
}

func TestBadInputExitsTwoWithOneLine(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"solve"}, "want exactly one SPEC"},
		{[]string{"solve", "queens:8", "queens:9"}, "want exactly one SPEC"},
		{[]string{"solve", "rooks:8"}, "unknown puzzle"},
		{[]string{"solve", "queens:-3"}, "bad queens spec"},
		{[]string{"solve", "pieces:0x0:K1"}, "bad board"},
		{[]string{"solve", "pieces:3x3:P1"}, "unknown piece"},
		{[]string{"solve", "pieces:2x2:Q5"}, "cannot fit"},
		{[]string{"solve", "tour:8x8:j9"}, "off the 8x8 board"},
		{[]string{"solve", "swap:4x3:w=a1:b=a1"}, "overlap"},
		{[]string{"solve", "queens:8", "--backend", "oracle"}, "unknown backend"},
		{[]string{"solve", "queens:8", "--task", "guess"}, "unknown task"},
		{[]string{"solve", "queens:8", "--heuristic", "no-such-heuristic"}, "no-such-heuristic"},
		{[]string{"solve", "queens:8", "--format", "xml"}, "unknown format"},
		{[]string{"solve", "queens:8", "--threads", "-1"}, "--threads"},
		{[]string{"solve", "queens:8", "--bogus"}, "bogus"},
		{[]string{"list", "extra"}, "no arguments"},
		// A puzzle name alone: the message quotes only what was typed.
		{[]string{"solve", "queens"}, `spec "queens" names the puzzle but no instance: want queens:N`},
		{[]string{"solve", "kingpath"}, `spec "kingpath" names the puzzle`},
		// Durations are checked in one place, for every subcommand.
		{[]string{"solve", "queens:8", "--timeout", "-5s"}, "--timeout -5s: a duration must not be negative"},
		{[]string{"solve", "queens:8", "--checkpoint-every", "-1s"}, "--checkpoint-every -1s: a duration must not be negative"},
		{[]string{"compare", "queens:6", "--timeout", "-1m"}, "--timeout -1m0s: a duration must not be negative"},
		{[]string{"bench", "quick", "--timeout", "-2s"}, "must not be negative"},
		{[]string{"slurm", "collect", "x", "--wait", "-1h"}, "--wait -1h0m0s: a duration must not be negative"},
		{[]string{"slurm", "collect", "x", "--poll", "0s"}, "--poll must be positive"},
		// Output paths that cannot take a file name the user's path.
		{[]string{"encode", "queens:4", "--encoding", "pairwise", "-o", "/nonexistent/x.cnf"}, "cannot write /nonexistent/x.cnf: "},
		{[]string{"solve", "queens:9", "--checkpoint", "/nonexistent/q.ck"}, "cannot write /nonexistent/q.ck: "},
		{[]string{"results", "table", "-o", "/nonexistent/t.tex", fixtureCSV}, "cannot write /nonexistent/t.tex: "},
		{[]string{"results", "plot", "-o", "/nonexistent/p.svg", fixtureCSV}, "cannot write /nonexistent/p.svg: "},
		// A long bad input is cut, not echoed whole.
		{[]string{"solve", "queens:" + strings.Repeat("9", 8000)}, "more bytes cut)"},
		// The cp and mip backends refuse what they cannot answer.
		{[]string{"solve", "queens:6", "--backend", "mip", "--task", "count"}, "does not do task count"},
		{[]string{"solve", "queens:6", "--backend", "mip", "--task", "first", "--solver", "gurobi"}, `unknown mip solver "gurobi"`},
		{[]string{"solve", "queens:6", "--backend", "cp", "--solver", "chuffed"}, `unknown cp solver "chuffed"`},
		{[]string{"solve", "mnk:3x3:3", "--backend", "cp", "--task", "value"}, "not a CP one"},
		{[]string{"encode", "mnk:3x3:3", "--format", "mzn"}, "no MiniZinc model for mnk"},
		{[]string{"solve", "mnk:3x3:4"}, "bad mnk K"},
		{[]string{"solve", "mnk:3x3:0"}, "bad mnk K"},
		{[]string{"solve", "mnk:3x3:3:pos=XX......."}, "cannot arise"},
		{[]string{"solve", "mnk:3x3:3:pos=XXXOO...."}, "play is over"},
		{[]string{"solve", "mnk:3x3:3:pos=XXXOOO..."}, "play is over"},
		{[]string{"solve", "mnk:3x3:3:pos=XO?......"}, "want X, O or ."},
		{[]string{"solve", "mnk:3x3:3:pos=XO"}, "want 9 cells"},
		{[]string{"solve", "mnk:3x3:3:moves=10"}, "at most 9 moves"},
		{[]string{"solve", "mnk:3x3:3:moves=0"}, "bad mnk moves"},
		{[]string{"solve", "mnk:3x3:3", "--task", "value", "--backend", "sat"}, "native"},
		{[]string{"solve", "mnk:3x3:3:moves=5", "--task", "value"}, "task value"},
		{[]string{"solve", "dominate:8x8:Q:k=-1"}, "bad dominate bound"},
		{[]string{"solve", "dominate:8x8:P"}, "bad dominate piece"},
		{[]string{"solve", "dominate:8x8:Q:weighted"}, "unknown dominate option"},
		{[]string{"solve", "dominate:8x8:Q:k=2:k=3"}, "given twice"},
		{[]string{"solve", "dominate:65x65:Q"}, "too large"},
		// Counts no exact method takes on this machine: the estimate, no count.
		{[]string{"solve", "tour:8x8:*", "--task", "count", "--heuristic", "split"}, "a half would hold about 474725663 interfaces"},
		{[]string{"solve", "tour:8x8:*", "--task", "count"}, "no exact method counts tour:8x8:*: split: refused"},
	}
	for _, c := range cases {
		status, stdout, stderr := runCLI(c.args...)
		if status != 2 {
			t.Errorf("%v: exit status %d, want 2 (stderr %q)", c.args, status, stderr)
		}
		if stdout != "" {
			t.Errorf("%v: wrote %q to stdout on bad input", c.args, stdout)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, ".tmp") || len(stderr) > 400 {
			t.Errorf("%v: stderr %q, want one line containing %q", c.args, stderr, c.want)
		}
		if c.args[0] != "solve" || slices.Contains(c.args, "--format") || slices.Contains(c.args, "--bogus") {
			continue // not a request, or flags that do not parse: no answer
		}
		// As JSON, the request is refused explicitly: the same line on
		// stderr, and one answer of status refused on stdout.
		args := append(slices.Clone(c.args), "--format", "json")
		status, stdout, stderr = runCLI(args...)
		a, err := answer.Last(stdout)
		if status != 2 || err != nil || strings.Count(stdout, "\n") != 1 || a.Status != answer.Refused ||
			!strings.Contains(answer.Str(a.Message), c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: status %d, stdout %q, stderr %q: want exit 2 and one refusal answer", args, status, stdout, stderr)
		}
	}
}

func TestHelpAndList(t *testing.T) {
	status, out, _ := runCLI("help")
	if status != 0 || !strings.Contains(out, "solve") {
		t.Errorf("help: status %d, output %q", status, out)
	}
	// Every registered puzzle's spec form is in the help of every command
	// that takes a SPEC.
	for _, args := range [][]string{{"help"}, {"solve", "-h"}, {"encode", "-h"}, {"compare", "-h"}} {
		_, out, _ := runCLI(args...)
		for _, name := range puzzle.Puzzles {
			d, _ := puzzle.Lookup(name)
			if !strings.Contains(out, "  "+d.Syntax+"\n") {
				t.Errorf("%v: no spec form %q in\n%s", args, d.Syntax, out)
			}
		}
	}
	status, out, _ = runCLI("list")
	if status != 0 || !strings.Contains(out, "backend native") || !strings.Contains(out, "value is native-only") {
		t.Errorf("list: status %d, output %q", status, out)
	}
	// Each table once (gophersat-count shares the sat backend's encodings),
	// and each SAT default says why it is the default.
	squeezed := regexp.MustCompile(` +`).ReplaceAllString(out, " ")
	if n := strings.Count(squeezed, " encoding queens direct "); n != 1 || !strings.Contains(squeezed, " encoding the same as backend sat\n") {
		t.Errorf("list: the queens encoding listed %d times, want once and a line naming the sat backend's table", n)
	}
	for _, want := range []string{
		"unsatsat-lines-hilbert-lex the line model with Hilbert order and lex-leader symmetry breaking; minimum by UNSAT-SAT ascent from the lower bound (default)\n",
		"why default: with totalizer unless --encoding names a card encoding; the fastest optimum with proof measured",
		"why default: 2 to 2.6 times faster than pairwise",
		"seqcounter Sinz's sequential counter (LTseq): k*(n-1) aux, one-directional (default)\n",
	} {
		if !strings.Contains(squeezed, want) {
			t.Errorf("list lacks %q", want)
		}
	}
}

// TestListColumnsAligned: every row of boardsat list's tables starts its
// description in one column, the long model names (satunsat-inc-hilbert-lex,
// 24 characters) included, and each "why default" line starts there too.
func TestListColumnsAligned(t *testing.T) {
	_, out, _ := runCLI("list")
	row := regexp.MustCompile(`^  (encoding|solver|heuristic) +(\S+) +(\S+) +`)
	col, rows := -1, 0
	long := false
	for _, line := range strings.Split(out, "\n") {
		var at int
		if m := row.FindStringSubmatch(line); m != nil && m[2] != "the" {
			at = len(m[0])
			long = long || m[3] == "satunsat-inc-hilbert-lex"
			rows++
		} else if i := strings.Index(line, "why default: "); i > 0 {
			at = i
		} else {
			continue
		}
		if col < 0 {
			col = at
		} else if at != col {
			t.Errorf("description at column %d, not %d: %q", at, col, line)
		}
	}
	if rows < 50 || !long {
		t.Errorf("%d rows, the long name satunsat-inc-hilbert-lex listed: %v; want every choice", rows, long)
	}
}
