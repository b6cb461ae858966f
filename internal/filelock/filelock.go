// Package filelock gives a file one writer at a time, whatever name the
// writer reaches it by: an exclusive lock (flock) on the file itself, so
// the lock belongs to the file (its device and inode), not to a name.
// Two writers through a symbolic link, a hard link or the same path
// exclude each other alike. There is no separate lock file, so there is
// none to aim at another file with a planted link, and none left behind:
// the kernel releases the lock of a process that dies. A second writer is
// refused with the holder's process id where the system says it (Linux,
// /proc/locks).
//
// Only regular files are locked: a device, a FIFO, a directory or a
// symbolic link to nothing is refused, and never opened for writing.
//
// As SQLite and git do, the lock is advisory: it binds the programs that
// ask for it (bench, results merge), not an editor or a cp.
package filelock

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/boardsat/boardsat/internal/inputfile"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Lock is a held lock; Release gives it up.
type Lock struct {
	f *os.File
	// path is the file locked, symbolic links resolved.
	path    string
	created bool
	// owner is the lock of the file path belongs to (a results file,
	// for its sidecar), held with it; nil for a file of its own.
	owner *Lock
}

// companions are the suffixes of the files that belong to another: a
// results file's metadata sidecar and the sidecar's reserve (package
// results) are written under the results file's lock, so that no other
// writer replaces them while a bench holds it.
var companions = []string{".meta.json", ".meta.json.reserve"}

// Owner returns the file whose lock guards path: the results file of a
// sidecar (FILE.csv for FILE.csv.meta.json and its .reserve) when that
// file exists, "" otherwise. A writer of path takes the owner's lock too;
// a writer that holds the owner's lock already (bench) writes path with
// it.
func Owner(path string) string {
	for _, suf := range companions {
		if base, ok := strings.CutSuffix(path, suf); ok && base != "" && !strings.HasSuffix(base, "/") {
			if fi, err := os.Stat(base); err == nil && fi.Mode().IsRegular() {
				return base
			}
		}
	}
	return ""
}

// HeldError says that another process holds the lock.
type HeldError struct {
	// Path is the file the lock guards.
	Path string
	// PID is the holder's process id (0 when the system does not say).
	PID int
}

func (e *HeldError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("%s is being written by %s: wait for it to finish, or write another file", e.Path, who)
}

// NotRegularError says that a path names something other than a regular
// file (or a symbolic link to one), which boardsat never writes.
type NotRegularError struct {
	Path string
	// What it is: "a character device", "a FIFO", "a broken symbolic link"...
	What string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: name a regular file", e.Path, e.What)
}

// Resolve returns the file path names, its symbolic links followed, when
// path is a symbolic link; path itself otherwise. A link to nothing is a
// *NotRegularError: nothing is created through it.
func Resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", &NotRegularError{Path: path, What: "a symbolic link to a missing file"}
	}
	return real, nil
}

// Acquire locks the file at path without waiting, creating it empty if
// there is none. It returns a *HeldError when another process holds the
// lock, a *NotRegularError when path is not a regular file. Path() is the
// file locked, its symbolic links resolved: write there.
func Acquire(path string) (*Lock, error) { return acquire(path, true) }

// AcquireExisting is Acquire for a writer that replaces the file whole
// (package atomicfile): it locks the file only if there is one, and
// returns a nil *Lock (whose Release does nothing) if there is none. It
// opens the file for reading only: the lock needs no write permission.
// A sidecar (see Owner) is locked with its results file, and while there
// is no sidecar yet the returned Lock holds the results file's alone.
func AcquireExisting(path string) (*Lock, error) { return acquire(path, false) }

func acquire(path string, create bool) (*Lock, error) {
	real, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	var owner *Lock
	if o := Owner(real); o != "" {
		if owner, err = acquire(o, false); err != nil {
			var he *HeldError
			if errors.As(err, &he) {
				he.Path = fmt.Sprintf("%s (it belongs to %s)", path, o)
			}
			return nil, err
		}
	}
	l, err := acquireFile(path, real, create)
	if err != nil || owner == nil {
		if err != nil {
			owner.Release()
		}
		return l, err
	}
	if l == nil {
		// No file yet: the owner's lock still keeps other writers out.
		return &Lock{path: real, owner: owner}, nil
	}
	l.owner = owner
	return l, nil
}

// acquireFile locks real, the file path names, itself.
func acquireFile(path, real string, create bool) (*Lock, error) {
	for range 10 {
		created := false
		if fi, err := os.Stat(real); err == nil && !fi.Mode().IsRegular() {
			return nil, &NotRegularError{Path: path, What: inputfile.Kind(fi.Mode())}
		} else if errors.Is(err, fs.ErrNotExist) {
			if !create {
				return nil, nil
			}
			created = true
		}
		// O_NOFOLLOW: a link planted since Resolve is not followed;
		// O_NONBLOCK: a FIFO planted since the Stat does not hang the open.
		flags := os.O_RDWR | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
		if !create {
			flags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
		}
		if created {
			flags |= os.O_CREATE | os.O_EXCL
		}
		f, err := os.OpenFile(real, flags, 0o644)
		if errors.Is(err, fs.ErrExist) || errors.Is(err, fs.ErrNotExist) {
			continue // created or removed meanwhile: look again
		}
		if errors.Is(err, syscall.ELOOP) {
			return nil, &NotRegularError{Path: path, What: "a symbolic link"}
		}
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			f.Close()
			return nil, &NotRegularError{Path: path, What: inputfile.Kind(fi.Mode())}
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &HeldError{Path: path, PID: Holder(real)}
			}
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		// The file may have been replaced (renamed over, removed) between
		// our open and our lock: a lock on a file no name reaches any more
		// guards nothing. Only a lock on the file the path names now counts.
		if pi, err := os.Stat(real); err != nil || !os.SameFile(fi, pi) {
			f.Close()
			continue
		}
		return &Lock{f: f, path: real, created: created}, nil
	}
	return nil, fmt.Errorf("locking %s: the file keeps being replaced", path)
}

// Path returns the file locked, its symbolic links resolved.
func (l *Lock) Path() string { return l.path }

// File returns the locked file, open for reading and writing (reading
// only, from AcquireExisting); it stays the lock's, and Release closes it.
func (l *Lock) File() *os.File { return l.f }

// Release gives up the lock. A file that Acquire created and that is
// still empty (the writer wrote nothing: it failed at its start) is
// removed first, so that a failed start leaves nothing behind.
func (l *Lock) Release() {
	if l == nil {
		return
	}
	l.owner.Release()
	l.owner = nil
	if l.f == nil {
		return
	}
	if l.created {
		if fi, err := l.f.Stat(); err == nil && fi.Size() == 0 {
			if pi, err := os.Stat(l.path); err == nil && os.SameFile(fi, pi) {
				os.Remove(l.path)
			}
		}
	}
	l.f.Close()
	l.f = nil
}

// Holder returns the process id that holds a flock on the file at path,
// read from /proc/locks, or 0 when there is none or the system does not
// say.
func Holder(path string) int {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	dev := uint64(st.Dev)
	// Linux's encoding of a device number (as glibc's major and minor).
	major := (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff)
	minor := dev&0xff | (dev>>12)&^uint64(0xff)
	id := fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a waiter's
		// line has "->" after the number.
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" {
			continue
		}
		if fields[5] == id {
			pid, _ := strconv.Atoi(fields[4])
			return pid
		}
	}
	return 0
}
