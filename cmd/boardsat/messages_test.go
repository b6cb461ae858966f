package main

import (
	"strings"
	"testing"
)

// TestMessagesSayWhatToDo: refusals name what is wrong and what to do
// instead, in one line with exit status 2.
func TestMessagesSayWhatToDo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"encode", "queens:8", "-o", "/"}, []string{"cannot write /: it is a directory; name a file"}},
		{[]string{"solve", "queens:100", "--task", "first"}, []string{"up to 64, not 100", "--backend sat", "--heuristic plain"}},
	} {
		status, out, errOut := runCLI(c.args...)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, status, out, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: %q lacks %q", c.args, errOut, w)
			}
		}
	}
}

// TestMessagesNameTheSubcommand: a flag value that is no duration (or no
// number) says how to write one, and a subcommand's errors name it whole ("boardsat results
// plot:", not "boardsat results:"); each one line, exit 2, nothing on
// stdout.
func TestMessagesNameTheSubcommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "queens:8", "--timeout", "5"}, "boardsat solve: --timeout 5: want a duration such as 5s or 2m\n"},
		{[]string{"bench", "quick", "--cpu-limit=20"}, "boardsat bench: --cpu-limit 20: want a duration such as 5s or 2m\n"},
		// Other flags' bad values are said as the docs write flags, the
		// value once, not as the flag package's "invalid value ... for flag -solvers".
		{[]string{"bench", "quick", "--repeat", "x"}, "boardsat bench: --repeat x: want a whole number\n"},
		{[]string{"solvers", "--solvers", "/nonexistent/defs"}, "boardsat solvers: --solvers /nonexistent/defs: no such file or directory\n"},
		{[]string{"results", "plot", "/nonexistent/r.csv"}, "boardsat results plot: open /nonexistent/r.csv: no such file or directory\n"},
		{[]string{"results", "table", "--what", "nosuch", fixtureCSV}, "boardsat results table: "},
		{[]string{"proof", "check", "/nonexistent/f.cnf", "/nonexistent/f.drat"}, "boardsat proof check: open /nonexistent/f.cnf: no such file or directory\n"},
		{[]string{"slurm", "collect"}, "boardsat slurm collect: "},
	} {
		status, out, errOut := runCLI(c.args...)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want exit 2 and %q", c.args, status, out, errOut, c.want)
		}
	}
}
