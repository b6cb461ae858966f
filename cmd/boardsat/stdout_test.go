package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/boardsat/boardsat/answer"
)

// fullWriter fails every write the way /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// TestFullStdout: output that cannot be written fails the command with
// status 2 and one line on stderr, with text and JSON alike, whatever the
// answer would have been (a timeout included).
func TestFullStdout(t *testing.T) {
	for _, args := range [][]string{
		{"solve", "queens:8"},
		{"solve", "queens:8", "--task", "first"},
		{"solve", "swap:4x3"},
		{"solve", "dominate:8x8:Q"},
		{"solve", "mnk:3x3:3", "--task", "value"},
		{"solve", "queens:20", "--timeout", "50ms", "--quiet"},
		{"solve", "queens:6", "--task", "all"},
		{"list"},
		{"solve", "-h"},
	} {
		formats := []string{"text", "json"}
		if args[0] != "solve" || args[1] == "-h" {
			formats = []string{""}
		}
		for _, format := range formats {
			a := args
			if format != "" {
				a = append(append([]string{}, args...), "--format", format)
			}
			var errb bytes.Buffer
			code := run(a, fullWriter{}, &errb)
			line := errb.String()
			if code != answer.ExitBadInput || strings.Count(line, "\n") != 1 ||
				!strings.HasPrefix(line, "boardsat "+args[0]+": cannot write the output to stdout: ") || !strings.Contains(line, "no space left on device") {
				t.Errorf("%v: exit %d (want %d), stderr %q", a, code, answer.ExitBadInput, line)
			}
		}
	}
}

// TestFullStdoutProcess: the same through a real /dev/full, for the
// binary as a user runs it.
func TestFullStdoutProcess(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	if testing.Short() {
		t.Skip("runs the command as a child process")
	}
	exe := boardsatExe(t)
	for _, format := range []string{"text", "json"} {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe, "solve", "queens:8", "--format", format)
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &errb
		err = cmd.Run()
		full.Close()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != answer.ExitBadInput || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%s to /dev/full: %v, stderr %q", format, err, errb.String())
		}
	}
}
