package doccheck

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

// A group is one part of the module: the packages at or under its folders
// (module-relative). Packages of one group may import each other freely.
type group struct {
	name    string
	folders []string
}

// layers are the module's layers, bottom first, as docs/architecture.md
// draws them. A package may import a package of a lower layer or of its own
// group, never one of a higher layer (no import runs upward) nor one of
// another group of its own layer (the groups of a layer are independent of
// each other: the backends of one another, the backends of the harness).
// Every package of the module must fall in a group.
var layers = [][]group{
	{{"leaf plumbing", []string{"internal/inputfile"}}},
	{{"problem", []string{"puzzle", "answer"}}},
	{{"plumbing", []string{"internal"}}},
	{{"proof checkers", []string{"proof", "proof/lrat"}}, {"external solvers", []string{"solvers"}}},
	{{"native", []string{"native"}}, {"encode", []string{"encode"}}, {"brute", []string{"brute"}}, {"paradigm", []string{"paradigm"}},
		{"harness", []string{"harness"}}},
	{{"proof tools", []string{"proof/certify", "proof/solvercheck"}}, {"formats", []string{"formats"}}},
	{{"commands", []string{"cmd", "scripts"}}},
}

// placeOf returns the layer and group of a module-relative package: the
// group with the longest folder holding it (proof/certify is a proof tool,
// proof/lrat a checker), or -1 and "" if none holds it.
func placeOf(pkg string) (layer int, name string) {
	layer, best := -1, -1
	for i, l := range layers {
		for _, g := range l {
			for _, f := range g.folders {
				if (pkg == f || strings.HasPrefix(pkg, f+"/")) && len(f) > best {
					layer, name, best = i, g.name, len(f)
				}
			}
		}
	}
	return layer, name
}

// layerViolations returns what breaks the layers in imports (each
// module-relative package of the module to its direct imports, of which
// those outside the module are ignored): an import running upward, one
// into another group of the same layer, a package in no group.
func layerViolations(imports map[string][]string) []string {
	var out []string
	for _, pkg := range slices.Sorted(mapKeys(imports)) {
		lp, gp := placeOf(pkg)
		if lp < 0 {
			out = append(out, pkg+" is in no layer: place its folder in layers and in docs/architecture.md")
			continue
		}
		for _, imp := range imports[pkg] {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			ld, gd := placeOf(dep)
			switch {
			case ld < 0:
				// Flagged as a package of its own.
			case ld > lp:
				out = append(out, pkg+" ("+gp+") imports "+dep+" ("+gd+"), a higher layer")
			case ld == lp && gd != gp:
				out = append(out, pkg+" ("+gp+") imports "+dep+" ("+gd+"), another group of its layer")
			}
		}
	}
	return out
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// depRules are rules on what a package links, transitively, beyond the
// layers: pkg (a module-relative package, or FOLDER/... for a folder and
// every package under it) and everything it imports must not depend on
// banned (a package and the packages below it; "std" bans everything but
// the standard library), other than pkg's own packages and allowed.
var depRules = []struct {
	pkg, banned string
	allowed     []string
	why         string
}{
	{"harness/bench", "gonum.org/v1/plot", nil, "bench needs the row schema (results), not the figures (results/report)"},
	{"harness/bench", module + "/harness/results/report", nil, "bench writes rows; the reports read them"},
	{"harness/measure", module, []string{module + "/internal/cgroups", module + "/internal/cpuset"}, "measure knows nothing of puzzles, rows or tables: it runs and measures a command (cgroups, which reads the control groups, it shares with membudget; cpuset, which pins it to cores, it shares with bench)"},
	{"internal/cgroups", module, nil, "measure and membudget share it: it reads the control groups and imports nothing of the module"},
	{"brute", module, []string{module + "/puzzle", module + "/internal/inputfile"}, "the brute force proposes through the checker alone (inputfile: how puzzle reads an interval file)"},
	{"proof", "std", nil, "a proof checker trusts nothing but the standard library and the proof packages"},
	{"proof/lrat", "std", nil, "the LRAT checker trusts nothing but the standard library"},
}

// ruleViolations returns the deps of own (a full import path; deps are
// go list -deps of own and its packages) that break the rule "no banned",
// allowed excepted; std maps each standard-library package to true.
func ruleViolations(deps []string, std map[string]bool, own, banned string, allowed []string) []string {
	var out []string
	for _, d := range deps {
		if d == own || strings.HasPrefix(d, own+"/") || slices.Contains(allowed, d) {
			continue
		}
		if banned == "std" && !std[d] || d == banned || strings.HasPrefix(d, banned+"/") {
			out = append(out, d)
		}
	}
	return out
}

// backendGroups are the backends; agreement between two is evidence only
// if they share nothing but the problem's definitions and the plumbing.
var backendGroups = []string{"native", "encode", "brute", "paradigm"}

// sharedAllowed is what two backends may both link: puzzle and internal/
// for every pair, and the external solvers' processes for the backends
// that run external solvers (encode, paradigm). native and encode share
// only puzzle and internal/.
func sharedAllowed(a, b string) []string {
	allowed := []string{"puzzle", "internal"}
	if a != "native" && b != "native" && a != "brute" && b != "brute" {
		allowed = append(allowed, "solvers")
	}
	return allowed
}

// sharedViolations returns the module packages in both deps lists (full
// import paths) that are not at or under one of allowed (module-relative
// folders).
func sharedViolations(a, b []string, allowed []string) []string {
	var out []string
	for _, d := range a {
		rel, ok := strings.CutPrefix(d, module+"/")
		if !ok || !slices.Contains(b, d) {
			continue
		}
		if !slices.ContainsFunc(allowed, func(f string) bool { return rel == f || strings.HasPrefix(rel, f+"/") }) {
			out = append(out, rel)
		}
	}
	return out
}

// goList runs go list at the module root and returns its output's fields
// of each line.
func goList(t *testing.T, args ...string) [][]string {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"list"}, args...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	var lines [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		lines = append(lines, strings.Fields(line))
	}
	return lines
}

