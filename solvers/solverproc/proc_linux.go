//go:build linux

package solverproc

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// killGroup makes cmd run its solver under a watchdog (watchdog_linux.go):
// this binary again, started as /proc/self/exe so that a binary replaced
// or deleted while boardsat runs still serves. The watchdog runs in a
// process group of its own (a Ctrl-C at the terminal reaches boardsat
// alone, which ends its solvers itself); when the context ends it gets
// SIGTERM and kills every descendant of its solver, in whatever group or
// session, before it exits; when boardsat dies, even by SIGKILL, the pipe
// it inherits reads end-of-file and it does the same. Should the pipe
// fail, or /proc/self/exe be missing (no /proc), the solver runs in a
// process group killed as a whole instead. The lifeline goes as
// cmd.ExtraFiles[0]: a caller must not set ExtraFiles.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	lifeline, err := lifelineEnd()
	if cmd.Err != nil || err != nil {
		// No binary to run (Start reports it) or no pipe: the process
		// group alone.
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		return
	}
	cmd.Args = append([]string{watchdogArg0, cmd.Path}, cmd.Args...)
	cmd.Path = "/proc/self/exe"
	cmd.ExtraFiles = []*os.File{lifeline}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
}

// The lifeline is one pipe per boardsat process: every watchdog holds its
// read end (as file descriptor 3), and only this process holds the write
// end, which is never closed and, like every file Go opens, closed on
// exec, so no other child inherits it. The read end reaches end-of-file
// exactly when this process has ended, however it ended.
var (
	lifelineOnce     sync.Once
	lifelineR, keepW *os.File
	errLifeline      error
)

// lifelineEnd returns the read end of the lifeline, made on first use, or
// an error when there is no lifeline or no /proc/self/exe to run.
func lifelineEnd() (*os.File, error) {
	lifelineOnce.Do(func() {
		if _, errLifeline = os.Stat("/proc/self/exe"); errLifeline == nil {
			lifelineR, keepW, errLifeline = os.Pipe()
		}
	})
	return lifelineR, errLifeline
}
