package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/solvers/solverdef"
	"github.com/boardsat/boardsat/solvers/solverproc"
)

// Build is what a boardsat binary knows about its own making, from
// runtime/debug.ReadBuildInfo: the numbers a reader needs to rebuild the
// binary behind a table.
type Build struct {
	// Module is the main module's path, Version its version ("(devel)" for
	// a build from a checkout).
	Module, Version string
	// Commit is the git revision the binary was built from, "" when the
	// build did not stamp it (go run, go test, -buildvcs=false); Dirty
	// says the working tree had uncommitted changes; CommitTime is the
	// commit's time (RFC 3339).
	Commit     string
	Dirty      bool
	CommitTime string
	// GoVersion is the toolchain; Gophersat the version of the gophersat
	// module linked in.
	GoVersion, Gophersat string
}

// stampCommit is the commit make build stamps with -ldflags -X (git
// rev-parse HEAD, "+dirty" for uncommitted changes): the fallback for
// builds whose build information has no VCS settings (the go command finds
// no VCS in a git worktree).
var stampCommit string

// ReadBuild returns this binary's Build.
func ReadBuild() Build {
	b := Build{GoVersion: runtime.Version()}
	if c, dirty := strings.CutSuffix(stampCommit, "+dirty"); c != "" {
		b.Commit, b.Dirty = c, dirty
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Module, b.Version = bi.Main.Path, bi.Main.Version
	for _, d := range bi.Deps {
		if d.Path == "github.com/crillab/gophersat" {
			b.Gophersat = d.Version
		}
	}
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			b.Commit = kv.Value
		case "vcs.modified":
			b.Dirty = kv.Value == "true"
		case "vcs.time":
			b.CommitTime = kv.Value
		}
	}
	return b
}

// CommitLabel is the commit as recorded in rows and sidecars: the revision,
// with "+dirty" when the tree had uncommitted changes; "" when unknown.
func (b Build) CommitLabel() string {
	if b.Commit == "" {
		return ""
	}
	if b.Dirty {
		return b.Commit + "+dirty"
	}
	return b.Commit
}

// String is the text of "boardsat version" (and --version): one "key:
// value" line per field, the commit said to be unknown, with the remedy,
// when the build did not stamp it.
func (b Build) String() string {
	commit := b.CommitLabel()
	if commit == "" {
		commit = "unknown (built without VCS stamping, as go run and -buildvcs=false do: build with make build or go build -buildvcs=true)"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "boardsat %s\n", b.Version)
	fmt.Fprintf(&sb, "module:    %s\n", b.Module)
	fmt.Fprintf(&sb, "commit:    %s\n", commit)
	if b.CommitTime != "" {
		fmt.Fprintf(&sb, "committed: %s\n", b.CommitTime)
	}
	fmt.Fprintf(&sb, "go:        %s\n", b.GoVersion)
	fmt.Fprintf(&sb, "gophersat: %s\n", b.Gophersat)
	return sb.String()
}

// workTreeCommit returns git's HEAD in the working directory, with "+dirty"
// when tracked files have changes; "" outside a git checkout. It stands in
// for an unstamped build's commit (go run, go test), which is only right
// when the binary was built from that working directory.
func workTreeCommit() string {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += "+dirty"
	}
	return c
}

// governor returns the CPU frequency governors of the machine's cores
// (scaling_governor of every /sys/devices/system/cpu/cpu*), each named once
// in core order and joined by ","; "unknown" where the kernel does not say
// (a virtual machine often has no cpufreq).
func governor() string {
	return governorsIn("/sys/devices/system/cpu")
}

// governorsIn is governor on a sysfs cpu directory (the tests fake one).
func governorsIn(dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "cpu[0-9]*", "cpufreq", "scaling_governor"))
	cpu := func(f string) int {
		n, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(filepath.Dir(filepath.Dir(f))), "cpu"))
		return n
	}
	slices.SortFunc(files, func(a, b string) int { return cpu(a) - cpu(b) })
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if g := strings.TrimSpace(string(data)); err == nil && g != "" && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		return "unknown"
	}
	return strings.Join(out, ",")
}

// loadAverage returns the 1, 5 and 15 minute load averages (nil if
// unreadable).
func loadAverage() []float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	var out []float64
	for _, f := range strings.Fields(string(data))[:3] {
		x, _ := strconv.ParseFloat(f, 64)
		out = append(out, x)
	}
	return out
}

// SolverVersions returns the version string of every external solver
// boardsat can run (every solver definition's, minizinc's Gecode, cbc,
// glpsol), by solver name: see solverproc.Versions and
// solverdef.Def.VersionLine; "" for a solver not installed.
func SolverVersions() map[string]string {
	out := solverproc.Versions()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, d := range solverdef.All() {
		wg.Go(func() {
			v := d.VersionLine()
			mu.Lock()
			out[d.Name] = v
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// Definitions returns the definition of every external solver the runs
// of plan name (sat/NAME), in the order first named: its JSON, the sha256
// of its program and its version line.
func Definitions(plan []Run) []results.SolverDefinition {
	var out []results.SolverDefinition
	seen := map[string]bool{}
	for _, r := range plan {
		name := r.Variant.Value("solver")
		if r.Variant.Backend != "sat" || name == "" || seen[name] {
			continue
		}
		seen[name] = true
		d, ok := solverdef.Lookup(name)
		if !ok {
			continue
		}
		def := json.RawMessage(d.JSON)
		if !json.Valid(def) {
			continue
		}
		var compact bytes.Buffer
		if json.Compact(&compact, def) == nil {
			def = compact.Bytes()
		}
		out = append(out, results.SolverDefinition{Name: d.Name, Source: d.Source, Definition: def,
			ProgramSHA256: d.ProgramSHA256(), Version: d.VersionLine()})
	}
	return out
}

// Commit returns the commit of this binary's build (Build.CommitLabel),
// else, for an unstamped build (go run, go test), git's HEAD in the working
// directory; "" when neither is known.
func Commit() string {
	if c := ReadBuild().CommitLabel(); c != "" {
		return c
	}
	return workTreeCommit()
}
