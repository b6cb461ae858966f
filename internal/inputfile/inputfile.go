// Package inputfile opens the files boardsat reads (checkpoints, proofs,
// results CSVs, interval files, suites, a solver's proof) only when they
// are regular files, and reads them only up to a bound: a FIFO would hang
// the open or the read for ever, and a device such as /dev/zero would be
// read until the kernel killed boardsat. The open never blocks (O_NONBLOCK,
// then fstat), and what is not a regular file is refused in one line
// naming what it is.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// NotRegularError says that an input is not a regular file.
type NotRegularError struct {
	Path string
	// What it is: "a FIFO", "a character device", "a directory"...
	What string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: name a regular file", e.Path, e.What)
}

// TooLargeError says that an input is larger than its reader's bound.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the most boardsat reads of such a file", e.Path, Size(e.Limit))
}

// Size writes a byte count the way the docs state the bounds (1 GiB).
func Size(n int64) string {
	for _, u := range []struct {
		name  string
		bytes int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.bytes && n%u.bytes == 0 {
			return fmt.Sprintf("%d %s", n/u.bytes, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// Kind names what a non-regular file mode is, for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}

// Open opens path for reading if it is a regular file (a symbolic link to
// one is followed), or returns a *NotRegularError without blocking.
func Open(path string) (*os.File, error) { return OpenFile(path, os.O_RDONLY) }

// OpenFile is Open with flags (os.O_RDONLY, or os.O_WRONLY|os.O_APPEND for
// a file boardsat completes; syscall.O_NOFOLLOW to refuse a symbolic
// link, for a file a child process made). The file is returned in
// blocking mode.
func OpenFile(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, 0)
	if err != nil {
		switch {
		case errors.Is(err, syscall.ELOOP) && flag&syscall.O_NOFOLLOW != 0:
			return nil, &NotRegularError{Path: path, What: "a symbolic link"}
		case errors.Is(err, syscall.ENXIO):
			// A FIFO opened for writing with no reader.
			return nil, &NotRegularError{Path: path, What: "a FIFO"}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, What: Kind(fi.Mode())}
	}
	if err := syscall.SetNonblock(int(f.Fd()), false); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenMax is Open for a reader with a bound: a file larger than limit
// bytes is refused with a *TooLargeError, and the file returned reads as
// ending in that error should it grow past the bound while read (wrap it
// with Limit for that; its size now is checked here).
func OpenMax(path string, limit int64) (*os.File, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		f.Close()
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return f, nil
}

// Check returns the error Open would return for path, or nil; nothing is
// left open.
func Check(path string) error {
	f, err := Open(path)
	if err == nil {
		f.Close()
	}
	return err
}

// ReadFile reads the regular file at path whole, refusing one larger than
// limit bytes with a *TooLargeError.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := OpenMax(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(Limit(f, path, limit))
}

// Limit returns a reader of r that fails with a *TooLargeError, naming
// path, once r holds more than limit bytes: a reader that streams its
// input stops at the bound instead of reading without end.
func Limit(r io.Reader, path string, limit int64) io.Reader {
	return &limited{r: r, path: path, left: limit, limit: limit}
}

type limited struct {
	r           io.Reader
	path        string
	left, limit int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &TooLargeError{Path: l.path, Limit: l.limit}
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n + int(l.left), &TooLargeError{Path: l.path, Limit: l.limit}
	}
	return n, err
}
