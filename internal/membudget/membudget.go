// Package membudget is the one memory budget of every search that stores
// states: how many bytes it may use, a watchdog that ends a search whose
// process outgrows them (so it stops with status memout before the machine
// swaps or the kernel kills it), and byte sizes in words people read.
//
// The budget is the Go runtime's memory limit when one is set (solve --mem
// sets it; so does GOMEMLIMIT), else the machine's memory less a margin (an
// eighth, at least 1 GiB), and at most what is available when the process
// starts less 1 GiB; in a memory cgroup (a container, a batch job), at most
// three quarters of what the cgroups still allow the process when it
// starts (package cgroups), so that the search ends with memout before the
// kernel kills the process. The budget is also the runtime's soft limit. A search that can estimate its peak up front
// refuses an instance whose estimate passes Budget(); every native search
// runs under Watch, which cancels its context once the process's resident
// set passes the budget.
package membudget

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardsat/boardsat/internal/cgroups"
)

// Fallback is the budget when neither a runtime limit is set nor the
// machine's memory can be read (no /proc/meminfo).
const Fallback int64 = 8 << 30

// meminfo returns a field of /proc/meminfo in bytes, or 0.
func meminfo(field string) int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			if f := strings.Fields(rest); len(f) >= 1 {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// Machine returns the machine's memory in bytes (MemTotal of
// /proc/meminfo), or 0 when it cannot be read.
var Machine = sync.OnceValue(func() int64 { return meminfo("MemTotal") })

// Default returns the budget when no limit is set, fixed at its first
// call: the machine's memory less an eighth of it (at least 1 GiB), and
// no more than the memory then available (MemAvailable) less 1 GiB, so
// that on a machine other work shares the search stops before the
// machine swaps; Fallback when /proc/meminfo cannot be read. Under a
// memory cgroup it is also no more than three quarters of the cgroups'
// room (limit less usage, the least over the process's group and those
// above it). The quarter is the reserve for what grows between two
// samples of Watch, where the cgroup's limit, unlike the machine's, is a
// kill: a search's table that grows by a quarter at once (a slice past a
// few hundred MiB), the memory the cgroup counts besides the resident set.
// Measured in a 600 MiB cgroup: swap:8x8 --heuristic astar jumps from 458
// to 628 MiB in one append, so a reserve of an eighth let the kernel kill
// it, a quarter ends it with memout at 454 MiB.
var Default = sync.OnceValue(func() int64 {
	room, limited := cgroups.MemoryRoom()
	return defaultBudget(Machine(), meminfo("MemAvailable"), room, limited)
})

// defaultBudget is Default from the machine's memory and the memory
// available (bytes, 0 when unknown) and the cgroups' room (if limited).
func defaultBudget(machine, avail, room int64, limited bool) int64 {
	b := Fallback
	if machine > 0 {
		b = machine - max(machine/8, 1<<30)
		if avail > 0 {
			b = min(b, max(avail-(1<<30), 256<<20))
		}
	}
	if limited {
		b = min(b, max(room-room/4, 1))
	}
	return b
}

// Budget returns the bytes a search may use: the Go runtime's memory limit
// if one is set, else Default(), which it then makes the runtime's soft
// limit (as Set does), so that the collector keeps the garbage of a
// growing search within the budget rather than letting the heap double
// past it between two collections.
func Budget() int64 {
	if l := debug.SetMemoryLimit(-1); l < math.MaxInt64 {
		return l
	}
	d := Default()
	Set(d)
	return d
}

// Set makes limit the budget of this process (solve --mem): the Go
// runtime's soft memory limit, so that the collector also works harder
// near it.
func Set(limit int64) { debug.SetMemoryLimit(limit) }

// Resident returns this process's resident set size in bytes (Linux), or 0.
func Resident() int64 { return cgroups.ResidentOf(os.Getpid()) }

// Exceeded is the cause of a context that Watch cancelled.
type Exceeded struct {
	// Resident is the resident set seen, Budget the budget it passed.
	Resident, Budget int64
}

func (e *Exceeded) Error() string {
	return fmt.Sprintf("resident memory %s passed the memory budget of %s (--mem sets it)", Bytes(e.Resident), Bytes(e.Budget))
}

// Poll is how often Watch samples the resident set; FastPoll how often
// once it has passed three quarters of the budget, so that a search
// growing fast (a table copied as it grows) passes the budget by what it
// allocates in a millisecond rather than in ten.
var Poll, FastPoll = 10 * time.Millisecond, time.Millisecond

// Sample calls over with the resident set once it passes limit, sampling
// every Poll, every FastPoll above three quarters of limit, until done is
// closed or over returns; the one sampler of Watch and of solve --mem.
func Sample(limit int64, done <-chan struct{}, over func(rss int64)) {
	sample(Resident, limit, done, over, Poll)
}

// SampleWith is Sample of what read returns (the whole process tree's
// memory, TreeResident or TreeDefault's), with one more tier: below half
// of limit it samples every SlowPoll. Such a read costs more than one
// small file, and a watchdog polls on wall time, so that on a loaded
// machine (a run waiting for a core) it would otherwise charge the run CPU
// time in proportion to its wait; the cap, where a cgroup holds one, is
// the kernel's whatever the sampling.
func SampleWith(read func() int64, limit int64, done <-chan struct{}, over func(rss int64)) {
	sample(read, limit, done, over, SlowPoll)
}

// SlowPoll is how often SampleWith samples below half of its limit.
var SlowPoll = 50 * time.Millisecond

// sample calls over once read passes limit, sampling every slow below half
// of limit, every Poll up to three quarters, every FastPoll above.
func sample(read func() int64, limit int64, done <-chan struct{}, over func(rss int64), slow time.Duration) {
	t := time.NewTimer(min(Poll, slow))
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		rss := read()
		switch {
		case rss > limit:
			over(rss)
			return
		case rss > limit/4*3:
			t.Reset(FastPoll)
		case rss > limit/2:
			t.Reset(Poll)
		default:
			t.Reset(slow)
		}
	}
}

// Watch returns a context that is cancelled, with cause *Exceeded, once the
// process's resident set passes budget; stop ends the watch (call it when
// the search returns). A budget of 0 or less watches nothing.
func Watch(ctx context.Context, budget int64) (watched context.Context, stop func()) {
	wctx, cancel := context.WithCancelCause(ctx)
	if budget <= 0 {
		return wctx, func() { cancel(nil) }
	}
	done := make(chan struct{})
	stopped := make(chan struct{}) // done, or the context ended
	go func() {
		select {
		case <-done:
		case <-wctx.Done():
		}
		close(stopped)
	}()
	go Sample(budget, stopped, func(rss int64) { cancel(&Exceeded{Resident: rss, Budget: budget}) })
	var once sync.Once
	return wctx, func() {
		once.Do(func() { close(done); cancel(nil) })
	}
}

// Over returns the *Exceeded that ended ctx (Watch), or nil when ctx is
// live or ended for another reason (a deadline).
func Over(ctx context.Context) *Exceeded {
	if e, ok := context.Cause(ctx).(*Exceeded); ok {
		return e
	}
	return nil
}

// Bytes writes a byte count for people: "512 B", "200 MiB", "1.5 GiB",
// "20.9 GiB", with one decimal below 100 units (so that two sizes a
// message compares do not round to one figure) and none above.
func Bytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	switch {
	case u == 0:
		return fmt.Sprintf("%d B", n)
	case f < 100 && math.Round(f*10) != math.Round(f)*10:
		return fmt.Sprintf("%.1f %s", f, units[u])
	default:
		return fmt.Sprintf("%.0f %s", f, units[u])
	}
}
