package solverdef

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// builtinFS holds the built-in definitions; their files are named N-NAME.json
// so that they list in the order boardsat has always listed its solvers.
//
//go:embed builtin/*.json
var builtinFS embed.FS

// EnvVar is the environment variable listing definition paths
// (':'-separated, like PATH).
const EnvVar = "BOARDSAT_SOLVERS"

var (
	mu      sync.Mutex
	defs    []Def               // the built-ins first, then the user's in load order
	loaded  = map[string]bool{} // the absolute paths of the files read
	started bool
)

// reserved are the names of solvers that are no definition (the
// in-process ones): no definition may take them.
var reserved []string

// Reserve keeps names from definitions: the package that runs solvers in
// process calls it from init with theirs.
func Reserve(names ...string) {
	mu.Lock()
	defer mu.Unlock()
	reserved = append(reserved, names...)
}

// builtins reads the embedded definitions once.
func builtins() {
	if started {
		return
	}
	started = true
	entries, err := builtinFS.ReadDir("builtin")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		data, err := builtinFS.ReadFile("builtin/" + e.Name())
		if err != nil {
			panic(err)
		}
		d, err := Parse(data, BuiltIn)
		if err != nil {
			panic(fmt.Sprintf("built-in solver definition %s: %v", e.Name(), err))
		}
		defs = append(defs, d)
	}
}

// All returns every definition, the built-ins first (those a user's
// definition replaces in its place), then the user's in the order read.
func All() []Def {
	mu.Lock()
	defer mu.Unlock()
	builtins()
	return slices.Clone(defs)
}

// Lookup returns the definition called name.
func Lookup(name string) (Def, bool) {
	mu.Lock()
	defer mu.Unlock()
	builtins()
	for _, d := range defs {
		if d.Name == name {
			return d, true
		}
	}
	return Def{}, false
}

// LoadEnv reads the definitions of the paths in BOARDSAT_SOLVERS (empty
// entries are skipped).
func LoadEnv() error {
	for _, p := range filepath.SplitList(os.Getenv(EnvVar)) {
		if p == "" {
			continue
		}
		if err := Load(p); err != nil {
			return fmt.Errorf("%s: %w", EnvVar, err)
		}
	}
	return nil
}

// Load reads the definitions at path: a definition file, or a directory
// whose *.json files are definitions (read in name order). A file already
// read is skipped. Every fault is an error naming the file (and the field
// at fault): a path that does not exist, a cyclic symbolic link, a
// directory named like a definition, a definition that is not valid, a
// name taken. A program not on PATH is no fault of the definition: the
// solver is listed as not installed, and refused only where it is asked
// for (Installed). Nothing is added unless every
// definition at path is valid.
func Load(path string) error {
	files, err := definitionFiles(path)
	if err != nil {
		return err
	}
	var add []Def
	for _, file := range files {
		abs, err := filepath.Abs(file)
		if err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		mu.Lock()
		seen := loaded[abs]
		mu.Unlock()
		if seen {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("%s: %v", file, pathError(err))
		}
		d, err := Parse(data, file)
		if err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
		if slices.Contains(reserved, d.Name) {
			return fmt.Errorf("%s: field name: %q is an in-process solver, which no definition replaces", file, d.Name)
		}
		for _, o := range add {
			if o.Name == d.Name {
				return fmt.Errorf("%s: field name: solver %q is defined twice (also in %s)", file, d.Name, o.Source)
			}
		}
		d.Source = abs
		add = append(add, d)
	}
	mu.Lock()
	defer mu.Unlock()
	builtins()
	for _, d := range add {
		if i := slices.IndexFunc(defs, func(o Def) bool { return o.Name == d.Name }); i >= 0 {
			o := defs[i]
			switch {
			case !o.Builtin():
				return fmt.Errorf("%s: field name: solver %q is already defined by %s", d.Source, d.Name, o.Source)
			case !d.Replaces:
				return fmt.Errorf("%s: field name: %q is a built-in solver; say \"replaces\": true to replace it", d.Source, d.Name)
			}
		} else if d.Replaces {
			return fmt.Errorf("%s: field replaces: there is no built-in solver %q to replace", d.Source, d.Name)
		}
	}
	for _, d := range add {
		loaded[d.Source] = true
		if i := slices.IndexFunc(defs, func(o Def) bool { return o.Name == d.Name }); i >= 0 {
			defs[i] = d
		} else {
			defs = append(defs, d)
		}
	}
	return nil
}

// definitionFiles returns the definition files at path: path itself when
// it is a file, the *.json files in it when it is a directory.
func definitionFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathError(err))
	}
	if !st.IsDir() {
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file, want a JSON solver definition", path)
		}
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathError(err))
	}
	var files []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		file := filepath.Join(path, e.Name())
		st, err := os.Stat(file)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%s: %v", file, pathError(err))
		case st.IsDir():
			return nil, fmt.Errorf("%s: a directory, want a JSON solver definition file", file)
		case !st.Mode().IsRegular():
			return nil, fmt.Errorf("%s: not a regular file, want a JSON solver definition", file)
		}
		files = append(files, file)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: a directory without solver definitions (no *.json file)", path)
	}
	return files, nil
}

// pathError says why a path cannot be read, without repeating the path.
func pathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "no such file or directory"
	}
	if err.Error() == "too many levels of symbolic links" {
		return "a cycle of symbolic links"
	}
	return err.Error()
}

// Installed reports why the definition's program cannot run here (it is
// not on PATH, or not an executable file), or nil.
func (d Def) Installed() error {
	_, err := exec.LookPath(d.Program())
	switch {
	case err == nil:
		return nil
	case strings.Contains(d.Program(), "/"):
		// A path is not looked up on PATH: say what is wrong with it, and
		// that a relative one is read from the directory boardsat runs in.
		why := "no such file"
		if st, serr := os.Stat(d.Program()); serr == nil {
			why = "not an executable file"
			if st.IsDir() {
				why = "a directory"
			}
		}
		if !filepath.IsAbs(d.Program()) {
			why += " (a relative path is read from the current directory, not the definition's)"
		}
		return fmt.Errorf("program %q: %s", d.Program(), why)
	}
	return fmt.Errorf("program %q is not on PATH", d.Program())
}

// Forget forgets the user's definitions, keeping the built-ins: each
// command line of boardsat reads its own (tests run many in one process).
func Forget() {
	mu.Lock()
	defer mu.Unlock()
	defs, loaded, started = nil, map[string]bool{}, false
}
