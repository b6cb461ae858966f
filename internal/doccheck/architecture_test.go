package doccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// architecture is the page that maps the packages.
const architecture = "docs/architecture.md"

// tableDrift compares the package table of docs/architecture.md (rows of
// package, group, job, imports) with the module as go list gives it
// (imports: each module-relative package to its direct imports), and
// returns what differs: a package missing from the table (with the row to
// add), a row for no package, a row twice, a group that is not the
// package's group in layers, an empty job, imports listed that are not
// imported or imported and not listed (with the cell to write).
func tableDrift(rows [][]string, imports map[string][]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		if len(r) != 4 {
			out = append(out, fmt.Sprintf("row %q: want 4 cells (package, group, job, imports)", r))
			continue
		}
		pkg, grp, job, cell := r[0], r[1], r[2], r[3]
		imps, ok := imports[pkg]
		switch {
		case seen[pkg]:
			out = append(out, fmt.Sprintf("%s: two rows", pkg))
			continue
		case !ok:
			out = append(out, fmt.Sprintf("%s: a row, but go list ./... has no such package", pkg))
			continue
		}
		seen[pkg] = true
		if _, g := placeOf(pkg); grp != g {
			out = append(out, fmt.Sprintf("%s: group %q, but layers place it in %q", pkg, grp, g))
		}
		if strings.TrimSpace(job) == "" {
			out = append(out, fmt.Sprintf("%s: no job", pkg))
		}
		want := importsCell(imps)
		if listed := strings.Split(cell, ", "); !slices.Equal(slices.Sorted(slices.Values(listed)), strings.Split(want, ", ")) {
			out = append(out, fmt.Sprintf("%s: imports %q, want %q", pkg, cell, want))
		}
	}
	for _, pkg := range slices.Sorted(mapKeys(imports)) {
		if !seen[pkg] {
			_, g := placeOf(pkg)
			out = append(out, fmt.Sprintf("%s: no row; add | `%s` | %s | JOB | %s |", pkg, pkg, g, codeCell(importsCell(imports[pkg]))))
		}
	}
	return out
}

// importsCell returns the imports column a package's row should hold: its
// imports of the module, module-relative, sorted, comma-separated, or
// "none".
func importsCell(imports []string) string {
	var own []string
	for _, imp := range imports {
		if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
			own = append(own, rel)
		}
	}
	if len(own) == 0 {
		return "none"
	}
	slices.Sort(own)
	return strings.Join(own, ", ")
}

// codeCell marks each package of an imports cell as code, as the table
// writes it.
func codeCell(cell string) string {
	if cell == "none" {
		return cell
	}
	return "`" + strings.ReplaceAll(cell, ", ", "`, `") + "`"
}

// TestArchitectureTable holds the package table of docs/architecture.md to
// go list, read now: every package of the module once, in its group, with
// a job and exactly its imports of the module.
func TestArchitectureTable(t *testing.T) {
	rows := tableAfter(t, architecture, readDoc(t, architecture), "Packages")
	for _, d := range tableDrift(rows, moduleImports(t)) {
		t.Errorf("%s, Packages: %s", architecture, d)
	}
}

// TestArchitectureTableCatches feeds the table check a table that has
// drifted every way it can, and a true one.
func TestArchitectureTableCatches(t *testing.T) {
	m := func(p string) string { return module + "/" + p }
	imports := map[string][]string{
		"puzzle":         {"fmt"},
		"answer":         {"encoding/json", m("puzzle")},
		"native/search":  {m("internal/subproblem"), m("puzzle")},
		"harness/bench":  {m("puzzle"), m("harness/measure"), "golang.org/x/sys/unix"},
		"internal/fresh": {m("puzzle")},
	}
	rows := [][]string{
		{"puzzle", "problem", "the problems", "none"},
		{"answer", "problem", "the answer", "puzzle"},
		{"native/search", "native", "the strategies", "puzzle"},                       // an import left out
		{"harness/bench", "plumbing", "", "harness/measure, puzzle, harness/results"}, // wrong group, no job, an extra import
		{"harness/gone", "harness", "a package removed", "none"},
		{"answer", "problem", "again", "puzzle"},
		{"puzzle", "problem"},
	}
	want := []string{
		`native/search: imports "puzzle", want "internal/subproblem, puzzle"`,
		`harness/bench: group "plumbing", but layers place it in "harness"`,
		`harness/bench: no job`,
		`harness/bench: imports "harness/measure, puzzle, harness/results", want "harness/measure, puzzle"`,
		`harness/gone: a row, but go list ./... has no such package`,
		`answer: two rows`,
		`row ["puzzle" "problem"]: want 4 cells (package, group, job, imports)`,
		"internal/fresh: no row; add | `internal/fresh` | plumbing | JOB | `puzzle` |",
	}
	if got := tableDrift(rows, imports); !slices.Equal(got, want) {
		t.Errorf("drift:\n got %q\nwant %q", got, want)
	}
	good := [][]string{{"puzzle", "problem", "p", "none"}, {"answer", "problem", "a", "puzzle"}}
	if got := tableDrift(good, map[string][]string{"puzzle": nil, "answer": {m("puzzle"), "fmt"}}); len(got) != 0 {
		t.Errorf("a true table flagged: %q", got)
	}
}

