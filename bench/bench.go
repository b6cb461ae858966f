package bench

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/atomicfile"
	"github.com/boardsat/boardsat/compare"
	"github.com/boardsat/boardsat/progress"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/results"
)

// Options configure a bench session.
type Options struct {
	Runner    Runner
	Overrides Overrides
	// Out is the results file; "" writes CSV to Stdout (no resume, no sidecar).
	Out    string
	Stdout io.Writer
	// Resume keeps the rows already in Out and skips their runs; without
	// it Out is started afresh.
	Resume bool
	// Progress, if set, shows runs done of the runs to do (a live bar on a
	// terminal, a plain line every few seconds elsewhere).
	Progress *progress.Meter
	// Shard, if not whole, runs only its deterministic share of the plan
	// (see ShardPlan); the shards' CSVs together hold the whole suite.
	Shard puzzle.Shard
	// CommandLine is recorded in the sidecar.
	CommandLine []string
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
func Bench(ctx context.Context, s Suite, o Options) (Summary, error) {
	sum := Summary{Statuses: map[string]int{}}
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
		if !o.Resume {
			if err := os.Remove(o.Out); err != nil && !os.IsNotExist(err) {
				return sum, err
			}
		}
		app, rows, err := results.OpenAppend(o.Out)
		if err != nil {
			return sum, err
		}
		defer app.Close()
		existing, out = rows, app
		if err := writeMeta(o, s); err != nil {
			return sum, err
		}
	}
	done := map[string]bool{}
	for _, r := range existing {
		done[r.Key()] = true
	}
	plan, unsupported := s.Plan(ctx, o.Overrides)
	plan = ShardPlan(s, plan, o.Shard)
	sum.Planned, sum.Unsupported = len(plan), unsupported
	// Ladder groups: a variant that timed out (or ran out of memory) on a
	// spec is not run on that group's later specs.
	stopped := map[string]string{} // group + variant -> spec it stopped at
	groupSpecIndex := func(r Run) int {
		for i, sp := range s.Groups[r.Group].Specs {
			if sp.String() == r.Spec.String() {
				return i
			}
		}
		return -1
	}
	for _, r := range existing {
		for gi, g := range s.Groups {
			if g.Ladder && (r.Status == results.StatusTimeout || r.Status == results.StatusMemout) {
				for _, sp := range g.Specs {
					if sp.String() == r.Instance {
						noteStop(stopped, gi, r.Variant, r.Instance)
					}
				}
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
			if err := out.Add(row); err != nil {
				return err
			}
			sum.Done++
			sum.Statuses[row.Status]++
			if row.Status == results.StatusError && strings.HasPrefix(row.Message, refusedPrefix) {
				sum.Refused++
			}
		}
		return nil
	}
	for _, r := range plan {
		if done[r.Key()] {
			sum.Skipped++
			continue
		}
		if ctx.Err() != nil {
			sum.Interrupted = true
			break
		}
		o.Progress.Update(sum.Done, todo, r.Spec.String()+" "+r.Variant.String())
		var row results.Row
		if at, ok := stopped[stopKey(r.Group, r.Variant.String())]; ok && s.Groups[r.Group].Ladder && groupSpecIndex(r) > specIndex(s.Groups[r.Group], at) {
			row = results.Row{Time: time.Now().UTC(), Instance: r.Spec.String(), Puzzle: r.Spec.Puzzle(),
				Squares: puzzle.BoardOf(r.Spec).Size(), Variant: r.Variant.String(), Backend: r.Variant.Backend,
				Task: string(r.Task), Rep: r.Rep, Status: results.StatusTimeout,
				Message: "not run: ladder stopped after a timeout or memout on " + at}
		} else {
			var ok bool
			row, ok = o.Runner.Exec(ctx, r)
			if !ok {
				sum.Interrupted = true
				break
			}
			if s.Groups[r.Group].Ladder && (row.Status == results.StatusTimeout || row.Status == results.StatusMemout) {
				noteStop(stopped, r.Group, row.Variant, row.Instance)
			}
		}
		if err := write(jq.add(row, r)); err != nil {
			return sum, err
		}
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

func stopKey(group int, variant string) string { return strconv.Itoa(group) + "\x00" + variant }

func noteStop(stopped map[string]string, group int, variant, instance string) {
	if _, ok := stopped[stopKey(group, variant)]; !ok {
		stopped[stopKey(group, variant)] = instance
	}
}

func specIndex(g Group, spec string) int {
	for i, sp := range g.Specs {
		if sp.String() == spec {
			return i
		}
	}
	return len(g.Specs)
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
func ShardPlan(s Suite, plan []Run, shard puzzle.Shard) []Run {
	if shard.Whole() {
		return plan
	}
	unit := map[string]int{}
	var out []Run
	for i, r := range plan {
		k := "run\x00" + strconv.Itoa(i)
		if s.Groups[r.Group].Ladder {
			k = "ladder\x00" + stopKey(r.Group, r.Variant.String())
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

// writeMeta adds this session to the output's metadata sidecar.
func writeMeta(o Options, s Suite) error {
	var m results.Meta
	if o.Resume {
		old, ok, err := results.ReadMeta(o.Out)
		if err != nil {
			return err
		}
		if ok {
			m = old
		}
	}
	sess := MachineSession()
	sess.CommandLine = o.CommandLine
	sess.Suite = s.Name
	if o.Overrides.Timeout > 0 {
		sess.Timeout = o.Overrides.Timeout.String()
	}
	sess.MemMB = o.Overrides.MemMB
	sess.Repeat = o.Overrides.Repeat
	m.Sessions = append(m.Sessions, sess)
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(results.MetaPath(o.Out), func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}

// MachineSession describes this machine and build: CPU model, cores,
// memory, OS, kernel, Go version, gophersat version (from the build
// information), git commit (build information, else git rev-parse in the
// working directory), host name and the date.
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
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/crillab/gophersat" {
				s.Gophersat = d.Version
			}
		}
		for _, kv := range bi.Settings {
			if kv.Key == "vcs.revision" {
				s.GitCommit = kv.Value
			}
		}
	}
	if s.GitCommit == "" {
		if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
			s.GitCommit = strings.TrimSpace(string(out))
			if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
				s.GitCommit += "+dirty"
			}
		}
	}
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
