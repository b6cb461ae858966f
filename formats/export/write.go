package export

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/boardsat/boardsat/internal/atomicfile"
)

// CSVName is the name of the table of files and answers in the directory.
const CSVName = "instances.csv"

// ErrNotEmpty is the refusal of a directory that holds files, without
// force.
var ErrNotEmpty = errors.New("is not empty: add --force to write into it (files of the same names are replaced), or name another directory")

// Write puts every item's file in dir, created when missing, and then
// instances.csv with one row per file. A dir that is not a directory, or
// that holds anything without force, is refused before anything is
// written; with force, a file of the same name is replaced only when it is
// a regular file (a directory, link or device in its place is refused,
// again before anything is written). Each file is written whole or not at
// all (atomicfile), the table last, and never through a link: one planted
// while the directory is written is refused, and without force a file
// that appears meanwhile is not replaced either.
func Write(dir string, items []Item, force bool) error {
	if err := CheckDir(dir, force); err != nil {
		return err
	}
	names := []string{CSVName}
	for _, it := range items {
		names = append(names, it.Row.File)
	}
	for _, n := range names {
		p := filepath.Join(dir, n)
		if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
			return fmt.Errorf("%s exists and is not a regular file: it is not replaced", p)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	o := atomicfile.Options{NoFollow: true, Replace: force}
	for _, it := range items {
		if err := atomicfile.WriteWith(filepath.Join(dir, it.Row.File), o, func(w io.Writer) error {
			_, err := w.Write(it.Data)
			return err
		}); err != nil {
			return err
		}
	}
	return atomicfile.WriteWith(filepath.Join(dir, CSVName), o, func(w io.Writer) error { return WriteCSV(w, items) })
}

// CheckDir refuses a dir that exists and is not a directory, or that holds
// anything when force is false (Write's first check, for a caller that
// wants to refuse before it plans).
func CheckDir(dir string, force bool) error {
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		if len(entries) > 0 && !force {
			return fmt.Errorf("%s %w", dir, ErrNotEmpty)
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	return nil
}

// WriteCSV writes the table of the items: Header, then one row per file.
func WriteCSV(w io.Writer, items []Item) error {
	cw := csv.NewWriter(w)
	cw.Write(Header)
	for _, it := range items {
		cw.Write(it.Row.Record())
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads a table written by WriteCSV, strictly: the header as
// written, ten fields a row.
func ReadCSV(r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(Header)
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, errors.New("no header")
	}
	for i, h := range Header {
		if recs[0][i] != h {
			return nil, fmt.Errorf("column %d is %q, not %q", i+1, recs[0][i], h)
		}
	}
	var rows []Row
	for _, f := range recs[1:] {
		rows = append(rows, Row{File: f[0], Spec: f[1], Task: f[2], Format: f[3], Encoding: f[4], GBDHash: f[5], Answer: f[6], Count: f[7], Optimum: f[8], KnownBy: f[9]})
	}
	return rows, nil
}
