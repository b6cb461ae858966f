package solverproc

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
)

func TestBinaryVersion(t *testing.T) {
	cnftest.FakeSolver(t, "fake-banner", "echo 'Welcome to the Fake Solver'; echo 'Version: 2.10.8'; echo 'Build Date: today'")
	if got := BinaryVersion("fake-banner"); !strings.HasPrefix(got, "Welcome to the Fake Solver Version: 2.10.8") {
		t.Errorf("banner: %q", got)
	}
	cnftest.FakeSolver(t, "fake-plain", "echo 'fake 1.2.3'")
	if got := BinaryVersion("fake-plain"); !strings.HasPrefix(got, "fake 1.2.3") {
		t.Errorf("plain: %q", got)
	}
	if got := BinaryVersion("no-such-binary-here"); got != "" {
		t.Errorf("absent: %q", got)
	}
}

// TestCommandKillsTree: when the context ends, the whole process group
// goes, a grandchild holding the output open included, and Wait returns.
func TestCommandKillsTree(t *testing.T) {
	cnftest.FakeSolver(t, "fake-tree", "sleep 30 & sleep 30")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	cmd := Command(ctx, "fake-tree")
	var out strings.Builder
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Run(); err == nil {
		t.Error("a killed run reported success")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Wait returned after %v", d)
	}
}

func TestTailAndAvailable(t *testing.T) {
	if got := Tail([]byte("a\nb\nlast line\n")); got != " (stderr: last line)" {
		t.Errorf("Tail: %q", got)
	}
	if Tail(nil) != "" {
		t.Error("Tail of nothing")
	}
	if err := Available("nosuch", "no-such-binary-here"); err == nil || !strings.Contains(err.Error(), `"no-such-binary-here"`) {
		t.Errorf("Available: %v", err)
	}
}

// TestChoicesAndLookup checks the --solver list of a backend (the first
// the default, an absent binary marked) and the lookup by name.
func TestChoicesAndLookup(t *testing.T) {
	cnftest.FakeSolver(t, "fake-here", "exit 0")
	type solver struct{ name, bin string }
	solvers := []solver{{"one", "fake-here"}, {"two", "no-such-binary-here"}, {"inproc", ""}}
	set := Set[solver]{Backend: "x", Solvers: solvers, List: func(s solver) Listing { return Listing{Name: s.name, Binary: s.bin, Doc: "doc of " + s.name} }}
	got := set.Choices()
	want := []puzzle.Choice{
		{Field: "solver", Name: "one", Doc: "doc of one", Default: true},
		{Field: "solver", Name: "two", Doc: "doc of two [not installed]"},
		// In-process (no binary): always installed.
		{Field: "solver", Name: "inproc", Doc: "doc of inproc"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Choices = %+v, want %+v", got, want)
	}
	if s, err := set.Lookup(""); err != nil || s.name != "one" {
		t.Errorf(`Lookup("") = %v, %v; want the default, one`, s, err)
	}
	if s, err := set.Lookup("inproc"); err != nil || s.name != "inproc" {
		t.Errorf(`Lookup("inproc") = %v, %v; want it, available`, s, err)
	}
	if s, err := set.Lookup("two"); s.name != "two" || err == nil || !strings.Contains(err.Error(), `"no-such-binary-here"`) {
		t.Errorf(`Lookup("two") = %v, %v; want two and its absent binary`, s, err)
	}
	_, err := set.Lookup("three")
	if want := `unknown x solver "three": want one of one, two, inproc`; err == nil || err.Error() != want {
		t.Errorf(`Lookup("three") error %v, want %q`, err, want)
	}
	if got, want := set.NamedOnly(), "runs an external solver; name it (x/SOLVER) to compare it"; got != want {
		t.Errorf("NamedOnly = %q, want %q", got, want)
	}
	if got := Clip(strings.Repeat("a", 61)); got != strings.Repeat("a", 60)+"..." {
		t.Errorf("Clip of 61 bytes: %q", got)
	}
	if got := Clip("short"); got != "short" {
		t.Errorf("Clip of a short string: %q", got)
	}
}
