package progress

import (
	"bytes"
	"strings"
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
