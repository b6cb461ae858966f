// Package cpuset is boardsat's one place for core affinity: the cores this
// process may run on, core lists as --cpus reads and the sidecar writes
// them, the shares of --jobs, and starting a command pinned to cores (bench
// pins each concurrent run to its own share). Affinity is a Linux system
// call (sched_setaffinity); elsewhere Available is empty and pinning is
// refused as unavailable (cpuset_other.go).
package cpuset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Parse reads a core list such as "0-3,6" (ranges and single cores,
// comma-separated) and checks every core is one this process may run on.
func Parse(list string) ([]int, error) {
	if !Supported {
		return nil, fmt.Errorf("bad --cpus %q: %w", list, ErrUnavailable)
	}
	avail := Available()
	var out []int
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, fmt.Errorf("bad --cpus %q: want cores like 0-3,6", list)
		}
		for c := a; c <= b; c++ {
			if !slices.Contains(avail, c) {
				return nil, fmt.Errorf("bad --cpus %q: core %d does not exist or is not ours (available: %s)", list, c, Format(avail))
			}
			if slices.Contains(out, c) {
				return nil, fmt.Errorf("bad --cpus %q: core %d given twice", list, c)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// Format writes a core list as Parse reads it, ranges collapsed.
func Format(cpus []int) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		} else {
			parts = append(parts, strconv.Itoa(cpus[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// Slots cuts cpus into jobs equal sets of consecutive cores, one per
// concurrent run (leftover cores unused). No cpus and one job: one
// unpinned slot. No cpus and more jobs: the available cores are cut.
func Slots(jobs int, cpus []int) ([][]int, error) {
	if jobs < 1 {
		return nil, fmt.Errorf("bad --jobs %d: want 1 or more", jobs)
	}
	if len(cpus) == 0 {
		if jobs == 1 {
			return [][]int{nil}, nil
		}
		if !Supported {
			return nil, fmt.Errorf("--jobs %d pins each run to its own cores: %w", jobs, ErrUnavailable)
		}
		cpus = Available()
	}
	if len(cpus) < jobs {
		return nil, fmt.Errorf("--jobs %d needs at least %d cores to pin each run to its own, have %s", jobs, jobs, Format(cpus))
	}
	per := len(cpus) / jobs
	out := make([][]int, jobs)
	for i := range out {
		out[i] = cpus[i*per : (i+1)*per]
	}
	return out, nil
}
