//go:build linux

package solverproc

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchdogArg0 is the argv[0] that makes any binary linking this package a
// watchdog (see killGroup in proc_linux.go): before main or the tests
// start, it runs the solver named by its arguments, PATH ARGV0 ARGS...,
// and makes sure nothing the solver started outlives it. argv[0], not the
// environment, marks it, so that a caller setting cmd.Env after Command
// changes nothing.
const watchdogArg0 = "boardsat-solver-watchdog"

func init() {
	if len(os.Args) >= 3 && os.Args[0] == watchdogArg0 {
		os.Exit(watch(os.Args[1], os.Args[2:]))
	}
}

// grace is how long the solver has, after SIGTERM, to end itself and its
// children and remove its temporary files (minizinc does all three) before
// everything left gets SIGKILL. It stays well under Command's WaitDelay,
// after which os/exec would kill the watchdog itself.
const grace = 250 * time.Millisecond

// killEvery is how often the watchdog, once it kills, looks for children
// left.
const killEvery = 5 * time.Millisecond

// watch is the watchdog: a child subreaper (PR_SET_CHILD_SUBREAPER), so
// that every descendant of the solver whose parent dies becomes its child,
// whatever process group or session it moved to (minizinc starts
// fzn-gecode in a group of its own). It starts the solver with its own
// standard files and waits. On SIGTERM (boardsat's context ended), or
// end-of-file on descriptor 3 (boardsat is gone, even by SIGKILL), it
// sends the solver SIGTERM and, grace later, SIGKILL to its children; once
// the solver has exited, however, it SIGKILLs its children until none is
// left. Then it exits as the solver did: the same exit code, or the same
// signal.
func watch(path string, argv []string) int {
	fail := func(what string, err error) int {
		fmt.Fprintf(os.Stderr, "boardsat solver watchdog: %s: %v\n", what, err)
		return 126
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fail("prctl", err)
	}
	// Descriptor 3 must be the lifeline (proc_linux.go): anything else
	// would read as boardsat's end at once.
	var st syscall.Stat_t
	if err := syscall.Fstat(3, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return fail("descriptor 3", fmt.Errorf("not the lifeline pipe (%v)", err))
	}
	lifeline := os.NewFile(3, "lifeline")
	syscall.CloseOnExec(3)
	var (
		dying     atomic.Bool
		solverPid atomic.Int64
		killing   sync.Once
	)
	// kill starts, after a delay, a loop that SIGKILLs every child every
	// few milliseconds until this process exits: a child a scan of /proc
	// misses (it was being reparented) is caught by the next.
	kill := func(after time.Duration) {
		killing.Do(func() {
			time.AfterFunc(after, func() {
				for {
					killChildren()
					time.Sleep(killEvery)
				}
			})
		})
	}
	end := func() {
		if dying.Swap(true) {
			return
		}
		if pid := solverPid.Load(); pid > 0 {
			syscall.Kill(int(pid), syscall.SIGTERM)
		}
		kill(grace)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() { <-sigs; end() }()
	go func() { io.Copy(io.Discard, lifeline); end() }()
	solver, err := os.StartProcess(path, argv, &os.ProcAttr{Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		return fail("starting the solver", err)
	}
	solverPid.Store(int64(solver.Pid))
	if dying.Load() {
		// Told to end while starting it: end() may have looked before
		// the solver was there (its kill loop reaches it all the same).
		syscall.Kill(solver.Pid, syscall.SIGTERM)
	}
	var status syscall.WaitStatus
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			break // ECHILD: no child left
		}
		if pid == solver.Pid {
			// The solver's own children, if it left any, are this
			// process's children by now: the next Wait4 waits for
			// them, or finds none (ECHILD) and the watchdog is done
			// without a look at /proc.
			status = ws
			kill(0)
		}
	}
	if status.Signaled() {
		sig := status.Signal()
		signal.Reset(sig)
		defaultAction(sig)
		syscall.Kill(os.Getpid(), sig)
		time.Sleep(100 * time.Millisecond) // a signal the runtime keeps for itself: the exit below
		return 128 + int(sig)
	}
	return status.ExitStatus()
}

// defaultAction gives sig back its default action in the kernel, so that
// the watchdog dies of it as its solver did. signal.Reset is not enough for
// the signals the Go runtime keeps for itself (SIGSEGV, SIGBUS, SIGFPE,
// SIGABRT, SIGQUIT): sent by kill, the runtime would answer them with a
// stack dump and exit status 2, and the solver's crash would read as a
// failure of the watchdog. An all-zero struct sigaction is SIG_DFL with no
// flags and an empty mask on every architecture's layout.
func defaultAction(sig syscall.Signal) {
	var act [8]uint64
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act[0])), 0, 8, 0, 0)
}

// killChildren sends SIGKILL to every child of this process. Called until
// no child is left: the children of a killed child become this process's
// children (it is a subreaper), and the next call reaches them.
func killChildren() {
	self := os.Getpid()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid(pid) == self {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// ppid returns the parent of process pid from /proc/PID/stat, or -1. The
// command name (in parentheses) may hold any byte, so the fields are read
// after its last ')'.
func ppid(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return -1
	}
	p, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return p
}
