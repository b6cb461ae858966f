package bench

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/harness/compare"
	"github.com/boardsat/boardsat/harness/measure"
	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/suites"
	"github.com/boardsat/boardsat/internal/cpuset"
	"github.com/boardsat/boardsat/internal/filelock"
	"github.com/boardsat/boardsat/internal/progress"
	"github.com/boardsat/boardsat/puzzle"
)

// Options configure a bench session.
type Options struct {
	Runner    Runner
	Overrides Overrides
	// Out is the results file; "" writes CSV to Stdout (no resume, no sidecar).
	Out    string
	Stdout io.Writer
	// Resume keeps the rows already in Out and skips their runs. Without
	// it (or Force) an Out that already holds a file is refused, so that no
	// results are lost to a repeated command line.
	Resume bool
	// Force starts Out afresh even when it exists (its rows and sidecar are
	// replaced).
	Force bool
	// Progress, if set, shows runs done of the runs to do (a live bar on a
	// terminal, a plain line every few seconds elsewhere).
	Progress *progress.Meter
	// Shard, if not whole, runs only its deterministic share of the plan
	// (see ShardPlan); the shards' CSVs together hold the whole suite.
	Shard puzzle.Shard
	// CommandLine is recorded in the sidecar.
	CommandLine []string
	// Jobs is how many runs go at once (0 or 1: one at a time), each
	// pinned to its own share of CPUs (see Slots): with more than one job
	// and no CPUs, the available cores are shared out.
	Jobs int
	CPUs []int
	// Warn, if set, receives one-line warnings at the start of the
	// session (a binary built without its commit).
	Warn io.Writer
}

// Summary tells what a session did.
type Summary struct {
	// Planned counts the runs of the plan, Kept those already in the file
	// (--resume: not run again), Done the rows written, of status skipped
	// too (a ladder stopped before them: Statuses counts them apart).
	Planned, Kept, Done int
	// Unsupported lists the variants left out because they refuse a
	// group's puzzle or task ("VARIANT on PUZZLE TASK: reason").
	Unsupported []string
	// Statuses counts the rows written by status.
	Statuses map[string]int
	// Refused counts the rows among Statuses["error"] whose backend refused
	// the instance (bad input for it, such as a board beyond the brute
	// force's limit): no answer, and no failure of the backend's.
	Refused int
	// Interrupted is set when ctx was cancelled before the end.
	Interrupted bool
}

// sink takes finished rows.
type sink interface {
	Add(results.Row) error
}

type csvSink struct{ w *csv.Writer }

func (s csvSink) Add(r results.Row) error {
	s.w.Write(r.Record())
	s.w.Flush()
	return s.w.Error()
}

// Bench runs the suite. Rows are written as runs finish; on ctx
// cancellation the run in progress is killed and dropped, every finished
// row is kept, and Summary.Interrupted is set.
//
// Nothing of the harness's own work runs beside a measured run that it
// can put before the first run or after the last: the solvers' version
// probes and the machine's description are done before the first run
// starts, the sidecar's last write after the last run ends.
func Bench(ctx context.Context, s suites.Suite, o Options) (sum Summary, err error) {
	defer func() {
		// A row that did not fit: the file ends at its last whole row.
		var we *results.WriteError
		if errors.As(err, &we) {
			err = fmt.Errorf("%w; finish with the same command and --resume once there is space", err)
		}
	}()
	b := &session{ctx: ctx, s: s, o: o, sum: Summary{Statuses: map[string]int{}}, commit: Commit()}
	closeOut, err := b.open()
	if err != nil {
		return b.sum, err
	}
	defer func() { closeOut(&err) }()
	if w := ReadBuild().Warning(); w != "" && o.Warn != nil {
		fmt.Fprintf(o.Warn, "boardsat bench: %s\n", w)
	}
	err = b.run()
	return b.sum, err
}

