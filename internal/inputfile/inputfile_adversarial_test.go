package inputfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNotRegularRefusedAtOnce holds the promise that every input is
// checked for being a regular file before it is read: a FIFO with no
// writer is refused without hanging the open, a device such as /dev/zero
// without being read, a link only where the caller refuses links.
func TestNotRegularRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "c.ck")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("x\n"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(plain, link)
	cases := []struct {
		path string
		flag int
		what string
	}{
		{fifo, os.O_RDONLY, "a FIFO"},
		{fifo, os.O_WRONLY | os.O_APPEND, "a FIFO"},
		{"/dev/zero", os.O_RDONLY, "a character device"},
		{dir, os.O_RDONLY, "a directory"},
		{link, os.O_RDONLY | syscall.O_NOFOLLOW, "a symbolic link"},
	}
	for _, c := range cases {
		done := make(chan error, 1)
		go func() {
			f, err := OpenFile(c.path, c.flag)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			var nr *NotRegularError
			if !errors.As(err, &nr) || nr.What != c.what || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v, want one line saying it is %s", c.path, err, c.what)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the open hangs", c.path)
		}
	}
	if f, err := Open(link); err != nil {
		t.Errorf("a link to a regular file, links allowed: %v", err)
	} else {
		f.Close()
	}
}

// TestSizeBound holds the promise that a reader stops at its documented
// bound, with one line naming it: a file larger than the bound is refused
// before it is read, and a stream is cut at the bound.
func TestSizeBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	os.WriteFile(path, make([]byte, 2<<10), 0o644)
	var tl *TooLargeError
	if _, err := ReadFile(path, 1<<10); !errors.As(err, &tl) || !strings.Contains(err.Error(), "1 KiB") {
		t.Errorf("a 2 KiB file, bound 1 KiB: %v", err)
	}
	if data, err := ReadFile(path, 2<<10); err != nil || len(data) != 2<<10 {
		t.Errorf("a file at the bound: %d bytes, %v", len(data), err)
	}
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	data, err := io.ReadAll(Limit(f, "/dev/zero", 1<<20))
	if !errors.As(err, &tl) || len(data) != 1<<20 {
		t.Errorf("an endless stream: %d bytes read, %v; want the bound and a *TooLargeError", len(data), err)
	}
}
