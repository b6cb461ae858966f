// Package results is boardsat's tidy results format: the CSV schema of
// benchmark runs (Row, Columns), reading, appending and merging results
// files, pooling rows of several commits, and the metadata sidecar of a
// file (Meta). It is what the harness needs to write rows; what is made
// from rows (summaries, tables, figures, benchstat lines) is in
// results/report, so that the harness does not link the plotting library.
//
// The columns, their order and meaning, and the rule that a file with
// any other header is refused are the contract of docs/contract.md ("The
// results CSV"), which a test holds to Columns; this package is their one
// implementation.
package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/harness/measure"
	"github.com/boardsat/boardsat/internal/inputfile"
	"github.com/boardsat/boardsat/puzzle"
)

// StatColumns are the backend counters recorded as columns, in column order:
// the puzzle.Stat* keys.
var StatColumns = []string{
	puzzle.StatNodes, puzzle.StatBacktracks, puzzle.StatStates,
	puzzle.StatConflicts, puzzle.StatDecisions, puzzle.StatPropagations, puzzle.StatRestarts,
	puzzle.StatVariables, puzzle.StatClauses, puzzle.StatSolverCalls,
}

// Columns is the header of every results file: the schema.
var Columns = slices.Concat([]string{
	"time", "instance", "puzzle", "squares", "variant", "backend", "heuristic", "encoding", "solver",
	"task", "rep", "status", "answer", "seconds", "user", "sys", "maxrss_kb",
	"solver_seconds", "encode_seconds", "solve_seconds",
}, StatColumns, []string{"method", "fallbacks", "theorem"}, CertifyColumns, MeasureColumns, []string{"unchecked", "message"})

// CertifyColumns are the columns of a certified run (bench certify=true,
// solve --certify), in column order: certified (true when every
// refutation of the answer was proved and checked, false when not; empty
// for a run not certified), proof_bytes (the proofs' ASCII DRAT bytes) and
// check_seconds (the checks' wall time, inside solve_seconds, and their
// CPU inside user and sys).
var CertifyColumns = []string{"certified", "proof_bytes", "check_seconds"}

// MeasureColumns are the columns that say how a run was measured and under
// which limits, in column order (see the package documentation).
var MeasureColumns = []string{"measured_by", "limited_by", "limit", "cpu_limit_s", "wall_limit_s", "mem_limit_mb", "commit"}

// measureColumns4 are MeasureColumns before limited_by.
var measureColumns4 = slices.DeleteFunc(slices.Clone(MeasureColumns), func(c string) bool { return c == "limited_by" })

// PreviousSchemas are the headers of earlier versions of the schema: the
// first without the method, fallbacks and theorem columns, the second
// without MeasureColumns, the third without CertifyColumns, the fourth
// without limited_by and unchecked. Files with one
// are still read (the missing fields empty) and merged into the current
// schema; appending to one (bench --resume) is refused.
var PreviousSchemas = [][]string{
	slices.Concat(Columns[:slices.Index(Columns, "method")], []string{"message"}),
	slices.Concat(Columns[:slices.Index(Columns, "certified")], []string{"message"}),
	slices.Concat(Columns[:slices.Index(Columns, "certified")], measureColumns4, []string{"message"}),
	slices.Concat(Columns[:slices.Index(Columns, "measured_by")], measureColumns4, []string{"message"}),
}

// LegacyColumns is the first of PreviousSchemas.
var LegacyColumns = PreviousSchemas[0]

// previousSchema returns the earlier schema header is, or nil.
func previousSchema(header []string) []string {
	for _, p := range PreviousSchemas {
		if slices.Equal(header, p) {
			return p
		}
	}
	return nil
}

// upgradeRecord returns a record of the earlier schema old in Columns
// order, the columns old lacks empty.
func upgradeRecord(old, rec []string) []string {
	out := make([]string, len(Columns))
	for i, c := range Columns {
		if j := slices.Index(old, c); j >= 0 && j < len(rec) {
			out[i] = rec[j]
		}
	}
	return out
}

// The statuses a run can end with.
const (
	StatusOK      = "ok"      // answered (and agreed with the reference)
	StatusUnsat   = "unsat"   // proven to have no solution
	StatusTimeout = "timeout" // wall-clock limit reached
	StatusMemout  = "memout"  // memory limit reached
	StatusError   = "error"   // the backend or the child failed
	StatusWrong   = "wrong"   // answered, but the answer disagrees with the reference
	// StatusSkipped is a run that was not run: a ladder stopped at an
	// earlier instance (the reason in the message). It has no
	// measurements, and is neither solved nor unsolved.
	StatusSkipped = "skipped"
)

