// Package cgroups reads this process's control groups (Linux cgroup v1
// and v2): where their file systems are mounted, which group the process
// is in, and the memory limit the groups put on it. measure makes its
// runs' groups with it; membudget takes the memory limit into the default
// budget, so that a search in a container or a batch job stops with status
// memout before the kernel's out-of-memory killer ends the process
// silently. It imports nothing of the module.
package cgroups

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
