// Package proctest finds, for tests, the processes a run left behind: a
// test gives the run a unique marker in its environment, which every
// process it starts inherits (minizinc passes it on to fzn-gecode), and
// after the run asks which live processes still carry it. Linux only (it
// reads /proc); elsewhere Supported is false and the tests skip.
package proctest

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Supported reports whether Marked can see other processes' environments.
func Supported() bool {
	_, err := os.Stat("/proc/self/environ")
	return runtime.GOOS == "linux" && err == nil
}

// Marker returns a marker unique to this test process and name, as the
// KEY=VALUE to add to a command's environment. When t ends, whatever
// still carries it is killed, so that a failing test leaves nothing
// running.
func Marker(t testing.TB, name string) string {
	m := fmt.Sprintf("BOARDSAT_PROCTEST=%s-%d-%d", name, os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { kill(Marked(m)) })
	return m
}

// kill sends SIGKILL to the processes of a Marked list.
func kill(procs []string) {
	for _, l := range procs {
		if pid, err := strconv.Atoi(strings.Fields(l)[0]); err == nil {
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
		}
	}
}

// Marked returns the live processes (not zombies) whose environment holds
// marker, each as "PID COMMAND".
func Marked(marker string) []string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []string
	want := []byte(marker + "\x00")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(append(env, 0), want) {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 {
			if f := strings.Fields(string(stat[i+1:])); len(f) > 0 && f[0] == "Z" {
				continue // a zombie runs nothing
			}
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		out = append(out, fmt.Sprintf("%d %s", pid, strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " "))))
	}
	return out
}

// NoneLeft fails t if a process carrying marker is alive, after waiting up
// to wait for the last ones to go (a watchdog that has just been told to
// end may need a moment). It kills the ones left, so that a failing test
// leaves nothing running either.
func NoneLeft(t testing.TB, marker string, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		left := Marked(marker)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d process(es) outlived the run: %s", len(left), strings.Join(left, "; "))
			kill(left)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
