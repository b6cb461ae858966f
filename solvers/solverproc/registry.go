package solverproc

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
)

// External is one external solver boardsat can run, as named by --solver.
type External struct {
	// Name is the solver's name (gecode, cbc, ...).
	Name string
	// Backend is the backend that runs it (cp, mip).
	Backend string
	// Binary is the executable run.
	Binary string
	// Version, if set, describes the installed version; nil uses
	// BinaryVersion(Binary).
	Version func() string
}

var (
	mu        sync.Mutex
	externals []External
)

// Register adds an external solver to the list that Externals returns
// (bench records each one's version in its sidecar); the packages that
// run them call it from init. A second solver of one name panics, as every
// registry does (puzzle.Registry): a clash is a programming error.
func Register(x External) {
	mu.Lock()
	defer mu.Unlock()
	if slices.ContainsFunc(externals, func(e External) bool { return e.Name == x.Name }) {
		panic(fmt.Sprintf("external solver %q registered twice", x.Name))
	}
	externals = append(externals, x)
}

// Externals returns every registered external solver, sorted by name.
func Externals() []External {
	mu.Lock()
	defer mu.Unlock()
	out := slices.Clone(externals)
	slices.SortFunc(out, func(a, b External) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Available reports why solver cannot run here (its binary is not on
// PATH), or nil; a solver without a binary ("") runs in-process and is
// always available.
func Available(solver, binary string) error {
	if binary == "" {
		return nil
	}
	if _, err := exec.LookPath(binary); err != nil {
		return fmt.Errorf("solver %s needs the binary %q, which is not on PATH", solver, binary)
	}
	return nil
}

// Versions returns the version of every registered external solver by
// name ("" for one not installed), all looked up at once.
func Versions() map[string]string {
	out := map[string]string{}
	var wg sync.WaitGroup
	var omu sync.Mutex
	for _, x := range Externals() {
		wg.Go(func() {
			v := ""
			if _, err := exec.LookPath(x.Binary); err == nil {
				if x.Version != nil {
					v = x.Version()
				} else {
					v = BinaryVersion(x.Binary)
				}
			}
			omu.Lock()
			out[x.Name] = v
			omu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// BinaryVersion describes an installed binary's version: the first line
// its --version prints (when it prints one), with the Debian package's
// version when dpkg knows the binary; "" when the binary is not on PATH.
func BinaryVersion(name string) string {
	path, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	var parts []string
	if data, err := Probe(path, "--version"); err == nil || len(data) > 0 {
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		first := strings.TrimSpace(strings.TrimPrefix(lines[0], "c "))
		if !strings.ContainsAny(first, "0123456789") {
			// A banner first (cbc: "Welcome to the CBC MILP Solver"): add
			// the first "Version" line with a number, if one follows soon.
			for _, l := range lines[1:min(len(lines), 6)] {
				l = strings.TrimSpace(l)
				if strings.Contains(strings.ToLower(l), "version") && strings.ContainsAny(l, "0123456789") {
					first += " " + l
					break
				}
			}
		}
		low := strings.ToLower(first)
		if first != "" && !strings.Contains(low, "error") && !strings.Contains(low, "unknown") && !strings.Contains(low, "invalid") && len(first) < 120 {
			parts = append(parts, first)
		}
	}
	if pkg := DebianPackage(path); pkg != "" {
		parts = append(parts, pkg)
	}
	if len(parts) == 0 {
		return "installed, version unknown"
	}
	return strings.Join(parts, " ")
}

// DebianPackage returns "(debian PACKAGE VERSION)" for the package that
// owns the file at path, or "" when dpkg does not know it.
func DebianPackage(path string) string {
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		return ""
	}
	owner, err := Probe("dpkg-query", "-S", path)
	if err != nil {
		return ""
	}
	pkg, _, _ := strings.Cut(strings.TrimSpace(string(owner)), ":")
	v, err := Probe("dpkg-query", "-W", "-f=${Version}", pkg)
	if err != nil || len(v) == 0 {
		return ""
	}
	return "(debian " + pkg + " " + string(v) + ")"
}
