package measure

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"github.com/boardsat/boardsat/internal/cgroups"
)

// rusage measures a tree without cgroups: the reaped child's CPU times (or
// the sum over the tree's processes sampled from /proc when that is more)
// and the sampled sum of resident set sizes.
type rusage struct {
	pid int
	// seen holds each process's own CPU ticks (user, sys) when last seen,
	// so a descendant that ends unreaped (the gophersat worker, killed or
	// orphaned) still counts.
	seen map[int][2]int64
	// reaped holds the reaped child's times (user, sys), which include the
	// descendants it waited for.
	reaped *[2]float64
}

// newRusage returns a rusage meter; it needs /proc.
func newRusage() (*rusage, error) {
	if _, err := os.ReadFile("/proc/self/stat"); err != nil {
		return nil, err
	}
	return &rusage{seen: map[int][2]int64{}}, nil
}

func (r *rusage) Method() string         { return Rusage }
func (r *rusage) Prepare(*exec.Cmd)      {}
func (r *rusage) Attach(pid int) error   { r.pid = pid; return nil }
func (r *rusage) PeakKB() (int64, error) { return 0, nil }
func (r *rusage) Close()                 { r.Kill() }

// CapMemory: no cap without a cgroup; the tree's memory is sampled.
func (r *rusage) CapMemory(int64) bool { return false }
func (r *rusage) OOMKilled() bool      { return false }

// Kill kills the child's process group.
func (r *rusage) Kill() {
	if r.pid > 0 {
		syscall.Kill(-r.pid, syscall.SIGKILL)
	}
}

func (r *rusage) Reaped(ps *os.ProcessState) {
	r.reaped = &[2]float64{ps.UserTime().Seconds(), ps.SystemTime().Seconds()}
}

// CPU returns the larger of the reaped child's times and the sum over every
// process of the tree seen alive of its own times when last seen
// (/proc/PID/stat; a descendant that lived less than a poll interval is
// missed). A process that is gone is no error: its last figures stay.
func (r *rusage) CPU() (user, sys float64, err error) {
	walkTree(r.pid, func(p int) {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
		if err != nil {
			return
		}
		// Fields after the command name (in parentheses, may hold spaces):
		// utime is field 14, stime 15.
		f := bytes.Fields(data[bytes.LastIndexByte(data, ')')+1:])
		if len(f) > 12 {
			r.seen[p] = [2]int64{atoi(f[11]), atoi(f[12])}
		}
	})
	var u, s int64
	for _, t := range r.seen {
		u, s = u+t[0], s+t[1]
	}
	user, sys = float64(u)/clockTicks, float64(s)/clockTicks
	if r.reaped != nil && r.reaped[0]+r.reaped[1] >= user+sys {
		return r.reaped[0], r.reaped[1], nil
	}
	return user, sys, nil
}

// MemoryKB returns the sum of the resident set sizes of the tree's live
// processes.
func (r *rusage) MemoryKB() (int64, error) {
	var total int64
	walkTree(r.pid, func(p int) { total += cgroups.ResidentOf(p) / 1024 })
	return total, nil
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat times (100 on Linux).
const clockTicks = 100

func atoi(b []byte) int64 {
	n, _ := strconv.ParseInt(string(b), 10, 64)
	return n
}

// walkTree calls visit for pid and each of its live descendants
// (cgroups.Tree).
var walkTree = cgroups.Tree
