// Package cgroups reads this process's control groups (Linux cgroup v1
// and v2): where their file systems are mounted, which group the process
// is in, and the memory limit the groups put on it; it makes memory groups
// with a hard cap (Memory), and sums a process tree's resident memory
// from /proc (Tree, ResidentOf) where no group can be made. measure makes its
// runs' groups with it; membudget takes the memory limit into the default
// budget, so that a search in a container or a batch job stops with status
// memout before the kernel's out-of-memory killer ends the process
// silently. It imports nothing of the module.
package cgroups

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Root is where the kernel's cgroup file systems are mounted.
const Root = "/sys/fs/cgroup"

// Own returns this process's group in the hierarchy of controller ("" for
// the v2 unified hierarchy), from /proc/self/cgroup; "/" when it is not
// listed.
func Own(controller string) string {
	data, _ := os.ReadFile("/proc/self/cgroup")
	return own(string(data), controller)
}

// own is Own on the text of a /proc/PID/cgroup file.
func own(text, controller string) string {
	for _, l := range strings.Split(text, "\n") {
		f := strings.SplitN(l, ":", 3)
		if len(f) != 3 {
			continue
		}
		if (controller == "" && f[0] == "0" && f[1] == "") || (controller != "" && slices.Contains(strings.Split(f[1], ","), controller)) {
			return f[2]
		}
	}
	return "/"
}

// Unified returns the mount of the v2 hierarchy under root: root itself on
// a v2-only system, root/unified on a hybrid one.
func Unified(root string) string {
	if _, err := os.Stat(filepath.Join(root, "cgroup.controllers")); err != nil {
		return filepath.Join(root, "unified")
	}
	return root
}

// ReadInt reads a file holding one integer; a file that cannot be read or
// parsed is an error naming it.
func ReadInt(file string) (int64, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", file, err)
	}
	return n, nil
}

// v1Unlimited: cgroup v1 writes "no limit" as the largest multiple of the
// page size below 2^63; any limit from 2^62 bytes up is taken as none.
const v1Unlimited = 1 << 62

// MemoryRoom returns the bytes this process's memory cgroups still allow
// it: over its own group and every group above it, the least of limit less
// usage (v2: memory.max less memory.current, "max" meaning no limit; v1:
// memory.limit_in_bytes less memory.usage_in_bytes). ok is false when no
// group of the process has a memory limit (or none can be read). A room
// already used up is 0.
func MemoryRoom() (room int64, ok bool) {
	data, _ := os.ReadFile("/proc/self/cgroup")
	return memoryRoom(Root, string(data))
}

// memoryRoom is MemoryRoom with the cgroup mount root and the text of
// /proc/self/cgroup given (the tests fake both).
func memoryRoom(root, procCgroup string) (int64, bool) {
	// The v2 hierarchy, if its memory controller is there; else v1.
	v2 := Unified(root)
	if _, err := os.Stat(filepath.Join(v2, "cgroup.controllers")); err == nil && hasMemoryFiles(v2, own(procCgroup, ""), "memory.max") {
		return walkRoom(v2, own(procCgroup, ""), "memory.max", "memory.current")
	}
	return walkRoom(filepath.Join(root, "memory"), own(procCgroup, "memory"), "memory.limit_in_bytes", "memory.usage_in_bytes")
}

// hasMemoryFiles reports whether some group on the way from group up to
// the mount has the limit file (the memory controller is on there).
func hasMemoryFiles(mount, group, limitFile string) bool {
	found := false
	walk(group, func(g string) {
		if _, err := os.Stat(filepath.Join(mount, g, limitFile)); err == nil {
			found = true
		}
	})
	return found
}

// walk calls visit with group and each group above it, up to "/". A group
// the mount does not show (a container that sees its own group as the
// root) is skipped by the caller's failed reads.
func walk(group string, visit func(string)) {
	g := path.Clean("/" + group)
	for {
		visit(g)
		if g == "/" {
			return
		}
		g = path.Dir(g)
	}
}

// walkRoom takes the least room over group and the groups above it.
func walkRoom(mount, group, limitFile, usageFile string) (int64, bool) {
	room, ok := int64(0), false
	walk(group, func(g string) {
		dir := filepath.Join(mount, g)
		data, err := os.ReadFile(filepath.Join(dir, limitFile))
		if err != nil {
			return
		}
		text := strings.TrimSpace(string(data))
		if text == "max" {
			return
		}
		limit, err := strconv.ParseInt(text, 10, 64)
		if err != nil || limit >= v1Unlimited {
			return
		}
		// A usage that cannot be read counts as none: the limit alone.
		used, _ := ReadInt(filepath.Join(dir, usageFile))
		r := max(limit-used, 0)
		if !ok || r < room {
			room, ok = r, true
		}
	})
	return room, ok
}