// Statuses lists every status, in the order tables count them.
var Statuses = []string{StatusOK, StatusUnsat, StatusTimeout, StatusMemout, StatusError, StatusWrong, StatusSkipped}

// refusedPrefix starts the message of a row whose child refused the request
// (its answer's status was refused): status error, since no answer came,
// but no failure of the backend either. Rows keep this form so that files
// written before the refusal had a status of its own read the same.
const refusedPrefix = "refused: "

// RefusedMessage returns the message of a refused run, reason being the
// child's.
func RefusedMessage(reason string) string { return refusedPrefix + reason }

// Refused reports whether the row is a refused request (see RefusedMessage).
func (r Row) Refused() bool {
	return r.Status == StatusError && strings.HasPrefix(r.Message, refusedPrefix)
}

// notRunPrefix starts the message of a row written for a run that was not
// run: a ladder stopped at an earlier instance (status skipped, no
// measurements; earlier benches wrote status timeout, read as skipped).
const notRunPrefix = "not run: "

// NotRunMessage returns the message of a run not run, for reason.
func NotRunMessage(reason string) string { return notRunPrefix + reason }

// NotRun reports whether the row stands for a run that was not run: status
// skipped (see NotRunMessage for the message).
func (r Row) NotRun() bool {
	return r.Status == StatusSkipped || strings.HasPrefix(r.Message, notRunPrefix)
}

// Row is one run.
type Row struct {
	Time     time.Time
	Instance string
	Puzzle   string
	Squares  int
	Variant  string
	Backend  string
	// Heuristic, Encoding and Solver are the names the backend reports it used.
	Heuristic, Encoding, Solver string
	Task                        string
	Rep                         int
	Status                      string
	// Answer is the count or length; HasAnswer is false when the run gave none.
	// A count beyond 2^64 is in AnswerBig (Answer is then 0); read answers
	// with AnswerString.
	Answer    uint64
	AnswerBig *big.Int
	HasAnswer bool
	// Seconds is wall-clock time; User and Sys are CPU times.
	Seconds, User, Sys float64
	MaxRSSKB           int64
	// SolverSeconds, EncodeSeconds and SolveSeconds are what the child reports.
	SolverSeconds, EncodeSeconds, SolveSeconds float64
	// Stats holds the counters reported, by puzzle.Stat* key.
	Stats map[string]int64
	// MeasuredBy says how Seconds, User, Sys and MaxRSSKB were measured:
	// MeasuredCgroup2, MeasuredCgroup1 or MeasuredRusage ("" in files of
	// an earlier schema).
	MeasuredBy string
	// LimitedBy says how the memory limit was held: LimitedCgroup2,
	// LimitedCgroup1 (a hard cap of the run's cgroup) or LimitedSampled;
	// "" without a memory limit, or in files of an earlier schema.
	LimitedBy string
	// Limit says which limit ended the run: LimitWall, LimitCPU or
	// LimitMem; "" when none did.
	Limit string
	// CPULimit and WallLimit are the run's limits in seconds (0: none),
	// MemLimitMB its memory limit in MiB (0: none).
	CPULimit, WallLimit float64
	MemLimitMB          int64
	// Commit is the git commit of the boardsat that ran it (see
	// bench.Build.CommitLabel); "" when unknown.
	Commit string
	// Method, Fallbacks and Theorem say what actually ran (puzzle.Answer's
	// fields of those names); Fallbacks are joined with FallbackSep in CSV.
	Method    string
	Fallbacks []string
	Theorem   string
	// Certify marks a certified run; Certified, ProofBytes and
	// CheckSeconds are its certificate (see CertifyColumns).
	Certify, Certified bool
	ProofBytes         int64
	CheckSeconds       float64
	// Unchecked is what of the answer rests on an external solver's
	// claim that no proof and no second method confirmed (the answer's
	// unchecked), "" when nothing does.
	Unchecked string
	Message   string
}

// The measurement methods of MeasuredBy: the run's own cgroup (v2, or v1
// cpuacct and memory), or the operating system's accounting of the reaped
// child and its waited-for descendants (wait4 rusage) with the tree's
// resident memory sampled.
// They are package measure's names.
const (
	MeasuredCgroup2 = measure.Cgroup2
	MeasuredCgroup1 = measure.Cgroup1
	MeasuredRusage  = measure.Rusage
)

