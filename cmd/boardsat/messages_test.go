package main

import (
	"strings"
	"testing"
)

// TestMessagesSayWhatToDo: refusals name what is wrong and what to do
// instead, in one line with exit status 2.
func TestMessagesSayWhatToDo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"encode", "queens:8", "-o", "/"}, []string{"cannot write /: it is a directory; name a file"}},
		{[]string{"solve", "queens:100", "--task", "first"}, []string{"up to 64, not 100", "--backend sat", "--heuristic plain"}},
	} {
		status, out, errOut := runCLI(c.args...)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, status, out, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: %q lacks %q", c.args, errOut, w)
			}
		}
	}
}