// Memory is a memory cgroup boardsat made: a directory of the v2 hierarchy
// (memory.max, memory.swap.max, memory.current, memory.events) or of the
// v1 memory hierarchy (memory.limit_in_bytes, memory.memsw.limit_in_bytes,
// memory.usage_in_bytes, memory.oom_control).
type Memory struct {
	Dir string
	V2  bool
}

// SetLimit makes bytes a hard cap on the group's memory, swap included:
// the kernel reclaims, then kills a process of the group (the out-of-memory
// killer) rather than let the group pass it. v2: memory.max, and
// memory.swap.max 0 where the kernel has swap accounting; v1:
// memory.limit_in_bytes, and memory.memsw.limit_in_bytes the same where
// the kernel has it (no swap beyond the cap).
func (m Memory) SetLimit(bytes int64) error {
	n := []byte(strconv.FormatInt(bytes, 10))
	if m.V2 {
		if err := os.WriteFile(filepath.Join(m.Dir, "memory.max"), n, 0o644); err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(m.Dir, "memory.swap.max")); err == nil {
			return os.WriteFile(filepath.Join(m.Dir, "memory.swap.max"), []byte("0"), 0o644)
		}
		return nil
	}
	if err := os.WriteFile(filepath.Join(m.Dir, "memory.limit_in_bytes"), n, 0o644); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "memory.memsw.limit_in_bytes")); err == nil {
		return os.WriteFile(filepath.Join(m.Dir, "memory.memsw.limit_in_bytes"), n, 0o644)
	}
	return nil
}

// Usage returns the group's memory now, in bytes.
func (m Memory) Usage() (int64, error) {
	if m.V2 {
		return ReadInt(filepath.Join(m.Dir, "memory.current"))
	}
	return ReadInt(filepath.Join(m.Dir, "memory.usage_in_bytes"))
}

// OOMKills returns how many processes of the group the kernel's
// out-of-memory killer has killed (v2: oom_kill of memory.events; v1:
// oom_kill of memory.oom_control, kernel 4.13 and later).
func (m Memory) OOMKills() (int64, error) {
	file := filepath.Join(m.Dir, "memory.oom_control")
	if m.V2 {
		file = filepath.Join(m.Dir, "memory.events")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "oom_kill" {
			return strconv.ParseInt(f[1], 10, 64)
		}
	}
	return 0, fmt.Errorf("%s: no oom_kill count", file)
}

// NewMemory makes a memory group called name for this process's use: in
// the v2 hierarchy beside this process's own group (v2 lets no process sit
// in an inner group) when the memory controller is enabled there, else in
// the v1 memory hierarchy under this process's own group. Groups called
// boardsat-PID-N whose PID is gone (left by a boardsat that was killed)
// are removed there first.
func NewMemory(name string) (Memory, error) {
	v2 := filepath.Join(Unified(Root), path.Dir(Own("")))
	if ctl, err := os.ReadFile(filepath.Join(v2, "cgroup.subtree_control")); err == nil && slices.Contains(strings.Fields(string(ctl)), "memory") {
		SweepStale(v2)
		m := Memory{Dir: filepath.Join(v2, name), V2: true}
		return m, os.Mkdir(m.Dir, 0o755)
	}
	v1 := filepath.Join(Root, "memory", Own("memory"))
	if _, err := os.Stat(filepath.Join(v1, "memory.limit_in_bytes")); err != nil {
		return Memory{}, fmt.Errorf("no memory cgroup can be made here (no memory controller under %s, none of v1 at %s)", v2, v1)
	}
	SweepStale(v1)
	m := Memory{Dir: filepath.Join(v1, name)}
	return m, os.Mkdir(m.Dir, 0o755)
}

// Enter moves process pid (0: this one, with all its threads) into the
// group; the processes it starts afterwards are born there.
func (m Memory) Enter(pid int) error {
	if pid == 0 {
		pid = os.Getpid()
	}
	return os.WriteFile(filepath.Join(m.Dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644)
}

// SweepStale removes the groups under parent left by a boardsat that died
// without removing them (boardsat-PID-N whose PID is gone); one still in
// use, or not empty, stays.
func SweepStale(parent string) {
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

// SampledEnv, set to "1" in the environment, makes every memory limit on a
// process tree sampled even where a cgroup could cap it (membudget.Confine
// makes no cgroup; package measure caps no run): to test the fallback, or to compare
// the two.
const SampledEnv = "BOARDSAT_MEM_SAMPLED"

// ResidentOf returns process pid's resident set in bytes, or 0 when it
// cannot be read (the process is gone).
func ResidentOf(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(data)
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return pages * int64(os.Getpagesize())
}

// Tree calls visit for pid and each of its live descendants (at most 256
// processes), found through /proc/PID/task/TID/children.
func Tree(pid int, visit func(int)) {
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
