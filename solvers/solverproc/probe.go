package solverproc

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A probe is a short command boardsat runs to learn about a solver, not to
// solve: its version command, --version, dpkg-query. Probes run under the
// watchdog like every solver (nothing a probe starts, a daemon included,
// outlives it), each within its own time and output budget, once per
// command for the life of the process, and all end at once on StopProbes.
const (
	// ProbeTimeout is the wall-clock budget of one probe.
	ProbeTimeout = 10 * time.Second
	// ProbeOutput is the most output a probe may print (stdout and
	// stderr together); past it the probe is killed and its output so
	// far kept.
	ProbeOutput = 64 << 10
)

var (
	probeCtx, stopProbes = context.WithCancel(context.Background())
	probeMu              sync.Mutex
	probeCache           = map[string]*probeResult{}
)

// probeResult is one probe's outcome, computed once.
type probeResult struct {
	once sync.Once
	out  []byte
	err  error
}

// StopProbes ends every probe running now or started later (a signal
// stops the command that runs them): each answers as a failed probe.
func StopProbes() { stopProbes() }

// errProbeOutput ends a probe that printed more than ProbeOutput.
var errProbeOutput = errors.New("printed more than a probe may")

// capped is a probe's output: at most ProbeOutput bytes, then an error
// that ends the copy (the probe then meets a closed pipe) and the probe.
type capped struct {
	buf    bytes.Buffer
	cancel context.CancelFunc
}

func (c *capped) Write(p []byte) (int, error) {
	if room := ProbeOutput - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:max(room, 0)])
		c.cancel()
		return 0, errProbeOutput
	}
	return c.buf.Write(p)
}

// Probe runs argv (a program and its arguments) as a probe and returns
// what it printed on stdout and stderr (at most ProbeOutput bytes) and how
// it ended; the same argv is run once per process and its outcome reused.
func Probe(argv ...string) ([]byte, error) {
	// The program as PATH finds it now: a probe of another program of
	// the same name (another PATH) is another probe.
	prog := argv[0]
	if p, err := exec.LookPath(prog); err == nil {
		prog = p
	}
	key := strings.Join(append([]string{prog}, argv[1:]...), "\x00")
	probeMu.Lock()
	r, ok := probeCache[key]
	if !ok {
		r = &probeResult{}
		probeCache[key] = r
	}
	probeMu.Unlock()
	r.once.Do(func() { r.out, r.err = runProbe(argv) })
	return r.out, r.err
}

// runProbe runs one probe within its budgets.
func runProbe(argv []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(probeCtx, ProbeTimeout)
	defer cancel()
	cmd := Command(ctx, argv[0], argv[1:]...)
	out := &capped{cancel: cancel}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, out, out
	err := cmd.Run()
	if ctx.Err() != nil && err == nil {
		err = ctx.Err()
	}
	return out.buf.Bytes(), err
}
