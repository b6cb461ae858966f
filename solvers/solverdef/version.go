package solverdef

import (
	"os/exec"
	"strings"

	"github.com/boardsat/boardsat/internal/filehash"
	"github.com/boardsat/boardsat/solvers/solverproc"
)

// VersionLine describes the installed solver's version: the first line
// its version command prints (without a leading "c "), or, without a
// version command, what solverproc.BinaryVersion says of its program; ""
// when the program is not on PATH.
func (d Def) VersionLine() string {
	if d.Installed() != nil {
		return ""
	}
	if len(d.Version) == 0 {
		return solverproc.BinaryVersion(d.Program())
	}
	out, _ := solverproc.Probe(d.Version...)
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "c "))
		if l != "" {
			return solverproc.Clip(l)
		}
	}
	return "installed, version unknown"
}

// ProgramSHA256 returns the sha256 (hex) of the program file the
// definition runs, found on PATH; "" when it is not there or unreadable.
func (d Def) ProgramSHA256() string {
	path, err := exec.LookPath(d.Program())
	if err != nil {
		return ""
	}
	sum, _ := filehash.SHA256(path) // "" when unreadable
	return sum
}
