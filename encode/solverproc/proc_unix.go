//go:build unix

package solverproc

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd run in its own process group and, when its context
// ends, kills the whole group, so a solver wrapped in a shell script does
// not outlive the time limit.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
