// Package measure runs one command as a measured process tree: the CPU
// time (user and sys) and the peak memory of the command and every process
// it starts, its wall time, and limits on all three. It knows nothing of
// puzzles or results files; bench plans runs and judges their answers, and
// calls Run for each.
//
// # Methods
//
// A Meter is one way to see a process tree; New picks the best the machine
// allows. Cgroup2 gives the run a cgroup of its own in the unified
// hierarchy, with the memory controller, and clones the child straight into
// it; Cgroup1 makes cgroups in the v1 cpuacct and memory hierarchies and
// starts the child through a shell that enters them first. CPU seconds and
// the peak memory are then the kernel's accounting of every process of the
// tree, the ones that left the process group or were never waited for
// included. Rusage, which needs nothing of the machine, takes the CPU times
// of the reaped child (which include the descendants it waited for), or the
// sum over the tree's processes sampled from /proc when that is more, and
// the largest sampled sum of resident set sizes as the peak: never
// ru_maxrss, which carries the parent's RSS across the fork and exec.
//
// An accounting file that cannot be read or parsed is an error of the
// measurement, never a zero: a limit that silently never trips, or a run
// that seems to cost nothing, would be worse than no figure.
//
// # Limits
//
// Run enforces three limits on the tree (Limits): wall-clock time from the
// start, CPU time (user + sys), and memory. Under a cgroup method the
// memory limit is a hard cap of the run's cgroup, held by the kernel as
// BenchExec holds it (memory.max with memory.swap.max 0, or v1's
// memory.limit_in_bytes with memory.memsw.limit_in_bytes): the tree never
// holds more, and a run the kernel's out-of-memory killer ended there is a
// memout (Usage.LimitedBy names the cgroup). Otherwise (Rusage, or
// SampledEnv set) the tree's memory is sampled against the limit
// (LimitedBy "sampled"). The CPU and memory figures are polled every
// PollInterval and read once more at the end, so that whether a run is
// over a limit does not depend on the polling. RLIMIT_AS is not used: the
// Go runtime reserves far more virtual memory than it touches.
// Usage.Exceeded says which limit ended the run; the tree is killed then.
package measure

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/boardsat/boardsat/internal/cgroups"
	"github.com/boardsat/boardsat/internal/cpuset"
)

// The measurement methods, as Meter.Method names them (and results rows
// record them).
const (
	Cgroup2 = "cgroup2"
	Cgroup1 = "cgroup1"
	Rusage  = "rusage"
)

// Sampled names the memory limit held by sampling the tree (Usage.LimitedBy).
const Sampled = "sampled"

// SampledEnv, set to "1" in the environment, makes every memory limit
// sampled even where a cgroup could cap it (to test the fallback, or to
// compare the two).
const SampledEnv = cgroups.SampledEnv

// Methods lists the methods, the best first: the order New tries them in.
var Methods = []string{Cgroup2, Cgroup1, Rusage}

// Limit names the limit that ended a run.
type Limit string

// The limits of a run.
const (
	LimitWall Limit = "wall" // wall-clock time since the start
	LimitCPU  Limit = "cpu"  // user + sys of the whole tree
	LimitMem  Limit = "mem"  // memory of the whole tree
)

// PollInterval is how often the tree's CPU time and memory are read while
// it runs.
const PollInterval = 10 * time.Millisecond

// A Meter measures one run's process tree. Prepare and Attach put the
// child in its view, before and after the start; CPU, MemoryKB and PeakKB
// read the figures of the whole tree; Kill ends every process of it, Close
// ends them and frees what the meter holds.
type Meter interface {
	// Method is the method's name: Cgroup2, Cgroup1 or Rusage.
	Method() string
	// Prepare adapts cmd, not yet started, so that the child starts inside
	// the meter's view (cloned into the cgroup, or through a shell that
	// enters it).
	Prepare(cmd *exec.Cmd)
	// Attach tells the meter the started child's pid.
	Attach(pid int) error
	// CPU returns the CPU seconds used so far by the whole tree.
	CPU() (user, sys float64, err error)
	// MemoryKB returns the whole tree's memory now, in KiB.
	MemoryKB() (int64, error)
	// PeakKB returns the tree's peak memory as the kernel kept it, in KiB
	// (0 where the method has none of its own: then the peak is the
	// largest MemoryKB read).
	PeakKB() (int64, error)
	// Reaped hands over the state of the reaped child.
	Reaped(ps *os.ProcessState)
	// CapMemory makes kb a hard cap on the tree's memory, held by the
	// kernel, and reports whether it could (false: the memory is sampled).
	CapMemory(kb int64) bool
	// OOMKilled reports whether the kernel killed a process of the tree
	// at the cap.
	OOMKilled() bool
	// Kill kills every process of the tree.
	Kill()
	// Close kills what is left and frees the meter's cgroups and files.
	Close()
}

