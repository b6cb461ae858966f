// Package solverproc runs external solver binaries (SAT solvers, minizinc,
// cbc, glpsol) the one way boardsat runs them all: in a process group of
// their own, killed as a whole when the context ends, so that a solver
// wrapped in a shell script (minizinc starts fzn-gecode, say) never
// outlives the time limit; bench measures the whole tree the same way for
// every one of them.
package solverproc

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// Command returns the command that runs binary with args under ctx: its
// own process group, the whole group killed when ctx ends, and Wait
// returning at most a second after that even if a grandchild holds the
// output open.
func Command(ctx context.Context, binary string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, args...)
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	return cmd
}

// Tail returns the last line of a solver's stderr as " (stderr: LINE)",
// clipped to 200 bytes, for error messages; "" when stderr is empty.
func Tail(stderr []byte) string {
	s := strings.TrimSpace(string(stderr))
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return " (stderr: " + s + ")"
}

// Clip shortens a piece of a solver's output to at most 60 bytes (and
// "...") for quoting in an error message.
func Clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