// session is one bench invocation: the suite and options, the output, and
// the ladder, judging and scheduling state its runs share.
type session struct {
	ctx    context.Context
	s      suites.Suite
	o      Options
	sum    Summary
	commit string

	// The output: the rows already there (--resume), where new rows go,
	// and the sidecar as written.
	existing []results.Row
	out      sink
	meta     results.Meta
	// probes delivers the external solvers' versions (nil without a
	// sidecar); versions holds them once received.
	probes   chan map[string]string
	versions map[string]string

	// stopped maps a ladder group and variant to the spec it stopped at.
	stopped map[string]string
	at      specIndex
	jq      *judgeQueue
	todo    int

	// The runs in flight: free slots (cores), finished runs, runs per
	// ladder key, and the first error writing a row.
	slots    [][]int
	fin      chan finished
	inFlight map[string]int
	running  int
	werr     error
}

// finished is a run that ended, with the slot it ran in.
type finished struct {
	row  results.Row
	run  Run
	ok   bool
	slot []int
}

// open opens the output: CSV on Stdout, or the results file under its lock
// with its sidecar. It starts the solvers' version probes, and returns
// what closes the output: the sidecar's last write (how the session ended,
// *errp), then the file and its lock.
func (b *session) open() (closeOut func(errp *error), err error) {
	o := &b.o
	if o.Out == "" {
		if o.Resume {
			return nil, fmt.Errorf("--resume needs an output file (-o FILE.csv)")
		}
		cw := csv.NewWriter(o.Stdout)
		cw.Write(results.Columns)
		b.out = csvSink{cw}
		return func(*error) {}, nil
	}
	if o.Resume && o.Force {
		return nil, fmt.Errorf("--resume keeps %s and --force replaces it: give one of them", o.Out)
	}
	// One writer per results file and its sidecar, for the whole session,
	// whatever name or link reaches the file (package filelock); the file
	// is written under its own name.
	lock, err := filelock.Acquire(o.Out)
	if err != nil {
		return nil, err
	}
	var undo []func() // run last first, on failure or at the close
	release := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	undo = append(undo, func() { lock.Release() })
	o.Out = lock.Path()
	if !o.Resume {
		if err := refuseOverwrite(lock, o.Force); err != nil {
			release()
			return nil, err
		}
	}
	// A start that fails (a name too long for the sidecar, a disk full
	// before the first row) leaves nothing behind in a file that held
	// nothing: no header-only CSV, no sidecar that never ended, so the
	// same command can run again.
	fresh := fileSize(lock.File()) == 0
	_, metaErr := os.Lstat(results.MetaPath(o.Out))
	started := false
	undo = append(undo, func() {
		if !started && fresh {
			lock.File().Truncate(0)
			if metaErr != nil {
				os.Remove(results.MetaPath(o.Out))
			}
		}
	})
	app, rows, err := results.OpenAppend(o.Out)
	if err != nil {
		release()
		return nil, err
	}
	undo = append(undo, func() { app.Close() })
	b.existing, b.out = rows, app
	// The solvers' versions take a second or more (dpkg-query): probed
	// while the session plans, waited for before the first run.
	b.probes = make(chan map[string]string, 1)
	go func() { b.probes <- SolverVersions() }()
	if b.meta, err = writeMeta(lock, *o, b.s, MachineSession()); err != nil {
		release()
		return nil, err
	}
	reserve := ""
	closeOut = func(errp *error) {
		if reserve != "" {
			os.Remove(reserve)
		}
		finishMeta(lock, &b.meta, b.solverVersions(), b.sum, errp)
		release()
	}
	// Room kept for the sidecar's last write, which says how the session
	// ended, also when the disk fills up with rows.
	if reserve, err = results.ReserveMeta(lock, b.meta, o.Resume || o.Force); err != nil {
		reserve = ""
		closeOut(&err)
		return nil, err
	}
	started = true
	return closeOut, nil
}

// solverVersions waits for the version probes (nil without a sidecar).
func (b *session) solverVersions() map[string]string {
	if b.probes != nil {
		b.versions, b.probes = <-b.probes, nil
	}
	return b.versions
}

