package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boardsat/boardsat/results"
)

// cgroupRoot is where the kernel's cgroup file systems are mounted.
const cgroupRoot = "/sys/fs/cgroup"

// meter measures one run's process tree: CPU time (user and sys), peak
// memory, and live figures to enforce the limits on. A cgroup meter holds
// the tree in a cgroup of its own (v2, or v1 cpuacct and memory) and reads
// the kernel's accounting; the rusage meter walks /proc while the run lives
// and keeps the operating system's figures for the reaped child.
type meter struct {
	method string
	// cgroup2: the run's cgroup and an open descriptor of it (the child
	// is cloned into it, SysProcAttr.CgroupFD).
	dir string
	fd  int
	// cgroup1: the run's cpuacct and memory cgroups.
	cpuDir, memDir string
	pid            int
	// rusage: each process's own CPU ticks (user, sys) when last seen, so
	// a descendant that ends unreaped (the gophersat worker, killed or
	// orphaned) still counts.
	seen map[int][2]int64
}

// cgroupSeq numbers the cgroups of this process's runs.
var cgroupSeq atomic.Int64

// newMeter returns a meter of the method asked for: results.MeasuredCgroup2,
// MeasuredCgroup1, MeasuredRusage, or "" for the best the machine allows
// (cgroup2 with the memory controller, else cgroup1 with cpuacct and
// memory, else rusage). A cgroup method asked for by name that the machine
// does not allow is an error.
func newMeter(method string) (*meter, error) {
	name := fmt.Sprintf("boardsat-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	try := []string{results.MeasuredCgroup2, results.MeasuredCgroup1, results.MeasuredRusage}
	if method != "" {
		try = []string{method}
	}
	var errs []error
	for _, m := range try {
		var mt *meter
		var err error
		switch m {
		case results.MeasuredCgroup2:
			mt, err = newCgroup2(name)
		case results.MeasuredCgroup1:
			mt, err = newCgroup1(name)
		case results.MeasuredRusage:
			return &meter{method: m}, nil
		default:
			return nil, fmt.Errorf("unknown measurement method %q: want cgroup2, cgroup1 or rusage", m)
		}
		if err == nil {
			return mt, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", m, err))
	}
	return nil, errors.Join(errs...)
}

// ownCgroup returns this process's cgroup path in the hierarchy of
// controller ("" for the v2 unified hierarchy), from /proc/self/cgroup.
func ownCgroup(controller string) string {
	data, _ := os.ReadFile("/proc/self/cgroup")
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.SplitN(l, ":", 3)
		if len(f) != 3 {
			continue
		}
		if (controller == "" && f[0] == "0" && f[1] == "") || slices.Contains(strings.Split(f[1], ","), controller) {
			return f[2]
		}
	}
	return "/"
}

// sweepStale removes the run cgroups under parent left by a harness that
// died without cleaning up (boardsat-PID-N whose PID is gone); one still in
// use, or not empty, stays.
func sweepStale(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, "boardsat-*-*"))
	for _, d := range dirs {
		f := strings.Split(filepath.Base(d), "-")
		pid, err := strconv.Atoi(f[1])
		if err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			os.Remove(d)
		}
	}
}

// newCgroup2 makes the run's cgroup in the unified hierarchy, beside this
// process's own (a process may not sit in an inner cgroup of v2), with the
// memory controller, which it needs for the peak.
func newCgroup2(name string) (*meter, error) {
	mount := cgroupRoot
	if _, err := os.Stat(filepath.Join(mount, "cgroup.controllers")); err != nil {
		mount = filepath.Join(cgroupRoot, "unified")
	}
	parent := filepath.Join(mount, filepath.Dir(ownCgroup("")))
	if ctl, err := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control")); err != nil || !slices.Contains(strings.Fields(string(ctl)), "memory") {
		return nil, fmt.Errorf("no memory controller for the cgroups under %s", parent)
	}
	sweepStale(parent)
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "memory.peak")); err != nil {
		os.Remove(dir)
		return nil, errors.New("no memory.peak (kernel before 5.19)")
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		os.Remove(dir)
		return nil, err
	}
	return &meter{method: results.MeasuredCgroup2, dir: dir, fd: fd}, nil
}

