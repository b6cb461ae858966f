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
}

// Summary tells what a session did.
type Summary struct {
	Planned, Skipped, Done int
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
func Bench(ctx context.Context, s suites.Suite, o Options) (sum Summary, err error) {
	errp := &err
	defer func() {
		// A row that did not fit: the file ends at its last whole row.
		var we *results.WriteError
		if errors.As(err, &we) {
			err = fmt.Errorf("%w; finish with the same command and --resume once there is space", err)
		}
	}()
	sum = Summary{Statuses: map[string]int{}}
	commit := Commit()
	var meta results.Meta
	var out sink
	var existing []results.Row
	if o.Out == "" {
		if o.Resume {
			return sum, fmt.Errorf("--resume needs an output file (-o FILE.csv)")
		}
		cw := csv.NewWriter(o.Stdout)
		cw.Write(results.Columns)
		out = csvSink{cw}
	} else {
		if o.Resume && o.Force {
			return sum, fmt.Errorf("--resume keeps %s and --force replaces it: give one of them", o.Out)
		}
		// One writer per results file and its sidecar, for the whole
		// session, whatever name or link reaches the file (package
		// filelock); the file is written under its own name.
		lock, err := filelock.Acquire(o.Out)
		if err != nil {
			return sum, err
		}
		defer lock.Release()
		o.Out = lock.Path()
		if !o.Resume {
			if err := refuseOverwrite(lock, o.Force); err != nil {
				return sum, err
			}
		}
		// A start that fails (a name too long for the sidecar, a disk
		// full before the first row) leaves nothing behind in a file that
		// held nothing: no header-only CSV, no sidecar that never ended,
		// so the same command can run again.
		fresh := fileSize(lock.File()) == 0
		_, metaErr := os.Lstat(results.MetaPath(o.Out))
		started := false
		defer func() {
			if !started && fresh {
				lock.File().Truncate(0)
				if metaErr != nil {
					os.Remove(results.MetaPath(o.Out))
				}
			}
		}()
		app, rows, err := results.OpenAppend(o.Out)
		if err != nil {
			return sum, err
		}
		defer app.Close()
		existing, out = rows, app
		// The solvers' versions take a second or more (dpkg-query): found
		// while the runs go, recorded at the end.
		versions := make(chan map[string]string, 1)
		go func() { versions <- SolverVersions() }()
		if meta, err = writeMeta(lock, o, s, MachineSession()); err != nil {
			return sum, err
		}
		reserve := ""
		defer func() {
			if reserve != "" {
				os.Remove(reserve)
			}
			finishMeta(lock, &meta, versions, sum, errp)
		}()
		// Room kept for the sidecar's last write, which says how the
		// session ended, also when the disk fills up with rows.
		if reserve, err = results.ReserveMeta(lock, meta, o.Resume || o.Force); err != nil {
			reserve = ""
			return sum, err
		}
		started = true
	}
	done := map[string]bool{}
	for _, r := range existing {
		done[r.Key()] = true
	}
	plan, unsupported := Plan(progress.WithNote(ctx, o.Progress), s, o.Overrides)
	plan = ShardPlan(s, plan, o.Shard)
	if o.Out != "" {
		meta.Sessions[len(meta.Sessions)-1].Definitions = Definitions(plan)
	}
	sum.Planned, sum.Unsupported = len(plan), unsupported
	// Ladder groups: a variant that timed out (or ran out of memory) on a
	// spec is not run on that group's later specs.
	stopped := map[string]string{} // group + variant -> spec it stopped at
	at := newSpecIndex(s)
	for _, r := range existing {
		if r.Status != results.StatusTimeout && r.Status != results.StatusMemout {
			continue
		}
		for gi, g := range s.Groups {
			// A row of another task (the same variant's optimum beside its
			// count) stops nothing here.
			if i, ok := at.of(gi, r.Instance); ok && g.Ladder && r.Task == string(at.task(gi, i)) {
				noteStop(stopped, at, gi, r.Variant, r.Instance)
			}
		}
	}
	todo := 0
	jq := newJudgeQueue(ctx, existing)
	for _, r := range plan {
		if !done[r.Key()] {
			todo++
			jq.expect(r)
		}
	}
	write := func(rows []results.Row) error {
		for _, row := range rows {
			row.Commit = commit
			if err := out.Add(row); err != nil {
				return err
			}
			sum.Done++
			sum.Statuses[row.Status]++
			if row.Refused() {
				sum.Refused++
			}
		}
		return nil
	}
	slots, err := Slots(max(o.Jobs, 1), o.CPUs)
	if err != nil {
		return sum, err
	}
	// Runs go to free slots (one at a time by default); a ladder run
	// waits for the runs of its group and variant in flight, whose
	// timeout would stop it.
	type finished struct {
		row  results.Row
		run  Run
		ok   bool
		slot []int
	}
	fin := make(chan finished)
	inFlight := map[string]int{} // stopKey -> runs running
	running := 0
	var werr error
	collect := func() {
		f := <-fin
		running--
		inFlight[stopKey(f.run.Group, f.run.VariantName())]--
		slots = append(slots, f.slot)
		if !f.ok {
			sum.Interrupted = true
			return
		}
		if s.Groups[f.run.Group].Ladder && (f.row.Status == results.StatusTimeout || f.row.Status == results.StatusMemout) {
			noteStop(stopped, at, f.run.Group, f.row.Variant, f.row.Instance)
		}
		if err := write(jq.add(f.row, f.run)); err != nil && werr == nil {
			werr = err
		}
		o.Progress.Update(sum.Done, todo, "")
	}
	for _, r := range plan {
		if done[r.Key()] {
			sum.Skipped++
			continue
		}
		if ctx.Err() != nil || sum.Interrupted || werr != nil {
			sum.Interrupted = sum.Interrupted || ctx.Err() != nil
			break
		}
		key := stopKey(r.Group, r.VariantName())
		for s.Groups[r.Group].Ladder && inFlight[key] > 0 {
			collect()
		}
		if stop, ok := stopped[key]; ok && s.Groups[r.Group].Ladder && at.index(r.Group, r.Spec.String()) > at.index(r.Group, stop) {
			row := newRow(r)
			row.Status, row.Message = results.StatusTimeout, results.NotRunMessage("ladder stopped after a timeout or memout on "+stop)
			if err := write(jq.add(row, r)); err != nil {
				return sum, err
			}
			continue
		}
		for len(slots) == 0 {
			collect()
		}
		if sum.Interrupted {
			break
		}
		slot := slots[len(slots)-1]
		slots = slots[:len(slots)-1]
		running++
		inFlight[key]++
		o.Progress.Update(sum.Done, todo, r.Spec.String()+" "+r.VariantName())
		go func(r Run, rn Runner) {
			rn.CPUs = slot
			row, ok := rn.Exec(ctx, r)
			fin <- finished{row, r, ok, slot}
		}(r, o.Runner)
	}
	for running > 0 {
		collect()
	}
	if werr != nil {
		return sum, werr
	}
	// Rows still waiting for a majority (an interrupted run): judged on
	// the answers there are.
	if err := write(jq.flush()); err != nil {
		return sum, err
	}
	o.Progress.Update(sum.Done, todo, "")
	o.Progress.Finish()
	return sum, nil
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
	if slots, err := Slots(sess.Jobs, o.CPUs); err == nil {
		for _, sl := range slots {
			if len(sl) > 0 {
				sess.Pinning = append(sess.Pinning, FormatCPUs(sl))
			}
		}
	}
	m.Sessions = append(m.Sessions, sess)
	return m, results.WriteMeta(lock, m, o.Resume || o.Force)
}

// finishMeta records the end of the session (time, how it ended, load
// average) and the solvers' versions in the sidecar.
func finishMeta(lock *filelock.Lock, m *results.Meta, versions <-chan map[string]string, sum Summary, errp *error) {
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
	last.Solvers = <-versions
	results.WriteMeta(lock, *m, true)
}

// MachineSession describes this machine and build: CPU model, cores,
// memory, OS, kernel, frequency governor, load average, Go version,
// gophersat and module versions and git commit (from the build information;
// an unstamped build's commit from git rev-parse in the working directory),
// host name and the date. (Bench adds the external solvers' versions,
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
