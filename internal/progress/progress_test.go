package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock advances by step at every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

func TestPlainLinesEveryInterval(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{t: time.Unix(0, 0), step: time.Second}
	m := &Meter{W: &buf, Label: "queens:16", Unit: "subproblems", Every: 5 * time.Second, Now: clk.now}
	for done := 0; done <= 20; done++ {
		m.Update(done, 20, "")
	}
	m.Finish()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	// Updates at 1..21 s after a start at 1 s: lines at 6, 11, 16, 21 s.
	want := []string{
		"queens:16: 5/20 subproblems (25.0%), elapsed 0:05, ETA 0:15",
		"queens:16: 10/20 subproblems (50.0%), elapsed 0:10, ETA 0:10",
		"queens:16: 15/20 subproblems (75.0%), elapsed 0:15, ETA 0:05",
		"queens:16: 20/20 subproblems (100.0%), elapsed 0:20, ETA 0:00",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), strings.Join(want, "\n"))
	}
	if strings.Contains(buf.String(), "\r") {
		t.Error("plain lines contain a carriage return")
	}
}

func TestQuickJobPrintsNothing(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{t: time.Unix(0, 0), step: time.Millisecond}
	for _, term := range []bool{false, true} {
		m := &Meter{W: &buf, Terminal: term, Label: "x", Now: clk.now}
		for done := 0; done <= 100; done++ {
			m.Update(done, 100, "")
		}
		m.Finish()
	}
	if buf.Len() != 0 {
		t.Errorf("a job of 0.1 s printed %q", buf.String())
	}
}

func TestTerminalBar(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{t: time.Unix(0, 0), step: 500 * time.Millisecond}
	m := &Meter{W: &buf, Terminal: true, Label: "bench quick", Unit: "runs", Now: clk.now}
	for done := 0; done <= 10; done++ {
		m.Update(done, 10, "queens:8 native")
	}
	m.Finish()
	out := buf.String()
	if !strings.Contains(out, "\r\033[Kbench quick [===============               ] 5/10 runs ETA") ||
		!strings.Contains(out, "queens:8 native") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("bar output %q", out)
	}
	if strings.Contains(out, "\n") {
		t.Error("the bar printed a newline")
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0:00", 59 * time.Second: "0:59", 61 * time.Minute: "1:01:00", 3723 * time.Second: "1:02:03"} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestPhase: a new phase counts in its own unit, and its ETA comes from its
// own elapsed time and the work done since its first report (a resumed or
// second phase is not measured from the job's start).
func TestPhase(t *testing.T) {
	var b strings.Builder
	now := time.Unix(0, 0)
	m := &Meter{W: &b, Label: "job", Delay: time.Nanosecond, Every: time.Nanosecond, Now: func() time.Time { return now }}
	m.Phase("squares")
	m.Update(1, 4, "")
	now = now.Add(100 * time.Second)
	m.Update(4, 4, "")
	m.Phase("subproblems")
	now = now.Add(time.Second)
	m.Update(10, 100, "") // 10 resumed from a checkpoint
	now = now.Add(10 * time.Second)
	m.Update(20, 100, "")
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{
		"job: 4/4 squares (100.0%), elapsed 1:40, ETA 0:00",
		"job: 20/100 subproblems (20.0%), elapsed 0:10, ETA 1:20",
	}
	for _, w := range want {
		found := false
		for _, l := range lines {
			found = found || l == w
		}
		if !found {
			t.Errorf("no line %q in\n%s", w, b.String())
		}
	}
}

// TestHeartbeat: a started meter reports at least every Every (beats
// report once four fifths of it have passed) also without updates, as working with no estimate, with its note; nothing after
// Finish.
func TestHeartbeat(t *testing.T) {
	var b strings.Builder
	now := time.Unix(0, 0)
	m := &Meter{W: &b, Label: "queens:20", Unit: "models", Every: 5 * time.Second, Now: func() time.Time { return now }}
	m.Start()
	m.Note("probe cost <= 14")
	for range 12 {
		now = now.Add(time.Second)
		m.Beat()
	}
	m.Finish()
	now = now.Add(time.Minute)
	m.Beat()
	want := "queens:20: elapsed 0:05, working, no estimate, probe cost <= 14\n" +
		"queens:20: elapsed 0:09, working, no estimate, probe cost <= 14\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestStaleEstimate: an ETA is printed while the time it gave has not run
// out; a last step that takes minutes is reported as working, with no
// estimate, every Every.
func TestStaleEstimate(t *testing.T) {
	var b strings.Builder
	now := time.Unix(0, 0)
	m := &Meter{W: &b, Label: "bench main", Unit: "runs", Every: 5 * time.Second, Now: func() time.Time { return now }}
	m.Start()
	m.Update(0, 775, "")
	now = now.Add(120 * time.Second)
	m.Update(773, 775, "queens:20 sat")
	for range 60 {
		now = now.Add(time.Second)
		m.Beat()
	}
	m.Finish()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 16 {
		t.Fatalf("%d lines, want 16 (one at 2:00, then every 4 s for a minute):\n%s", len(lines), b.String())
	}
	if want := "bench main: 773/775 runs (99.7%), elapsed 2:00, ETA 0:00, queens:20 sat"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if want := "bench main: 773/775 runs (99.7%), elapsed 3:00, working, no estimate, queens:20 sat"; lines[15] != want {
		t.Errorf("last line %q, want %q", lines[15], want)
	}
}

// TestHeartbeatTicks: Start's own ticker reports without any call, and
// stops at Finish.
func TestHeartbeatTicks(t *testing.T) {
	var b syncBuffer
	m := &Meter{W: &b, Label: "x", Every: 10 * time.Millisecond, Delay: time.Nanosecond}
	m.Start()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(b.String(), "working, no estimate") < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	m.Finish()
	n := b.String()
	time.Sleep(50 * time.Millisecond)
	if strings.Count(n, "working, no estimate") < 2 || b.String() != n {
		t.Errorf("heartbeat output %q, then %q", n, b.String())
	}
}

// syncBuffer is a buffer safe for the heartbeat's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
