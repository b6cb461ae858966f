//go:build linux

package measure

import "syscall"

// dieWithParent has the kernel kill the child when boardsat dies.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// startInCgroup starts the child in the cgroup v2 directory open as fd
// (clone3's CLONE_INTO_CGROUP), so that none of its work escapes the group.
func startInCgroup(a *syscall.SysProcAttr, fd int) { a.UseCgroupFD, a.CgroupFD = true, fd }
