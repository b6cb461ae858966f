// Command testsummary reads the JSON stream of go test -json on stdin and
// prints what go test prints without -json (each package's closing line,
// "ok" or "FAIL", and the output of every failed test), then the list of
// skipped tests with their reasons, which plain go test does not show:
// make test pipes its go test run through it, so that a test skipped for a
// missing solver is seen, not silently counted as a pass.
//
// It exits 1 when any test or package failed, or when the stream holds no
// test event at all (go test itself could not start), else 0.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// event is one line of go test -json (cmd/test2json's TestEvent).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output events
	Test       string
	Output     string
}

// skip is one skipped test and why.
type skip struct {
	pkg, test, reason string
}

func main() {
	os.Exit(summarize(os.Stdin, os.Stdout))
}

// summarize copies the plain go test output of the stream in to out, as it
// comes, then lists the skipped tests; it returns the exit status.
func summarize(in io.Reader, out io.Writer) int {
	type key struct{ pkg, test string }
	logs := map[key][]string{} // a test's output lines, until it ends
	var skips []skip
	failed, events := false, 0
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			// Not an event (a line go test wrote itself): shown as is.
			fmt.Fprintln(out, sc.Text())
			continue
		}
		events++
		k := key{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Test == "" && e.Action == "output":
			// The package's own lines: its closing "ok"/"FAIL" line, a
			// build failure, "[no test files]"; the bare PASS and the
			// no-tests warning of -v are not printed by plain go test.
			if e.Output != "PASS\n" && e.Output != "testing: warning: no tests to run\n" {
				fmt.Fprint(out, e.Output)
			}
		case e.Test == "" && e.Action == "fail":
			failed = true
		case e.Test == "":
			// The package's start, pass, or skip (no test files: its
			// "?" line is among its output).
		case e.Action == "output":
			logs[k] = append(logs[k], e.Output)
		case e.Action == "fail":
			failed = true
			for _, l := range logs[k] {
				if !strings.HasPrefix(l, "=== ") {
					fmt.Fprint(out, l)
				}
			}
			delete(logs, k)
		case e.Action == "skip":
			skips = append(skips, skip{e.Package, e.Test, reason(logs[k])})
			delete(logs, k)
		case e.Action == "pass":
			delete(logs, k)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(out, "testsummary: reading go test -json: %v\n", err)
		return 1
	}
	if len(skips) > 0 {
		fmt.Fprintf(out, "\nskipped tests (%d):\n", len(skips))
		for _, s := range skips {
			fmt.Fprintf(out, "  %s %s: %s\n", strings.TrimPrefix(s.pkg, "github.com/boardsat/boardsat/"), s.test, s.reason)
		}
	}
	if events == 0 {
		fmt.Fprintln(out, "testsummary: no go test -json events on stdin")
		return 1
	}
	if failed {
		return 1
	}
	return 0
}

// logLine matches the start of a test's log line: "file_test.go:12: ".
var logLine = regexp.MustCompile(`^\S+\.go:\d+: `)

// reason is a skipped test's message: its last log line (the one t.Skip
// wrote), with that line's continuation lines joined by "; "; the log
// lines before it are left out.
func reason(lines []string) string {
	var last []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP"):
		case logLine.MatchString(t) || last == nil:
			last = []string{t}
		default:
			last = append(last, t)
		}
	}
	if len(last) == 0 {
		return "(no reason given)"
	}
	return strings.Join(last, "; ")
}
