//go:build !linux

package measure

import "syscall"

// dieWithParent: only Linux can have the kernel kill the child when its
// parent dies; elsewhere the process group and the watchdog end it.
func dieWithParent(*syscall.SysProcAttr) {}

// startInCgroup: control groups are Linux's; no cgroup meter is made
// elsewhere (New falls back to rusage), so this is never reached.
func startInCgroup(*syscall.SysProcAttr, int) {}
