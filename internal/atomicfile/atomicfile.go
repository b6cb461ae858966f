// Package atomicfile writes files whole or not at all: every file boardsat
// writes (results CSV sidecars, tables, figures, formulas, checkpoints)
// goes through a temporary file in the target's directory, synced and
// renamed over the target, so a reader, or a process restarted after a
// crash, sees the old content or the new, never a part.
//
// Only regular files are replaced: a target that is a device, a FIFO, a
// socket or a symbolic link to nothing is refused, with or without
// --force, and left as it is. A symbolic link to a regular file that the
// user named is followed by Write: the file it names is replaced and the
// link stays. A name boardsat chose itself (a sidecar, a default-named
// figure, a file in a directory it fills) is written with WriteWith and
// Options.NoFollow: a link there is refused, never written through, and
// without Options.Replace an existing file is refused up to the last
// moment (the new file is linked into place, which fails on any file
// there, never renamed over it).
//
// A temporary file is removed when its write fails, and when the process
// is ended by a signal while writing it (RemoveTemps, called by the
// command's signal handler): a killed write leaves no hidden partial file.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/boardsat/boardsat/internal/inputfile"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/boardsat/boardsat/internal/filelock"
)

// PathError says that a file cannot be written where its path says (the
// directory is missing, or not writable, or the disk is full): the place,
// not the data, is at fault, so a command line reports it as bad input
// (exit status 2, one line). It names the path the caller gave, never the
// temporary file.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string {
	return fmt.Sprintf("cannot write %s: %v", shortPath(e.Path), e.Err)
}

// shortPath keeps a path of more than 200 bytes to its first and last 80,
// so that a one-line message about a name too long still ends with why.
func shortPath(p string) string {
	if len(p) <= 200 {
		return p
	}
	head, tail := 80, len(p)-80
	for head > 0 && !utf8.RuneStart(p[head]) {
		head--
	}
	for tail < len(p) && !utf8.RuneStart(p[tail]) {
		tail++
	}
	return p[:head] + "..." + p[tail:]
}

// Unwrap returns the cause (fs.ErrNotExist, fs.ErrPermission, ...).
func (e *PathError) Unwrap() error { return e.Err }

// cause strips the *os.PathError around err, which names the temporary
// file, and keeps its reason.
func cause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Mode is the mode of every file written: readable by all, like a file the
// shell creates (os.CreateTemp alone would leave it 0600).
const Mode os.FileMode = 0o644

// Write calls write on a buffered temporary file beside path and, only when
// write and the flush succeed, gives it Mode, syncs it and renames it to
// path. On failure the temporary file is removed and path is untouched.
// When no file can be made at path the error is a *PathError; every other
// error names path too and wraps its cause (write's own error included).
//
// An existing file is replaced under its lock (package filelock): a file
// that another process holds (a bench writing it) is refused with a
// *PathError naming that process, and left as it is.
func Write(path string, write func(io.Writer) error) error {
	return WriteWith(path, Options{Replace: true}, write)
}

// WriteLocked is Write for a caller that holds the file's lock already
// (l, from filelock.Acquire): it replaces l.Path() without locking again.
func WriteLocked(l *filelock.Lock, write func(io.Writer) error) error {
	return WriteWith(l.Path(), Options{Held: l, Replace: true}, write)
}

// Options say how WriteWith treats what is at the path already.
type Options struct {
	// Held is the caller's lock on the file path belongs to: path's own,
	// or its results file's for a sidecar (filelock.Owner). No lock is
	// taken then; without it, path's lock (and its owner's) is.
	Held *filelock.Lock
	// NoFollow: path is a name boardsat chose, not one the user gave; a
	// symbolic link there is refused, never followed or written through.
	NoFollow bool
	// Replace: an existing regular file is replaced (--force, or the
	// caller's own file). Without it an existing file, or a link, is
	// refused (ErrExists), checked atomically as the file is put in place.
	Replace bool
}

// ErrExists marks a refusal to replace an existing file without Replace.
var ErrExists = errors.New("it exists already; give --force to replace it")

// errLink is the refusal of a link at a name boardsat chose.
var errLink = errors.New("it is a symbolic link; boardsat never writes through a link (remove it, or give another name)")

// WriteWith is Write with options (see Options).
func WriteWith(path string, o Options, write func(io.Writer) error) error {
	target, err := check(path, o)
	if err != nil {
		return err
	}
	return write1(path, target, o, write)
}

// Check returns the *PathError WriteWith would return for path and o
// before writing anything (a link or an existing file it would refuse, a
// directory, FIFO or device in its place), or nil.
func Check(path string, o Options) error {
	_, err := check(path, o)
	return err
}

// check is Check; it returns the file to write, path's link resolved
// where o allows one.
func check(path string, o Options) (string, error) {
	if base := filepath.Base(path); base == "/" || base == "." || base == ".." || strings.HasSuffix(path, "/") || isDir(path) {
		return "", &PathError{Path: path, Err: errors.New("it is a directory; name a file")}
	}
	if o.NoFollow {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return "", &PathError{Path: path, Err: errLink}
		} else if err == nil && !o.Replace {
			return "", &PathError{Path: path, Err: ErrExists}
		}
	}
	return regularTarget(path)
}

