package main

import (
	"bytes"
	"context"
	"github.com/boardsat/boardsat/harness/suites"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/formats/export"
	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/puzzle"
)

// writeTemp writes text to a file of the test's temporary directory.
func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var exactLine = regexp.MustCompile(`(?m)^c s exact arb int (\d+)$`)

// quickCount is a counting instance of the quick suite with the one
// formula that answers it (export.Formula) and native's count.
type quickCount struct {
	spec     puzzle.Spec
	formula  *cnf.Formula
	encoding string
	native   uint64
}

// quickCounts returns every counting instance of the quick suite that one
// formula answers, each once, with native's count: at least 8, else the
// test fails (a suite that shrank would make its callers check nothing).
func quickCounts(t *testing.T) []quickCount {
	t.Helper()
	s, err := suites.Load("quick")
	if err != nil {
		t.Fatal(err)
	}
	native, err := puzzle.Backends.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var qs []quickCount
	for _, g := range s.Groups {
		for _, spec := range g.Specs {
			task := g.Task
			if task == "" {
				task = puzzle.DefaultTask(spec)
			}
			if task != puzzle.Count || seen[spec.String()] {
				continue
			}
			seen[spec.String()] = true
			f, encoding, why := export.Formula(spec, puzzle.Count)
			if f == nil {
				t.Logf("%s: no one formula answers the count: %s", spec, why)
				continue
			}
			want, err := native.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Count})
			if err != nil || want.Status != puzzle.OK {
				t.Fatalf("%s: native: %v %s", spec, err, want.Message)
			}
			qs = append(qs, quickCount{spec: spec, formula: f, encoding: encoding, native: want.Count})
		}
	}
	if len(qs) < 8 {
		t.Fatalf("only %d counting instances of the quick suite", len(qs))
	}
	return qs
}

// TestCNFCountAgreesWithNative: every counting instance of the quick
// suite that one formula answers, written as DIMACS as "boardsat export"
// writes it and counted by "boardsat cnf count", gives the native
// backend's count (and the published count where the puzzle's table has
// one).
func TestCNFCountAgreesWithNative(t *testing.T) {
	for _, q := range quickCounts(t) {
		spec := q.spec
		var b strings.Builder
		if err := q.formula.WriteDIMACS(&b); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		path := writeTemp(t, "f.cnf", b.String())
		code, out, errText := runCLI("cnf", "count", path)
		m := exactLine.FindStringSubmatch(out)
		if code != 0 || m == nil {
			t.Fatalf("%s: cnf count: exit %d, stdout %q, stderr %q", spec, code, out, errText)
		}
		got, _ := strconv.ParseUint(m[1], 10, 64)
		if got != q.native {
			t.Errorf("%s: cnf count %d, native %d", spec, got, q.native)
		}
		if pub, ok := puzzle.KnownCount(spec, puzzle.Count); ok && pub != got {
			t.Errorf("%s: cnf count %d, published %d", spec, got, pub)
		}
		sat := "s SATISFIABLE\n"
		if got == 0 {
			sat = "s UNSATISFIABLE\n"
		}
		if !strings.HasPrefix(out, sat) {
			t.Errorf("%s: the answer does not start with %q: %q", spec, sat, out)
		}
	}
}

// TestCNFCountFormat: the MCC 2024 lines, mc and pmc, on formulas counted
// by hand.
func TestCNFCountFormat(t *testing.T) {
	cases := []struct{ text, want string }{
		// (1 or 2) and (not 1 or 3): 4 models of 3 variables.
		{"c t mc\np cnf 3 2\n1 2 0\n-1 3 0\n", "s SATISFIABLE\nc s type mc\nc s log10-estimate 0.602059991327962\nc s exact arb int 4\n"},
		// projected on 1 and 2: 01, 10, 11.
		{"c t pmc\np cnf 3 2\nc p show 1 2 0\n1 2 0\n-1 3 0\n", "s SATISFIABLE\nc s type pmc\nc s log10-estimate 0.477121254719662\nc s exact arb int 3\n"},
		// no c t line: mc; a variable in no clause doubles the count.
		{"p cnf 2 1\n1 0\n", "s SATISFIABLE\nc s type mc\nc s log10-estimate 0.301029995663981\nc s exact arb int 2\n"},
		{"p cnf 1 2\n1 0\n-1 0\n", "s UNSATISFIABLE\nc s type mc\nc s log10-estimate -inf\nc s exact arb int 0\n"},
		// an empty projection: one assignment (the empty one) extends.
		{"c t pmc\np cnf 2 1\nc p show 0\n1 2 0\n", "s SATISFIABLE\nc s type pmc\nc s log10-estimate 0\nc s exact arb int 1\n"},
	}
	for _, c := range cases {
		code, out, errText := runCLI("cnf", "count", writeTemp(t, "f.cnf", c.text))
		if code != 0 || out != c.want || errText != "" {
			t.Errorf("%q: exit %d, stdout %q (want %q), stderr %q", c.text, code, out, c.want, errText)
		}
	}
}

