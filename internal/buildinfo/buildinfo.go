// Package buildinfo is the one place that says what a boardsat binary was
// built from: the commit (from the go command's VCS stamp, else from the
// commit make build stamps with -ldflags -X), the module, Go and gophersat
// versions. boardsat version prints it, bench rows and sidecars record its
// commit, and checkpoint keys (internal/subproblem) are made from it, so
// that all four agree.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Unknown is the commit recorded, in the CSV's commit column and the
// sidecar's git_commit, by a binary built without a commit (go run, go
// test, go build -buildvcs=false, or a go build in a git worktree, where
// the go command finds no VCS).
const Unknown = "unknown (built without VCS information)"

// Build is what a boardsat binary knows about its own making, from
// runtime/debug.ReadBuildInfo and the make build stamp: the numbers a
// reader needs to rebuild the binary behind a table.
type Build struct {
	// Module is the main module's path, Version its version ("(devel)" for
	// a build from a checkout).
	Module, Version string
	// Commit is the git revision the binary was built from, "" when the
	// build did not stamp it; Dirty says the working tree had uncommitted
	// changes; CommitTime is the commit's time (RFC 3339), where the go
	// command stamped it.
	Commit     string
	Dirty      bool
	CommitTime string
	// GoVersion is the toolchain; Gophersat the version of the gophersat
	// module linked in.
	GoVersion, Gophersat string
}

// stampCommit is the commit make build stamps with -ldflags -X (git
// rev-parse HEAD, "+dirty" for uncommitted changes): the commit of builds
// whose build information has no VCS settings (the go command finds no
// VCS in a git worktree). The Makefile's LDFLAGS names this variable.
var stampCommit string

// Read returns this binary's Build.
func Read() Build {
	bi, _ := debug.ReadBuildInfo()
	return fromInfo(bi, stampCommit)
}

// fromInfo makes a Build from build information (nil: none) and the -X
// stamp; the go command's VCS settings, where present, win over the stamp.
func fromInfo(bi *debug.BuildInfo, stamp string) Build {
	b := Build{GoVersion: runtime.Version()}
	if c, dirty := strings.CutSuffix(stamp, "+dirty"); c != "" {
		b.Commit, b.Dirty = c, dirty
	}
	if bi == nil {
		return b
	}
	b.Module, b.Version = bi.Main.Path, bi.Main.Version
	for _, d := range bi.Deps {
		if d.Path == "github.com/crillab/gophersat" {
			b.Gophersat = d.Version
		}
	}
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			b.Commit = kv.Value
		case "vcs.modified":
			b.Dirty = kv.Value == "true"
		case "vcs.time":
			b.CommitTime = kv.Value
		}
	}
	return b
}

// Known reports whether the build carries its commit.
func (b Build) Known() bool { return b.Commit != "" }

// CommitLabel is the commit as recorded in rows and sidecars: the revision,
// with "+dirty" when the tree had uncommitted changes; Unknown when the
// build did not stamp it.
func (b Build) CommitLabel() string {
	switch {
	case b.Commit == "":
		return Unknown
	case b.Dirty:
		return b.Commit + "+dirty"
	}
	return b.Commit
}

// Warning is the one line a bench prints at its start when the build
// carries no commit (its rows and sidecar then record Unknown), with the
// remedy; "" when the commit is known.
func (b Build) Warning() string {
	if b.Known() {
		return ""
	}
	return "warning: this binary was built without its commit (go run, go test, -buildvcs=false or a go build in a git worktree): rows and sidecar record the commit as " + Unknown + "; build with make build"
}

// String is the text of "boardsat version" (and --version): one "key:
// value" line per field, the commit said to be unknown, with the remedy,
// when the build did not stamp it.
func (b Build) String() string {
	commit := b.CommitLabel()
	if !b.Known() {
		commit += ": build with make build (or go build -buildvcs=true in a checkout that is not a git worktree)"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "boardsat %s\n", b.Version)
	fmt.Fprintf(&sb, "module:    %s\n", b.Module)
	fmt.Fprintf(&sb, "commit:    %s\n", commit)
	if b.CommitTime != "" {
		fmt.Fprintf(&sb, "committed: %s\n", b.CommitTime)
	}
	fmt.Fprintf(&sb, "go:        %s\n", b.GoVersion)
	fmt.Fprintf(&sb, "gophersat: %s\n", b.Gophersat)
	return sb.String()
}
