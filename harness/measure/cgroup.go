package measure

import (
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

	"github.com/boardsat/boardsat/internal/cgroups"
)

// cgroupSeq numbers the cgroups of this process's runs.
var cgroupSeq atomic.Int64

// cgroupName returns the name of a new run cgroup: boardsat-PID-N, so that
// sweepStale can tell one left by a harness that died.
func cgroupName() string {
	return fmt.Sprintf("boardsat-%d-%d", os.Getpid(), cgroupSeq.Add(1))
}

// sweepStale removes the run cgroups under parent left by a harness that
// died without cleaning up (cgroups.SweepStale).
var sweepStale = cgroups.SweepStale

// cgroup is what both cgroup meters share: the pid of the child, the
// cgroup.procs file that lists the tree, and the directories to remove.
type cgroup struct {
	pid   int
	procs string
	dirs  []string
}

// Kill kills every process of the run: the cgroup's members (a descendant
// that left the process group included), and the child's process group.
func (c *cgroup) Kill() {
	if c.pid > 0 {
		syscall.Kill(-c.pid, syscall.SIGKILL)
	}
	data, _ := os.ReadFile(c.procs) // best effort: the group is killed above
	for _, s := range strings.Fields(string(data)) {
		if p, err := strconv.Atoi(s); err == nil {
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

// remove removes the run's cgroups, waiting a little for the killed
// processes to leave them.
func (c *cgroup) remove() {
	for _, d := range c.dirs {
		for i := 0; i < 200; i++ {
			if err := os.Remove(d); err == nil || os.IsNotExist(err) {
				break
			}
			c.Kill()
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// Reaped: the cgroup's accounting already holds the reaped child.
func (c *cgroup) Reaped(*os.ProcessState) {}

// capMemory makes kb a hard cap of the memory group mem (see Meter).
func capMemory(mem cgroups.Memory, kb int64) bool {
	return os.Getenv(SampledEnv) != "1" && mem.SetLimit(kb*1024) == nil
}

// oomKilled reports whether the kernel killed a process of mem at its cap.
func oomKilled(mem cgroups.Memory) bool {
	n, err := mem.OOMKills()
	return err == nil && n > 0
}

// cgroup2 is a run's cgroup in the unified hierarchy. The child is cloned
// into it (SysProcAttr.CgroupFD), so nothing it does escapes the
// accounting.
type cgroup2 struct {
	cgroup
	dir string
	fd  int
}

// newCgroup2 makes the run's cgroup in the unified hierarchy, beside this
// process's own (a process may not sit in an inner cgroup of v2), with the
// memory controller, which it needs for the peak.
func newCgroup2(name string) (*cgroup2, error) {
	parent := filepath.Join(cgroups.Unified(cgroups.Root), filepath.Dir(cgroups.Own("")))
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
	return &cgroup2{cgroup: cgroup{procs: filepath.Join(dir, "cgroup.procs"), dirs: []string{dir}}, dir: dir, fd: fd}, nil
}

func (c *cgroup2) Method() string { return Cgroup2 }

func (c *cgroup2) CapMemory(kb int64) bool {
	return capMemory(cgroups.Memory{Dir: c.dir, V2: true}, kb)
}
func (c *cgroup2) OOMKilled() bool { return oomKilled(cgroups.Memory{Dir: c.dir, V2: true}) }

func (c *cgroup2) Prepare(cmd *exec.Cmd) {
	startInCgroup(cmd.SysProcAttr, c.fd)
}

func (c *cgroup2) Attach(pid int) error { c.pid = pid; return nil }

func (c *cgroup2) CPU() (user, sys float64, err error) {
	v, err := keyValues(filepath.Join(c.dir, "cpu.stat"), "user_usec", "system_usec")
	if err != nil {
		return 0, 0, err
	}
	return float64(v[0]) / 1e6, float64(v[1]) / 1e6, nil
}

func (c *cgroup2) MemoryKB() (int64, error) {
	n, err := cgroups.ReadInt(filepath.Join(c.dir, "memory.current"))
	return n / 1024, err
}

func (c *cgroup2) PeakKB() (int64, error) {
	n, err := cgroups.ReadInt(filepath.Join(c.dir, "memory.peak"))
	return n / 1024, err
}

func (c *cgroup2) Close() {
	c.Kill()
	if c.fd > 0 {
		syscall.Close(c.fd)
	}
	c.remove()
}

// cgroup1 is a run's pair of cgroups in the v1 cpuacct and memory
// hierarchies.
type cgroup1 struct {
	cgroup
	cpuDir, memDir string
}

// newCgroup1 makes the run's cgroups in the v1 cpuacct and memory
// hierarchies, under this process's own.
func newCgroup1(name string) (*cgroup1, error) {
	cpu := filepath.Join(cgroups.Root, "cpuacct", cgroups.Own("cpuacct"), name)
	mem := filepath.Join(cgroups.Root, "memory", cgroups.Own("memory"), name)
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
	return &cgroup1{cgroup: cgroup{procs: filepath.Join(cpu, "cgroup.procs"), dirs: []string{cpu, mem}}, cpuDir: cpu, memDir: mem}, nil
}

// enterShell is the shell script that starts a cgroup1 run: it writes its
// own pid into the run's cgroups ($0 and $1, the cgroup.procs files) and
// then executes the child in its place (same pid, same process group), so
// everything the child does from its first instruction is the run's
// (cgroup v1 has no way to start a process inside a cgroup; v2 clones it
// there, CgroupFD). A shell starts in about a millisecond.
const enterShell = `p=$0; m=$1; shift; echo $$ >"$p" && echo $$ >"$m" && exec "$@"`

func (c *cgroup1) Method() string { return Cgroup1 }

func (c *cgroup1) CapMemory(kb int64) bool { return capMemory(cgroups.Memory{Dir: c.memDir}, kb) }
func (c *cgroup1) OOMKilled() bool         { return oomKilled(cgroups.Memory{Dir: c.memDir}) }

// Prepare makes cmd start through enterShell.
func (c *cgroup1) Prepare(cmd *exec.Cmd) {
	args := append([]string{"/bin/sh", "-c", enterShell,
		filepath.Join(c.cpuDir, "cgroup.procs"), filepath.Join(c.memDir, "cgroup.procs"), cmd.Path}, cmd.Args[1:]...)
	cmd.Path, cmd.Args, cmd.Err = "/bin/sh", args, nil
}

// Attach puts the started child in the run's cgroups (enterShell has done
// it already, unless the shell has not run yet; a child already gone has
// nothing left to move).
func (c *cgroup1) Attach(pid int) error {
	c.pid = pid
	for _, d := range []string{c.cpuDir, c.memDir} {
		if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil && !errors.Is(err, syscall.ESRCH) {
			return err
		}
	}
	return nil
}

// CPU: cpuacct.usage is exact (ns); its user/sys split comes from clock
// ticks (cpuacct.usage_user and usage_sys are the tick counts, 4 ms each
// at 250 Hz): the exact total is shared in their proportion, so user and
// sys are estimates whose sum is exact.
func (c *cgroup1) CPU() (user, sys float64, err error) {
	var v [3]int64
	for i, f := range []string{"cpuacct.usage", "cpuacct.usage_user", "cpuacct.usage_sys"} {
		if v[i], err = cgroups.ReadInt(filepath.Join(c.cpuDir, f)); err != nil {
			return 0, 0, err
		}
	}
	total, u, s := float64(v[0])/1e9, float64(v[1]), float64(v[2])
	if u+s == 0 {
		return total, 0, nil
	}
	return total * u / (u + s), total * s / (u + s), nil
}

func (c *cgroup1) MemoryKB() (int64, error) {
	n, err := cgroups.ReadInt(filepath.Join(c.memDir, "memory.usage_in_bytes"))
	return n / 1024, err
}

func (c *cgroup1) PeakKB() (int64, error) {
	n, err := cgroups.ReadInt(filepath.Join(c.memDir, "memory.max_usage_in_bytes"))
	return n / 1024, err
}

func (c *cgroup1) Close() {
	c.Kill()
	c.remove()
}
