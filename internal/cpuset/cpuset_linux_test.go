//go:build linux

package cpuset

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestParseFormatSlots checks core lists and the shares of --jobs.
func TestParseFormatSlots(t *testing.T) {
	avail := Available()
	if len(avail) == 0 {
		t.Fatal("no available cores")
	}
	got, err := Parse(Format(avail))
	if err != nil || !slices.Equal(got, avail) {
		t.Errorf("round trip of %v: %v %v", avail, got, err)
	}
	for _, bad := range []string{"", "x", "3-1", "-1", "0,0", "100000"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("--cpus %q accepted", bad)
		}
	}
	sl, err := Slots(2, []int{0, 1, 2, 3, 4})
	if err != nil || len(sl) != 2 || !slices.Equal(sl[0], []int{0, 1}) || !slices.Equal(sl[1], []int{2, 3}) {
		t.Errorf("Slots(2, 0-4) = %v %v", sl, err)
	}
	if sl, err := Slots(1, nil); err != nil || len(sl) != 1 || sl[0] != nil {
		t.Errorf("Slots(1, none) = %v %v, want one unpinned slot", sl, err)
	}
}

// TestStartPinned: a child started on one core may run on that core
// alone (it inherits the affinity); unpinned, it keeps the parent's cores.
func TestStartPinned(t *testing.T) {
	avail := Available()
	if len(avail) == 0 {
		t.Fatal("no available cores")
	}
	if _, err := exec.LookPath("grep"); err != nil {
		t.Skip("no grep:", err)
	}
	for _, c := range []struct {
		cpus []int
		want string
	}{{avail[len(avail)-1:], Format(avail[len(avail)-1:])}, {nil, Format(avail)}} {
		var out strings.Builder
		cmd := exec.Command("grep", "Cpus_allowed_list", "/proc/self/status")
		cmd.Stdout = &out
		if err := StartPinned(cmd, c.cpus); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(strings.TrimPrefix(out.String(), "Cpus_allowed_list:")); got != c.want {
			t.Errorf("pinned to %v: the child may run on %q, want %q", c.cpus, got, c.want)
		}
	}
}

// TestVetsWithoutLinux: this package and measure, which pins through it,
// build and vet for a system without sched_setaffinity (the affinity
// code was untagged and broke every non-Linux build).
func TestVetsWithoutLinux(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles")
	}
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "vet", "./internal/cpuset", "./harness/measure")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH=arm64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("GOOS=darwin go vet: %v\n%s", err, out)
	}
}
