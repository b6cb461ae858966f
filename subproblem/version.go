package subproblem

import (
	"runtime/debug"
	"sync"
)

// Version returns the boardsat version that goes into every Key: the VCS
// revision the binary was built from (with "+dirty" for uncommitted
// changes), or "devel" when the build carries none (go test, go run
// outside a checkout). Checkpoints and shards of different builds do not
// mix: a partition may change between them.
var Version = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
})