// run plans the suite and runs what is not in the file yet.
func (b *session) run() error {
	done := map[string]bool{}
	for _, r := range b.existing {
		done[r.Key()] = true
	}
	plan, unsupported := Plan(progress.WithNote(b.ctx, b.o.Progress), b.s, b.o.Overrides)
	plan = ShardPlan(b.s, plan, b.o.Shard)
	if b.o.Out != "" {
		b.meta.Sessions[len(b.meta.Sessions)-1].Definitions = Definitions(plan)
	}
	b.sum.Planned, b.sum.Unsupported = len(plan), unsupported
	b.resumeLadders()
	b.jq = newJudgeQueue(b.ctx, b.existing)
	for _, r := range plan {
		if !done[r.Key()] {
			b.todo++
			b.jq.expect(r)
		}
	}
	var err error
	if b.slots, err = cpuset.Slots(max(b.o.Jobs, 1), b.o.CPUs); err != nil {
		return err
	}
	b.fin, b.inFlight = make(chan finished), map[string]int{}
	// Every probe has ended before the first measured run starts.
	b.solverVersions()
	for _, r := range plan {
		if done[r.Key()] {
			b.sum.Kept++
			continue
		}
		if b.ctx.Err() != nil || b.sum.Interrupted || b.werr != nil {
			b.sum.Interrupted = b.sum.Interrupted || b.ctx.Err() != nil
			break
		}
		if err := b.dispatch(r); err != nil {
			return err
		}
		if b.sum.Interrupted {
			break
		}
	}
	for b.running > 0 {
		b.collect()
	}
	if b.werr != nil {
		return b.werr
	}
	// Rows still waiting for a majority (an interrupted run): judged on
	// the answers there are.
	if err := b.write(b.jq.flush()); err != nil {
		return err
	}
	b.o.Progress.Update(b.sum.Done, b.todo, "")
	b.o.Progress.Finish()
	return nil
}

// resumeLadders stops the ladders that the rows already in the file
// stopped: a variant that timed out (or ran out of memory) on a spec is
// not run on that group's later specs.
func (b *session) resumeLadders() {
	b.stopped, b.at = map[string]string{}, newSpecIndex(b.s)
	for _, r := range b.existing {
		if r.Status != results.StatusTimeout && r.Status != results.StatusMemout {
			continue
		}
		for gi, g := range b.s.Groups {
			// A row of another task (the same variant's optimum beside its
			// count) stops nothing here.
			if i, ok := b.at.of(gi, r.Instance); ok && g.Ladder && r.Task == string(b.at.task(gi, i)) {
				noteStop(b.stopped, b.at, gi, r.Variant, r.Instance)
			}
		}
	}
}

// dispatch starts run r in a free slot (waiting for one), or writes it as
// skipped when its ladder has stopped. A ladder run first waits for the
// runs of its group and variant in flight, whose timeout would stop it.
func (b *session) dispatch(r Run) error {
	key := stopKey(r.Group, r.VariantName())
	ladder := b.s.Groups[r.Group].Ladder
	for ladder && b.inFlight[key] > 0 {
		b.collect()
	}
	if stop, ok := b.stopped[key]; ok && ladder && b.at.index(r.Group, r.Spec.String()) > b.at.index(r.Group, stop) {
		row := newRow(r)
		row.Status, row.Message = results.StatusSkipped, results.NotRunMessage("ladder stopped after a timeout or memout on "+stop)
		return b.write(b.jq.add(row, r))
	}
	for len(b.slots) == 0 {
		b.collect()
	}
	if b.sum.Interrupted {
		return nil
	}
	slot := b.slots[len(b.slots)-1]
	b.slots = b.slots[:len(b.slots)-1]
	b.running++
	b.inFlight[key]++
	b.o.Progress.Update(b.sum.Done, b.todo, r.Spec.String()+" "+r.VariantName())
	go func(r Run, rn Runner) {
		rn.CPUs = slot
		row, ok := rn.Exec(b.ctx, r)
		b.fin <- finished{row, r, ok, slot}
	}(r, b.o.Runner)
	return nil
}

// collect waits for a run to finish, frees its slot, notes a ladder's stop
// and writes the rows the judge releases.
func (b *session) collect() {
	f := <-b.fin
	b.running--
	b.inFlight[stopKey(f.run.Group, f.run.VariantName())]--
	b.slots = append(b.slots, f.slot)
	if !f.ok {
		b.sum.Interrupted = true
		return
	}
	if b.s.Groups[f.run.Group].Ladder && (f.row.Status == results.StatusTimeout || f.row.Status == results.StatusMemout) {
		noteStop(b.stopped, b.at, f.run.Group, f.row.Variant, f.row.Instance)
	}
	if err := b.write(b.jq.add(f.row, f.run)); err != nil && b.werr == nil {
		b.werr = err
	}
	b.o.Progress.Update(b.sum.Done, b.todo, "")
}

