package registrytest

import "testing"

// TestSecondPanic: a registry that accepts a repeat silently gives "",
// one that refuses it its panic's message, so that RefusesTwice cannot
// pass vacuously.
func TestSecondPanic(t *testing.T) {
	seen := map[string]bool{}
	silent := func() { seen["x"] = true }
	loud := func() {
		if seen["y"] {
			panic(`thing "y" registered twice`)
		}
		seen["y"] = true
	}
	silent()
	if msg := SecondPanic(silent); msg != "" {
		t.Errorf("silent registry: %q", msg)
	}
	loud()
	if msg := SecondPanic(loud); msg != `thing "y" registered twice` {
		t.Errorf("loud registry: %q", msg)
	}
}
