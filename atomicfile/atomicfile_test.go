package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
