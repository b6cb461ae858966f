package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
)

// TestExitStatusesOfLimits: a timeout exits 3 and a memout 4, with text
// and with --format json alike; JSON prints its answer with that status in
// every case, and stderr has one line naming the status.
func TestExitStatusesOfLimits(t *testing.T) {
	check := func(name string, code int, out, errOut, format, want string, wantCode int) {
		t.Helper()
		if code != wantCode || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, want+": ") {
			t.Errorf("%s %s: exit %d (want %d), stderr %q", name, format, code, wantCode, errOut)
		}
		if format == "json" {
			a, err := answer.Last(out)
			if err != nil || string(a.Status) != want || a.Message == nil {
				t.Errorf("%s json: %v, answer %q", name, err, out)
			}
		} else if !strings.Contains(out, "status:        "+want+"\n") {
			t.Errorf("%s text: stdout %q", name, out)
		}
	}
	for _, format := range []string{"text", "json"} {
		code, out, errOut := runCLI("solve", "queens:20", "--task", "count", "--timeout", "100ms", "--quiet", "--format", format)
		check("timeout", code, out, errOut, format, "timeout", answer.ExitTimeout)
	}
	if testing.Short() {
		t.Skip("memout: runs the command as a child process")
	}
	exe := boardsatExe(t)
	// A native search ends at its budget (nine tenths of --mem); a SAT
	// search, outside the native budget, is ended by the watchdog at --mem
	// (5M: less than the process holds when it starts).
	for _, args := range [][]string{
		{"solve", "swap:5x5", "--heuristic", "astar", "--mem", "60M", "--quiet"},
		{"solve", "queens:60", "--backend", "sat", "--task", "count", "--mem", "5M", "--quiet"},
	} {
		for _, format := range []string{"text", "json"} {
			cmd := exec.Command(exe, append(args, "--format", format)...)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			cmd.Run()
			check(strings.Join(args[:2], " "), cmd.ProcessState.ExitCode(), out.String(), errOut.String(), format, "memout", answer.ExitMemout)
			if format == "json" {
				var a map[string]any
				if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &a); err != nil || a["instance"] == nil {
					t.Errorf("%v: one JSON answer with its instance, got %q", args, out.String())
				}
			}
		}
	}
}

// TestNoArgumentsIsAUsageError: boardsat alone prints its usage on stderr
// and exits 2, as go does; boardsat help prints it on stdout and exits 0.
func TestNoArgumentsIsAUsageError(t *testing.T) {
	status, out, errOut := runCLI()
	if status != answer.ExitBadInput || out != "" || !strings.HasPrefix(errOut, "boardsat: ") || !strings.Contains(errOut, "\nusage: boardsat COMMAND") {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", status, out, first(errOut, 80))
	}
	for _, h := range []string{"help", "-h", "--help"} {
		status, out, errOut := runCLI(h)
		if status != 0 || errOut != "" || !strings.Contains(out, "\nusage: boardsat COMMAND") {
			t.Errorf("%s: exit %d, stderr %q; want 0 and the usage on stdout", h, status, errOut)
		}
	}
}
