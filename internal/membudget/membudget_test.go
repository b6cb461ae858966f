package membudget

import (
	"context"
	"math"
	"testing"
	"time"
)

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 512: "512 B", 1536: "1.5 KiB", 200 << 20: "200 MiB",
		2 << 30: "2 GiB", 3 << 29: "1.5 GiB", 21 << 30: "21 GiB", 20<<30 + 900<<20: "20.9 GiB", 300 << 30: "300 GiB",
	} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestBudget: the runtime's memory limit is the budget when set; else the
// machine's memory less a margin.
func TestBudget(t *testing.T) {
	defer Set(math.MaxInt64)
	Set(math.MaxInt64)
	if m := Machine(); m > 0 {
		if d := Budget(); d >= m || d < 256<<20 {
			t.Errorf("default budget %d of machine %d", d, m)
		}
	}
	Set(200 << 20)
	if b := Budget(); b != 200<<20 {
		t.Errorf("budget %d after Set(200 MiB)", b)
	}
}

// TestWatch: a budget under the resident set cancels the context with
// *Exceeded; a large one does not, and stop ends the watch.
func TestWatch(t *testing.T) {
	if Resident() <= 0 {
		t.Skip("no /proc/self/statm")
	}
	ctx, stop := Watch(context.Background(), 1)
	defer stop()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a budget of 1 byte was not noticed")
	}
	if e := Over(ctx); e == nil || e.Budget != 1 || e.Resident <= 1 {
		t.Errorf("Over = %v", e)
	}
	ctx, stop = Watch(context.Background(), math.MaxInt64)
	time.Sleep(3 * Poll)
	if ctx.Err() != nil || Over(ctx) != nil {
		t.Errorf("a huge budget ended the context: %v", context.Cause(ctx))
	}
	stop()
	if ctx.Err() == nil || Over(ctx) != nil {
		t.Errorf("after stop: err %v, over %v", ctx.Err(), Over(ctx))
	}
}

// TestDefaultBudget: the machine's rule, and under a memory cgroup three
// quarters of the cgroups' room when that is less.
func TestDefaultBudget(t *testing.T) {
	const gib = int64(1) << 30
	for _, c := range []struct {
		machine, avail, room int64
		limited              bool
		want                 int64
	}{
		{32 * gib, 30 * gib, 0, false, 28 * gib},
		{32 * gib, 8 * gib, 0, false, 7 * gib},
		{0, 0, 0, false, Fallback},
		{24 * gib, 23 * gib, 600 << 20, true, 450 << 20},
		{0, 0, 800 << 20, true, 600 << 20},
		{24 * gib, 23 * gib, 64 * gib, true, 21 * gib},
		{24 * gib, 23 * gib, 4, true, 3},
		{24 * gib, 23 * gib, 0, true, 1},
	} {
		if got := defaultBudget(c.machine, c.avail, c.room, c.limited); got != c.want {
			t.Errorf("defaultBudget(%d, %d, %d, %v) = %d, want %d", c.machine, c.avail, c.room, c.limited, got, c.want)
		}
	}
}

// TestSample: the sampler reports a resident set past its limit (once),
// and returns without a report when done is closed first.
func TestSample(t *testing.T) {
	if Resident() <= 0 {
		t.Skip("no /proc/self/statm")
	}
	got := make(chan int64, 2)
	Sample(1, nil, func(rss int64) { got <- rss })
	if len(got) != 1 {
		t.Fatalf("%d reports of a limit of 1 byte", len(got))
	}
	if rss := <-got; rss <= 1 {
		t.Errorf("reported %d", rss)
	}
	done := make(chan struct{})
	returned := make(chan struct{})
	go func() { Sample(math.MaxInt64, done, func(int64) { got <- 0 }); close(returned) }()
	time.Sleep(3 * Poll)
	close(done)
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("Sample did not return when done was closed")
	}
	if len(got) != 0 {
		t.Error("a huge limit was reported as passed")
	}
}
