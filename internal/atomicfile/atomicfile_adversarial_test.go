package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/internal/filelock"
)

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestNoFollowNeverWritesThroughALink holds the promise that a name
// boardsat chose (a sidecar, a default-named figure, a file in a
// directory it fills) is never written through a link, with or without
// --force, and that without --force no file there is replaced.
func TestNoFollowNeverWritesThroughALink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("victim\n"), 0o644)
	link := filepath.Join(dir, "r-cactus.svg")
	os.Symlink(victim, link)
	for _, replace := range []bool{false, true} {
		err := WriteWith(link, Options{NoFollow: true, Replace: replace}, text("svg\n"))
		var pe *PathError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("Replace=%v: %v, want a refusal naming the link", replace, err)
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != "victim\n" {
		t.Errorf("written through the link: the victim holds %q", data)
	}
	mine := filepath.Join(dir, "r.csv.meta.json")
	os.WriteFile(mine, []byte("mine\n"), 0o644)
	if err := WriteWith(mine, Options{NoFollow: true}, text("new\n")); !errors.Is(err, ErrExists) {
		t.Errorf("an existing file without Replace: %v, want ErrExists", err)
	}
	if data, _ := os.ReadFile(mine); string(data) != "mine\n" {
		t.Errorf("replaced without Replace: %q", data)
	}
	if err := WriteWith(mine, Options{NoFollow: true, Replace: true}, text("new\n")); err != nil {
		t.Errorf("Replace: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestNoReplaceIsCheckedAtPlacing: a file (or link) that appears while
// the new one is written is not replaced: the new file is linked into
// place, which fails on anything there.
func TestNoReplaceIsCheckedAtPlacing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "001.drat")
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("victim\n"), 0o644)
	err := WriteWith(path, Options{NoFollow: true}, func(w io.Writer) error {
		os.Symlink(victim, path) // planted while boardsat writes
		_, err := io.WriteString(w, "proof\n")
		return err
	})
	if err == nil {
		t.Error("a link planted during the write was replaced")
	}
	if data, _ := os.ReadFile(victim); string(data) != "victim\n" {
		t.Errorf("the victim holds %q", data)
	}
}

// TestSidecarUnderItsResultsFilesLock holds the promise that a results
// file's sidecar and its reserve are written only under the results
// file's lock: while a bench holds r.csv, no other writer (encode -o,
// results merge -o, even with --force) replaces r.csv.meta.json, and the
// holder writes it with its lock.
func TestSidecarUnderItsResultsFilesLock(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "r.csv")
	os.WriteFile(csv, []byte("rows\n"), 0o644)
	l, err := filelock.Acquire(csv)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	for _, side := range []string{csv + ".meta.json", csv + ".meta.json.reserve"} {
		if err := WriteBytes(side, []byte("p cnf 1 1\n")); err == nil {
			t.Errorf("%s written while its results file is locked", filepath.Base(side))
		}
		if _, err := os.Stat(side); err == nil {
			t.Errorf("%s exists", filepath.Base(side))
		}
		if _, err := filelock.Acquire(side); err == nil {
			t.Errorf("%s locked by another writer while its results file is locked", filepath.Base(side))
		}
		if err := WriteWith(side, Options{Held: l, NoFollow: true, Replace: true}, text("{}\n")); err != nil {
			t.Errorf("the holder's write of %s: %v", filepath.Base(side), err)
		}
	}
}

// TestRemoveTempsLeavesNoPartialFile holds the promise that a signal
// during a write leaves no hidden partial file: RemoveTemps (the signal
// handler's) removes the temporary file of a write in progress.
func TestRemoveTempsLeavesNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.cnf")
	var during, after []os.DirEntry
	Write(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("1 2 0\n", 1<<16))
		during, _ = os.ReadDir(dir)
		RemoveTemps() // the process would end here, running no defer
		after, _ = os.ReadDir(dir)
		return errors.New("interrupted")
	})
	if len(during) != 1 {
		t.Fatalf("while writing, the directory holds %v, want the temporary file", during)
	}
	if len(after) != 0 {
		t.Errorf("RemoveTemps left %v", after)
	}
}
