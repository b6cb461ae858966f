package subproblem

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// Version returns the boardsat version that goes into every Key: the VCS
// revision the binary was built from, and, for a build with uncommitted
// changes or without VCS information (go build -buildvcs=false, go test),
// a hash of the executable itself ("build-" plus 12 hex digits), so that
// two different builds never pass for one. Checkpoints and shards of
// different builds do not mix: a partition may change between them.
var Version = sync.OnceValue(func() string {
	rev, dirty := "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && !dirty {
		return rev
	}
	build := "build-" + exeHash()
	if rev != "" {
		return rev + "+dirty+" + build
	}
	return build
})

// exeHash returns the first 12 hex digits of the SHA-256 of the running
// executable, or "unknown".
func exeHash() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
