//go:build !linux

package cpuset

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"
)

// Supported says whether this system has core affinity: not here (the
// affinity system calls are Linux's).
const Supported = false

// ErrUnavailable is the error of pinning where there is no core affinity.
var ErrUnavailable = errors.New("core affinity is unavailable on " + runtime.GOOS)

// Available returns nil: this system does not say which cores a process
// may run on.
func Available() []int { return nil }

// StartPinned starts cmd unpinned when cpus is empty, and refuses to
// start it pinned: there is no core affinity here.
func StartPinned(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	return fmt.Errorf("pinning to cores %v: %w", cpus, ErrUnavailable)
}
