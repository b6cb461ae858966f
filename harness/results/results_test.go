package results

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/internal/atomicfile"
)

func row(instance, variant, task string, rep int, status string, secs float64) Row {
	sq := 16
	if strings.HasPrefix(instance, "queens:") {
		var n int
		for _, c := range strings.TrimPrefix(instance, "queens:") {
			n = n*10 + int(c-'0')
		}
		sq = n * n
	}
	return Row{Time: time.Date(2026, 11, 21, 15, 0, 0, 0, time.UTC), Instance: instance, Puzzle: strings.Split(instance, ":")[0],
		Squares: sq, Variant: variant, Backend: strings.Split(variant, "/")[0], Task: task, Rep: rep, Status: status,
		Answer: 92, HasAnswer: status == StatusOK, Seconds: secs, User: secs / 2, Sys: 0.001, MaxRSSKB: 12345,
		Stats: map[string]int64{"nodes": 1000}}
}

func TestRecordRoundTrip(t *testing.T) {
	r := row("queens:8", "sat/seqcounter/gophersat", "count", 3, StatusOK, 0.25)
	r.Heuristic, r.Encoding, r.Solver = "", "seqcounter", "gophersat"
	r.Stats["clauses"] = 7
	r.Message = "a, \"quoted\"\nmessage"
	var buf bytes.Buffer
	if err := Write(&buf, []Row{r, row("swap:4x3", "native/bfs", "shortest", 1, StatusTimeout, 1)}); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf, "mem")
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %v", got, err)
	}
	r.Message = "a, \"quoted\" message" // one line
	if g := got[0]; g.Key() != r.Key() || g.Seconds != r.Seconds || g.Stats["clauses"] != 7 || g.Stats["nodes"] != 1000 ||
		len(g.Stats) != 2 || g.Message != r.Message || !g.Time.Equal(r.Time) || g.Encoding != "seqcounter" || g.Answer != 92 {
		t.Errorf("round trip: %+v", g)
	}
	if got[1].HasAnswer {
		t.Error("timeout row has an answer")
	}
}

func TestReadRefuses(t *testing.T) {
	good := strings.Join(Columns, ",") + "\n"
	for name, text := range map[string]string{
		"empty":        "",
		"other schema": "a,b,c\n1,2,3\n",
		"old schema":   strings.Join(Columns[:len(Columns)-1], ",") + "\n",
		"malformed":    good + "\"unterminated\n",
		"short row":    good + "x,y\n",
		"bad status":   good + strings.Replace(strings.Join(row("queens:8", "native", "count", 1, StatusOK, 1).Record(), ","), ",ok,", ",great,", 1) + "\n",
		"bad number":   good + strings.Replace(strings.Join(row("queens:8", "native", "count", 1, StatusOK, 1).Record(), ","), ",0.5,", ",fast,", 1) + "\n",
	} {
		if _, err := Read(strings.NewReader(text), name); err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error spans lines: %q", name, err)
		}
	}
}

func TestAppenderDropsPartialRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	a, rows, err := OpenAppend(path)
	if err != nil || len(rows) != 0 {
		t.Fatal(err)
	}
	a.Add(row("queens:8", "native", "count", 1, StatusOK, 1))
	a.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("2026-11-21T15:00:00Z,queens:9,que") // a crash mid-row
	f.Close()
	a, rows, err = OpenAppend(path)
	if err != nil || len(rows) != 1 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	a.Add(row("queens:9", "native", "count", 1, StatusOK, 2))
	a.Close()
	all, err := ReadFiles(path)
	if err != nil || len(all) != 2 || all[1].Instance != "queens:9" {
		t.Errorf("%v %v", all, err)
	}
	os.WriteFile(path, []byte("x,y\n"), 0o644)
	if _, _, err := OpenAppend(path); err == nil {
		t.Error("appending to another schema accepted")
	}
}

// fixtureCSV is a real bench run.
const fixtureCSV = "testdata/bench.csv"

