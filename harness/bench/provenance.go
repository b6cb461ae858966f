package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/internal/buildinfo"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
	"github.com/boardsat/boardsat/solvers/solverproc"
)

// ReadBuild returns this binary's build identity (internal/buildinfo):
// what boardsat version prints and whose commit rows and sidecars record.
func ReadBuild() buildinfo.Build { return buildinfo.Read() }

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
// of plan name (a backend whose solvers are definitions, such as sat/NAME),
// in the order first named: its JSON, the sha256
// of its program and its version line.
func Definitions(plan []Run) []results.SolverDefinition {
	var out []results.SolverDefinition
	seen := map[string]bool{}
	for _, r := range plan {
		name := r.Variant.Value("solver")
		if !puzzle.TakesSolverDefinitions(r.Variant.Backend) || name == "" || seen[name] {
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

// Commit returns the commit recorded in rows and sidecars: the build's
// (buildinfo.Build.CommitLabel), buildinfo.Unknown when the binary was
// built without one. It is never guessed from the working directory, which
// need not be the checkout the binary was built from.
func Commit() string { return ReadBuild().CommitLabel() }
