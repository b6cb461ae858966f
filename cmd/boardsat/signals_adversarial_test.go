package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalDuringWriteLeavesNoPartialFile holds the promises that a
// signal during `encode -o` (a write of 120 MB and more) leaves no hidden
// partial temporary file, and that SIGHUP is handled as SIGTERM: the
// process removes its temporary file and ends with status 128 + the
// signal.
func TestSignalDuringWriteLeavesNoPartialFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a formula of 100 MB and more")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "encode", "swap:16x16", "-o", filepath.Join(dir, "s.cnf"))
		cmd.Env = append(os.Environ(), testMainEnv+"=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(2 * time.Minute)
		for {
			if tmp, _ := filepath.Glob(filepath.Join(dir, ".s.cnf.tmp*")); len(tmp) > 0 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal("encode never began its file")
			}
			time.Sleep(5 * time.Millisecond)
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		left, _ := os.ReadDir(dir)
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		if len(names) == 1 && names[0] == "s.cnf" {
			t.Logf("%v: encode finished before the signal", sig)
			continue
		}
		if len(names) != 0 {
			t.Errorf("%v during encode -o left %s", sig, strings.Join(names, ", "))
		}
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 128+int(sig) {
			t.Errorf("%v: %v, want exit status %d", sig, err, 128+int(sig))
		}
	}
}
