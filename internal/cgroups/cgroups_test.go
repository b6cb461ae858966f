package cgroups

import (
	"os"
	"path/filepath"
	"testing"
)

// fake writes files (path relative to root: content) under a new root.
func fake(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const (
	procV2     = "0::/job/step\n"
	procHybrid = "4:memory:/job/step\n2:cpuacct:/job/step\n0::/\n"
)

// TestMemoryRoom: the least of limit less usage over the process's group
// and those above it, in v2 and v1 layouts; "max" and v1's huge value
// mean no limit.
func TestMemoryRoom(t *testing.T) {
	for _, c := range []struct {
		name   string
		files  map[string]string
		proc   string
		room   int64
		hasLim bool
	}{
		{"v2 own group", map[string]string{
			"cgroup.controllers": "cpu memory", "memory.max": "max\n",
			"job/memory.max": "max\n", "job/memory.current": "999999\n",
			"job/step/memory.max": "629145600\n", "job/step/memory.current": "10485760\n",
		}, procV2, 629145600 - 10485760, true},
		{"v2 nested: the parent's room is less", map[string]string{
			"cgroup.controllers": "cpu memory",
			"job/memory.max":     "1073741824\n", "job/memory.current": "943718400\n",
			"job/step/memory.max": "629145600\n", "job/step/memory.current": "10485760\n",
		}, procV2, 1073741824 - 943718400, true},
		{"v2 max everywhere", map[string]string{
			"cgroup.controllers": "cpu memory",
			"job/memory.max":     "max\n", "job/memory.current": "5\n",
			"job/step/memory.max": "max\n", "job/step/memory.current": "5\n",
		}, procV2, 0, false},
		{"v2 over its limit", map[string]string{
			"cgroup.controllers":  "memory",
			"job/step/memory.max": "100\n", "job/step/memory.current": "150\n",
		}, procV2, 0, true},
		{"v1 hybrid", map[string]string{
			"unified/cgroup.controllers":            "",
			"memory/memory.limit_in_bytes":          "9223372036854771712\n",
			"memory/job/memory.limit_in_bytes":      "9223372036854771712\n",
			"memory/job/step/memory.limit_in_bytes": "629145600\n",
			"memory/job/step/memory.usage_in_bytes": "4194304\n",
		}, procHybrid, 629145600 - 4194304, true},
		{"v1 nested", map[string]string{
			"memory/job/memory.limit_in_bytes":      "536870912\n",
			"memory/job/memory.usage_in_bytes":      "0\n",
			"memory/job/step/memory.limit_in_bytes": "9223372036854771712\n",
			"memory/job/step/memory.usage_in_bytes": "4194304\n",
		}, procHybrid, 536870912, true},
		{"v1 unlimited", map[string]string{
			"memory/memory.limit_in_bytes":          "9223372036854771712\n",
			"memory/job/step/memory.limit_in_bytes": "9223372036854771712\n",
		}, procHybrid, 0, false},
		{"container: own group not mounted, the mount's root limited", map[string]string{
			"cgroup.controllers": "memory", "memory.max": "268435456\n", "memory.current": "1048576\n",
		}, "0::/docker/abc\n", 268435456 - 1048576, true},
		{"no cgroups", map[string]string{}, "", 0, false},
	} {
		root := fake(t, c.files)
		room, ok := memoryRoom(root, c.proc)
		if room != c.room || ok != c.hasLim {
			t.Errorf("%s: room %d, %v; want %d, %v", c.name, room, ok, c.room, c.hasLim)
		}
	}
}

func TestOwn(t *testing.T) {
	for _, c := range []struct{ text, ctl, want string }{
		{procHybrid, "memory", "/job/step"},
		{procHybrid, "", "/"},
		{procV2, "", "/job/step"},
		{procV2, "memory", "/"},
		{"3:cpu,cpuacct:/a\n", "cpuacct", "/a"},
	} {
		if got := own(c.text, c.ctl); got != c.want {
			t.Errorf("own(%q, %q) = %q, want %q", c.text, c.ctl, got, c.want)
		}
	}
}

func TestReadInt(t *testing.T) {
	root := fake(t, map[string]string{"n": " 42\n", "bad": "max\n"})
	if n, err := ReadInt(filepath.Join(root, "n")); n != 42 || err != nil {
		t.Errorf("ReadInt = %d, %v", n, err)
	}
	if _, err := ReadInt(filepath.Join(root, "bad")); err == nil {
		t.Error("ReadInt of max: no error")
	}
}
