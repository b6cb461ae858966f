// Package filelock gives a file one writer at a time: an exclusive lock
// (flock) on a lock file beside it, FILE.lock, that holds the writer's
// process id. A second writer is refused with the holder's pid; the kernel
// releases the lock of a process that dies, and the next writer takes it
// over and is told whose it was (the pid a dead writer left in the file).
//
// As SQLite and git do, the lock is advisory: it binds the programs that
// ask for it (every bench session), not an editor or a cp.
package filelock

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Lock is a held lock; Release gives it up.
type Lock struct {
	f    *os.File
	path string
}

// HeldError says that another process holds the lock.
type HeldError struct {
	// Path is the file the lock guards, LockPath its lock file.
	Path, LockPath string
	// PID is the holder's process id (0 when it wrote none yet).
	PID int
}

func (e *HeldError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("%s is being written by %s (it holds %s): wait for it to finish, or write another file", e.Path, who, e.LockPath)
}

// Path returns the lock file of path.
func Path(path string) string { return path + ".lock" }

// Acquire takes the lock of path without waiting. It returns a *HeldError
// when another process holds it. stale is the pid a previous writer left
// in the lock file when it ended without releasing it (a kill, a crash):
// its lock was taken over. 0 when there was none.
func Acquire(path string) (l *Lock, stale int, err error) {
	lp := Path(path)
	for range 10 {
		f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, 0, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			pid := readPID(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, 0, &HeldError{Path: path, LockPath: lp, PID: pid}
			}
			return nil, 0, fmt.Errorf("locking %s: %w", lp, err)
		}
		// The holder before us may have removed the file between our open
		// and our lock: then we hold a lock on a name no one sees. Only a
		// lock on the file the path names now counts.
		fi, err1 := f.Stat()
		pi, err2 := os.Stat(lp)
		if err1 != nil || err2 != nil || !os.SameFile(fi, pi) {
			f.Close()
			continue
		}
		stale = readPID(f)
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, 0, err
		}
		if _, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
			f.Close()
			return nil, 0, err
		}
		f.Sync()
		return &Lock{f: f, path: lp}, stale, nil
	}
	return nil, 0, fmt.Errorf("locking %s: the lock file keeps being replaced", lp)
}

// readPID returns the pid in a lock file, or 0.
func readPID(f *os.File) int {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	return pid
}

// Release removes the lock file and gives up the lock; a lock file left
// behind (the process was killed) holds the dead writer's pid, which the
// next Acquire reports.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
	l.f = nil
}
