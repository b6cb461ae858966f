package main

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/internal/membudget"
)

// TestEncodeBounds: encode refuses, before building anything, what solve's
// SAT backend refuses and a plan whose formula needs more than the budget
// at least, in one line with the estimate and exit status 2, never a stack
// trace; MiniZinc's model, which states the horizon as a parameter, is
// written whatever the horizon.
func TestEncodeBounds(t *testing.T) {
	defer membudget.Set(math.MaxInt64)
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"encode", "swap:4x3", "--steps", "99999999999"}, 2,
			"swap:4x3 with --steps 99999999999 is refused: its formula needs at least 8.7 TiB (2 x 12 squares x 100000000000 positions of 4 bytes), over the memory budget of "},
		{[]string{"encode", "swap:4x3", "--steps", "99999999999", "--format", "lp"}, 2, "its formula needs at least 8.7 TiB"},
		{[]string{"encode", "swap:4x3", "--steps", "9223372036854775807"}, 2, "its formula needs at least more than 4 EiB"},
		{[]string{"encode", "swap:4x3", "--steps", "10000000", "--mem", "100M"}, 2,
			"its formula needs at least 916 MiB (2 x 12 squares x 10000001 positions of 4 bytes), over the memory budget of 100 MiB (--mem sets it)"},
		{[]string{"encode", "queens:4096"}, 2, "the SAT encoding refuses boards of more than 10000 squares (queens:4096 has 16777216)"},
		{[]string{"encode", "pieces:4096x4096:Q2", "--format", "opb"}, 2, "refuses boards of more than 10000 squares (pieces:4096x4096:Q2 has 16777216)"},
		{[]string{"encode", "swap:4x3", "--steps", "20", "--mem", "lots"}, 2, `bad memory size "lots"`},
		{[]string{"encode", "swap:4x3", "--steps", "99999999999", "--format", "mzn"}, 0, ""},
	} {
		var out, errb bytes.Buffer
		// --mem sets this process's budget: each case starts without one.
		membudget.Set(math.MaxInt64)
		code := run(c.args, &out, &errb)
		if code != c.status || strings.Count(errb.String(), "\n") != min(c.status, 1) || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want one line with %q)", c.args, code, c.status, errb.String(), c.want)
		}
		if c.status != 0 && out.Len() > 0 {
			t.Errorf("%v: refused, yet wrote %q", c.args, first(out.String(), 40))
		}
		if c.status == 0 && !strings.HasPrefix(out.String(), "% swap:4x3") {
			t.Errorf("%v: stdout %q", c.args, first(out.String(), 40))
		}
	}
}

// TestEncodeMemout: a formula that outgrows the budget while it is built
// ends encode with status memout: one line on stderr, exit status 4, no
// file and no temporary left behind.
func TestEncodeMemout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a formula up to 100 MiB")
	}
	exe := boardsatExe(t)
	dir := t.TempDir()
	cmd := exec.Command(exe, "encode", "swap:4x3", "--steps", "1000000", "--mem", "100M", "-o", filepath.Join(dir, "s.cnf"))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != answer.ExitMemout {
		t.Errorf("exit %d, want %d", code, answer.ExitMemout)
	}
	if e := errOut.String(); strings.Count(e, "\n") != 1 || !strings.HasPrefix(e, "boardsat encode: memout: resident memory ") ||
		!strings.HasSuffix(e, "passed the memory budget of 100 MiB (--mem sets it) while encoding swap:4x3; nothing was written\n") {
		t.Errorf("stderr %q", e)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 || out.Len() > 0 {
		t.Errorf("left %v in the directory, %d bytes on stdout", left, out.Len())
	}
}
