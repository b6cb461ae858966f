//go:build unix && !linux

package solverproc

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd run in its own process group and, when its context
// ends, kills the whole group, so a solver wrapped in a shell script does
// not outlive the time limit. A descendant that leaves the group (minizinc
// starts fzn-gecode in a group of its own) and anything still running when
// boardsat itself is killed are beyond it on this system: only Linux has
// the watchdog of proc_linux.go.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
