package doccheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// addRow returns text with row added after the last row of the first
// table under the heading title.
func addRow(t *testing.T, text, title, row string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	at, inTable := -1, false
	for i, line := range lines {
		if m := heading.FindStringSubmatch(line); m != nil {
			if at >= 0 || inTable {
				break
			}
			if m[1] == title {
				at = i
			}
			continue
		}
		if at < 0 {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "|") {
			inTable, at = true, i
		} else if inTable {
			break
		}
	}
	if !inTable {
		t.Fatalf("no table under %q", title)
	}
	return strings.Join(slices.Insert(lines, at+1, row), "\n")
}

// TestRecipeFamilyDocs walks the documentation step of the recipe for a
// new family (docs/architecture.md, "How to add a puzzle family"): with a
// toy family registered beside the real ones, the documentation checks
// demand its rows and page, and a copy of the documentation with exactly
// what the step says added (a row in docs/specs.md's spec forms, a row in
// the README's spec table, docs/families/toy.md) passes them.
func TestRecipeFamilyDocs(t *testing.T) {
	names, syntax := registeredPuzzles(t)
	names, syntax = append(names, "toy"), append(syntax, "toy:N")
	if drift := puzzleDocsDrift(t, root, names, syntax); len(drift) != 4 {
		t.Errorf("the documentation without the toy: %d complaints, want 4 (specs.md names and syntax, the README, the page):\n%s", len(drift), strings.Join(drift, "\n"))
	}
	dir := t.TempDir()
	files := []string{"README.md", "docs/specs.md"}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "families", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("family pages: %v %v", pages, err)
	}
	for _, p := range pages {
		files = append(files, "docs/families/"+filepath.Base(p))
	}
	for _, f := range files {
		text := readDoc(t, f)
		switch f {
		case "docs/specs.md":
			text = addRow(t, text, "Spec forms", "| `toy` | `toy:N` | [families/toy.md](families/toy.md) |")
		case "README.md":
			text = addRow(t, text, "Specs", "| `toy` | `toy:3` | one rook on N squares in a row |")
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "docs", "families", "toy.md"), []byte("# toy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if drift := puzzleDocsDrift(t, dir, names, syntax); len(drift) != 0 {
		t.Errorf("the documentation with the toy's rows and page still drifts:\n%s", strings.Join(drift, "\n"))
	}
}
