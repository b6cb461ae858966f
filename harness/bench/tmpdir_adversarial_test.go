package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/harness/results"
)

// TestKilledRunLeavesNoTemporaries holds the promise that a run child
// killed at its limit, or by bench's interruption, leaves nothing in
// $TMPDIR: the child gets a TMPDIR of the run's own, which bench removes
// once the child is reaped.
func TestKilledRunLeavesNoTemporaries(t *testing.T) {
	s := mustSuite(t, "queens:4 backends=bt-good")
	plan, _ := Plan(context.Background(), s, Overrides{})
	if len(plan) == 0 {
		t.Fatal("no run planned")
	}
	r := plan[0]
	seen := filepath.Join(t.TempDir(), "tmpdir")
	// A child that makes its temporaries the way cpsolve does (a
	// boardsat-cp-* directory in $TMPDIR) and is then killed.
	script := `d=$(mktemp -d "${TMPDIR:-/tmp}/boardsat-cp-XXXXXX") && echo x > "$d/mznfile1.fzn" && echo "$TMPDIR" > ` + seen + ` && exec sleep 30`
	rn := Runner{Exe: "/bin/sh", Args: []string{"-c", script, "sh"}}
	// The interruption comes once the child has made its temporaries
	// (however loaded the machine); the wall limit (3 s + KillGrace)
	// long after.
	whenMade := func() (context.Context, context.CancelFunc) {
		c, cancel := context.WithCancel(context.Background())
		go func() {
			for range 600 {
				if data, _ := os.ReadFile(seen); len(data) > 0 {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			cancel()
		}()
		return c, cancel
	}
	r.Timeout = 3 * time.Second
	for name, ctx := range map[string]func() (context.Context, context.CancelFunc){
		"wall limit":   func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
		"interruption": whenMade,
	} {
		os.Remove(seen)
		c, cancel := ctx()
		row, _ := rn.Exec(c, r)
		cancel()
		data, err := os.ReadFile(seen)
		tmp := strings.TrimSpace(string(data))
		if err != nil || tmp == "" || tmp == os.TempDir() {
			t.Fatalf("%s: the child's TMPDIR was %q (%v), want a directory of the run's own", name, tmp, err)
		}
		if _, err := os.Stat(tmp); !os.IsNotExist(err) {
			left, _ := os.ReadDir(tmp)
			t.Errorf("%s (status %s): the run's temporary directory %s is left, holding %v", name, row.Status, tmp, left)
		}
		if name == "wall limit" && row.Status != results.StatusTimeout {
			t.Errorf("wall limit: status %s, want timeout", row.Status)
		}
	}
}
