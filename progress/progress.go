// Package progress shows how far a long job has got (done of total
// subproblems or runs) on a writer, usually stderr: on a terminal a live bar
// with an ETA redrawn in place; elsewhere (a cluster job's log) a plain line
// every few seconds. A job that ends quickly prints nothing.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Meter prints progress reports to W. Its zero fields take defaults; it is
// safe for concurrent use.
type Meter struct {
	// W receives the reports.
	W io.Writer
	// Terminal selects the live bar (redrawn with \r) instead of lines.
	Terminal bool
	// Label names the job ("queens:16", "bench quick").
	Label string
	// Unit names what is counted ("subproblems", "runs").
	Unit string
	// Delay is how long the job runs before the first report (default one
	// second on a terminal, Every otherwise).
	Delay time.Duration
	// Every is the least time between two plain lines (default 5 s); a
	// terminal bar is redrawn at most every 200 ms.
	Every time.Duration
	// Now is the clock (default time.Now), for tests.
	Now func() time.Time

	mu          sync.Mutex
	start, last time.Time
	drawn       bool
	phase       string // the unit of the phase under way (Phase)
	base        int    // done at the phase's first report
	based       bool
}

// Phase starts a new phase of the job when unit differs from the current
// one: later reports count in unit, and the elapsed time and the ETA are
// the new phase's own, measured from its first report and from the work
// done at that report (a counter that builds tables before it solves its
// subproblems, or a run resumed from a checkpoint with work already done,
// does not skew the ETA).
func (m *Meter) Phase(unit string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if unit == m.phase {
		return
	}
	m.phase, m.Unit = unit, unit
	m.start, m.based, m.drawn = time.Time{}, false, false
}

func (m *Meter) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Update reports done of total; note (optional) says what runs now.
func (m *Meter) Update(done, total int, note string) {
	if m == nil || m.W == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if m.start.IsZero() {
		m.start, m.last = now, now
	}
	if !m.based {
		m.base, m.based = done, true
	}
	every := m.Every
	if every <= 0 {
		every = 5 * time.Second
	}
	delay := m.Delay
	if delay <= 0 {
		delay = every
		if m.Terminal {
			delay = time.Second
		}
	}
	gap := every
	if m.Terminal {
		gap = 200 * time.Millisecond
	}
	if now.Sub(m.start) < delay || (m.drawn && now.Sub(m.last) < gap) {
		return
	}
	m.last, m.drawn = now, true
	elapsed := now.Sub(m.start)
	eta := "--:--"
	if done > m.base && total >= done {
		eta = clock(time.Duration(float64(elapsed) / float64(done-m.base) * float64(total-done)))
	}
	unit := m.Unit
	if unit == "" {
		unit = "done"
	}
	if m.Terminal {
		const width = 30
		filled := 0
		if total > 0 {
			filled = min(done*width/total, width)
		}
		if len(note) > 40 {
			note = note[:40]
		}
		fmt.Fprintf(m.W, "\r\033[K%s [%s%s] %d/%d %s ETA %s  %s", m.Label, strings.Repeat("=", filled),
			strings.Repeat(" ", width-filled), done, total, unit, eta, note)
		return
	}
	pct := 0.0
	if total > 0 {
		pct = 100 * float64(done) / float64(total)
	}
	line := fmt.Sprintf("%s: %d/%d %s (%.1f%%), elapsed %s, ETA %s", m.Label, done, total, unit, pct, clock(elapsed), eta)
	if note != "" {
		line += ", " + note
	}
	fmt.Fprintln(m.W, line)
}

// Finish clears a live bar, so the job's own output starts on a clean line.
func (m *Meter) Finish() {
	if m == nil || m.W == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Terminal && m.drawn {
		fmt.Fprint(m.W, "\r\033[K")
	}
}

// clock formats a duration as H:MM:SS or M:SS.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
