package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultFigureNeverThroughALink holds the promise that `results plot`
// without -o (DIR/BASE-KIND.EXT, a name boardsat chose) never writes
// through a link planted at that name, and still replaces a figure of its
// own there.
func TestDefaultFigureNeverThroughALink(t *testing.T) {
	dir := t.TempDir()
	f, err := Cactus(Summarize(aggRows(), TimeWall), TimeWall)
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("victim\n"), 0o644)
	os.Symlink(victim, filepath.Join(dir, "r-cactus.svg"))
	if err := SaveDefaultFigure(f, DefaultFigurePath(dir, "r", "cactus", "svg"), ColumnSize); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link at r-cactus.svg: %v, want a refusal", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "victim\n" {
		t.Errorf("written through the link: the victim holds %.40q", data)
	}
	os.Remove(filepath.Join(dir, "r-cactus.svg"))
	for range 2 {
		if name := DefaultFigurePath(dir, "r", "cactus", "svg"); SaveDefaultFigure(f, name, ColumnSize) != nil || filepath.Base(name) != "r-cactus.svg" {
			t.Errorf("a figure of its own: %q %v", name, err)
		}
	}
}