// write adds judged rows to the output and counts them.
func (b *session) write(rows []results.Row) error {
	for _, row := range rows {
		row.Commit = b.commit
		if err := b.out.Add(row); err != nil {
			return err
		}
		b.sum.Done++
		b.sum.Statuses[row.Status]++
		if row.Refused() {
			b.sum.Refused++
		}
	}
	return nil
}

// refuseOverwrite empties the locked output file when force is set, and
// otherwise refuses it if it holds anything (an empty file is no loss and
// is started afresh). The file is emptied, not removed: the lock is the
// file's, and a new file in its place would be unlocked.
func refuseOverwrite(lock *filelock.Lock, force bool) error {
	switch {
	case fileSize(lock.File()) == 0:
		return nil
	case !force:
		return fmt.Errorf("%s already exists: add --resume to continue it or --force to replace it", lock.Path())
	}
	return lock.File().Truncate(0)
}

// fileSize is the size of an open file (0 if it cannot be read).
func fileSize(f *os.File) int64 {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	return fi.Size()
}

func stopKey(group int, variant string) string { return strconv.Itoa(group) + "\x00" + variant }

// noteStop records that variant stopped at instance in group (index into
// the suite's groups): the ladder's first stop, the smallest spec index of
// those noted.
func noteStop(stopped map[string]string, at specIndex, group int, variant, instance string) {
	k := stopKey(group, variant)
	if old, ok := stopped[k]; !ok || at.index(group, instance) < at.index(group, old) {
		stopped[k] = instance
	}
}

// specIndex finds a spec among its group's specs in constant time (a
// ladder's order), so that planning and resuming stay linear in the runs.
type specIndex struct {
	s     suites.Suite
	where []map[string]int // per group: canonical spec -> its first index
}

func newSpecIndex(s suites.Suite) specIndex {
	x := specIndex{s: s, where: make([]map[string]int, len(s.Groups))}
	for gi, g := range s.Groups {
		m := make(map[string]int, len(g.Specs))
		for i, sp := range g.Specs {
			if _, dup := m[sp.String()]; !dup {
				m[sp.String()] = i
			}
		}
		x.where[gi] = m
	}
	return x
}

// of returns the index of spec in group, and whether it is there.
func (x specIndex) of(group int, spec string) (int, bool) {
	i, ok := x.where[group][spec]
	return i, ok
}

// index returns the index of spec in group, or the number of the group's
// specs when it is not there.
func (x specIndex) index(group int, spec string) int {
	if i, ok := x.of(group, spec); ok {
		return i
	}
	return len(x.s.Groups[group].Specs)
}

// task returns the task of the group's i-th spec: the group's, or the
// spec's puzzle's default.
func (x specIndex) task(group, i int) puzzle.Task {
	if t := x.s.Groups[group].Task; t != "" {
		return t
	}
	return puzzle.DefaultTask(x.s.Groups[group].Specs[i])
}

// rowValue is a row's answer in compare's comparable form ("" if none).
func rowValue(r results.Row) string {
	if !r.Solved() {
		return ""
	}
	ans := puzzle.Answer{Status: puzzle.Status(r.Status), Count: r.Answer, Big: r.AnswerBig, Length: int(r.Answer)}
	if puzzle.Task(r.Task) == puzzle.Value {
		// The row holds the value as points (puzzle.GamePoints).
		ans.GameValue, _ = puzzle.GameValueOf(r.Answer)
	}
	return compare.ValueOf(puzzle.Task(r.Task), ans)
}

