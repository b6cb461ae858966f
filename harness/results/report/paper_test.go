package report

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// paperTools are the renderers and the TeX engine scripts/paper-check
// runs, with the Debian package that installs each.
var paperTools = map[string]string{
	"pdftoppm": "poppler-utils", "pdffonts": "poppler-utils", "rsvg-convert": "librsvg2-bin",
	"pdflatex": "texlive-latex-recommended (and texlive-science for siunitx)", "python3": "python3",
}

// TestPaperOutputs runs scripts/paper-check: every figure kind rendered by
// pdftoppm and rsvg-convert (no blank page, every font embedded, no
// renderer complaint about fonts or glyphs), a pivot table of six
// variants with a figure compiled by pdflatex (no error, no missing
// character, no overfull hbox over 10pt), and the README's bench -> table
// -> plot block and the worked example of docs/harness.md held to the
// rules of scripts/paper-rules, and a two-column article of every table
// and figure of the committed bench.csv and mixed.csv (TestPaperRulesCatch
// shows each rule failing a bad figure, table, log or result file). Every
// check runs on committed result files (the worked example on
// testdata/paper-example.csv in place of its bench), so that no load
// moves the verdict; the fresh bench of the worked example is .ci/run's
// (scripts/paper-check --fresh). Without the tools it skips, except under
// CI=true, where it fails.
func TestPaperOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds boardsat and runs pdflatex")
	}
	for tool, pkg := range paperTools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed (Debian package %s), and CI=true requires it", tool, pkg)
			}
			t.Skipf("%s is not installed (Debian package %s): skipping (CI=true makes this a failure)", tool, pkg)
		}
	}
	out, err := exec.Command("../../../scripts/paper-check").CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("scripts/paper-check: %v", err)
	}
}

// TestFigureTextSize: scripts/figure-text-size passes a figure made for a
// column at column width, and fails the same figure made 10 inches wide
// and printed in a column (its 8 pt text shrinks to 2 pt).
func TestFigureTextSize(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is not installed, and CI=true requires it")
		}
		t.Skip("python3 is not installed: skipping (CI=true makes this a failure)")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		size string
		ok   bool
	}{{"column", true}, {"10x6", false}} {
		path := fixtureCactusPDF(t, dir, c.size)
		out, err := exec.Command("../../../scripts/figure-text-size", path, "252").CombinedOutput()
		if (err == nil) != c.ok {
			t.Errorf("%s figure at column width: %v, want ok %v\n%s", c.size, err, c.ok, out)
		}
		if !strings.Contains(string(out), "smallest text 8 pt") {
			t.Errorf("%s: %s, want the smallest text, 8 pt", c.size, out)
		}
	}
}
