package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// AvailableCPUs returns the cores this process may run on, in order.
func AvailableCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var out []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			out = append(out, c)
		}
	}
	return out
}

// ParseCPUs reads a core list such as "0-3,6" (ranges and single cores,
// comma-separated) and checks every core is one this process may run on.
func ParseCPUs(list string) ([]int, error) {
	avail := AvailableCPUs()
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
				return nil, fmt.Errorf("bad --cpus %q: core %d does not exist or is not ours (available: %s)", list, c, FormatCPUs(avail))
			}
			if slices.Contains(out, c) {
				return nil, fmt.Errorf("bad --cpus %q: core %d given twice", list, c)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// FormatCPUs writes a core list as ParseCPUs reads it, ranges collapsed.
func FormatCPUs(cpus []int) string {
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
		cpus = AvailableCPUs()
	}
	if len(cpus) < jobs {
		return nil, fmt.Errorf("--jobs %d needs at least %d cores to pin each run to its own, have %s", jobs, jobs, FormatCPUs(cpus))
	}
	per := len(cpus) / jobs
	out := make([][]int, jobs)
	for i := range out {
		out[i] = cpus[i*per : (i+1)*per]
	}
	return out, nil
}
