// Package registrytest checks, for the tests of every registry of the
// module (backends, per-puzzle strategies, encoders, brute-force solvers,
// model builders, external solvers), that a second registration of one
// name is refused: a panic at start-up whose message names the clash.
package registrytest

import (
	"fmt"
	"strings"
	"testing"
)

// RefusesTwice calls register twice (it registers one name each time) and
// fails t unless the first call returns and the second panics with a
// message containing want.
func RefusesTwice(t *testing.T, want string, register func()) {
	t.Helper()
	register()
	if msg := SecondPanic(register); msg == "" {
		t.Errorf("a second registration was accepted (want a panic naming %q)", want)
	} else if !strings.Contains(msg, want) {
		t.Errorf("a second registration panicked with %q, want it to name %q", msg, want)
	}
}

// SecondPanic calls register and returns the message it panics with, ""
// when it returns.
func SecondPanic(register func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	register()
	return ""
}