// TestMergeDedupes checks that merging a file with itself keeps each run
// once, while distinct runs of one group (another session's repetition 1)
// are all kept.
func TestMergeDedupes(t *testing.T) {
	rows, dropped, err := Merge(fixtureCSV, fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := ReadFiles(fixtureCSV)
	if len(rows) != len(one) || dropped != len(one) {
		t.Errorf("merge of a file with itself: %d rows, %d dropped; want %d and %d", len(rows), dropped, len(one), len(one))
	}
	dir := t.TempDir()
	other := filepath.Join(dir, "other.csv")
	again := slices.Clone(one)
	for i := range again {
		again[i].Time = again[i].Time.Add(time.Hour) // the same groups, run later
	}
	if err := atomicfile.Write(other, func(w io.Writer) error { return Write(w, again) }); err != nil {
		t.Fatal(err)
	}
	rows, dropped, err = Merge(fixtureCSV, other)
	if err != nil || len(rows) != 2*len(one) || dropped != 0 {
		t.Errorf("merge of two sessions: %d rows, %d dropped, %v; want %d, 0", len(rows), dropped, err, 2*len(one))
	}
}

// TestPreviousSchemasRead: a file of an earlier schema (before the method,
// fallbacks and theorem columns; before the measurement columns; before
// the certify columns; before unchecked) is read
// with the missing fields empty, and refused for appending; the current
// schema round-trips them.
func TestPreviousSchemasRead(t *testing.T) {
	r := row("queens:8", "native/bitboard", "count", 1, StatusOK, 92)
	r.Method, r.Fallbacks, r.Theorem = "m", []string{"a: error: x", "b: error: y"}, "thm"
	r.MeasuredBy, r.LimitedBy, r.Limit, r.CPULimit, r.WallLimit, r.MemLimitMB, r.Commit = MeasuredCgroup1, LimitedCgroup1, LimitCPU, 2.5, 60, 2048, "abc+dirty"
	r.Certify, r.Certified, r.ProofBytes, r.CheckSeconds = true, true, 7535713, 8.557
	r.Unchecked = "cadical's UNSAT"
	for i, old := range PreviousSchemas {
		var buf bytes.Buffer
		buf.WriteString(strings.Join(old, ",") + "\n")
		rec := r.Record()
		var oldRec []string
		for _, c := range old {
			oldRec = append(oldRec, rec[slices.Index(Columns, c)])
		}
		buf.WriteString(strings.Join(oldRec, ",") + "\n")
		rows, err := Read(bytes.NewReader(buf.Bytes()), "old")
		measured := i >= 2 // the schemas with the measurement columns
		certify := i == 3  // and the certify columns, before limited_by
		if err != nil || len(rows) != 1 || measured != (rows[0].MeasuredBy != "") || measured != (rows[0].CPULimit != 0) || rows[0].Answer != 92 || (i == 0) != (rows[0].Method == "") || rows[0].Certify != certify || rows[0].LimitedBy != "" || rows[0].Unchecked != "" {
			t.Fatalf("schema %d: %v %+v", i, err, rows)
		}
		path := filepath.Join(t.TempDir(), "old.csv")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := OpenAppend(path); err == nil || !strings.Contains(err.Error(), "previous schema") {
			t.Errorf("append to a schema %d file: %v", i, err)
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, []Row{r}); err != nil {
		t.Fatal(err)
	}
	rows, err := Read(bytes.NewReader(buf.Bytes()), "new")
	if err != nil || len(rows) != 1 || rows[0].Method != "m" || len(rows[0].Fallbacks) != 2 || rows[0].Fallbacks[1] != "b: error: y" || rows[0].Theorem != "thm" {
		t.Fatalf("round trip: %v %+v", err, rows)
	}
	got := rows[0]
	if got.MeasuredBy != r.MeasuredBy || got.LimitedBy != r.LimitedBy || got.Limit != r.Limit || got.CPULimit != 2.5 || got.WallLimit != 60 || got.MemLimitMB != 2048 || got.Commit != r.Commit {
		t.Errorf("measurement columns round trip: %+v", got)
	}
	if !got.Certify || !got.Certified || got.ProofBytes != 7535713 || got.CheckSeconds != 8.557 || got.Unchecked != r.Unchecked {
		t.Errorf("certify and unchecked columns round trip: %+v", got)
	}
}

// TestBigAnswer: a count beyond 2^64 keeps every digit through CSV, and a
// malformed answer is refused.
func TestBigAnswer(t *testing.T) {
	r := row("tour:6x20:a1:closed", "native/frontier", "count", 1, StatusOK, 1)
	const big = "96325314726538906164" // over 2^64
	if err := r.SetAnswerString(big); err != nil || r.AnswerBig == nil || r.Answer != 0 {
		t.Fatalf("set %s: %v %+v", big, err, r)
	}
	small := row("queens:8", "native", "count", 1, StatusOK, 1)
	var buf bytes.Buffer
	if err := Write(&buf, []Row{r, small}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), ","+big+",") {
		t.Errorf("CSV lacks %s:\n%s", big, buf.String())
	}
	got, err := Read(&buf, "mem")
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %v", got, err)
	}
	if got[0].AnswerString() != big || got[1].AnswerString() != "92" || got[1].AnswerBig != nil {
		t.Errorf("read back %q and %q", got[0].AnswerString(), got[1].AnswerString())
	}
	for _, bad := range []string{"-5", "+5", "1e30", "12x"} {
		var x Row
		if err := x.SetAnswerString(bad); err == nil {
			t.Errorf("answer %q accepted", bad)
		}
	}
}

