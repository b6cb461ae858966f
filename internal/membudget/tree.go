package membudget

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/boardsat/boardsat/internal/cgroups"
)

// SampledEnv, set to "1", makes every memory limit on a process tree
// sampled (cgroups.SampledEnv).
const SampledEnv = cgroups.SampledEnv

// How a limit on the tree is held (Confine).
const (
	HeldByCgroup = "cgroup"  // a hard cap of the tree's own cgroup, held by the kernel
	HeldBySample = "sampled" // the tree's resident memory sampled against it
)

var (
	confineMu sync.Mutex
	confined  *cgroups.Memory // the group Confine made, or nil
)

// Confine bounds the memory of this process and every process it starts
// from now on (the gophersat worker, external solvers) at limit bytes,
// swap included: it makes a memory cgroup of its own, capped at limit,
// and moves this process into it, so that the kernel holds the cap over
// the whole tree (package cgroups). It returns HeldByCgroup, or
// HeldBySample where no cgroup can be made (no memory controller, not
// allowed, SampledEnv set): then the tree is only sampled (TreeResident).
// The pages this process touched before the move stay charged to its old
// group. The group, empty once the process ends, is removed by the next
// boardsat that makes one beside it.
func Confine(limit int64) string {
	confineMu.Lock()
	defer confineMu.Unlock()
	if confined != nil {
		return HeldByCgroup
	}
	if os.Getenv(SampledEnv) == "1" {
		return HeldBySample
	}
	m, err := cgroups.NewMemory(fmt.Sprintf("boardsat-%d-solve", os.Getpid()))
	if err != nil {
		return HeldBySample
	}
	if m.SetLimit(limit) != nil || m.Enter(0) != nil {
		os.Remove(m.Dir)
		return HeldBySample
	}
	confined = &m
	return HeldByCgroup
}

// OOMKilled reports whether the kernel's out-of-memory killer has killed a
// process of the group Confine made (a worker at the cap), or, since the
// command's start (ownKills), one of this process's own memory group (a
// container's: an external solver killed at its limit).
func OOMKilled() bool {
	confineMu.Lock()
	m := confined
	confineMu.Unlock()
	if m != nil {
		if n, err := m.OOMKills(); err == nil && n > 0 {
			return true
		}
	}
	own, before, ok := ownKills()
	if !ok {
		return false
	}
	n, err := own.OOMKills()
	return err == nil && n > before
}

// ownKills returns this process's own memory group (v2, else v1) and its
// out-of-memory kills when first asked (the command calls it at its
// start, through TreeDefault); ok is false when neither can be read.
func ownKills() (m cgroups.Memory, before int64, ok bool) {
	k := ownKillsOnce()
	return k.m, k.n, k.ok
}

// ownKillsOnce reads the own group's kills once.
var ownKillsOnce = sync.OnceValue(func() (k struct {
	m  cgroups.Memory
	n  int64
	ok bool
}) {
	for _, m := range []cgroups.Memory{
		{Dir: filepath.Join(cgroups.Unified(cgroups.Root), cgroups.Own("")), V2: true},
		{Dir: filepath.Join(cgroups.Root, "memory", cgroups.Own("memory"))},
	} {
		if n, err := m.OOMKills(); err == nil {
			k.m, k.n, k.ok = m, n, true
			return k
		}
	}
	return k
})

// TreeResident returns the resident memory of this process and every live
// process it started (the sum of their resident sets, from /proc), or the
// usage of the group Confine made when that is more.
func TreeResident() int64 {
	var total int64
	cgroups.Tree(os.Getpid(), func(pid int) { total += cgroups.ResidentOf(pid) })
	confineMu.Lock()
	m := confined
	confineMu.Unlock()
	if m != nil {
		if used, err := m.Usage(); err == nil {
			total = max(total, used)
		}
	}
	return total
}

// TreeDefault returns the default watch of the whole tree when no limit
// is set: read returns the memory the process's memory cgroups have taken
// since the first call (the room they left then less the room they leave
// now: the tree's growth, and that of anything else sharing the groups),
// and mark is three quarters of that first room (as Default), so that the
// tree (the search, the gophersat worker, external solvers) ends with
// memout before the kernel kills a process of it. Reading the groups'
// few accounting files costs far less than walking the tree in /proc at
// every sample. ok is false outside a memory cgroup, where the machine's
// memory is the native searches' budget and no watchdog ends the tree.
func TreeDefault() (read func() int64, mark int64, ok bool) {
	ownKills() // the kills before the command, which OOMKilled leaves out
	room0, limited := treeRoom()
	if !limited {
		return nil, 0, false
	}
	read = func() int64 {
		room, ok := cgroups.MemoryRoom()
		if !ok {
			return 0
		}
		return room0 - room
	}
	return read, max(room0-room0/4, 1), true
}

// treeRoom is the cgroups' room when first asked.
var treeRoom = sync.OnceValues(cgroups.MemoryRoom)