// newCgroup1 makes the run's cgroups in the v1 cpuacct and memory
// hierarchies, under this process's own.
func newCgroup1(name string) (*meter, error) {
	cpu := filepath.Join(cgroupRoot, "cpuacct", ownCgroup("cpuacct"), name)
	mem := filepath.Join(cgroupRoot, "memory", ownCgroup("memory"), name)
	sweepStale(filepath.Dir(cpu))
	sweepStale(filepath.Dir(mem))
	if err := os.Mkdir(cpu, 0o755); err != nil {
		return nil, err
	}
	if err := os.Mkdir(mem, 0o755); err != nil {
		os.Remove(cpu)
		return nil, err
	}
	// Best effort: newer kernels refuse charge moving (deprecated); then
	// the pages the child touched in the microseconds before it was moved
	// in stay charged to this process's cgroup.
	os.WriteFile(filepath.Join(mem, "memory.move_charge_at_immigrate"), []byte("3"), 0o644)
	return &meter{method: results.MeasuredCgroup1, cpuDir: cpu, memDir: mem}, nil
}

// enterShell is the shell script that starts a cgroup1 run: it writes its
// own pid into the run's cgroups ($0 and $1, the cgroup.procs files) and
// then executes the child in its place (same pid, same process group), so
// everything the child does from its first instruction is the run's
// (cgroup v1 has no way to start a process inside a cgroup; v2 clones it
// there, CgroupFD). A shell starts in about a millisecond.
const enterShell = `p=$0; m=$1; shift; echo $$ >"$p" && echo $$ >"$m" && exec "$@"`

// command returns the command that runs exe with args in the run's
// cgroups: for cgroup1 through enterShell, else exe itself.
func (m *meter) command(exe string, args []string) *exec.Cmd {
	if m.method != results.MeasuredCgroup1 {
		return exec.Command(exe, args...)
	}
	return exec.Command("/bin/sh", append([]string{"-c", enterShell,
		filepath.Join(m.cpuDir, "cgroup.procs"), filepath.Join(m.memDir, "cgroup.procs"), exe}, args...)...)
}

// prepare sets what the child needs before it starts: for cgroup2, to be
// cloned straight into the run's cgroup, so that nothing it does escapes
// the accounting.
func (m *meter) prepare(attr *syscall.SysProcAttr) {
	if m.method == results.MeasuredCgroup2 {
		attr.UseCgroupFD, attr.CgroupFD = true, m.fd
	}
}

// attach puts the started child in the run's cgroups (cgroup1: enterShell
// has done it already, unless the shell has not run yet; a child already
// gone has nothing left to move).
func (m *meter) attach(pid int) error {
	m.pid = pid
	if m.method != results.MeasuredCgroup1 {
		return nil
	}
	for _, d := range []string{m.cpuDir, m.memDir} {
		if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil && !errors.Is(err, syscall.ESRCH) {
			return err
		}
	}
	return nil
}

