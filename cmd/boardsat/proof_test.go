package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The RAT example of the DRAT papers: its first lemma is RAT, not RUP.
const (
	proofTestCNF  = "p cnf 4 8\n1 2 -3 0\n-1 -2 3 0\n2 3 -4 0\n-2 -3 4 0\n1 3 4 0\n-1 -3 -4 0\n-1 2 4 0\n1 -2 -4 0\n"
	proofTestDRAT = "-1 0\nd -1 -2 3 0\nd -1 -3 -4 0\nd -1 2 4 0\n2 0\n0\n"
	// The same proof in binary DRAT.
	proofTestBinary = "a\x03\x00d\x03\x05\x06\x00d\x03\x07\x09\x00d\x03\x04\x08\x00a\x04\x00a\x00"
)

// proofFiles writes name -> content files into a fresh directory.
func proofFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestProofCheck(t *testing.T) {
	dir := proofFiles(t, map[string]string{
		"f.cnf": proofTestCNF, "f.drat": proofTestDRAT, "f.bdrat": proofTestBinary,
		"bad.drat": "-4 0\n0\n",
		"bad.cnf":  "p cnf 4 6\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n3 4 0\n-3 4 0\n",
		"sat.cnf":  "p cnf 2 2\n1 2 0\n-1 2 0\n",
		// Cut between two steps: a shorter proof, not an input error.
		"half.drat": "-1 0\nd -1 -2 3 0\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	lratOut := p("f.lrat")
	cases := []struct {
		args   []string
		status int
		out    string
	}{
		{[]string{"proof", "check", p("f.cnf"), p("f.drat")}, 0, "s VERIFIED\n"},
		{[]string{"proof", "check", "--format", "binary", p("f.cnf"), p("f.bdrat")}, 0, "s VERIFIED\n"},
		{[]string{"proof", "check", p("f.cnf"), p("f.bdrat"), "--all", "--lrat", lratOut}, 0, "s VERIFIED\n"},
		{[]string{"proof", "check-lrat", p("f.cnf"), lratOut}, 0, "s VERIFIED\n"},
		{[]string{"proof", "check", p("bad.cnf"), p("bad.drat"), "--lrat", p("no.lrat")}, 1,
			"s NOT VERIFIED: drat: lemma 1 (step 1): neither RUP nor RAT on its first literal -4\n"},
		{[]string{"proof", "check", p("sat.cnf"), p("f.drat")}, 1, "s NOT VERIFIED: drat: "},
		{[]string{"proof", "check", p("f.cnf"), p("half.drat")}, 1, "s NOT VERIFIED: drat: no conflict: the proof does not derive the empty clause\n"},
		// The LRAT proof of one formula checked against another.
		{[]string{"proof", "check-lrat", p("bad.cnf"), lratOut}, 1, "s NOT VERIFIED: line 1: step 9: "},
	}
	for _, c := range cases {
		status, out, stderr := runCLI(c.args...)
		last := out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:]
		if status != c.status || !strings.HasPrefix(last, c.out) || stderr != "" {
			t.Errorf("%v: exit %d, last line %q, stderr %q; want %d, %q", c.args[1:], status, last, stderr, c.status, c.out)
		}
	}
	if data, err := os.ReadFile(lratOut); err != nil || !strings.HasSuffix(string(data), " 0\n") {
		t.Errorf("--lrat wrote %q, %v", data, err)
	}
	if _, err := os.Stat(p("no.lrat")); !os.IsNotExist(err) {
		t.Errorf("an LRAT file was written for a proof not verified: %v", err)
	}
	// An existing --lrat file is the user's: refused in one line, exit 2,
	// nothing checked nor written; --force replaces it.
	mine := p("mine.lrat")
	if err := os.WriteFile(mine, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, stderr := runCLI("proof", "check", p("f.cnf"), p("f.drat"), "--lrat", mine)
	want := "boardsat proof check: " + mine + " already exists: add --force to replace it, or name another file\n"
	if data, _ := os.ReadFile(mine); status != 2 || out != "" || stderr != want || string(data) != "my notes\n" {
		t.Errorf("--lrat onto an existing file: exit %d, stdout %q, stderr %q, file %q; want 2, %q, file kept", status, out, stderr, data, want)
	}
	status, out, _ = runCLI("proof", "check", p("f.cnf"), p("f.drat"), "--lrat", mine, "--force")
	if data, _ := os.ReadFile(mine); status != 0 || !strings.HasSuffix(out, "s VERIFIED\n") || !strings.HasSuffix(string(data), " 0\n") {
		t.Errorf("--lrat --force: exit %d, stdout %q, file %q; want the LRAT proof", status, out, data)
	}
}

// TestProofCheckBadInput checks that input that cannot be read is one line
// on stderr and exit status 2, never a verdict.
func TestProofCheckBadInput(t *testing.T) {
	dir := proofFiles(t, map[string]string{
		"f.cnf": proofTestCNF, "f.drat": proofTestDRAT, "f.bdrat": proofTestBinary,
		"empty.drat":     "",
		"comment.drat":   "c nothing\n",
		"cut.drat":       proofTestDRAT[:len(proofTestDRAT)-9],
		"cut.bdrat":      proofTestBinary[:len(proofTestBinary)-3],
		"fewer.cnf":      strings.Replace(proofTestCNF, "p cnf 4 8", "p cnf 4 9", 1),
		"more.cnf":       strings.Replace(proofTestCNF, "p cnf 4 8", "p cnf 4 7", 1),
		"vars.cnf":       strings.Replace(proofTestCNF, "p cnf 4 8", "p cnf 3 8", 1),
		"noheader.cnf":   strings.Replace(proofTestCNF, "p cnf 4 8\n", "", 1),
		"cut.lrat":       "9 -1 0 -1 6 7 -5 7",
		"f.lrat":         "9 -1 0 -1 6 7 -5 7 2 -8 2 6 0\n",
		"garbage.lrat":   "nine -1 0 0\n",
		"directory.drat": "",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	os.Remove(p("directory.drat"))
	if err := os.Mkdir(p("directory.drat"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"proof", "check", p("f.cnf"), p("missing.drat")}, "missing.drat"},
		{[]string{"proof", "check", p("missing.cnf"), p("f.drat")}, "missing.cnf"},
		{[]string{"proof", "check", p("f.cnf"), p("directory.drat")}, "directory"},
		{[]string{"proof", "check", p("f.cnf"), p("cut.drat")}, "does not end with 0 (truncated proof?)"},
		{[]string{"proof", "check", p("f.cnf"), p("cut.bdrat")}, "does not end with 0 (truncated proof?)"},
		{[]string{"proof", "check", "--format", "ascii", p("f.cnf"), p("f.bdrat")}, "a binary proof?"},
		{[]string{"proof", "check", "--format", "binary", p("f.cnf"), p("f.drat")}, "an ASCII proof?"},
		{[]string{"proof", "check", p("fewer.cnf"), p("f.drat")}, "the header says 9 clauses, the file has 8"},
		{[]string{"proof", "check", p("more.cnf"), p("f.drat")}, "the header says 7 clauses, the file has 8"},
		{[]string{"proof", "check", p("vars.cnf"), p("f.drat")}, "above the header's 3"},
		{[]string{"proof", "check", p("noheader.cnf"), p("f.drat")}, "expected the header"},
		{[]string{"proof", "check", "--format", "text", p("f.cnf"), p("f.drat")}, "unknown proof format"},
		{[]string{"proof", "check", p("f.cnf")}, "two files"},
		{[]string{"proof", "check", p("f.cnf"), p("f.drat"), "--lrat", "/nonexistent/f.lrat"}, "/nonexistent/f.lrat"},
		{[]string{"proof", "check-lrat", p("f.cnf"), p("cut.lrat")}, "lrat line 1"},
		{[]string{"proof", "check-lrat", p("f.cnf"), p("garbage.lrat")}, "not a clause id"},
		{[]string{"proof", "check-lrat", p("fewer.cnf"), p("f.lrat")}, "the header says 9 clauses"},
		{[]string{"proof", "check-lrat", p("f.cnf"), p("missing.lrat")}, "missing.lrat"},
		{[]string{"proof"}, "check or check-lrat"},
		{[]string{"proof", "verify"}, "unknown proof subcommand"},
	}
	for _, c := range cases {
		status, out, stderr := runCLI(c.args...)
		if status != 2 || strings.Contains(out, "VERIFIED") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line naming %q", c.args[1:], status, out, stderr, c.want)
		}
	}
	// A proof of no step is read, and proves nothing: a verdict, exit 1
	// (it was refused as bad input, exit 2).
	for _, cmd := range [][]string{{"proof", "check"}, {"cnf", "check"}} {
		for _, name := range []string{"empty.drat", "comment.drat"} {
			status, out, _ := runCLI(append(cmd, p("f.cnf"), p(name))...)
			if status != 1 || !strings.HasPrefix(out, "s NOT VERIFIED: the proof is empty") {
				t.Errorf("%v %s: exit %d, stdout %q; want 1, s NOT VERIFIED: the proof is empty", cmd, name, status, out)
			}
		}
	}
}