// write1 is WriteWith once path is checked; target is the file to write.
func write1(path, target string, o Options, write func(io.Writer) error) error {
	if o.Held == nil {
		lock, err := filelock.AcquireExisting(target)
		var he *filelock.HeldError
		switch {
		case errors.As(err, &he):
			who := "another process"
			if he.PID > 0 {
				who = fmt.Sprintf("process %d", he.PID)
			}
			return &PathError{Path: path, Err: fmt.Errorf("%s is writing it (it holds its lock): wait for it to finish, or write another file", who)}
		case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
			// A file system without locks (NFS with no lock daemon): the
			// lock is advisory and there is none to take; the file is
			// still replaced whole. (bench, which holds its lock for a
			// session, refuses such a file system instead.)
		case err != nil:
			return &PathError{Path: path, Err: cause(err)}
		}
		defer lock.Release()
	}
	dir := filepath.Dir(target)
	tmp, name, err := createTemp(dir, "."+filepath.Base(target)+".tmp")
	if err != nil {
		return &PathError{Path: path, Err: cause(err)}
	}
	defer track(name, false)
	if err = tmp.Chmod(Mode); err == nil {
		bw := bufio.NewWriterSize(tmp, 1<<16)
		if err = write(bw); err == nil {
			err = bw.Flush()
		}
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = place(name, target, path, o)
	}
	if err != nil {
		os.Remove(name)
		var pe *os.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, new(*PathError)):
		case errors.As(err, &pe):
			// The file system refused (disk full, quota, read-only): the
			// place, not the data, is at fault.
			err = &PathError{Path: path, Err: pe.Err}
		case errors.As(err, &le):
			err = &PathError{Path: path, Err: le.Err}
		default:
			// Name the user's path, not the temporary file; errors.Is still
			// finds a sentinel that write returned.
			err = fmt.Errorf("writing %s: %w", path, cause(err))
		}
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// place puts the temporary file name at target: renamed over what is
// there with o.Replace; without it linked to target, which fails on any
// file there (a link included), then unlinked from its temporary name.
func place(name, target, path string, o Options) error {
	if o.Replace {
		if o.NoFollow {
			// Renamed over a link planted since the check, the link goes
			// and nothing is written through it.
			if fi, err := os.Lstat(target); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				return &PathError{Path: path, Err: errLink}
			}
		}
		err := os.Rename(name, target)
		if err != nil && isDir(target) {
			err = &PathError{Path: path, Err: errors.New("it is a directory")}
		}
		return err
	}
	err := os.Link(name, target)
	switch {
	case err == nil:
		os.Remove(name)
		return nil
	case errors.Is(err, fs.ErrExist):
		if fi, lerr := os.Lstat(target); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			return &PathError{Path: path, Err: errLink}
		}
		return &PathError{Path: path, Err: ErrExists}
	case errors.Is(err, syscall.EPERM), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.ENOSYS):
		// A file system without hard links: checked, then renamed.
		if _, lerr := os.Lstat(target); lerr == nil {
			return &PathError{Path: path, Err: ErrExists}
		}
		return os.Rename(name, target)
	}
	return err
}

// createTemp creates a new file named prefix and a random suffix in dir,
// mode 0600, as os.CreateTemp does, but tracks its name (for RemoveTemps)
// before the file exists: a signal at any moment finds it.
func createTemp(dir, prefix string) (*os.File, string, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		track(name, true)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, name, nil
		}
		track(name, false)
		if !errors.Is(err, fs.ErrExist) {
			return nil, "", err
		}
	}
	return nil, "", &os.PathError{Op: "createtemp", Path: filepath.Join(dir, prefix+"*"), Err: fs.ErrExist}
}

// temps are the temporary files being written now, for RemoveTemps.
var temps sync.Map

func track(name string, live bool) {
	if live {
		temps.Store(name, true)
	} else {
		temps.Delete(name)
	}
}

// RemoveTemps removes every temporary file a write in progress has made:
// a command's signal handler calls it before the process ends, so that a
// write cut short leaves nothing behind. The writes themselves then fail.
func RemoveTemps() {
	temps.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		temps.Delete(k)
		return true
	})
}

// CheckTarget returns the *PathError Write would return for path before
// writing anything (a directory, FIFO, device or socket in its place, or a
// link to one), or nil: a command checks it before its work, and before it
// says that an existing file needs --force, which would not help.
func CheckTarget(path string) error {
	_, err := regularTarget(path)
	return err
}

// regularTarget returns the file to replace for path: path itself, or
// the file its symbolic link names. Anything but a regular file or no file
// at all is a *PathError.
func regularTarget(path string) (string, error) {
	target, err := filelock.Resolve(path)
	var nr *filelock.NotRegularError
	if errors.As(err, &nr) {
		return "", &PathError{Path: path, Err: fmt.Errorf("it is %s, not a regular file; name a regular file", nr.What)}
	}
	if err != nil {
		return "", &PathError{Path: path, Err: cause(err)}
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		return "", &PathError{Path: path, Err: fmt.Errorf("it is %s, not a regular file; name a regular file", inputfile.Kind(fi.Mode()))}
	}
	return target, nil
}

// isDir reports whether path is a directory (a rename onto it fails).
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// WriteBytes writes data to path with Write.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
