package subproblem

import (
	"os"
	"sync"

	"github.com/boardsat/boardsat/internal/buildinfo"
	"github.com/boardsat/boardsat/internal/filehash"
)

// Version returns the boardsat version that goes into every Key: the
// commit the binary was built from (internal/buildinfo: the go command's
// VCS stamp, else make build's), cut to 12 hex digits, and, for a build
// with uncommitted changes or without a commit (go test, go build
// -buildvcs=false), a hash of the executable itself ("build-" plus 12 hex
// digits), so that two different builds never pass for one. Checkpoints
// and shards of different builds do not mix: a partition may change
// between them.
var Version = sync.OnceValue(func() string { return version(buildinfo.Read(), exeHash) })

// version is Version for build b, hash giving the executable's hash.
func version(b buildinfo.Build, hash func() string) string {
	rev := b.Commit
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && !b.Dirty {
		return rev
	}
	build := "build-" + hash()
	if rev != "" {
		return rev + "+dirty+" + build
	}
	return build
}

// exeHash returns the first 12 hex digits of the SHA-256 of the running
// executable, or "unknown".
func exeHash() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	sum, err := filehash.SHA256(path)
	if err != nil {
		return "unknown"
	}
	return sum[:12]
}