// How a memory limit was held (LimitedBy), as package measure names it.
const (
	LimitedCgroup2 = measure.Cgroup2
	LimitedCgroup1 = measure.Cgroup1
	LimitedSampled = measure.Sampled
)

// The limits of Limit, as package measure names them.
const (
	LimitWall = string(measure.LimitWall)
	LimitCPU  = string(measure.LimitCPU)
	LimitMem  = string(measure.LimitMem)
)

// FallbackSep joins Row.Fallbacks in the fallbacks column.
const FallbackSep = " | "

// AnswerString returns the answer in decimal, every digit ("" if none).
func (r Row) AnswerString() string {
	switch {
	case !r.HasAnswer:
		return ""
	case r.AnswerBig != nil:
		return r.AnswerBig.String()
	}
	return strconv.FormatUint(r.Answer, 10)
}

// SetAnswerString sets the answer from a decimal count of any size.
func (r *Row) SetAnswerString(s string) error {
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		r.Answer, r.AnswerBig, r.HasAnswer = n, nil, true
		return nil
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || n.Sign() < 0 || strings.HasPrefix(s, "+") {
		return errors.New("not a count")
	}
	r.Answer, r.AnswerBig, r.HasAnswer = 0, n, true
	return nil
}

// Key identifies a run for resuming: instance, variant, task and repetition.
func (r Row) Key() string {
	return r.Instance + "\x00" + r.Variant + "\x00" + r.Task + "\x00" + strconv.Itoa(r.Rep)
}

// Solved reports whether the run answered correctly (ok or unsat).
func (r Row) Solved() bool { return r.Status == StatusOK || r.Status == StatusUnsat }

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Record returns the row as CSV fields in Columns order.
func (r Row) Record() []string {
	rec := []string{
		r.Time.UTC().Format(time.RFC3339Nano), r.Instance, r.Puzzle, strconv.Itoa(r.Squares), r.Variant,
		r.Backend, r.Heuristic, r.Encoding, r.Solver, r.Task, strconv.Itoa(r.Rep), r.Status, "",
		fmtFloat(r.Seconds), fmtFloat(r.User), fmtFloat(r.Sys), strconv.FormatInt(r.MaxRSSKB, 10),
		fmtFloat(r.SolverSeconds), fmtFloat(r.EncodeSeconds), fmtFloat(r.SolveSeconds),
	}
	if r.HasAnswer {
		rec[12] = r.AnswerString()
	}
	for _, k := range StatColumns {
		v, ok := r.Stats[k]
		if ok {
			rec = append(rec, strconv.FormatInt(v, 10))
		} else {
			rec = append(rec, "")
		}
	}
	rec = append(rec, oneLine(r.Method), oneLine(strings.Join(r.Fallbacks, FallbackSep)), oneLine(r.Theorem))
	if r.Certify {
		rec = append(rec, strconv.FormatBool(r.Certified), strconv.FormatInt(r.ProofBytes, 10), fmtFloat(r.CheckSeconds))
	} else {
		rec = append(rec, "", "", "")
	}
	rec = append(rec, r.MeasuredBy, r.LimitedBy, r.Limit, limitField(r.CPULimit), limitField(r.WallLimit), "", r.Commit)
	if r.MemLimitMB > 0 {
		rec[len(rec)-2] = strconv.FormatInt(r.MemLimitMB, 10)
	}
	return append(rec, oneLine(r.Unchecked), oneLine(r.Message))
}

