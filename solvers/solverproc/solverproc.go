// Package solverproc runs external solver binaries (SAT solvers, minizinc,
// cbc, glpsol) the one way boardsat runs them all, so that no solver
// outlives the time limit or the boardsat that started it: on Linux under
// a watchdog (watchdog_linux.go) that kills every descendant, in whatever
// process group or session (minizinc starts fzn-gecode in a group of its
// own), when the context ends or when boardsat dies, even by SIGKILL;
// elsewhere on unix in a process group killed as a whole. It also keeps the
// one list of external solvers and turns a backend's solvers into its
// --solver choices (registry.go, choices.go). bench measures the whole tree
// the same way for every one of them.
package solverproc

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// Command returns the command that runs binary with args under ctx: under
// the watchdog (Linux) or in its own process group (other unix), every
// process of it killed when ctx ends or boardsat dies, and Wait
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
