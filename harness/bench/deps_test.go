package bench

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// module is the import path of this module.
const module = "github.com/boardsat/boardsat"

// depRules are layering rules of the module that the compiler does not
// enforce: pkg (a pattern of go list, from the module root) and everything
// it imports, transitively, must not import banned (a package, and the
// packages below it), other than pkg's own packages and allowed (leaf
// packages, space-separated, that themselves import nothing of the
// module).
var depRules = []struct{ pkg, banned, allowed, why string }{
	{"harness/bench", "gonum.org/v1/plot", "", "bench needs the row schema (results), not the figures (results/report)"},
	{"harness/bench", module + "/harness/results/report", "", "bench writes rows; the reports read them"},
	{"native/...", module + "/encode", "", "native and SAT answers agree only if the two share nothing but puzzle"},
	{"encode/...", module + "/native", "", "native and SAT answers agree only if the two share nothing but puzzle"},
	{"harness/measure", module, module + "/internal/cgroups " + module + "/internal/cpuset", "measure knows nothing of puzzles, rows or tables: it runs and measures a command (cgroups, which reads the control groups, it shares with membudget; cpuset pins it)"},
	{"internal/cpuset", module, "", "bench and measure share it: core affinity, importing nothing of the module"},
	{"internal/cgroups", module, "", "measure and membudget share it: it reads the control groups and imports nothing of the module"},
	{"answer", module + "/encode", "", "the answer contract depends on puzzle alone"},
	{"answer", module + "/native", "", "the answer contract depends on puzzle alone"},
}

// violations returns the deps of the packages under own that break the
// rule "no banned" (allowed, if not "", excepted).
func violations(deps []string, own, banned, allowed string) []string {
	var out []string
	for _, d := range deps {
		if (d == banned || strings.HasPrefix(d, banned+"/")) && d != own && !strings.HasPrefix(d, own+"/") && !slices.Contains(strings.Fields(allowed), d) {
			out = append(out, d)
		}
	}
	return out
}

// TestDependencyRules checks depRules with go list -deps.
func TestDependencyRules(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, r := range depRules {
		cmd := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}", "./"+r.pkg)
		cmd.Dir = "../.."
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps ./%s: %v", r.pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, module+"/"+strings.TrimSuffix(r.pkg, "/...")) {
			t.Fatalf("go list -deps ./%s does not list the package itself: %q", r.pkg, deps)
		}
		for _, d := range violations(deps, module+"/"+strings.TrimSuffix(r.pkg, "/..."), r.banned, r.allowed) {
			t.Errorf("%s depends on %s: %s", r.pkg, d, r.why)
		}
	}
}

// TestViolationsCatch: the check above flags a banned package and those
// below it, and nothing else, so it cannot pass vacuously.
func TestViolationsCatch(t *testing.T) {
	deps := []string{"fmt", module + "/bench", module + "/results", module + "/results/report", "gonum.org/v1/plot/vg", "gonum.org/v1/plotter"}
	if got := violations(deps, module+"/bench", "gonum.org/v1/plot", ""); !slices.Equal(got, []string{"gonum.org/v1/plot/vg"}) {
		t.Errorf("plot: %q", got)
	}
	if got := violations(deps, module+"/bench", module+"/results", ""); len(got) != 2 {
		t.Errorf("results: %q", got)
	}
	if got := violations(deps, module+"/results", module+"/results", ""); len(got) != 0 {
		t.Errorf("own packages flagged: %q", got)
	}
	if got := violations(deps, module+"/bench", module, module+"/results"); !slices.Equal(got, []string{module + "/results/report"}) {
		t.Errorf("allowed: %q", got)
	}
}
