package main

import (
	"strings"
	"testing"
)

// TestTableSpreadRunsStatus checks the pivot's --spread, the per-run table
// and the refusals of --spread where it has no meaning.
func TestTableSpreadRunsStatus(t *testing.T) {
	status, out, stderr := runCLI("results", "table", fixtureCSV, "--what", "pivot", "--spread", "ci", "--format", "csv")
	if status != 0 || !strings.HasPrefix(out, "puzzle,task,instance,variant,median_s,ci_low_s,ci_high_s\n") {
		t.Errorf("pivot --spread ci: exit %d, stderr %q, stdout %.200q", status, stderr, out)
	}
	status, out, _ = runCLI("results", "table", fixtureCSV, "--what", "pivot", "--spread", "iqr")
	if status != 0 || !strings.Contains(out, "interquartile range") || !strings.Contains(out, " [") {
		t.Errorf("pivot --spread iqr: exit %d, stdout %.300q", status, out)
	}
	status, out, _ = runCLI("results", "table", fixtureCSV, "--what", "runs", "--format", "csv")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); status != 0 || len(lines) != 75 ||
		lines[0] != "instance,variant,task,rep,status,answer,cpu_s,wall_s,solver_s,maxrss_kb,limit,message" {
		t.Errorf("runs: exit %d, %d lines (want the header and 74 runs), first %q", status, len(lines), lines[0])
	}
	fig := t.TempDir() + "/s.svg"
	if status, out, stderr := runCLI("results", "plot", fixtureCSV, "--kind", "scaling", "--spread", "iqr", "-o", fig); status != 0 || !strings.Contains(out, fig) {
		t.Errorf("plot --spread: exit %d, %q, %q", status, out, stderr)
	}
	for _, args := range [][]string{{"--kind", "cactus", "--spread", "ci"}, {"--kind", "scaling", "--spread", "sd"}} {
		if status, _, stderr := runCLI(append([]string{"results", "plot", fixtureCSV}, args...)...); status != 2 || strings.Count(stderr, "\n") != 1 {
			t.Errorf("plot %v: exit %d, %q; want a refusal", args, status, stderr)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--what", "pivot", "--spread", "sd"}, `unknown --spread "sd"`},
		{[]string{"--what", "pivot", "--spread", "ci", "--measure", "par2"}, "--spread goes with --what pivot --measure median"},
		{[]string{"--what", "scores", "--spread", "ci"}, "--spread goes with"},
		{[]string{"--what", "status"}, "no optimisation runs"},
	} {
		status, out, stderr := runCLI(append([]string{"results", "table", fixtureCSV}, c.args...)...)
		if status != 2 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, status, out, stderr, c.want)
		}
	}
}