// TestCheckPool: rows of two commits are refused unless mixed, and then the
// note names both with their row counts (rows without a commit:
// TestEmptyCommitPoolsApart).
func TestCheckPool(t *testing.T) {
	a := row("queens:8", "native", "count", 1, StatusOK, 92)
	a.Commit = "0123456789abcdef0123"
	b := a
	b.Commit = "fedcba9876543210fedc+dirty"
	if note, err := CheckPool([]Row{a, a}, false); note != "" || err != nil {
		t.Errorf("one commit: %q %v", note, err)
	}
	_, err := CheckPool([]Row{a, b, a}, false)
	if err == nil || !strings.Contains(err.Error(), "--mixed") || !strings.Contains(err.Error(), "0123456789ab (2 rows)") {
		t.Errorf("two commits: %v", err)
	}
	note, err := CheckPool([]Row{a, b, a}, true)
	if err != nil || note != "pooled the rows of 2 commits: 0123456789ab (2 rows), fedcba987654+dirty (1 rows)" {
		t.Errorf("mixed: %q %v", note, err)
	}
}

// TestReadRefusesNonFiniteAndNegative: a NaN, an infinity or a negative
// value in a measured column of an edited file is refused in one line
// naming the file, the line and the column, never read as a time.
func TestReadRefusesNonFiniteAndNegative(t *testing.T) {
	dir := t.TempDir()
	r := row("queens:8", "native", "count", 1, StatusOK, 0.5)
	r.Certify, r.ProofBytes, r.CheckSeconds = true, 10, 0.25
	r.CPULimit, r.MemLimitMB = 10, 100
	base := r.Record()
	col := func(name string) int { return slices.Index(Columns, name) }
	for _, name := range []string{"seconds", "user", "sys", "solver_seconds", "encode_seconds", "solve_seconds", "check_seconds", "cpu_limit_s"} {
		for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "-0.5", "1e999"} {
			rec := slices.Clone(base)
			rec[col(name)] = v
			path := filepath.Join(dir, "edited.csv")
			os.WriteFile(path, []byte(strings.Join(Columns, ",")+"\n"+strings.Join(rec, ",")+"\n"), 0o644)
			_, err := ReadFiles(path)
			if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), path+" line 2: column "+name+": ") {
				t.Errorf("%s = %s: %v; want one line naming %s, line 2 and the column", name, v, err, path)
			}
		}
	}
	for _, name := range []string{"squares", "maxrss_kb", "nodes", "proof_bytes", "mem_limit_mb"} {
		rec := slices.Clone(base)
		rec[col(name)] = "-1"
		_, err := Read(strings.NewReader(strings.Join(Columns, ",")+"\n"+strings.Join(rec, ",")+"\n"), "edited.csv")
		if err == nil || !strings.Contains(err.Error(), "edited.csv line 2: column "+name+": \"-1\": not a non-negative integer") {
			t.Errorf("%s = -1: %v", name, err)
		}
	}
	// The row as written reads back.
	if _, err := Read(strings.NewReader(strings.Join(Columns, ",")+"\n"+strings.Join(base, ",")+"\n"), "good.csv"); err != nil {
		t.Errorf("the unedited row: %v", err)
	}
}

