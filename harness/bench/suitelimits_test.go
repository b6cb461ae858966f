package bench

import (
	"testing"

	"github.com/boardsat/boardsat/harness/suites"
)

// TestBuiltinSuitesLimitCPU checks that every group of every built-in
// suite is limited by CPU time, with a wall limit at least four times as
// long as a safety net: a run's status then follows what it cost, not how
// loaded the machine was (a wall limit of a few seconds times out runs
// that used a fraction of it in CPU when other work shares the cores).
func TestBuiltinSuitesLimitCPU(t *testing.T) {
	for _, name := range suites.Builtin.Names() {
		s, err := suites.Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, g := range s.Groups {
			if g.CPULimit <= 0 {
				t.Errorf("%s, group %d (%s...): no cpu-limit=", name, i+1, g.Specs[0])
				continue
			}
			if g.Timeout < 4*g.CPULimit {
				t.Errorf("%s, group %d (%s...): wall limit %s is under 4 x the cpu-limit %s", name, i+1, g.Specs[0], g.Timeout, g.CPULimit)
			}
		}
	}
}
