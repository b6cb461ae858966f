// Package progress shows how far a long job has got (done of total
// subproblems or runs) on a writer, usually stderr: on a terminal a live bar
// redrawn in place; elsewhere (a cluster job's log) a plain line every few
// seconds. A job that ends quickly prints nothing.
//
// A started meter (Start) is never silent: it reports at least every Every
// (5 s) whether or not the job has reported progress since, so a step that
// takes minutes shows as working. An ETA is printed only while there is an
// estimate: a known total, progress since the phase began, and a previous
// estimate not yet run out; otherwise the report says "working, no
// estimate".
package progress

import (
	"context"
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
	// Every is the least time between two plain lines, and the most
	// between two reports of a started meter (default 5 s); a terminal
	// bar is redrawn at most every 200 ms.
	Every time.Duration
	// Now is the clock (default time.Now), for tests.
	Now func() time.Time

	mu          sync.Mutex
	start, last time.Time
	drawn       bool
	phase       string // the unit of the phase under way (Phase)
	base        int    // done at the phase's first report
	based       bool
	// The latest report: done of total (total 0: unknown), its note, when
	// it came, and the time left that it estimated (negative: none).
	done, total int
	note        string
	at          time.Time
	left        time.Duration
	stop        chan struct{}
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

func (m *Meter) every() time.Duration {
	if m.Every <= 0 {
		return 5 * time.Second
	}
	return m.Every
}

// Start starts the clock and the heartbeat: from now until Finish the
// meter reports at least every Every (after Delay), also while no Update
// comes. A job whose steps give no done/total (a SAT search, one long run)
// is reported as working, with Note's text.
func (m *Meter) Start() {
	if m == nil || m.W == nil {
		return
	}
	m.mu.Lock()
	if m.stop != nil {
		m.mu.Unlock()
		return
	}
	if m.start.IsZero() {
		m.start, m.last, m.at, m.left = m.now(), m.now(), m.now(), -1
	}
	stop := make(chan struct{})
	m.stop = stop
	m.mu.Unlock()
	// Ticks five times per Every, and Beat reports once four fifths of it
	// have passed, so no two reports are more than Every apart.
	tick := m.every() / 5
	if m.Terminal {
		tick = time.Second / 5
	}
	go func() {
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				m.Beat()
			}
		}
	}()
}

// Note sets what the job is doing now, for the reports of a job that
// counts nothing (a SAT search: "12 models", "probe cost <= 14").
func (m *Meter) Note(note string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.note = note
}

// Update reports done of total (total 0 or less: unknown); note (optional)
// says what runs now.
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
	m.done, m.total, m.note, m.at = done, total, note, now
	m.left = -1
	if done > m.base && total >= done {
		m.left = time.Duration(float64(now.Sub(m.start)) / float64(done-m.base) * float64(total-done))
	}
	gap := m.every()
	if m.Terminal {
		gap = 200 * time.Millisecond
	}
	m.report(now, gap)
}

// Beat reports the latest state if the last report is older than four
// fifths of Every (a terminal bar: of a second), so the elapsed time moves on and a step that
// takes long shows as working. Start calls it on a ticker; between
// Start and Finish only.
func (m *Meter) Beat() {
	if m == nil || m.W == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stop == nil || m.start.IsZero() {
		return
	}
	now := m.now()
	gap := m.every() * 4 / 5
	if m.Terminal {
		gap = time.Second * 4 / 5
	}
	m.report(now, gap)
}

// report prints the latest state if the delay has passed and the last
// report is at least gap old; m.mu is held.
func (m *Meter) report(now time.Time, gap time.Duration) {
	every := m.every()
	delay := m.Delay
	if delay <= 0 {
		delay = every
		if m.Terminal {
			delay = time.Second
		}
	}
	if now.Sub(m.start) < delay || (m.drawn && now.Sub(m.last) < gap) {
		return
	}
	m.last, m.drawn = now, true
	elapsed := now.Sub(m.start)
	// An estimate holds until the time it gave has run out.
	eta := "working, no estimate"
	if m.left >= 0 && now.Sub(m.at) <= m.left+every {
		eta = "ETA " + clock(max(m.left-now.Sub(m.at), 0))
	}
	unit := m.Unit
	if unit == "" {
		unit = "done"
	}
	done, total, note := m.done, m.total, m.note
	if m.Terminal {
		if len(note) > 40 {
			note = note[:40]
		}
		if total <= 0 {
			fmt.Fprintf(m.W, "\r\033[K%s elapsed %s, %s  %s", m.Label, clock(elapsed), eta, note)
			return
		}
		const width = 30
		filled := min(done*width/total, width)
		fmt.Fprintf(m.W, "\r\033[K%s [%s%s] %d/%d %s %s  %s", m.Label, strings.Repeat("=", filled),
			strings.Repeat(" ", width-filled), done, total, unit, eta, note)
		return
	}
	var line string
	if total > 0 {
		line = fmt.Sprintf("%s: %d/%d %s (%.1f%%), elapsed %s, %s", m.Label, done, total, unit, 100*float64(done)/float64(total), clock(elapsed), eta)
	} else {
		// Nothing counted against a total: the note says what runs.
		line = fmt.Sprintf("%s: elapsed %s, %s", m.Label, clock(elapsed), eta)
	}
	if note != "" {
		line += ", " + note
	}
	fmt.Fprintln(m.W, line)
}

// Finish stops the heartbeat and clears a live bar, so the job's own
// output starts on a clean line.
func (m *Meter) Finish() {
	if m == nil || m.W == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stop != nil {
		close(m.stop)
		m.stop = nil
	}
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

// noteKey keys the meter a context carries.
type noteKey struct{}

// WithNote returns ctx carrying m, so that a search deep inside a backend,
// which knows nothing of meters, can say what it is doing with Notef. A
// nil m leaves ctx as it is.
func WithNote(ctx context.Context, m *Meter) context.Context {
	if m == nil {
		return ctx
	}
	return context.WithValue(ctx, noteKey{}, m)
}

// Notef sets the note of the meter ctx carries (WithNote), if any: "1200
// models", "probe: cost at most 14, 12 proved". It is cheap when there is
// no meter.
func Notef(ctx context.Context, format string, args ...any) {
	if m, ok := ctx.Value(noteKey{}).(*Meter); ok {
		m.Note(fmt.Sprintf(format, args...))
	}
}