// limitField writes a limit in seconds, empty for none.
func limitField(s float64) string {
	if s <= 0 {
		return ""
	}
	return fmtFloat(s)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// ParseRecord reads one CSV record in Columns order. A row of an earlier
// bench for a run a ladder did not run (status timeout, no seconds, its
// message starting "not run: ") is read as StatusSkipped, so that old
// files count those runs as the new ones do.
func ParseRecord(rec []string) (Row, error) {
	if len(rec) != len(Columns) {
		return Row{}, fmt.Errorf("%d fields, want %d", len(rec), len(Columns))
	}
	p := recordParser(rec)
	var r Row
	for _, part := range []func(*Row) error{p.head, p.times, p.stats, p.tail, p.limits} {
		if err := part(&r); err != nil {
			return r, err
		}
	}
	if r.Status == StatusTimeout && r.Seconds == 0 && strings.HasPrefix(r.Message, notRunPrefix) {
		r.Status = StatusSkipped
	}
	return r, nil
}

// recordParser reads the fields of one record, in Columns order.
type recordParser []string

// bad says that column i's field is not what it must be.
func (p recordParser) bad(i int, e error) error {
	return fmt.Errorf("column %s: %q: %v", Columns[i], p[i], e)
}

// amount reads column i as a measured quantity: a finite number, never
// negative (a NaN, an Inf or a negative time in an edited file would print
// as +Inf or pass as the fastest run in every table made from it).
func (p recordParser) amount(i int) (float64, error) {
	v, err := strconv.ParseFloat(p[i], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, p.bad(i, errors.New("not a finite non-negative number"))
	}
	return v, nil
}

// count reads column i as a non-negative integer.
func (p recordParser) count(i int) (int64, error) {
	v, err := strconv.ParseInt(p[i], 10, 64)
	if err != nil || v < 0 {
		return 0, p.bad(i, errors.New("not a non-negative integer"))
	}
	return v, nil
}

// head reads the run's identity, status and answer (columns time to answer).
func (p recordParser) head(r *Row) error {
	var err error
	if r.Time, err = time.Parse(time.RFC3339Nano, p[0]); err != nil {
		return p.bad(0, errors.New("not an RFC 3339 time"))
	}
	r.Instance, r.Puzzle = p[1], p[2]
	sq, err := p.count(3)
	if err != nil {
		return err
	}
	r.Squares = int(sq)
	r.Variant, r.Backend, r.Heuristic, r.Encoding, r.Solver = p[4], p[5], p[6], p[7], p[8]
	r.Task = p[9]
	if r.Rep, err = strconv.Atoi(p[10]); err != nil || r.Rep < 1 {
		return p.bad(10, errors.New("not a repetition number"))
	}
	r.Status = p[11]
	if !slices.Contains(Statuses, r.Status) {
		return p.bad(11, errors.New("unknown status"))
	}
	if p[12] != "" {
		if err := r.SetAnswerString(p[12]); err != nil {
			return p.bad(12, err)
		}
	}
	return nil
}

// times reads the measured seconds and peak memory (seconds to
// solve_seconds).
func (p recordParser) times(r *Row) error {
	var err error
	for i, v := range []*float64{&r.Seconds, &r.User, &r.Sys} {
		if *v, err = p.amount(13 + i); err != nil {
			return err
		}
	}
	if r.MaxRSSKB, err = p.count(16); err != nil {
		return err
	}
	for i, v := range []*float64{&r.SolverSeconds, &r.EncodeSeconds, &r.SolveSeconds} {
		if *v, err = p.amount(17 + i); err != nil {
			return err
		}
	}
	return nil
}

// stats reads the backend's counters (StatColumns), empty ones left out.
func (p recordParser) stats(r *Row) error {
	for i, k := range StatColumns {
		c := 20 + i
		if p[c] == "" {
			continue
		}
		v, err := p.count(c)
		if err != nil {
			return err
		}
		if r.Stats == nil {
			r.Stats = map[string]int64{}
		}
		r.Stats[k] = v
	}
	return nil
}

// The first certify column and the first measure column of a record.
var (
	firstMeasure   = slices.Index(Columns, MeasureColumns[0])
	firstCertify   = slices.Index(Columns, CertifyColumns[0])
	uncheckedIndex = slices.Index(Columns, "unchecked")
)

// tail reads what ran, the certificate and the message.
func (p recordParser) tail(r *Row) error {
	c := firstCertify
	r.Method, r.Theorem, r.Message = p[c-3], p[c-1], p[len(p)-1]
	r.Unchecked = p[uncheckedIndex]
	if fb := p[c-2]; fb != "" {
		r.Fallbacks = strings.Split(fb, FallbackSep)
	}
	if p[c] == "" {
		return nil
	}
	var err error
	r.Certify = true
	if r.Certified, err = strconv.ParseBool(p[c]); err != nil {
		return p.bad(c, errors.New("not true or false"))
	}
	if r.ProofBytes, err = p.count(c + 1); err != nil {
		return err
	}
	r.CheckSeconds, err = p.amount(c + 2)
	return err
}

// limits reads how the run was measured, its limits and its commit
// (MeasureColumns).
func (p recordParser) limits(r *Row) error {
	m := firstMeasure
	r.MeasuredBy, r.LimitedBy, r.Limit, r.Commit = p[m], p[m+1], p[m+2], p[m+6]
	switch r.MeasuredBy {
	case "", MeasuredCgroup2, MeasuredCgroup1, MeasuredRusage:
	default:
		return p.bad(m, errors.New("unknown measurement method"))
	}
	switch r.LimitedBy {
	case "", LimitedCgroup2, LimitedCgroup1, LimitedSampled:
	default:
		return p.bad(m+1, errors.New("unknown way a memory limit was held"))
	}
	switch r.Limit {
	case "", LimitWall, LimitCPU, LimitMem:
	default:
		return p.bad(m+2, errors.New("unknown limit"))
	}
	var err error
	for i, v := range []*float64{&r.CPULimit, &r.WallLimit} {
		if p[m+3+i] == "" {
			continue
		}
		if *v, err = p.amount(m + 3 + i); err != nil {
			return err
		}
	}
	if p[m+5] != "" {
		if r.MemLimitMB, err = p.count(m + 5); err != nil {
			return err
		}
	}
	return nil
}

// Read reads a results file from rd; name labels errors. It refuses a file
// whose header is not Columns.
func Read(rd io.Reader, name string) ([]Row, error) {
	cr := csv.NewReader(rd)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, not a boardsat results CSV", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: malformed CSV: %v", name, err)
	}
	old := previousSchema(header)
	if err := CheckHeader(header); err != nil && old == nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var rows []Row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: malformed CSV: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		if old != nil && len(rec) == len(old) {
			rec = upgradeRecord(old, rec)
		}
		row, err := ParseRecord(rec)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %v", name, line, err)
		}
		rows = append(rows, row)
	}
}

