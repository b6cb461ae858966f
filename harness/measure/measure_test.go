package measure

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the measured child: with MEASURE_CHILD set it
// does what the variable says instead of running the tests.
const childEnv = "MEASURE_CHILD"

func TestMain(m *testing.M) {
	if what := os.Getenv(childEnv); what != "" {
		os.Exit(child(what))
	}
	os.Exit(m.Run())
}

// child acts out what: "burn:D" spins a core until it used D of CPU time; "hog:N" touches N MiB
// and sleeps; "sleep:D" sleeps; "tree:D" starts a child of its own that
// burns for D, and waits for it.
func child(what string) int {
	kind, arg, _ := strings.Cut(what, ":")
	switch kind {
	case "burn":
		// Until this process has used d of CPU time, however loaded the
		// machine is.
		d, _ := time.ParseDuration(arg)
		x := 0
		for {
			var ru syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			if time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) >= d {
				return x & 0
			}
			for i := range 100000 {
				x += i
			}
		}
	case "hog":
		n, _ := strconv.Atoi(arg)
		buf := make([]byte, n<<20)
		for i := 0; i < len(buf); i += 4096 {
			buf[i] = 1
		}
		time.Sleep(5 * time.Second)
		return int(buf[len(buf)-1]) - 1
	case "sleep":
		d, _ := time.ParseDuration(arg)
		time.Sleep(d)
		return 0
	case "tree", "treehog":
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=burn:"+arg)
		if kind == "treehog" {
			cmd.Env = append(os.Environ(), childEnv+"=hog:"+arg)
		}
		if cmd.Run() != nil {
			return 1
		}
		return 0
	}
	return 3
}

func childCmd(what string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"="+what)
	return cmd
}

// methods returns the methods this machine allows: the best, and rusage.
func methods(t *testing.T) []string {
	m, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	if m.Method() == Rusage {
		t.Logf("no writable cgroups here: only rusage is tested")
		return []string{Rusage}
	}
	return []string{m.Method(), Rusage}
}

// TestBurnMeasured: a child that spins until it has used 300 ms of CPU,
// and one whose own child does so, are measured with at least that CPU
// time (less a twelfth: the kernel and the child count apart), memory
// above 0, and no limit: the grandchild's time counts.
func TestBurnMeasured(t *testing.T) {
	for _, method := range methods(t) {
		for _, what := range []string{"burn:300ms", "tree:300ms"} {
			u, err := Runner{Method: method}.Run(context.Background(), childCmd(what), Limits{Wall: time.Minute})
			if err != nil {
				t.Fatalf("%s %s: %v", method, what, err)
			}
			if u.Method != method || u.CPUSeconds() < 0.25 || u.PeakKB <= 0 || u.Exceeded != "" || u.Wait != nil {
				t.Errorf("%s %s: %+v, want CPU >= 0.25 s, a peak, no limit, exit 0", method, what, u)
			}
		}
	}
}

// TestLimitsTrip: each limit ends a run that goes past it, and says so.
func TestLimitsTrip(t *testing.T) {
	for _, method := range methods(t) {
		for _, c := range []struct {
			what   string
			limits Limits
			want   Limit
		}{
			{"sleep:1m", Limits{Wall: 300 * time.Millisecond}, LimitWall},
			{"burn:1m", Limits{Wall: time.Minute, CPU: 200 * time.Millisecond}, LimitCPU},
			{"hog:200", Limits{Wall: time.Minute, MemKB: 50 << 10}, LimitMem},
		} {
			start := time.Now()
			u, err := Runner{Method: method}.Run(context.Background(), childCmd(c.what), c.limits)
			if err != nil {
				t.Fatalf("%s %s: %v", method, c.what, err)
			}
			if u.Exceeded != c.want || time.Since(start) > 20*time.Second {
				t.Errorf("%s %s under %+v: %+v, want limit %s", method, c.what, c.limits, u, c.want)
			}
			if c.want == LimitCPU && u.CPUSeconds() <= 0.2 {
				t.Errorf("%s: ended by the CPU limit with %.3f s of CPU", method, u.CPUSeconds())
			}
			// Capped, the tree never holds more than the limit; sampled, it
			// is seen past it.
			if c.want == LimitMem && u.PeakKB < 45<<10 {
				t.Errorf("%s: ended by the memory limit with a peak of %d KiB", method, u.PeakKB)
			}
		}
	}
}

// TestCancel: an ended context kills the tree and is the error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := Run(ctx, childCmd("sleep:1m"), Limits{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled run: %v, want the context's error", err)
	}
}

