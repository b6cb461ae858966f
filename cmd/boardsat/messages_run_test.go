package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardsat/boardsat/answer"
)

// TestWorkedAnswersKeepTheirSeconds: a checkpoint that cannot be written
// during a count (its directory removed) is an error naming the write
// (status error, exit 1), not a refusal; a swap search that stops at its
// budget's projection is refused after real work, and says how long it
// worked. Both had status refused with seconds 0.
func TestWorkedAnswersKeepTheirSeconds(t *testing.T) {
	// Each in its own process: --mem sets this process's memory limit and
	// its watchdog.
	exe := boardsatExe(t)
	dir := filepath.Join(t.TempDir(), "d")
	os.Mkdir(dir, 0o755)
	ck := filepath.Join(dir, "q.ck")
	for _, c := range []struct {
		args   []string
		status answer.Status
		exit   int
		msg    string
	}{
		{[]string{"solve", "queens:17", "--threads", "1", "--checkpoint", ck, "--checkpoint-every", "1ms"}, answer.Error, answer.ExitFailed,
			"checkpoint not written after "},
		{[]string{"solve", "swap:5x5", "--mem", "60M"}, answer.Refused, answer.ExitBadInput,
			"the search refuses to go on: a plan needs at least 20 moves, and after 8 of them"},
	} {
		cmd := exec.Command(exe, append(c.args, "--format", "json", "--quiet")...)
		var mu sync.Mutex
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = lockedWriter{&mu, &stdout}, lockedWriter{&mu, &stderr}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if c.status == answer.Error {
			// The checkpoint is written when the count starts; then its
			// directory goes away (the count takes seconds: queens:15 took 0.5 s,
			// and finished first on a quiet machine).
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				if _, err := os.Stat(ck); err == nil {
					break
				}
			}
			os.RemoveAll(dir)
		}
		cmd.Wait()
		mu.Lock()
		code, out, errOut := cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
		mu.Unlock()
		var a answer.Answer
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatalf("%v: %v in %q", c.args, err, out)
		}
		if code != c.exit || a.Status != c.status || a.Message == nil || !strings.HasPrefix(*a.Message, c.msg) || a.Seconds <= 0 || a.Instance == "" {
			t.Errorf("%v: exit %d, status %s, seconds %v, message %v; want exit %d, status %s, message %q, seconds > 0", c.args, code, a.Status, a.Seconds, deref(a.Message), c.exit, c.status, c.msg)
		}
		if c.status == answer.Error && !strings.Contains(*a.Message, "subproblems: cannot write "+ck) {
			t.Errorf("%v: message %q does not name the write", c.args, *a.Message)
		}
		if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: stderr %q", c.args, errOut)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestBenchInterruptHint: an interrupted bench suggests --resume only when
// its rows went to a file (-o) that --resume can read.
func TestBenchInterruptHint(t *testing.T) {
	if testing.Short() {
		t.Skip("interrupts a bench run")
	}
	exe := boardsatExe(t)
	suite := writeSuite(t, "queens:4 backends=native/plain task=count\nqueens:27 backends=native/plain task=count timeout=5m\n")
	csv := filepath.Join(t.TempDir(), "r.csv")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", suite, "--quiet"}, "the rows went to stdout, so nothing can be resumed: run the suite again, with -o FILE to be able to finish an interrupted bench with --resume"},
		{[]string{"bench", suite, "--quiet", "-o", csv}, "; finish with --resume"},
	} {
		cmd := exec.Command(exe, c.args...)
		var mu sync.Mutex
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = lockedWriter{&mu, &out}, lockedWriter{&mu, &errOut}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Interrupt once the first run's row is out (the second runs for
		// minutes).
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			mu.Lock()
			rows := strings.Count(out.String(), "\n")
			mu.Unlock()
			data, _ := os.ReadFile(csv)
			if rows >= 2 || strings.Count(string(data), "\n") >= 2 {
				break
			}
		}
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		mu.Lock()
		e := errOut.String()
		mu.Unlock()
		if code := cmd.ProcessState.ExitCode(); code != answer.ExitInterrupted || !strings.Contains(e, "interrupted: 1 runs written to ") || !strings.HasSuffix(e, c.want+"\n") {
			t.Errorf("%v: exit %d, stderr %q; want 130 and %q", c.args, code, e, c.want)
		}
	}
}