// ShardPlan returns shard's deterministic share of a suite's plan. The
// plan is cut into units, numbered in plan order: in a ladder group, all
// runs of one variant (so a timeout stops that variant's later specs as in
// a whole run); elsewhere, each run. Unit i belongs to shard i mod N + 1.
func ShardPlan(s suites.Suite, plan []Run, shard puzzle.Shard) []Run {
	if shard.Whole() {
		return plan
	}
	unit := map[string]int{}
	var out []Run
	for i, r := range plan {
		k := "run\x00" + strconv.Itoa(i)
		if s.Groups[r.Group].Ladder {
			k = "ladder\x00" + stopKey(r.Group, r.VariantName())
		}
		id, ok := unit[k]
		if !ok {
			id = len(unit)
			unit[k] = id
		}
		if shard.Has(id) {
			out = append(out, r)
		}
	}
	return out
}

// writeMeta adds this session to the output's metadata sidecar, under the
// output's lock, and returns the sidecar as written. A sidecar already
// there is replaced only with --resume or --force.
func writeMeta(lock *filelock.Lock, o Options, s suites.Suite, sess results.Session) (results.Meta, error) {
	var m results.Meta
	if o.Resume {
		old, ok, err := results.ReadMeta(o.Out)
		if err != nil {
			return m, err
		}
		if ok {
			m = old
		}
	}
	sess.CommandLine = o.CommandLine
	sess.Suite = s.Name
	if o.Overrides.Timeout > 0 {
		sess.Timeout = o.Overrides.Timeout.String()
	}
	if o.Overrides.CPULimit > 0 {
		sess.CPULimit = o.Overrides.CPULimit.String()
	}
	sess.MemMB = o.Overrides.MemMB
	sess.Repeat = o.Overrides.Repeat
	if mt, err := measure.New(o.Runner.Measure); err == nil {
		sess.MeasuredBy = mt.Method()
		mt.Close()
	}
	sess.Jobs = max(o.Jobs, 1)
	if slots, err := cpuset.Slots(sess.Jobs, o.CPUs); err == nil {
		for _, sl := range slots {
			if len(sl) > 0 {
				sess.Pinning = append(sess.Pinning, cpuset.Format(sl))
			}
		}
	}
	m.Sessions = append(m.Sessions, sess)
	return m, results.WriteMeta(lock, m, o.Resume || o.Force)
}

// finishMeta records the end of the session (time, how it ended, load
// average) and the solvers' versions in the sidecar.
func finishMeta(lock *filelock.Lock, m *results.Meta, versions map[string]string, sum Summary, errp *error) {
	last := &m.Sessions[len(m.Sessions)-1]
	last.End = time.Now().UTC().Format(time.RFC3339)
	switch {
	case *errp != nil:
		last.Ended = "failed: " + (*errp).Error()
	case sum.Interrupted:
		last.Ended = "interrupted"
	default:
		last.Ended = "completed"
	}
	last.LoadAfter = loadAverage()
	last.Solvers = versions
	results.WriteMeta(lock, *m, true)
}

// MachineSession describes this machine and build: CPU model, cores,
// memory, OS, kernel, frequency governor, load average, Go version,
// gophersat and module versions and git commit (Commit: buildinfo.Unknown
// for a build without one), host name and the date. (Bench adds the external solvers' versions,
// SolverVersions, at the end of the session.)
func MachineSession() results.Session {
	s := results.Session{
		Date: time.Now().UTC().Format(time.RFC3339), Cores: runtime.NumCPU(),
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, GoVersion: runtime.Version(),
	}
	s.CPU = procField("/proc/cpuinfo", "model name")
	if mem := procField("/proc/meminfo", "MemTotal"); mem != "" {
		s.MemoryKB, _ = strconv.ParseInt(strings.Fields(mem)[0], 10, 64)
	}
	if data, err := os.ReadFile("/etc/os-release"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
				s.OS = strings.Trim(v, `"`)
			}
		}
	}
	if s.OS == "" {
		s.OS = runtime.GOOS
	}
	if data, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		s.Kernel = strings.TrimSpace(string(data))
	}
	s.Hostname, _ = os.Hostname()
	b := ReadBuild()
	s.Gophersat, s.GitCommit, s.ModuleVersion = b.Gophersat, Commit(), b.Version
	s.Governor = governor()
	s.LoadBefore = loadAverage()
	return s
}

// procField returns the value of the first "key : value" line of a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