// TestUnreadableAccountingIsAnError: a cgroup meter over a directory
// (a fake cgroup) whose accounting files are missing or garbled reports an
// error, never 0; with the files in place it reads them.
func TestUnreadableAccountingIsAnError(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v2 := &cgroup2{dir: dir}
	v1 := &cgroup1{cpuDir: dir, memDir: dir}
	for _, m := range []Meter{v2, v1} {
		if _, _, err := m.CPU(); err == nil {
			t.Errorf("%s: CPU of a cgroup without accounting files: no error", m.Method())
		}
		if _, err := m.MemoryKB(); err == nil {
			t.Errorf("%s: memory without accounting files: no error", m.Method())
		}
		if _, err := m.PeakKB(); err == nil {
			t.Errorf("%s: peak without accounting files: no error", m.Method())
		}
	}
	write("cpu.stat", "usage_usec 3000000\nuser_usec 2000000\n") // no system_usec
	write("cpuacct.usage", "garbage\n")
	for _, m := range []Meter{v2, v1} {
		if _, _, err := m.CPU(); err == nil {
			t.Errorf("%s: CPU from a garbled file: no error", m.Method())
		}
	}
	write("cpu.stat", "usage_usec 3000000\nuser_usec 2000000\nsystem_usec 1000000\n")
	write("memory.current", "2097152\n")
	write("memory.peak", "4194304\n")
	if u, s, err := v2.CPU(); err != nil || u != 2 || s != 1 {
		t.Errorf("cgroup2 CPU: %v %v %v, want 2 1", u, s, err)
	}
	if kb, err := v2.MemoryKB(); err != nil || kb != 2048 {
		t.Errorf("cgroup2 memory: %v %v", kb, err)
	}
	if kb, err := v2.PeakKB(); err != nil || kb != 4096 {
		t.Errorf("cgroup2 peak: %v %v", kb, err)
	}
	write("cpuacct.usage", "3000000000\n")
	write("cpuacct.usage_user", "300\n")
	write("cpuacct.usage_sys", "100\n")
	if u, s, err := v1.CPU(); err != nil || u != 2.25 || s != 0.75 {
		t.Errorf("cgroup1 CPU: %v %v %v, want 2.25 0.75", u, s, err)
	}
}

// brokenMeter is a meter whose accounting cannot be read.
type brokenMeter struct{ rusage }

func (brokenMeter) CPU() (float64, float64, error) {
	return 0, 0, errors.New("cpu.stat: permission denied")
}

// TestRunFailsOnUnreadableAccounting: a run whose figures cannot be read
// is an error, and its tree is killed.
func TestRunFailsOnUnreadableAccounting(t *testing.T) {
	m := &brokenMeter{rusage{seen: map[int][2]int64{}}}
	start := time.Now()
	_, err := run(context.Background(), m, childCmd("sleep:1m"), Limits{CPU: time.Second}, nil)
	if err == nil || !strings.Contains(err.Error(), "permission denied") || time.Since(start) > 20*time.Second {
		t.Errorf("run with unreadable accounting: %v after %s, want the error at once", err, time.Since(start))
	}
}

func TestUnknownMethod(t *testing.T) {
	if _, err := New("perf"); err == nil || !strings.Contains(err.Error(), "cgroup2, cgroup1, rusage") {
		t.Errorf("New(perf): %v", err)
	}
}

// TestSweepStale: a run cgroup of a harness that is gone is removed; those
// of live processes stay.
func TestSweepStale(t *testing.T) {
	parent := t.TempDir()
	gone := filepath.Join(parent, "boardsat-999999999-1")
	own := filepath.Join(parent, fmt.Sprintf("boardsat-%d-3", os.Getpid()))
	initDir := filepath.Join(parent, "boardsat-1-2")
	for _, d := range []string{gone, own, initDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sweepStale(parent)
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("the cgroup of a gone harness stays: %v", err)
	}
	for _, d := range []string{own, initDir} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s removed: %v", d, err)
		}
	}
}

// forcedChargeKB is the most a cgroup's peak passes its hard memory cap:
// the kernel's charge batch (MEMCG_CHARGE_BATCH, 64 pages of 4 KiB), which
// it may charge to a task with a fatal signal pending, so that the task
// can exit.
const forcedChargeKB = 64 * 4

// TestMemoryCapHeld: under a cgroup method, a memory limit is a hard cap
// of the run's cgroup: a grandchild touching 200 MiB under a 50 MiB limit
// is ended by the kernel with the tree never past the limit (but for the
// kernel's forced charges of a task it is killing), and the run
// is a memout limited by the cgroup. With SampledEnv set, or under rusage,
// the same limit is sampled (LimitedBy "sampled") and still ends the run.
func TestMemoryCapHeld(t *testing.T) {
	limits := Limits{Wall: time.Minute, MemKB: 50 << 10}
	for _, method := range methods(t) {
		u, err := Runner{Method: method}.Run(context.Background(), childCmd("treehog:200"), limits)
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		want := method
		if method == Rusage {
			want = Sampled
		}
		if u.Exceeded != LimitMem || u.LimitedBy != want {
			t.Errorf("%s: ended by %q, limited by %q; want mem, %q", method, u.Exceeded, u.LimitedBy, want)
		}
		// The kernel lets a task it is killing charge past the cap while
		// it exits (a forced charge: one page was seen, on a loaded
		// machine), at most a charge batch of 64 pages.
		if method != Rusage && u.PeakKB > limits.MemKB+forcedChargeKB {
			t.Errorf("%s: the tree's peak %d KiB passed the cap of %d KiB by more than the kernel's %d KiB of forced charges", method, u.PeakKB, limits.MemKB, forcedChargeKB)
		}
		if method == Rusage {
			continue
		}
		t.Setenv(SampledEnv, "1")
		u, err = Runner{Method: method}.Run(context.Background(), childCmd("treehog:200"), limits)
		os.Unsetenv(SampledEnv)
		if err != nil || u.Exceeded != LimitMem || u.LimitedBy != Sampled {
			t.Errorf("%s, %s=1: ended by %q, limited by %q (%v); want mem, sampled", method, SampledEnv, u.Exceeded, u.LimitedBy, err)
		}
	}
}
