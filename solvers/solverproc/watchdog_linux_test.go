//go:build linux

package solverproc

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardsat/boardsat/solvers/solverproc/proctest"
)

// escapee is a solver that starts a child in a session of its own, out
// of its process group (as minizinc starts fzn-gecode), then waits.
const escapee = "setsid sleep 300 & sleep 300"

// marked returns cmd with marker added to its environment.
func marked(cmd *exec.Cmd, marker string) *exec.Cmd {
	cmd.Env = append(os.Environ(), marker)
	return cmd
}

// TestWatchdogKillsOtherSession: when the context ends, a grandchild in
// another session goes too, before Wait returns.
func TestWatchdogKillsOtherSession(t *testing.T) {
	marker := proctest.Marker(t, "session")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := marked(Command(ctx, "sh", "-c", escapee), marker)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitMarked(t, marker, 4) // watchdog, sh, two sleeps
	cancel()
	if err := cmd.Wait(); err == nil {
		t.Error("a cancelled run reported success")
	}
	proctest.NoneLeft(t, marker, 0)
}

// TestWatchdogEndsLeftovers: a solver that exits leaving a child behind
// (in another session) does not leave it running, and its exit code
// comes through.
func TestWatchdogEndsLeftovers(t *testing.T) {
	marker := proctest.Marker(t, "leftover")
	cmd := marked(Command(context.Background(), "sh", "-c", "setsid sleep 300 & sleep 0.2; exit 20"), marker)
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 20 {
		t.Errorf("exit: %v, want exit status 20", err)
	}
	proctest.NoneLeft(t, marker, 0)
	if err := Command(context.Background(), "true").Run(); err != nil {
		t.Errorf("true: %v", err)
	}
	err = Command(context.Background(), "sh", "-c", "kill -KILL $$").Run()
	if !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("a solver killed by SIGKILL: %v", err)
	}
}

// TestWatchdogGivesGrace: a solver told to end gets SIGTERM first and
// time to clean up (minizinc removes its temporary files then).
func TestWatchdogGivesGrace(t *testing.T) {
	marker := proctest.Marker(t, "grace")
	file := filepath.Join(t.TempDir(), "tmpfile")
	ctx, cancel := context.WithCancel(context.Background())
	script := "trap 'rm -f " + file + "; exit 143' TERM; touch " + file + "; sleep 300 & wait"
	cmd := marked(Command(ctx, "sh", "-c", script), marker)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitMarked(t, marker, 3)
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(file); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	cmd.Wait()
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the solver had no time to clean up: %v", err)
	}
	proctest.NoneLeft(t, marker, 0)
}

// helperEnv makes TestHelperHoldsSolver the process that starts a solver
// and is then killed.
const helperEnv = "BOARDSAT_SOLVERPROC_HELPER"

// TestHelperHoldsSolver is no test of its own: run by
// TestWatchdogOnParentKill as a child process, it starts the escaping
// solver, says so and waits to be killed.
func TestHelperHoldsSolver(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		return
	}
	cmd := Command(context.Background(), "sh", "-c", escapee)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("started\n")
	time.Sleep(time.Minute)
}

// TestWatchdogOnParentKill: when the process that started the solver is
// killed by SIGKILL (no chance to clean up), the solver and its escaped
// grandchild go too.
func TestWatchdogOnParentKill(t *testing.T) {
	marker := proctest.Marker(t, "parentkill")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldsSolver$")
	cmd.Env = append(os.Environ(), marker, helperEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "started\n" {
		t.Fatalf("helper said %q", line)
	}
	waitMarked(t, marker, 5) // helper, watchdog, sh, two sleeps
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	proctest.NoneLeft(t, marker, 5*time.Second)
}

// waitMarked waits until at least n processes carry marker.
func waitMarked(t *testing.T, marker string, n int) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if len(proctest.Marked(marker)) >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the solver did not start: %s", strings.Join(proctest.Marked(marker), "; "))
}

// TestWatchdogWithoutLifeline: a watchdog started without its lifeline
// refuses to run the solver, rather than take it for boardsat's end.
func TestWatchdogWithoutLifeline(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ran")
	cmd := exec.Command(os.Args[0])
	cmd.Args = []string{watchdogArg0, "/bin/sh", "sh", "-c", "touch " + file}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 126 || !strings.Contains(string(out), "not the lifeline pipe") {
		t.Errorf("exit %v, output %q", err, out)
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("the solver ran")
	}
}
