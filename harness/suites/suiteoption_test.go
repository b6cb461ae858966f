package suites_test

import (
	"github.com/boardsat/boardsat/harness/suites"
	"strings"
	"testing"
)

// TestSuiteUnknownOption: a misspelt option (KEY= without the colon
// every spec has) is named as an unknown option with the options there
// are, not read as a spec of an unknown puzzle; a spec's own = (swap's
// w=, intervals' seed=) is still a spec.
func TestSuiteUnknownOption(t *testing.T) {
	for line, want := range map[string]string{
		"queens:6 tiemout=5s":     `unknown option tiemout= in "tiemout=5s": want backends, task, repeat, timeout, cpu-limit, mem, ladder or certify`,
		"queens:6 backend=native": `unknown option backend= in "backend=native"`,
		"queens:{6..7} rpeat=2":   `unknown option rpeat=`,
	} {
		if _, err := suites.Parse("s", line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", line, err, want)
		}
	}
	for _, line := range []string{"swap:4x3:w=a1,a2,a3:b=d1,d2,d3 backends=native", "intervals:random:6:seed=1 task=optimum"} {
		if g := mustSuite(t, line).Groups[0]; len(g.Specs) != 1 {
			t.Errorf("%q: %d specs, want 1", line, len(g.Specs))
		}
	}
}