// guardRef matches a guard test named on the architecture page with its
// file: `TestName` in `path_test.go`.
var guardRef = regexp.MustCompile("`(Test[A-Za-z0-9_]+)` in `([^`]+_test\\.go)`")

// TestGuardTestsExist: every test docs/architecture.md names as the guard
// of a rule is defined in the file it names.
func TestGuardTestsExist(t *testing.T) {
	namedTestsExist(t, architecture, 8)
	if definesTest(t, "internal/doccheck/architecture_test.go", "TestNoSuchGuard") {
		t.Error("definesTest finds a test that is not there")
	}
}

// TestContractTestsExist: every test docs/contract.md names as the holder
// of a promise exists in the file it names.
func TestContractTestsExist(t *testing.T) {
	namedTestsExist(t, "docs/contract.md", 20)
}

// namedTestsExist fails t unless page names at least least tests as
// "`TestX` in `FILE_test.go`" and each is defined in its file.
func namedTestsExist(t *testing.T, page string, least int) {
	t.Helper()
	refs := guardRef.FindAllStringSubmatch(strings.Join(strings.Fields(readDoc(t, page)), " "), -1)
	if len(refs) < least {
		t.Fatalf("%s names %d tests, want at least %d", page, len(refs), least)
	}
	for _, r := range refs {
		if !definesTest(t, r[2], r[1]) {
			t.Errorf("%s names %s in %s, which does not define it", page, r[1], r[2])
		}
	}
}

// definesTest reports whether the Go file (relative to root) defines the
// test function name.
func definesTest(t *testing.T, file, name string) bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return false
	}
	return regexp.MustCompile(`(?m)^func ` + name + `\(`).Match(data)
}

// requiredModules returns the modules of go.mod's require directives.
func requiredModules(gomod string) []string {
	var mods []string
	block := false
	for _, line := range strings.Split(gomod, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			block = true
		case block && line == ")":
			block = false
		case block && line != "" && !strings.HasPrefix(line, "//"):
			mods = append(mods, strings.Fields(line)[0])
		case strings.HasPrefix(line, "require "):
			mods = append(mods, strings.Fields(line)[1])
		}
	}
	return mods
}

// TestLicencesListed: the licence table of docs/architecture.md names
// every module go.mod requires, and no other.
func TestLicencesListed(t *testing.T) {
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Sorted(slices.Values(requiredModules(string(gomod))))
	if len(want) == 0 {
		t.Fatal("go.mod requires no module: the reader is broken")
	}
	got := slices.Sorted(slices.Values(column(tableAfter(t, architecture, readDoc(t, architecture), "Licence"), 0)))
	if !slices.Equal(got, want) {
		t.Errorf("%s, Licence: modules %q, want go.mod's %q", architecture, got, want)
	}
	if _, err := os.Stat(filepath.Join(root, "LICENSE")); err != nil {
		t.Errorf("no LICENSE at the root: %v", err)
	}
	mods := requiredModules("module m\n\nrequire a v1\n\nrequire (\n\tb v2\n\tc v3 // indirect\n)\n")
	if !slices.Equal(mods, []string{"a", "b", "c"}) {
		t.Errorf("requiredModules read %q, want a, b and c", mods)
	}
}