// TestHeaderWithoutNewline: a file holding only the header with no final
// newline is a file with no rows, and one holding a header cut short says
// so, never "empty file"; bench's OpenAppend starts either afresh.
func TestHeaderWithoutNewline(t *testing.T) {
	dir := t.TempDir()
	header := strings.Join(Columns, ",")
	whole, cut := filepath.Join(dir, "whole.csv"), filepath.Join(dir, "cut.csv")
	os.WriteFile(whole, []byte(header), 0o644)
	os.WriteFile(cut, []byte(header[:100]), 0o644)
	rows, warnings, err := ReadFilesCut(whole)
	if err != nil || len(rows) != 0 || len(warnings) != 0 {
		t.Errorf("a whole header without newline: %d rows, %v, %v; want no rows and no error", len(rows), warnings, err)
	}
	_, _, err = ReadFilesCut(cut)
	if err == nil || err.Error() != cut+": a results header cut short after 100 bytes, with no newline and no rows" {
		t.Errorf("a header cut short: %v", err)
	}
	for _, path := range []string{whole, cut} {
		a, rows, err := OpenAppend(path)
		if err != nil || len(rows) != 0 {
			t.Fatalf("OpenAppend(%s): %d rows, %v", filepath.Base(path), len(rows), err)
		}
		a.Add(row("queens:8", "native", "count", 1, StatusOK, 1))
		a.Close()
		if all, err := ReadFiles(path); err != nil || len(all) != 1 {
			t.Errorf("%s after OpenAppend and one row: %d rows, %v", filepath.Base(path), len(all), err)
		}
	}
}

// TestEmptyCommitPoolsApart: rows without a commit are a commit of their
// own: beside rows of a commit they are refused without --mixed (they
// pooled silently before), and the note names them.
func TestEmptyCommitPoolsApart(t *testing.T) {
	a := row("queens:8", "native/bitboard", "count", 1, StatusOK, 92)
	b := a
	a.Commit = "0123456789abcdef0123"
	if _, err := CheckPool([]Row{a, b}, false); err == nil || !strings.Contains(err.Error(), "no commit recorded (1 rows)") {
		t.Errorf("a commit beside none: %v; want a refusal naming the rows without a commit", err)
	}
	if note, err := CheckPool([]Row{a, b}, true); err != nil || !strings.Contains(note, "2 commits") {
		t.Errorf("--mixed: %q, %v", note, err)
	}
	if note, err := CheckPool([]Row{b, b}, false); err != nil || note != "" {
		t.Errorf("rows all without a commit: %q, %v; want them pooled", note, err)
	}
}

// TestSkippedRows: status skipped is read and written, and a row of an
// earlier bench for a run a ladder did not run (status timeout, 0 seconds,
// "not run: ..." in its message) is read as skipped, never as a timeout;
// a timeout that ran stays one.
func TestSkippedRows(t *testing.T) {
	skipped := row("queens:9", "native/plain", "count", 1, StatusSkipped, 0)
	skipped.User, skipped.Sys, skipped.Message = 0, 0, NotRunMessage("ladder stopped after a timeout or memout on queens:8")
	old := skipped
	old.Instance, old.Status = "queens:10", StatusTimeout
	ran := row("queens:8", "native/plain", "count", 1, StatusTimeout, 2)
	ran.Message = "killed after 2s"
	var buf bytes.Buffer
	if err := Write(&buf, []Row{skipped, old, ran}); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf, "mem")
	if err != nil || len(got) != 3 {
		t.Fatalf("%v %v", got, err)
	}
	for i, want := range []string{StatusSkipped, StatusSkipped, StatusTimeout} {
		if got[i].Status != want || got[i].NotRun() != (want == StatusSkipped) || got[i].Solved() {
			t.Errorf("row %d (%s, %q): status %s, not run %v; want %s", i, got[i].Instance, got[i].Message, got[i].Status, got[i].NotRun(), want)
		}
	}
	if got[1].Message != old.Message {
		t.Errorf("the old row's reason %q, want %q kept", got[1].Message, old.Message)
	}
}
