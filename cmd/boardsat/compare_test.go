package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/puzzle"
)

// cmdWrong is a planted wrong backend: it answers queens counts from the
// published table, one too many from n = 6 on.
type cmdWrong struct{}

func (cmdWrong) Name() string             { return "cmdtest-wrong" }
func (cmdWrong) Doc() string              { return "planted wrong backend (tests only)" }
func (cmdWrong) Choices() []puzzle.Choice { return nil }
func (cmdWrong) Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	q, ok := req.Spec.(puzzle.Queens)
	if !ok || req.Task != puzzle.Count {
		return puzzle.Answer{}, fmt.Errorf("cmdtest-wrong counts queens only")
	}
	n, _ := puzzle.KnownCount(q, puzzle.Count)
	if q.N >= 6 {
		n++
	}
	return puzzle.Answer{Status: puzzle.OK, Count: n}, nil
}

// KnownWrong keeps the planted backend out of "all" (and of the quick suite).
func (cmdWrong) KnownWrong() string { return "planted in a test" }

func init() { puzzle.Backends.Add("cmdtest-wrong", cmdWrong{}) }

func TestCompareAgrees(t *testing.T) {
	status, out, stderr := runCLI("compare", "queens:6", "queens:3", "--backends", "native/*")
	if status != 0 || strings.Count(out, "all answers agree (") != 2 || !strings.Contains(out, "(published)") || !strings.Contains(out, "native/bitboard") {
		t.Errorf("status %d %s\n%s", status, stderr, out)
	}
}

func TestCompareDisagreementExitsOne(t *testing.T) {
	status, out, stderr := runCLI("compare", "queens:8", "--backends", "native/bitboard,cmdtest-wrong")
	if status != 1 || !strings.Contains(out, "DISAGREEMENT on queens:8: cmdtest-wrong") || !strings.Contains(stderr, "cmdtest-wrong") ||
		!strings.Contains(out, "known wrong: planted in a test") {
		t.Errorf("status %d stderr %q\n%s", status, stderr, out)
	}
}

func TestCompareSweepShrinks(t *testing.T) {
	status, out, stderr := runCLI("compare", "--sweep", "--puzzles", "queens", "--max-queens", "9", "--backends", "native/bitboard,cmdtest-wrong")
	if status != 1 || !strings.Contains(out, "minimal: queens:6\n") || !strings.Contains(stderr, "minimal instance queens:6 (cmdtest-wrong)") {
		t.Errorf("status %d stderr %q\n%s", status, stderr, out)
	}
	status, out, _ = runCLI("compare", "--sweep", "--puzzles", "queens", "--max-queens", "7", "--backends", "native/*")
	if status != 0 || !strings.Contains(out, "sweep: 7 instances, 28 runs, 0 with a disagreement (0 runs without an answer") {
		t.Errorf("clean sweep: status %d\n%s", status, out)
	}
}

func TestCompareKnownWrongCounter(t *testing.T) {
	// gophersat's built-in counter must count queens, show its
	// disagreement (103, not 92) and be labelled as known wrong.
	if _, err := puzzle.Backends.Lookup("gophersat-count"); err != nil {
		t.Fatal("gophersat-count not registered")
	}
	status, out, _ := runCLI("compare", "queens:8", "--backends", "native/bitboard,gophersat-count/pairwise")
	if strings.Contains(out, "skipped") || !strings.Contains(out, "103") {
		t.Fatalf("gophersat-count did not count queens:8:\n%s", out)
	}
	if status != 1 || !strings.Contains(out, "known wrong") {
		t.Errorf("status %d\n%s", status, out)
	}
}

// TestSolveKnownWrongCounterNotOK: solve with gophersat-count never says
// ok nor gives a count; its figure is in the one-line error, exit 1.
func TestSolveKnownWrongCounterNotOK(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		status, out, errOut := runCLI("solve", "queens:8", "--backend", "gophersat-count", "--encoding", "pairwise", "--format", format)
		if status != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "counted 103 models; it is known to over-count") {
			t.Errorf("%s: exit %d, stderr %q", format, status, errOut)
		}
		if format == "text" && (!strings.Contains(out, "status:        error\n") || strings.Contains(out, "count:")) {
			t.Errorf("text: stdout %q, want status error and no count", out)
		}
		if a, err := answer.Last(out); format == "json" && (err != nil || a.Status != "error" || a.Count != nil) {
			t.Errorf("json: %v, stdout %q, want status error and count null", err, out)
		}
	}
}

func TestCompareBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare"}, "want at least one SPEC"},
		{[]string{"compare", "queens:x"}, "bad queens spec"},
		{[]string{"compare", "queens:8", "--backends", "oracle"}, "unknown backend"},
		{[]string{"compare", "queens:8", "--backends", "native/nosuch"}, "unknown heuristic"},
		{[]string{"compare", "queens:8", "--task", "guess"}, "unknown task"},
		{[]string{"compare", "--sweep", "--puzzles", "chess"}, "unknown sweep puzzle"},
		{[]string{"compare", "--sweep", "queens:8"}, "give no SPEC"},
	} {
		status, stdout, stderr := runCLI(c.args...)
		if status != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: status %d stdout %q stderr %q, want 2 and one line with %q", c.args, status, stdout, stderr, c.want)
		}
	}
}

// TestCompareMNK: games and positions of m,n,k games agree across the
// native counters, every SAT encoding and the brute force, and the value
// of tic-tac-toe agrees with the published draw.
func TestCompareMNK(t *testing.T) {
	status, out, stderr := runCLI("compare", "mnk:3x3:3:moves=6", "mnk:3x3:3:moves=3:positions", "mnk:4x2:3",
		"--backends", "native/*,sat/*,check")
	if status != 0 || strings.Count(out, "all answers agree (") != 3 || !strings.Contains(out, "sat/mtotalizer") {
		t.Errorf("count: status %d %s\n%s", status, stderr, out)
	}
	status, out, stderr = runCLI("compare", "mnk:3x3:3", "--task", "value", "--backends", "native/*,check")
	if status != 0 || !strings.Contains(out, "all answers agree (draw, published") {
		t.Errorf("value: status %d %s\n%s", status, stderr, out)
	}
}
