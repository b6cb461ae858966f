package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/boardsat/boardsat/internal/filelock"
)

// TestWrite checks that a failed write leaves neither the target nor a
// temporary file, and that a finished one is whole, with mode 0644, over
// the old content.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("failed midway")
	})
	if err == nil {
		t.Fatal("error lost")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("a failed write left a file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("temporary files left: %v", entries)
	}
	for _, text := range []string{"old", "whole new content"} {
		if err := WriteBytes(path, []byte(text)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != text {
			t.Errorf("read %q, %v; want %q", got, err, text)
		}
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("written file: %v %v, want mode 0644 like the shell's files", st, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
	if err := WriteBytes(filepath.Join(dir, "no", "such", "dir"), nil); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}

// TestErrorsNameThePath: a path that cannot take a file (no such directory,
// a directory in the way) is a *PathError naming the caller's path, never
// the hidden temporary file; an error of write is still found by errors.Is.
func TestErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "missing", "out.csv"), dir, "/", dir + "/"} {
		err := WriteBytes(path, []byte("x"))
		var pe *PathError
		if !errors.As(err, &pe) || pe.Path != path {
			t.Errorf("%s: %v, want a *PathError for the path", path, err)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "cannot write "+path+": ") || strings.Contains(msg, ".tmp") || strings.Contains(msg, "pattern") {
			t.Errorf("%s: message %q", path, msg)
		}
	}
	planted := errors.New("planted")
	err := Write(filepath.Join(dir, "f"), func(io.Writer) error { return planted })
	if !errors.Is(err, planted) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("write's error: %v", err)
	}
}

// TestNeverReplacesNonRegular: a FIFO, a character device and a symbolic
// link to nothing are refused as not regular files, one *PathError naming
// the path, and stay as they were; a symbolic link to a regular file is
// followed, so the file is replaced and the link stays a link.
func TestNeverReplacesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.csv")
	os.Symlink("missing.csv", broken)
	targets := []string{fifo, broken}
	if dev := charDevice(t, dir); dev != "" {
		targets = append(targets, dev)
	}
	for _, path := range targets {
		before, _ := os.Lstat(path)
		// CheckTarget says beforehand what Write will say.
		if err := CheckTarget(path); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("CheckTarget(%s): %v, want it not a regular file", path, err)
		}
		err := WriteBytes(path, []byte("data\n"))
		var pe *PathError
		if !errors.As(err, &pe) || pe.Path != path || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Write(%s): %v, want a *PathError saying it is not a regular file", path, err)
		}
		if after, err := os.Lstat(path); err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
			t.Errorf("%s was changed: %v", path, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "missing.csv")); !os.IsNotExist(err) {
		t.Errorf("a file was created through the broken link: %v", err)
	}
	file, link := filepath.Join(dir, "file.csv"), filepath.Join(dir, "link.csv")
	os.WriteFile(file, []byte("old\n"), 0o644)
	os.Symlink("file.csv", link)
	for _, path := range []string{file, link, filepath.Join(dir, "new.csv")} {
		if err := CheckTarget(path); err != nil {
			t.Errorf("CheckTarget(%s): %v, want nil (a regular file, a link to one, no file)", path, err)
		}
	}
	if err := WriteBytes(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if data, _ := os.ReadFile(file); string(data) != "new\n" {
		t.Errorf("the linked file holds %q, want the new content", data)
	}
}

// charDevice makes a null device (1, 3) in dir and returns its path, or ""
// where this process may not (not root): never /dev/null itself, which a
// writer that failed this test would replace for the whole machine.
func charDevice(t *testing.T, dir string) string {
	path := filepath.Join(dir, "null.csv")
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("no character device case: mknod: %v", err)
		return ""
	}
	return path
}

// TestRefusesLockedFile: a file whose lock another writer holds (a bench
// writing it) is not replaced: Write returns a *PathError naming the
// holder and the file keeps its content; the holder itself replaces it
// with WriteLocked. A file with no writer is replaced as ever.
func TestRefusesLockedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	os.WriteFile(path, []byte("rows\n"), 0o644)
	l, err := filelock.Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	err = WriteBytes(path, []byte("other\n"))
	var pe *PathError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "is writing it (it holds its lock)") {
		t.Errorf("Write of a locked file: %v, want a *PathError saying who writes it", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "rows\n" {
		t.Errorf("the locked file holds %q", data)
	}
	if err := WriteLocked(l, func(w io.Writer) error { _, err := io.WriteString(w, "mine\n"); return err }); err != nil {
		t.Errorf("WriteLocked by the holder: %v", err)
	}
	l.Release()
	if err := WriteBytes(path, []byte("free\n")); err != nil {
		t.Errorf("Write after Release: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "free\n" {
		t.Errorf("the file holds %q, want the last write", data)
	}
}

// TestLongPathMessage: the error about a name too long keeps its reason
// within a line a command prints whole (the path is shortened in the
// middle), and names the path's start and end.
func TestLongPathMessage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, strings.Repeat("y", 300)+".csv")
	err := WriteBytes(path, []byte("x\n"))
	msg := fmt.Sprint(err)
	if len(msg) > 300 || !strings.HasSuffix(msg, "file name too long") || !strings.HasPrefix(msg, "cannot write "+dir) || !strings.Contains(msg, "yyy...yyy") || !strings.HasSuffix(strings.TrimSuffix(msg, ": file name too long"), ".csv") {
		t.Errorf("error of a name too long: %q (%d bytes)", msg, len(msg))
	}
}
