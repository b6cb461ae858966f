package bench

import (
	"context"
	"strconv"
	"time"

	"github.com/boardsat/boardsat/harness/compare"
	"github.com/boardsat/boardsat/harness/suites"
	"github.com/boardsat/boardsat/internal/progress"
	"github.com/boardsat/boardsat/puzzle"
)

// Overrides replace every group's settings when non-zero (command-line
// --repeat, --timeout, --cpu-limit, --mem).
type Overrides struct {
	Repeat   int
	Timeout  time.Duration
	CPULimit time.Duration
	MemMB    int64
	// Certify certifies every group's runs (bench --certify).
	Certify bool
}

// Run is one planned run: a child process solving one instance with one
// variant once.
type Run struct {
	Group   int // index into Suite.Groups
	Spec    puzzle.Spec
	Variant compare.Variant
	Task    puzzle.Task
	Rep     int
	// Timeout is the wall-clock limit, CPULimit the CPU-time limit of the
	// whole process tree (0: none), MemMB the memory limit of the tree.
	Timeout  time.Duration
	CPULimit time.Duration
	MemMB    int64
	// Certify runs it certified (solve --certify).
	Certify bool
}

// CertifySuffix ends the variant name of a certified run.
const CertifySuffix = "/certify"

// VariantName is the run's variant as its row names it: the variant, with
// CertifySuffix when the run is certified.
func (r Run) VariantName() string {
	if r.Certify {
		return r.Variant.String() + CertifySuffix
	}
	return r.Variant.String()
}

// Key identifies the run as results.Row.Key does.
func (r Run) Key() string {
	return r.Spec.String() + "\x00" + r.VariantName() + "\x00" + string(r.Task) + "\x00" + strconv.Itoa(r.Rep)
}

// Plan lists the suite's runs in order (see the suite format), with
// overrides applied. Variants that refuse a group's puzzle or task outright
// (compare.Supports) are left out and listed in unsupported, one entry per
// variant, puzzle and task.
func Plan(ctx context.Context, s suites.Suite, o Overrides) (runs []Run, unsupported []string) {
	maxRep := 0
	groups := make([]suites.Group, len(s.Groups))
	for i, g := range s.Groups {
		if o.Repeat > 0 {
			g.Repeat = o.Repeat
		}
		if o.Timeout > 0 {
			g.Timeout = o.Timeout
		}
		if o.MemMB > 0 {
			g.MemMB = o.MemMB
		}
		if o.CPULimit > 0 {
			g.CPULimit = o.CPULimit
		}
		g.Certify = g.Certify || o.Certify
		groups[i] = g
		maxRep = max(maxRep, g.Repeat)
	}
	var out []Run
	refused := map[string]bool{}
	supported := func(v compare.Variant, p string, task puzzle.Task) bool {
		k := v.String() + " on " + p + " " + string(task)
		ok, seen := refused[k]
		if !seen {
			err := compare.Supports(ctx, v, p, task)
			ok = err != nil
			refused[k] = ok
			if ok {
				unsupported = append(unsupported, k+": "+err.Error())
			}
		}
		return !ok
	}
	// A group's variants of one puzzle, expanded once: expanding looks
	// for the solvers' binaries, which done per run made planning slow.
	variants := map[string][]compare.Variant{}
	expand := func(gi int, p string) []compare.Variant {
		k := strconv.Itoa(gi) + "\x00" + p
		vs, ok := variants[k]
		if !ok {
			vs = compare.Expand(groups[gi].Patterns, p)
			variants[k] = vs
		}
		return vs
	}
	for rep := 1; rep <= maxRep; rep++ {
		for gi, g := range groups {
			if rep > g.Repeat {
				continue
			}
			progress.Notef(ctx, "planning: %d runs so far, repetition %d of %d", len(out), rep, maxRep)
			for si, spec := range g.Specs {
				if si%4096 == 4095 {
					progress.Notef(ctx, "planning: %d runs so far, repetition %d of %d", len(out), rep, maxRep)
				}
				task := g.Task
				if task == "" {
					task = puzzle.DefaultTask(spec)
				}
				for _, v := range expand(gi, spec.Puzzle()) {
					if !supported(v, spec.Puzzle(), task) {
						continue
					}
					out = append(out, Run{Group: gi, Spec: spec, Variant: v, Task: task, Rep: rep, Timeout: g.Timeout, CPULimit: g.CPULimit, MemMB: g.MemMB, Certify: g.Certify})
				}
			}
		}
	}
	return out, unsupported
}