// moduleImports returns each package of the module (module-relative) with
// its direct non-test imports, as go list gives them now.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	imports := map[string][]string{}
	for _, f := range goList(t, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...") {
		rel, ok := strings.CutPrefix(f[0], module+"/")
		if !ok {
			t.Fatalf("go list ./... gave %s, outside the module", f[0])
		}
		imports[rel] = f[1:]
	}
	return imports
}

// depsOf returns go list -deps of a pattern (module-relative) and which of
// them are standard.
func depsOf(t *testing.T, pattern string) (deps []string, std map[string]bool) {
	t.Helper()
	std = map[string]bool{}
	for _, f := range goList(t, "-deps", "-f", "{{.ImportPath}} {{.Standard}}", "./"+pattern) {
		deps = append(deps, f[0])
		std[f[0]] = f[1] == "true"
	}
	return deps, std
}

// TestLayers holds every package of the module to the layers: no import
// runs upward or across the groups of a layer.
func TestLayers(t *testing.T) {
	imports := moduleImports(t)
	for _, want := range []string{"puzzle", "internal/atomicfile", "native", "encode", "harness/bench", "cmd/boardsat"} {
		if _, ok := imports[want]; !ok {
			t.Fatalf("go list ./... does not list %s: %q", want, slices.Sorted(mapKeys(imports)))
		}
	}
	for _, v := range layerViolations(imports) {
		t.Error(v)
	}
}

// TestDependencyRules checks depRules with go list -deps.
func TestDependencyRules(t *testing.T) {
	for _, r := range depRules {
		deps, std := depsOf(t, r.pkg)
		own := module + "/" + strings.TrimSuffix(r.pkg, "/...")
		if !slices.Contains(deps, own) {
			t.Fatalf("go list -deps ./%s does not list the package itself: %q", r.pkg, deps)
		}
		for _, d := range ruleViolations(deps, std, own, r.banned, r.allowed) {
			t.Errorf("%s depends on %s: %s", r.pkg, d, r.why)
		}
	}
}

