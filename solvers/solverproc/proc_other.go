//go:build !unix

package solverproc

import "os/exec"

// killGroup leaves cmd as it is: on this system the context kills the
// solver process alone, and its children may outlive it.
func killGroup(cmd *exec.Cmd) {}
