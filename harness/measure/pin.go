package measure

import (
	"fmt"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// startPinned starts cmd pinned to cpus (none: unpinned). The affinity is
// set on the locked OS thread that forks the child, which inherits it, as
// do all its threads and descendants: the whole run stays on those cores.
func startPinned(cmd *exec.Cmd, cpus []int) error {
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
