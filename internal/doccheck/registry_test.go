package doccheck

import (
	"fmt"
	"github.com/boardsat/boardsat/harness/suites"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// readDoc returns the text of a Markdown file, relative to root.
func readDoc(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// tableAfter returns the body rows of the first table after the heading
// titled title (an ATX heading of any level), each row's cells with code
// marks removed and escaped pipes restored.
func tableAfter(t *testing.T, file, text, title string) [][]string {
	t.Helper()
	lines := strings.Split(text, "\n")
	start := -1
	for i, line := range lines {
		if m := heading.FindStringSubmatch(line); m != nil && m[1] == title {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("%s: no heading %q", file, title)
	}
	var rows [][]string
	for _, line := range lines[start+1:] {
		if heading.MatchString(line) {
			break
		}
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if rows != nil {
				break
			}
			continue
		}
		if strings.Trim(line, "|-: ") == "" {
			continue // the delimiter row
		}
		var cells []string
		rest := strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
		for _, cell := range splitCells(rest) {
			cell = strings.ReplaceAll(strings.TrimSpace(cell), `\|`, "|")
			cells = append(cells, strings.ReplaceAll(cell, "`", ""))
		}
		rows = append(rows, cells)
	}
	if len(rows) < 2 {
		t.Fatalf("%s: no table under %q", file, title)
	}
	return rows[1:] // without the header row
}

// splitCells splits a row's inside at the pipes not preceded by a backslash.
func splitCells(s string) []string {
	var cells []string
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '|' && (i == 0 || s[i-1] != '\\') {
			cells = append(cells, s[last:i])
			last = i + 1
		}
	}
	return append(cells, s[last:])
}

// column returns the given column of rows.
func column(rows [][]string, col int) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		if col < len(r) {
			out[i] = r[col]
		}
	}
	return out
}

// TestDocsListPuzzles holds every list of puzzles in the documentation to
// the registry: the spec forms of docs/specs.md (names and syntax, in
// registry order), the spec table of README.md, and one page per family
// under docs/families/ (and no page for a puzzle that is not registered).
func TestDocsListPuzzles(t *testing.T) {
	names, syntax := registeredPuzzles(t)
	for _, d := range puzzleDocsDrift(t, root, names, syntax) {
		t.Error(d)
	}
}

// registeredPuzzles returns the registered puzzles' names and syntax, in
// registry order.
func registeredPuzzles(t *testing.T) (names, syntax []string) {
	t.Helper()
	for _, name := range puzzle.Puzzles {
		d, err := puzzle.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		syntax = append(syntax, d.Syntax)
	}
	return slices.Clone(puzzle.Puzzles), syntax
}

// puzzleDocsDrift returns where the documentation under dir (a copy of
// the repository's root, or the root) lists other puzzles than names
// (with their syntax, in order).
func puzzleDocsDrift(t *testing.T, dir string, names, syntax []string) []string {
	t.Helper()
	read := func(file string) string {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	var out []string
	rows := tableAfter(t, "docs/specs.md", read("docs/specs.md"), "Spec forms")
	if got := column(rows, 0); !slices.Equal(got, names) {
		out = append(out, fmt.Sprintf("docs/specs.md, Spec forms: puzzles %q, want the registry's %q", got, names))
	}
	if got := column(rows, 1); !slices.Equal(got, syntax) {
		out = append(out, fmt.Sprintf("docs/specs.md, Spec forms: syntax %q, want the registry's %q", got, syntax))
	}
	if got := column(tableAfter(t, "README.md", read("README.md"), "Specs"), 0); !slices.Equal(got, names) {
		out = append(out, fmt.Sprintf("README.md, Specs: puzzles %q, want the registry's %q", got, names))
	}
	pages, err := filepath.Glob(filepath.Join(dir, "docs", "families", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var families []string
	for _, p := range pages {
		families = append(families, strings.TrimSuffix(filepath.Base(p), ".md"))
	}
	if want := slices.Sorted(slices.Values(names)); !slices.Equal(families, want) {
		out = append(out, fmt.Sprintf("docs/families/: pages %q, want one per registered puzzle %q", families, want))
	}
	return out
}

// TestDocsListTasks holds the task table of docs/specs.md to the registry.
func TestDocsListTasks(t *testing.T) {
	var want []string
	for _, task := range puzzle.Tasks {
		want = append(want, string(task))
	}
	rows := tableAfter(t, "docs/specs.md", readDoc(t, "docs/specs.md"), "Tasks")
	if got := column(rows, 0); !slices.Equal(got, want) {
		t.Errorf("docs/specs.md, Tasks: %q, want the registry's %q", got, want)
	}
}

// TestDocsListSuites holds the built-in suites of docs/harness.md to the
// registry of bench.
func TestDocsListSuites(t *testing.T) {
	rows := tableAfter(t, "docs/harness.md", readDoc(t, "docs/harness.md"), "Suite files")
	if got, want := column(rows, 0), suites.Builtin.Names(); !slices.Equal(got, want) {
		t.Errorf("docs/harness.md, Suite files: suites %q, want the registry's %q", got, want)
	}
}

// TestTableAfterCatches holds the table reader to what the tests above rely
// on: the first table under a heading, escaped pipes kept in a cell, code
// marks dropped.
func TestTableAfterCatches(t *testing.T) {
	text := "# A\n\n| x | y |\n|---|---|\n| `one` | `a \\| b` |\n| two | c |\n\n## B\n\n| z |\n|---|\n| three |\n"
	rows := tableAfter(t, "test.md", text, "A")
	if got := column(rows, 0); !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("column 0 = %q", got)
	}
	if got := column(rows, 1); !slices.Equal(got, []string{"a | b", "c"}) {
		t.Errorf("column 1 = %q", got)
	}
	if got := column(tableAfter(t, "test.md", text, "B"), 0); !slices.Equal(got, []string{"three"}) {
		t.Errorf("table B = %q", got)
	}
}
