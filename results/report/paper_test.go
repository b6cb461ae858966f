package report

import (
	"os"
	"os/exec"
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
// renderer complaint about fonts or glyphs), and a pivot table of six
// variants with a figure compiled by pdflatex (no error, no missing
// character, no overfull hbox over 10pt). Without the tools it skips,
// except under CI=true, where it fails.
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
	out, err := exec.Command("../../scripts/paper-check").CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("scripts/paper-check: %v", err)
	}
}
