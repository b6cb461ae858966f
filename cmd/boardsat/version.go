package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/boardsat/boardsat/internal/buildinfo"
)

func init() {
	commands["version"] = command{"print the module version, git commit, Go and gophersat versions of this binary", runVersion}
	helps["version"] = help{
		usage: []string{"version", "--version  (the same)"},
		about: `Prints what this binary was built from, read from its build information: the
module version, the git commit (with +dirty for uncommitted changes), the Go
toolchain and the gophersat version. The commit is stamped by make build (go
build -buildvcs=true in a git checkout); go run and go test do not stamp it,
and such a binary says "unknown (built without VCS information)", as its
bench rows and sidecars do.`,
		examples: []string{"version"},
	}
}

func runVersion(args []string, stdout io.Writer) error {
	pos, err := parseFlags(flag.NewFlagSet("version", flag.ContinueOnError), args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInputf("version takes no arguments")
	}
	fmt.Fprint(stdout, buildinfo.Read())
	return nil
}