// CheckHeader reports whether header is the results schema, and if not, how
// it differs.
func CheckHeader(header []string) error {
	if slices.Equal(header, Columns) {
		return nil
	}
	for i, c := range header {
		if i >= len(Columns) || c != Columns[i] {
			return fmt.Errorf("not a boardsat results CSV of this schema: column %d is %q, want %q (the header must be %s)",
				i+1, c, at(Columns, i), strings.Join(Columns, ","))
		}
	}
	return fmt.Errorf("not a boardsat results CSV of this schema: %d columns, want %d (missing %q)",
		len(header), len(Columns), Columns[len(header)])
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}

// ReadFiles reads and concatenates results files, in order. A last line
// cut short (a writer killed mid-row, a full disk) is left out: see
// ReadFilesCut, which says so.
func ReadFiles(paths ...string) ([]Row, error) {
	rows, _, err := ReadFilesCut(paths...)
	return rows, err
}

// MaxFileBytes bounds a results file that boardsat reads: a larger one,
// or anything but a regular file (a FIFO would hang the read, /dev/zero
// never end it), is refused in one line. A row is a few hundred bytes, so
// the bound is millions of runs.
const MaxFileBytes int64 = 4 << 30

// ReadFilesCut is ReadFiles, and returns a warning for each file whose last
// line was cut short (no final newline, and not a whole row): that line is
// left out, never the whole file refused. Every row before it was written
// whole (bench writes each row in one write and cuts a failed one off).
func ReadFilesCut(paths ...string) (all []Row, warnings []string, err error) {
	for _, p := range paths {
		data, err := inputfile.ReadFile(p, MaxFileBytes)
		if err != nil {
			return nil, nil, err
		}
		if n := len(data); n > 0 && data[n-1] != '\n' {
			whole := data[:bytes.LastIndexByte(data, '\n')+1]
			if len(whole) == 0 {
				// One line with no newline: a whole header with no rows
				// (read as such), a header cut short, or no results file.
				if _, err := Read(bytes.NewReader(data), p); err != nil {
					if strings.HasPrefix(strings.Join(Columns, ","), string(data)) {
						return nil, nil, fmt.Errorf("%s: a results header cut short after %d bytes, with no newline and no rows", p, n)
					}
					return nil, nil, err
				}
			} else if _, err := Read(bytes.NewReader(data), p); err != nil {
				// The last line does not read as a row: it was cut.
				warnings = append(warnings, fmt.Sprintf("%s: its last line is cut short (%d bytes, no newline): left out", p, n-len(whole)))
				data = whole
			}
		}
		rows, err := Read(bytes.NewReader(data), p)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, rows...)
	}
	return all, warnings, nil
}

// Write writes the header and rows as CSV to w.
func Write(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write(Columns)
	for _, r := range rows {
		cw.Write(r.Record())
	}
	cw.Flush()
	return cw.Error()
}