// TestBackendsShareOnlyProblemAndPlumbing: every two backends link, of the
// module, nothing in common but puzzle and internal/ (and solvers/ for two
// that run external solvers).
func TestBackendsShareOnlyProblemAndPlumbing(t *testing.T) {
	deps := map[string][]string{}
	for _, b := range backendGroups {
		deps[b], _ = depsOf(t, b+"/...")
		if !slices.Contains(deps[b], module+"/puzzle") {
			t.Fatalf("%s does not link puzzle: %q", b, deps[b])
		}
	}
	for i, a := range backendGroups {
		for _, b := range backendGroups[i+1:] {
			for _, d := range sharedViolations(deps[a], deps[b], sharedAllowed(a, b)) {
				t.Errorf("%s and %s both link %s: backends share only %s", a, b, d, strings.Join(sharedAllowed(a, b), ", "))
			}
		}
	}
}

// TestViolationsCatch: each check above flags what it should, and nothing
// else, so that none passes vacuously.
func TestViolationsCatch(t *testing.T) {
	m := func(p string) string { return module + "/" + p }
	imports := map[string][]string{
		"puzzle":              {"fmt"},
		"internal/subproblem": {m("puzzle"), m("internal/atomicfile")},
		"internal/oops":       {m("harness/bench")},              // upward
		"native/queens":       {m("native/search"), m("encode")}, // across the backends
		"harness/compare":     {m("puzzle"), m("native")},        // harness into a backend
		"proof/certify":       {m("proof"), m("encode/sat")},     // a tool over its checkers
		"proof/lrat":          {"fmt"},
		"newfolder":           {m("puzzle")}, // in no layer
	}
	want := []string{
		"harness/compare (harness) imports native (native), another group of its layer",
		"internal/oops (plumbing) imports harness/bench (harness), a higher layer",
		"native/queens (native) imports encode (encode), another group of its layer",
		"newfolder is in no layer: place its folder in layers and in docs/architecture.md",
	}
	if got := layerViolations(imports); !slices.Equal(got, want) {
		t.Errorf("layers:\n got %q\nwant %q", got, want)
	}
	deps := []string{"fmt", m("bench"), m("results"), m("results/report"), "gonum.org/v1/plot/vg", "gonum.org/v1/plotter"}
	std := map[string]bool{"fmt": true}
	if got := ruleViolations(deps, std, m("bench"), "gonum.org/v1/plot", nil); !slices.Equal(got, []string{"gonum.org/v1/plot/vg"}) {
		t.Errorf("plot: %q", got)
	}
	if got := ruleViolations(deps, std, m("bench"), m("results"), nil); len(got) != 2 {
		t.Errorf("results: %q", got)
	}
	if got := ruleViolations(deps, std, m("results"), m("results"), nil); len(got) != 0 {
		t.Errorf("own packages flagged: %q", got)
	}
	if got := ruleViolations(deps, std, m("bench"), module, []string{m("results")}); !slices.Equal(got, []string{m("results/report")}) {
		t.Errorf("allowed: %q", got)
	}
	if got := ruleViolations(deps, std, m("results"), "std", nil); !slices.Equal(got, []string{m("bench"), "gonum.org/v1/plot/vg", "gonum.org/v1/plotter"}) {
		t.Errorf("std: %q", got)
	}
	a := []string{"fmt", m("puzzle"), m("internal/subproblem"), m("native/search"), m("solvers/solverproc"), m("proof")}
	b := []string{"fmt", m("puzzle"), m("internal/subproblem"), m("encode/sat"), m("solvers/solverproc"), m("proof")}
	if got := sharedViolations(a, b, sharedAllowed("native", "encode")); !slices.Equal(got, []string{"solvers/solverproc", "proof"}) {
		t.Errorf("shared by native and encode: %q", got)
	}
	if got := sharedViolations(a, b, sharedAllowed("encode", "paradigm")); !slices.Equal(got, []string{"proof"}) {
		t.Errorf("shared by encode and paradigm: %q", got)
	}
}
