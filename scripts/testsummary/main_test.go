package main

import (
	"strings"
	"testing"
)

// stream is a go test -json run of three packages: in a, one test passes
// (its log is not shown), one skips with a two-line reason after a log
// line, one is skipped without one, and one fails; c has no test files
// (not a skipped test); b passes.
const stream = `{"Action":"start","Package":"github.com/boardsat/boardsat/a"}
{"Action":"run","Package":"github.com/boardsat/boardsat/a","Test":"TestPass"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestPass","Output":"=== RUN   TestPass\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestPass","Output":"    a_test.go:5: a log line\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestPass","Output":"--- PASS: TestPass (0.00s)\n"}
{"Action":"pass","Package":"github.com/boardsat/boardsat/a","Test":"TestPass"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestCadical","Output":"=== RUN   TestCadical\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestCadical","Output":"    a_test.go:7: a log line before the skip\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestCadical","Output":"    a_test.go:9: cadical is not on PATH\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestCadical","Output":"        install the Debian package cadical\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestCadical","Output":"--- SKIP: TestCadical (0.00s)\n"}
{"Action":"skip","Package":"github.com/boardsat/boardsat/a","Test":"TestCadical"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestBare","Output":"--- SKIP: TestBare (0.00s)\n"}
{"Action":"skip","Package":"github.com/boardsat/boardsat/a","Test":"TestBare"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestWrong","Output":"=== RUN   TestWrong\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestWrong","Output":"    a_test.go:12: count 103, want 92\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Test":"TestWrong","Output":"--- FAIL: TestWrong (0.01s)\n"}
{"Action":"fail","Package":"github.com/boardsat/boardsat/a","Test":"TestWrong"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Output":"FAIL\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/a","Output":"FAIL\tgithub.com/boardsat/boardsat/a\t0.02s\n"}
{"Action":"fail","Package":"github.com/boardsat/boardsat/a"}
{"Action":"output","Package":"github.com/boardsat/boardsat/c","Output":"?   \tgithub.com/boardsat/boardsat/c\t[no test files]\n"}
{"Action":"skip","Package":"github.com/boardsat/boardsat/c"}
{"Action":"output","Package":"github.com/boardsat/boardsat/b","Output":"PASS\n"}
{"Action":"output","Package":"github.com/boardsat/boardsat/b","Output":"ok  \tgithub.com/boardsat/boardsat/b\t0.01s\n"}
{"Action":"pass","Package":"github.com/boardsat/boardsat/b"}
`

// TestSummarize: the plain go test output (the failed test's lines, each
// package's closing line), then every skipped test with its reason; exit
// 1 for the failure.
func TestSummarize(t *testing.T) {
	var out strings.Builder
	status := summarize(strings.NewReader(stream), &out)
	want := "    a_test.go:12: count 103, want 92\n" +
		"--- FAIL: TestWrong (0.01s)\n" +
		"FAIL\n" +
		"FAIL\tgithub.com/boardsat/boardsat/a\t0.02s\n" +
		"?   \tgithub.com/boardsat/boardsat/c\t[no test files]\n" +
		"ok  \tgithub.com/boardsat/boardsat/b\t0.01s\n" +
		"\nskipped tests (2):\n" +
		"  a TestCadical: a_test.go:9: cadical is not on PATH; install the Debian package cadical\n" +
		"  a TestBare: (no reason given)\n"
	if status != 1 || out.String() != want {
		t.Errorf("status %d, output\n%s\nwant 1 and\n%s", status, out.String(), want)
	}
}

// TestSummarizeStatus: a clean run exits 0; an empty stream (go test did
// not start) and a package failure alone (a build failure) exit 1.
func TestSummarizeStatus(t *testing.T) {
	pass := `{"Action":"output","Package":"p","Output":"ok  \tp\t0.01s\n"}` + "\n" + `{"Action":"pass","Package":"p"}` + "\n"
	buildFail := `{"Action":"build-output","ImportPath":"p","Output":"p/x.go:3:1: syntax error\n"}` + "\n" +
		`{"Action":"output","Package":"p","Output":"FAIL\tp [build failed]\n"}` + "\n" + `{"Action":"fail","Package":"p"}` + "\n"
	for _, c := range []struct {
		name, in string
		status   int
		out      string
	}{
		{"pass", pass, 0, "ok  \tp\t0.01s\n"},
		{"empty", "", 1, "testsummary: no go test -json events on stdin\n"},
		{"build failure", buildFail, 1, "p/x.go:3:1: syntax error\nFAIL\tp [build failed]\n"},
	} {
		var out strings.Builder
		if status := summarize(strings.NewReader(c.in), &out); status != c.status || out.String() != c.out {
			t.Errorf("%s: status %d, output %q; want %d, %q", c.name, status, out.String(), c.status, c.out)
		}
	}
}