// Appender appends rows to a results file, each row whole or not at all:
// one write call per row; a write that fails (a full disk) is cut off
// again, so the file ends at its last whole row; and the file is synced to
// disk at least every SyncEvery and at Close.
type Appender struct {
	f      *os.File
	path   string
	size   int64 // bytes of whole rows (and the header)
	rows   int
	synced time.Time
}

// SyncEvery is the most time between a row's write and its sync to disk.
var SyncEvery = time.Second

// WriteError says that a row could not be written (the disk is full, say):
// the file ends at its last whole row, Rows rows after the header.
type WriteError struct {
	Path string
	Rows int
	Err  error
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("writing %s: %v; it ends at its last whole row (%d rows)", e.Path, e.Err, e.Rows)
}

// Unwrap returns the cause.
func (e *WriteError) Unwrap() error { return e.Err }

// OpenAppend opens path for appending, creating it with the header when it
// is missing or empty or holds only a header (whole or cut short) with no
// newline, and returns the rows it already holds. An existing
// file of another schema is refused. A last line cut short (by a crash
// mid-write) is dropped with a newline so later rows start clean.
func OpenAppend(path string) (*Appender, []Row, error) {
	data, err := inputfile.ReadFile(path, MaxFileBytes)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	if bytes.IndexByte(data, '\n') < 0 && strings.HasPrefix(strings.Join(Columns, ","), string(data)) {
		// A header, whole or cut short, with no newline and no rows (a
		// writer that stopped as it began): nothing to keep, start afresh.
		data = nil
	}
	var rows []Row
	good := data
	if len(bytes.TrimSpace(data)) > 0 {
		if !bytes.HasSuffix(data, []byte("\n")) {
			good = data[:bytes.LastIndexByte(data, '\n')+1]
		}
		if rows, err = Read(bytes.NewReader(good), path); err != nil {
			return nil, nil, err
		}
		if first, _, _ := bytes.Cut(good, []byte("\n")); previousSchema(strings.Split(string(bytes.TrimSpace(first)), ",")) != nil {
			return nil, nil, fmt.Errorf("%s has a previous schema (without the method or measurement columns): write a new file, or convert it with boardsat results merge %s -o NEW.csv", path, path)
		}
		if len(good) < len(data) {
			// Drop the partial last line.
			if err := os.Truncate(path, int64(len(good))); err != nil {
				return nil, nil, err
			}
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	a := &Appender{f: f, path: path, size: int64(len(good)), rows: len(rows), synced: time.Now()}
	if len(bytes.TrimSpace(data)) == 0 {
		a.size = 0
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, nil, err
		}
		if err := a.writeRecord(Columns); err != nil {
			f.Close()
			return nil, nil, err
		}
		a.rows = 0
	}
	return a, rows, nil
}

// writeRecord appends one record whole, or cuts off what part of it was
// written and returns a *WriteError.
func (a *Appender) writeRecord(rec []string) error {
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	cw.Write(rec)
	cw.Flush()
	n, err := a.f.Write(buf.Bytes())
	if err == nil && n < buf.Len() {
		err = io.ErrShortWrite
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		a.f.Truncate(a.size)
		return &WriteError{Path: a.path, Rows: a.rows, Err: err}
	}
	a.size += int64(n)
	a.rows++
	if time.Since(a.synced) >= SyncEvery {
		if err := a.f.Sync(); err != nil {
			return &WriteError{Path: a.path, Rows: a.rows, Err: err}
		}
		a.synced = time.Now()
	}
	return nil
}

// Add appends one row.
func (a *Appender) Add(r Row) error { return a.writeRecord(r.Record()) }

// Close syncs and closes the file.
func (a *Appender) Close() error {
	err := a.f.Sync()
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Merge checks that every input is a results file of this schema and returns
// their rows concatenated, in order, without duplicates (Dedup).
func Merge(paths ...string) (rows []Row, dropped int, err error) {
	all, err := ReadFiles(paths...)
	if err != nil {
		return nil, 0, err
	}
	rows, dropped = Dedup(all)
	return rows, dropped, nil
}

// Dedup drops every row equal in every field to an earlier one (the same
// run, from a file given twice or merged before) and counts them. Distinct
// runs of the same group (another session's repetition 1, say) are all
// kept.
func Dedup(all []Row) (rows []Row, dropped int) {
	seen := map[string]bool{}
	for _, r := range all {
		k := strings.Join(r.Record(), "\x00")
		if seen[k] {
			dropped++
			continue
		}
		seen[k] = true
		rows = append(rows, r)
	}
	return rows, dropped
}
