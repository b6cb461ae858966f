package solverproc

import (
	"os"
	"time"
)

// parentPoll is how often ExitWithParent looks at the parent process.
const parentPoll = 100 * time.Millisecond

// ExitWithParent makes this process exit with code once the process that
// started it has ended. A helper process boardsat starts from its own
// binary (the gophersat worker of package sat) calls it first, so that a
// boardsat killed by SIGKILL in the middle of a search does not leave the
// search running: the helper notices within parentPoll. It watches the
// parent's process id, which on unix becomes another process's (init's, or
// a subreaper's) when the parent dies; a parent already gone when it is
// called leaves the helper to its other way out (its standard input
// closed). Elsewhere it changes nothing.
func ExitWithParent(code int) {
	parent := os.Getppid()
	if parent <= 1 {
		return
	}
	go func() {
		for range time.Tick(parentPoll) {
			if os.Getppid() != parent {
				os.Exit(code)
			}
		}
	}()
}
