// Package atomicfile writes files whole or not at all: every file boardsat
// writes (results CSV sidecars, tables, figures, formulas, checkpoints)
// goes through a temporary file in the target's directory, synced and
// renamed over the target, so a reader, or a process restarted after a
// crash, sees the old content or the new, never a part.
package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// Mode is the mode of every file written: readable by all, like a file the
// shell creates (os.CreateTemp alone would leave it 0600).
const Mode os.FileMode = 0o644

// Write calls write on a buffered temporary file beside path and, only when
// write and the flush succeed, gives it Mode, syncs it and renames it to
// path. On failure the temporary file is removed and path is untouched.
func Write(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
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
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// WriteBytes writes data to path with Write.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