// New returns a meter of method (Cgroup2, Cgroup1, Rusage), or for "" the
// best the machine allows, in the order of Methods. A method named that
// the machine does not allow is an error.
func New(method string) (Meter, error) {
	try := Methods
	if method != "" {
		try = []string{method}
	}
	var errs []error
	for _, m := range try {
		var mt Meter
		var err error
		switch m {
		case Cgroup2:
			mt, err = newCgroup2(cgroupName())
		case Cgroup1:
			mt, err = newCgroup1(cgroupName())
		case Rusage:
			mt, err = newRusage()
		default:
			return nil, fmt.Errorf("unknown measurement method %q: want %s", m, strings.Join(Methods, ", "))
		}
		if err == nil {
			return mt, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", m, err))
	}
	return nil, errors.Join(errs...)
}

// Limits are the limits of one run; a zero field is no limit.
type Limits struct {
	// Wall is the wall-clock time from the start after which the tree is
	// killed.
	Wall time.Duration
	// CPU is the most CPU time (user + sys) the whole tree may use.
	CPU time.Duration
	// MemKB is the most memory the whole tree may hold, in KiB.
	MemKB int64
}

// Usage is what a run used.
type Usage struct {
	// Method is the measurement method (Meter.Method).
	Method string
	// Wall is the time from the start of the child to its exit.
	Wall time.Duration
	// User and Sys are the CPU seconds of the whole tree.
	User, Sys float64
	// PeakKB is the peak memory of the whole tree, in KiB.
	PeakKB int64
	// Exceeded is the limit that ended the run ("" when none did).
	Exceeded Limit
	// LimitedBy says how the memory limit was held: the method's name
	// (Cgroup2, Cgroup1) for a hard cap of the run's cgroup, Sampled for
	// the tree's memory sampled against it; "" without a memory limit.
	LimitedBy string
	// Wait is the child's exit as exec.Cmd.Wait returned it (nil for
	// status 0).
	Wait error
}

// CPUSeconds returns user + sys.
func (u Usage) CPUSeconds() float64 { return u.User + u.Sys }

// Runner runs commands with a chosen measurement method and cores.
type Runner struct {
	// Method is the measurement method; "" for the best the machine
	// allows (New).
	Method string
	// CPUs, if set, are the cores the child, and so its whole tree, is
	// pinned to.
	CPUs []int
}

// Run runs cmd, not yet started, as a measured process tree under limits
// with the best method the machine allows; see Runner.Run.
func Run(ctx context.Context, cmd *exec.Cmd, limits Limits) (Usage, error) {
	return Runner{}.Run(ctx, cmd, limits)
}

// Run runs cmd, not yet started, as a measured process tree under limits,
// and returns what it used. The child gets a process group of its own and
// dies with the calling thread's process. A run that ends at a limit is no
// error (Usage.Exceeded says which); an error is a child that could not be
// started or measured, or ctx ended (ctx.Err(); the tree is killed).
func (r Runner) Run(ctx context.Context, cmd *exec.Cmd, limits Limits) (Usage, error) {
	m, err := New(r.Method)
	if err != nil {
		return Usage{}, fmt.Errorf("cannot measure the run: %w", err)
	}
	defer m.Close()
	return run(ctx, m, cmd, limits, r.CPUs)
}

// run runs cmd measured by m (see Runner.Run).
func run(ctx context.Context, m Meter, cmd *exec.Cmd, limits Limits, cpus []int) (Usage, error) {
	w := &watch{m: m, limits: limits, u: Usage{Method: m.Method()}}
	if limits.MemKB > 0 {
		w.u.LimitedBy = Sampled
		if m.CapMemory(limits.MemKB) {
			w.u.LimitedBy = m.Method()
		}
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	dieWithParent(cmd.SysProcAttr)
	m.Prepare(cmd)
	w.start = time.Now()
	if err := cpuset.StartPinned(cmd, cpus); err != nil {
		return w.u, fmt.Errorf("cannot start the child: %w", err)
	}
	w.done = make(chan error, 1)
	go func() { w.done <- cmd.Wait() }()
	if err := m.Attach(cmd.Process.Pid); err != nil {
		return w.fail(fmt.Errorf("cannot put the child in its cgroup: %w", err))
	}
	if err := w.wait(ctx); err != nil {
		return w.fail(err)
	}
	w.u.Wall = time.Since(w.start)
	// Kill anything left of the tree (a solver a crashed child left
	// behind), then read the tree's figures.
	m.Kill()
	if cmd.ProcessState != nil {
		m.Reaped(cmd.ProcessState)
	}
	return w.u, w.final()
}

// watch is one run in progress: its meter, limits and usage so far.
type watch struct {
	m      Meter
	limits Limits
	u      Usage
	start  time.Time
	done   chan error // the child's exit
}

// fail kills the tree, waits for the child and returns err.
func (w *watch) fail(err error) (Usage, error) {
	w.m.Kill()
	<-w.done
	w.u.Wall = time.Since(w.start)
	return w.u, err
}

// wait polls the tree until the child exits, killing it at a limit; an
// error is ctx's end or a figure that cannot be read.
func (w *watch) wait(ctx context.Context) error {
	var deadline <-chan time.Time
	if w.limits.Wall > 0 {
		t := time.NewTimer(w.limits.Wall)
		defer t.Stop()
		deadline = t.C
	}
	tick := time.NewTicker(PollInterval)
	defer tick.Stop()
	if err := w.over(); err != nil {
		return fmt.Errorf("cannot measure the run: %w", err)
	}
	for {
		select {
		case w.u.Wait = <-w.done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline:
			if w.u.Exceeded == "" {
				w.u.Exceeded = LimitWall
			}
			w.m.Kill()
		case <-tick.C:
			if w.u.Exceeded != "" {
				continue
			}
			if err := w.over(); err != nil {
				return fmt.Errorf("cannot measure the run: %w", err)
			}
			if w.u.Exceeded != "" {
				w.m.Kill()
			}
		}
	}
}

// over reads the tree's memory now and CPU so far against the limits.
func (w *watch) over() error {
	kb, err := w.m.MemoryKB()
	if err != nil {
		return err
	}
	w.u.PeakKB = max(w.u.PeakKB, kb)
	if w.limits.MemKB > 0 && kb > w.limits.MemKB {
		w.u.Exceeded = LimitMem
		return nil
	}
	user, sys, err := w.m.CPU()
	if err != nil {
		return err
	}
	if w.limits.CPU > 0 && user+sys > w.limits.CPU.Seconds() {
		w.u.Exceeded = LimitCPU
	}
	return nil
}

// final reads the tree's figures once the run has ended: over a limit at
// the end is over it, however the polling fell, and a process the kernel
// killed at the memory cap ended the run at the memory limit.
func (w *watch) final() error {
	var err error
	if w.u.User, w.u.Sys, err = w.m.CPU(); err != nil {
		return fmt.Errorf("cannot measure the run: %w", err)
	}
	peak, err := w.m.PeakKB()
	if err != nil {
		return fmt.Errorf("cannot measure the run: %w", err)
	}
	w.u.PeakKB = max(w.u.PeakKB, peak)
	if w.u.Exceeded == "" {
		switch {
		case w.limits.MemKB > 0 && (w.u.PeakKB > w.limits.MemKB || w.m.OOMKilled()):
			w.u.Exceeded = LimitMem
		case w.limits.CPU > 0 && w.u.CPUSeconds() > w.limits.CPU.Seconds():
			w.u.Exceeded = LimitCPU
		}
	}
	return nil
}

// keyValues reads a "key value" per line file such as cpu.stat, and
// returns the values of keys, each of which must be there.
func keyValues(path string, keys ...string) ([]int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	all := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			all[f[0]] = f[1]
		}
	}
	out := make([]int64, len(keys))
	for i, k := range keys {
		v, ok := all[k]
		if !ok {
			return nil, fmt.Errorf("%s: no %s", path, k)
		}
		if out[i], err = strconv.ParseInt(v, 10, 64); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, k, err)
		}
	}
	return out, nil
}
