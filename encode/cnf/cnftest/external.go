package cnftest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// DIMACSSolvers are the Debian solvers that read DIMACS CNF, by binary name.
var DIMACSSolvers = []string{"cadical", "minisat", "cryptominisat5", "picosat", "clasp"}

// debianPackages names the Debian package of each solver binary whose
// package is named otherwise.
var debianPackages = map[string]string{"cryptominisat5": "cryptominisat", "cbc": "coinor-cbc", "glpsol": "glpk-utils"}

// installHint names the Debian package to install for a solver binary.
func installHint(binary string) string {
	return "Debian package " + DebianPackage(binary) + ": apt-get install " + DebianPackage(binary)
}

// DebianPackage returns the Debian package that installs a solver binary.
func DebianPackage(binary string) string {
	if p, ok := debianPackages[binary]; ok {
		return p
	}
	return binary
}

// RunSolver runs an external solver binary on the formula file at path
// (DIMACS, or OPB for minisat+) and returns whether it found the formula
// satisfiable and its model (model[v] for v = 1..nvars; for minisat+ on an
// objective, an optimal one), failing the test on
// a timeout, a crash or output it cannot read. It is written apart from
// encode/sat's runner so that tests of writers and encoders do not lean on
// the code that runs solvers in production.
func RunSolver(t testing.TB, name, path string, nvars int) (bool, []bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{path}
	if name == "minisat" {
		args = []string{"-verb=0", path, path + ".res"} // minisat writes its answer to a file
	}
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if ctx.Err() != nil {
		t.Fatalf("%s timed out on %s", name, path)
	}
	// 10 satisfiable, 20 unsatisfiable; clasp adds 30 (satisfiable, search exhausted).
	var ee *exec.ExitError
	if err != nil && (!errors.As(err, &ee) || (ee.ExitCode() != 10 && ee.ExitCode() != 20 && ee.ExitCode() != 30)) {
		t.Fatalf("%s failed: %v\n%s", name, err, out)
	}
	if name == "minisat" {
		res, err := os.ReadFile(path + ".res")
		if err != nil {
			t.Fatal(err)
		}
		head, rest, _ := strings.Cut(string(res), "\n")
		status := map[string]string{"SAT": "SATISFIABLE", "UNSAT": "UNSATISFIABLE"}[strings.TrimSpace(head)]
		out = []byte("s " + status + "\nv " + rest)
	}
	status := ""
	model := make([]bool, nvars+1)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	inModel := false // the previous line was a "v" line
	for sc.Scan() {
		line := sc.Text()
		isV := strings.HasPrefix(line, "v ")
		if isV && !inModel {
			// A new block of "v" lines: an optimiser (clasp on WCNF)
			// prints every improving model, the last one optimal.
			clear(model)
		}
		inModel = isV
		switch {
		case strings.HasPrefix(line, "s "):
			status = strings.TrimSpace(line[2:])
		case isV:
			for _, tok := range strings.Fields(line[2:]) {
				tok = strings.Replace(tok, "x", "", 1) // minisat+ writes x3 / -x3
				l, err := strconv.Atoi(tok)
				if err != nil {
					t.Fatalf("%s: bad model token %q", name, tok)
				}
				if l > 0 && l <= nvars {
					model[l] = true
				}
			}
		}
	}
	switch status {
	case "SATISFIABLE", "OPTIMUM FOUND": // the latter: minisat+ on an OPB file with a "min:" line
		return true, model
	case "UNSATISFIABLE":
		return false, nil
	}
	t.Fatalf("%s: no status line in\n%s", name, out)
	return false, nil
}

// InCI reports whether the tests run in continuous integration (CI=true),
// where every external solver must be installed.
func InCI() bool { return os.Getenv("CI") == "true" }

// MissingSolver reports whether the external solver binary is absent from
// PATH. Absent, it is a test failure under CI=true (.ci/run installs every
// solver) and a logged skip otherwise, so that `make test` needs only Go.
func MissingSolver(t testing.TB, binary string) bool {
	t.Helper()
	if _, err := exec.LookPath(binary); err == nil {
		return false
	}
	if InCI() {
		t.Errorf("%s is not installed (%s), and CI=true requires every external solver", binary, installHint(binary))
	} else {
		t.Logf("%s is not installed (%s): skipping its checks (CI=true makes this a failure)", binary, installHint(binary))
	}
	return true
}

// NeedSolver ends the test when the external solver binary is absent: as a
// failure under CI=true, as a skip otherwise.
func NeedSolver(t testing.TB, binary string) {
	t.Helper()
	if _, err := exec.LookPath(binary); err == nil {
		return
	}
	if InCI() {
		t.Fatalf("%s is not installed (%s), and CI=true requires every external solver", binary, installHint(binary))
	}
	t.Skipf("%s is not installed (%s): skipping (CI=true makes this a failure)", binary, installHint(binary))
}

// FakeSolver puts an executable shell script named binary, running
// script, first on PATH for the rest of the test: a stand-in solver whose
// output, exit status or hang a test chooses.
func FakeSolver(t testing.TB, binary, script string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, binary), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}