// TestCNFSolve: the SAT Competition's output and exit statuses, the model
// satisfying the formula, and an UNSAT's proof accepted by the project's
// checker in both formats.
func TestCNFSolve(t *testing.T) {
	satText := "p cnf 3 3\n1 2 0\n-1 0\n-2 3 0\n"
	code, out, _ := runCLI("cnf", "solve", writeTemp(t, "s.cnf", satText))
	if code != 10 || out != "s SATISFIABLE\nv -1 2 3 0\n" {
		t.Errorf("sat: exit %d, %q", code, out)
	}
	// The pigeonhole formula of 3 pigeons in 2 holes (unsatisfiable).
	php := "p cnf 6 9\n1 2 0\n3 4 0\n5 6 0\n-1 -3 0\n-1 -5 0\n-3 -5 0\n-2 -4 0\n-2 -6 0\n-4 -6 0\n"
	f := writeTemp(t, "u.cnf", php)
	for _, format := range []string{"binary", "ascii"} {
		p := filepath.Join(t.TempDir(), "proof.out")
		code, out, errText := runCLI("cnf", "solve", "--proof", p, "--proof-format", format, f)
		if code != 20 || out != "s UNSATISFIABLE\n" {
			t.Fatalf("%s: exit %d, %q, %q", format, code, out, errText)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := proof.Detect(data); got.String() != format {
			t.Errorf("proof written as %s, asked %s", got, format)
		}
		code, out, _ = runCLI("cnf", "check", f, p)
		if code != 0 || !strings.HasSuffix(out, "s VERIFIED\n") {
			t.Errorf("%s proof: cnf check exit %d, %q", format, code, out)
		}
		// The same proof does not refute a satisfiable formula: the
		// check of cnf check is the real one.
		code, out, _ = runCLI("cnf", "check", writeTemp(t, "s6.cnf", "p cnf 6 3\n1 2 0\n3 4 0\n5 6 0\n"), p)
		if code != 1 || !strings.HasPrefix(out, "s NOT VERIFIED") {
			t.Errorf("%s proof against a satisfiable formula: exit %d, %q", format, code, out)
		}
	}
	// Without --proof no file is written; an existing proof file is not
	// replaced without --force.
	p := writeTemp(t, "keep.out", "mine\n")
	code, out, errText := runCLI("cnf", "solve", "--proof", p, f)
	if code != 2 || out != "" || !strings.Contains(errText, "--force") {
		t.Errorf("existing proof file: exit %d, %q, %q", code, out, errText)
	}
	if data, _ := os.ReadFile(p); string(data) != "mine\n" {
		t.Errorf("the existing file was changed: %q", data)
	}
}

// queens16Count returns the default counting formula of queens:16 as
// DIMACS: a count that takes far longer than the tests wait.
func queens16Count(t *testing.T) string {
	t.Helper()
	e, c, err := encode.ResolveTask("queens", "", puzzle.Count)
	if err != nil {
		t.Fatal(err)
	}
	in, err := e.Build(puzzle.Queens{N: 16}, c, encode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := in.Formula.WriteDIMACS(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestCNFTimeout: a search stopped by --timeout answers s UNKNOWN, exit 0.
func TestCNFTimeout(t *testing.T) {
	code, out, _ := runCLI("cnf", "count", "--timeout", "200ms", "--threads", "1", writeTemp(t, "q.cnf", queens16Count(t)))
	if code != 0 || !strings.HasSuffix(out, "s UNKNOWN\n") || strings.Contains(out, "exact") {
		t.Errorf("timeout: exit %d, %q", code, out)
	}
}

// TestCNFBadInput: malformed DIMACS and directives, wrong arguments: one
// line on stderr naming the problem, exit 2, nothing on stdout.
func TestCNFBadInput(t *testing.T) {
	cases := []struct {
		args []string
		text string // the F.cnf given as the last argument, when set
		want string
	}{
		{[]string{"cnf"}, "", "needs a subcommand"},
		{[]string{"cnf", "frob"}, "", "unknown cnf subcommand"},
		{[]string{"cnf", "count"}, "", "one file"},
		{[]string{"cnf", "count", "/no/such.cnf"}, "", "no such file"},
		{[]string{"cnf", "count"}, "p cnf 2 1\n1 x 0\n", `line 2: "x" is not a number`},
		{[]string{"cnf", "count"}, "p cnf 2 2\n1 2 0\n", "the header says 2 clauses"},
		{[]string{"cnf", "count"}, "p cnf 2 1\n1 3 0\n", "literal 3"},
		{[]string{"cnf", "count"}, "c t wmc\np cnf 2 1\n1 2 0\n", "line 1"},
		{[]string{"cnf", "count"}, "c t mc\nc t mc\np cnf 2 1\n1 2 0\n", "a second \"c t\" line"},
		{[]string{"cnf", "count"}, "c t pmc\np cnf 2 1\nc p show 1 2\n1 2 0\n", "line 3: the \"c p show\" line does not end with 0"},
		{[]string{"cnf", "count"}, "c t pmc\np cnf 2 1\nc p show 3 0\n1 2 0\n", `line 3: "3" in "c p show"`},
		{[]string{"cnf", "count"}, "c t mc\np cnf 2 1\nc p show 1 0\n1 2 0\n", "not \"c t pmc\""},
		{[]string{"cnf", "count"}, "c t pmc\np cnf 2 1\nc p weight 1 0.5 0\n1 2 0\n", "line 3: weights"},
		{[]string{"cnf", "count", "--threads", "-1"}, "p cnf 1 0\n", "--threads"},
		{[]string{"cnf", "solve"}, "p cnf 1 1\n1\n", "does not end with 0"},
		{[]string{"cnf", "solve", "--proof-format", "auto", "--proof", "x.out"}, "p cnf 1 0\n", "--proof-format"},
		{[]string{"cnf", "check", "a.cnf"}, "", "two files"},
		// Each subcommand's messages name it whole, check's too.
		{[]string{"cnf", "check", "a.cnf"}, "", "boardsat cnf check: "},
		{[]string{"cnf", "count"}, "", "boardsat cnf count: "},
	}
	for _, c := range cases {
		args := c.args
		if c.text != "" {
			args = append(append([]string(nil), args...), writeTemp(t, "f.cnf", c.text))
		}
		code, out, errText := runCLI(args...)
		if code != 2 || out != "" || strings.Count(errText, "\n") != 1 || !strings.Contains(errText, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q (want one line with %q)", args, code, out, errText, c.want)
		}
	}
}

// TestCNFSignal: SIGTERM stops cnf count and cnf solve with "s UNKNOWN"
// and exit 130, and no process of theirs (gophersat's search child) is
// left behind.
func TestCNFSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process")
	}
	exe := boardsatExe(t)
	// The pigeonhole formula of 12 pigeons in 11 holes: far beyond a
	// second of gophersat's search.
	var php strings.Builder
	if err := cnf.Pigeonhole(11).WriteDIMACS(&php); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"cnf", "solve", writeTemp(t, "php.cnf", php.String())},
		{"cnf", "count", "--threads", "1", writeTemp(t, "q16.cnf", queens16Count(t))},
	} {
		cmd := exec.Command(exe, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(700 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != 130 || out.String() != "c stopped: interrupted by a signal\ns UNKNOWN\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args[:2], code, out.String(), errOut.String())
		}
		if err := syscall.Kill(-cmd.Process.Pid, 0); err != syscall.ESRCH {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Errorf("%v: a process of its group outlived it (%v)", args[:2], err)
		}
	}
}

// TestCNFInputNotRegular: a directory or a FIFO given as F.cnf is refused
// in one line, exit 2, and at once: opening a FIFO that no one writes
// would wait for ever.
func TestCNFInputNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "f.cnf")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, fifo} {
		type result struct {
			code         int
			out, errText string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errText := runCLI("cnf", "count", path)
			done <- result{code, out, errText}
		}()
		select {
		case r := <-done:
			if r.code != 2 || r.out != "" || r.errText != "boardsat cnf count: "+path+" is not a regular file\n" {
				t.Errorf("%s: exit %d, stdout %q, stderr %q", path, r.code, r.out, r.errText)
			}
		case <-time.After(10 * time.Second):
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // let the reader go
				w.Close()
			}
			<-done
			t.Errorf("%s: cnf count still waiting after 10 s", path)
		}
	}
}
