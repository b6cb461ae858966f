//go:build linux

package cpuset

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// Supported says whether this system has core affinity (Linux: yes).
const Supported = true

// ErrUnavailable is the error of pinning where there is no core affinity
// (never returned on Linux).
var ErrUnavailable = errors.New("core affinity is unavailable on " + runtime.GOOS)

// Available returns the cores this process may run on, in order.
func Available() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var out []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			out = append(out, c)
		}
	}
	return out
}

// StartPinned starts cmd pinned to cpus (none: unpinned). The affinity is
// set on the locked OS thread that forks the child, which inherits it, as
// do all its threads and descendants: the whole run stays on those cores.
func StartPinned(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return err
	}
	for _, c := range cpus {
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pinning to cores %v: %v", cpus, err)
	}
	defer unix.SchedSetaffinity(0, &old)
	return cmd.Start()
}