// cpu returns the CPU seconds (user, sys) used so far by the whole tree:
// the cgroup's accounting, or for rusage the sum over every process of the
// tree seen alive of its own times when last seen (/proc/PID/stat; a
// descendant that lived less than a poll interval is missed).
func (m *meter) cpu() (user, sys float64) {
	switch m.method {
	case results.MeasuredCgroup2:
		st := keyValues(filepath.Join(m.dir, "cpu.stat"))
		return float64(st["user_usec"]) / 1e6, float64(st["system_usec"]) / 1e6
	case results.MeasuredCgroup1:
		// cpuacct.usage is exact (ns); its user/sys split comes from
		// clock ticks (4 ms): share the exact total in their proportion.
		total := float64(readInt(filepath.Join(m.cpuDir, "cpuacct.usage"))) / 1e9
		u, s := float64(readInt(filepath.Join(m.cpuDir, "cpuacct.usage_user"))), float64(readInt(filepath.Join(m.cpuDir, "cpuacct.usage_sys")))
		if u+s == 0 {
			return total, 0
		}
		return total * u / (u + s), total * s / (u + s)
	}
	if m.seen == nil {
		m.seen = map[int][2]int64{}
	}
	walkTree(m.pid, func(p int) {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
		if err != nil {
			return
		}
		// Fields after the command name (in parentheses, may hold spaces):
		// utime is field 14, stime 15.
		f := bytes.Fields(data[bytes.LastIndexByte(data, ')')+1:])
		if len(f) > 12 {
			m.seen[p] = [2]int64{atoi(f[11]), atoi(f[12])}
		}
	})
	var u, s int64
	for _, t := range m.seen {
		u, s = u+t[0], s+t[1]
	}
	return float64(u) / clockTicks, float64(s) / clockTicks
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat times (100 on Linux).
const clockTicks = 100

// memKB returns the whole tree's memory now, in KiB: the cgroup's charge,
// or the sum of the resident set sizes.
func (m *meter) memKB() int64 {
	switch m.method {
	case results.MeasuredCgroup2:
		return readInt(filepath.Join(m.dir, "memory.current")) / 1024
	case results.MeasuredCgroup1:
		return readInt(filepath.Join(m.memDir, "memory.usage_in_bytes")) / 1024
	}
	return treeRSSKB(m.pid)
}

// peakKB returns the cgroup's peak memory charge in KiB (0 for rusage,
// whose peak is the largest memKB sampled).
func (m *meter) peakKB() int64 {
	switch m.method {
	case results.MeasuredCgroup2:
		return readInt(filepath.Join(m.dir, "memory.peak")) / 1024
	case results.MeasuredCgroup1:
		return readInt(filepath.Join(m.memDir, "memory.max_usage_in_bytes")) / 1024
	}
	return 0
}

// kill kills every process of the run: the cgroup's members (a descendant
// that left the process group included), and the child's process group.
func (m *meter) kill() {
	if m.pid > 0 {
		syscall.Kill(-m.pid, syscall.SIGKILL)
	}
	for _, p := range m.members() {
		syscall.Kill(p, syscall.SIGKILL)
	}
}

// members returns the pids in the run's cgroup (none for rusage).
func (m *meter) members() []int {
	var f string
	switch m.method {
	case results.MeasuredCgroup2:
		f = filepath.Join(m.dir, "cgroup.procs")
	case results.MeasuredCgroup1:
		f = filepath.Join(m.cpuDir, "cgroup.procs")
	default:
		return nil
	}
	data, _ := os.ReadFile(f)
	var out []int
	for _, s := range strings.Fields(string(data)) {
		if p, err := strconv.Atoi(s); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// close kills what is left of the run and removes its cgroups (waiting a
// little for the killed processes to leave them).
func (m *meter) close() {
	m.kill()
	if m.method == results.MeasuredCgroup2 {
		syscall.Close(m.fd)
	}
	for _, d := range []string{m.dir, m.cpuDir, m.memDir} {
		if d == "" {
			continue
		}
		for i := 0; i < 200; i++ {
			if err := os.Remove(d); err == nil || os.IsNotExist(err) {
				break
			}
			m.kill()
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// keyValues reads a "key value" per line file such as cpu.stat.
func keyValues(path string) map[string]int64 {
	out := map[string]int64{}
	data, _ := os.ReadFile(path)
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			out[f[0]], _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	return out
}

// readInt reads a file holding one integer (0 when unreadable).
func readInt(path string) int64 {
	data, _ := os.ReadFile(path)
	n, _ := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return n
}

func atoi(b []byte) int64 {
	n, _ := strconv.ParseInt(string(b), 10, 64)
	return n
}

var pageKB = int64(os.Getpagesize() / 1024)

// treeRSSKB returns the resident set size of pid and its descendants, in KiB.
func treeRSSKB(pid int) int64 {
	var total int64
	walkTree(pid, func(p int) {
		if data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/statm"); err == nil {
			if f := bytes.Fields(data); len(f) > 1 {
				total += atoi(f[1]) * pageKB
			}
		}
	})
	return total
}

// walkTree calls visit for pid and each of its live descendants (at most
// 256 processes), found through /proc/PID/task/TID/children.
func walkTree(pid int, visit func(int)) {
	if pid <= 0 {
		return
	}
	stack := []int{pid}
	for n := 0; len(stack) > 0 && n < 256; n++ {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visit(p)
		tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(p) + "/task")
		for _, t := range tasks {
			data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/task/" + t.Name() + "/children")
			if err != nil {
				continue
			}
			for _, c := range strings.Fields(string(data)) {
				if cp, err := strconv.Atoi(c); err == nil {
					stack = append(stack, cp)
				}
			}
		}
	}
}
