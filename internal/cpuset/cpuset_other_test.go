//go:build !linux

package cpuset

import (
	"errors"
	"os/exec"
	"testing"
)

// TestUnavailable: without core affinity, a core list and pinned starts
// are refused as unavailable, and an unpinned start goes ahead.
func TestUnavailable(t *testing.T) {
	if _, err := Parse("0"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Parse(0) = %v, want unavailable", err)
	}
	if err := StartPinned(exec.Command("true"), []int{0}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("StartPinned on core 0: %v, want unavailable", err)
	}
	if _, err := Slots(2, nil); err == nil {
		t.Error("Slots(2, none) accepted without affinity")
	}
}
