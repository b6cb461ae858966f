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
