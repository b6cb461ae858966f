package solverdef

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/cnf/cnftest"
)

// TestBuiltins: the embedded definitions are the six external solvers
// boardsat has always run, in its order, each valid.
func TestBuiltins(t *testing.T) {
	Forget()
	var names []string
	for _, d := range All() {
		if !d.Builtin() {
			t.Errorf("%s: source %q, want built in", d.Name, d.Source)
		}
		names = append(names, d.Name)
	}
	want := []string{"cadical", "minisat", "cryptominisat5", "picosat", "clasp", "minisat+"}
	if !slices.Equal(names, want) {
		t.Errorf("built-ins %v, want %v", names, want)
	}
	d, _ := Lookup("cadical")
	if d.ProofFormat() != ProofDRATASCII || !d.Proves() {
		t.Errorf("cadical proof %q", d.ProofFormat())
	}
	if d, _ := Lookup("minisat+"); d.Input() != "opb" || d.Proves() {
		t.Errorf("minisat+: input %s, proves %v", d.Input(), d.Proves())
	}
}

func TestExpand(t *testing.T) {
	cmd := []string{"kissat", "-q", "--seed={seed}", "--time={cpu_seconds}", "{input}", "{proof}"}
	got := Expand(cmd, Args{Input: "in.cnf", Seed: 3, CPUSeconds: 60})
	if want := []string{"kissat", "-q", "--seed=3", "--time=60", "in.cnf"}; !slices.Equal(got, want) {
		t.Errorf("without proof: %q, want %q", got, want)
	}
	got = Expand(cmd, Args{Input: "in.cnf", Proof: "p.drat"})
	if want := []string{"kissat", "-q", "--seed=0", "--time=0", "in.cnf", "p.drat"}; !slices.Equal(got, want) {
		t.Errorf("with proof: %q, want %q", got, want)
	}
}

// write writes a definition file in dir.
func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLoadRefuses: every fault of a definition or a path is one error
// naming the file and, for a definition's content, the field.
func TestLoadRefuses(t *testing.T) {
	cnftest.FakeSolver(t, "fake-kissat", "exit 0")
	dir := t.TempDir()
	good := `{"name": "kissat", "kind": "sat", "command": ["fake-kissat", "{input}", "{proof}"], "proof": "drat-binary"}`
	cases := []struct{ name, text, want string }{
		{"notjson.json", `{"name": "kissat",`, "not valid JSON"},
		{"empty.json", "", "empty file"},
		{"blank.json", " \n", "empty file"},
		{"kind.json", strings.Replace(good, `"sat"`, `"smt"`, 1), `field kind: unknown kind "smt"`},
		{"field.json", strings.Replace(good, `"proof":`, `"proff":`, 1), "field proff: unknown field"},
		{"type.json", strings.Replace(good, `"sat"`, `7`, 1), "field kind: want string"},
		{"typo.json", strings.Replace(good, `{input}`, `{inptu}`, 1), "field command: unknown placeholder {inptu}"},
		{"brace.json", strings.Replace(good, `{input}`, `{input`, 1), "field command: unbalanced braces"},
		{"noinput.json", strings.Replace(good, `"{input}", `, ``, 1), "field command: no {input} placeholder"},
		{"proof.json", strings.Replace(good, `drat-binary`, `lrat`, 1), `field proof: unknown proof format "lrat"`},
		{"noproof.json", strings.Replace(good, `, "{proof}"`, ``, 1), "field command: proof is drat-binary but no argument has the {proof}"},
		{"pa-alone.json", strings.Replace(good, `"{proof}"]`, `"{proof_args}"]`, 1), "field command: {proof_args}, but no proof_args"},
		{"pa-noproof.json", strings.Replace(good, `"{proof}"], "proof": "drat-binary"`, `"{proof_args}"], "proof_args": ["-r", "{proof}"]`, 1), "field proof_args: proof is none"},
		{"pa-nofile.json", strings.Replace(good, `"{proof}"],`, `"{proof_args}"], "proof_args": ["-r"],`, 1), "field proof_args: no argument has the {proof} placeholder"},
		{"pa-inside.json", strings.Replace(good, `"{proof}"],`, `"x{proof_args}"], "proof_args": ["-r", "{proof}"],`, 1), "stands alone, as a whole argument"},
		{"builtin.json", strings.Replace(good, `"kissat"`, `"cadical"`, 1), `field name: "cadical" is a built-in solver; say "replaces": true`},
		{"name.json", strings.Replace(good, `"kissat"`, `"Kissat 4"`, 1), "field name:"},
		{"replaces.json", strings.Replace(good, `"kind"`, `"replaces": true, "kind"`, 1), `field replaces: there is no built-in solver "kissat"`},
		{"twice.json", good + good, "more after the definition"},
		{"array.json", `[` + good + `]`, "not one JSON object: want one solver definition"},
		{"string.json", `"kissat"`, "not one JSON object: want one solver definition {\"name\": ..., \"kind\": ..., \"command\": [...]}, not a string"},
		{"mcproof.json", `{"name": "d4", "kind": "mc", "command": ["fake-kissat", "{input}", "{proof}"], "proof": "drat-ascii"}`, "field proof: a mc solver writes no DRAT proof"},
	}
	for _, c := range cases {
		Forget()
		p := write(t, dir, c.name, c.text)
		err := Load(p)
		if err == nil || !strings.HasPrefix(err.Error(), p+": ") || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line starting %q and containing %q", c.name, err, p+": ", c.want)
		}
		if len(All()) != 6 {
			t.Errorf("%s: a refused definition was added", c.name)
		}
	}
	// A program that cannot run here is no fault of the definition: it
	// loads, and Installed says what is wrong (the solver is listed as not
	// installed, and refused where it is asked for).
	for _, c := range []struct{ name, text, want string }{
		{"absent.json", strings.Replace(good, `fake-kissat`, `no-such-solver-here`, 1), `program "no-such-solver-here" is not on PATH`},
		{"relpath.json", strings.Replace(good, `fake-kissat`, `./no-such-dir/kissat`, 1), `program "./no-such-dir/kissat": no such file (a relative path is read from the current directory, not the definition's)`},
		{"abspath.json", strings.Replace(good, `fake-kissat`, dir, 1), `program "` + dir + `": a directory`},
		{"notexec.json", strings.Replace(good, `fake-kissat`, filepath.Join(dir, "notexec.json"), 1), `program "` + filepath.Join(dir, "notexec.json") + `": not an executable file`},
	} {
		Forget()
		p := write(t, dir, c.name, c.text)
		if err := Load(p); err != nil {
			t.Errorf("%s: %v; want it loaded", c.name, err)
			continue
		}
		d, ok := Lookup("kissat")
		if err := d.Installed(); !ok || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Installed() = %v, want %q", c.name, err, c.want)
		}
	}
	// Paths: absent, a directory named like a definition, a cycle of
	// symbolic links, a directory without definitions.
	Forget()
	sub := t.TempDir()
	if err := os.Mkdir(filepath.Join(sub, "x.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(t.TempDir(), "a")
	os.Symlink(loop+"b", loop)
	os.Symlink(loop, loop+"b")
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "absent.d"), "no such file or directory"},
		{sub, filepath.Join(sub, "x.json") + ": a directory, want a JSON solver definition file"},
		{loop, loop + ": a cycle of symbolic links"},
		{t.TempDir(), "a directory without solver definitions"},
	} {
		if err := Load(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%s) = %v, want %q", c.path, err, c.want)
		}
	}
}

// TestLoad reads a directory of definitions and a replacement of a
// built-in; a file read twice (env and flag) counts once; a second
// definition of one name is refused.
func TestLoad(t *testing.T) {
	Forget()
	defer Forget()
	cnftest.FakeSolver(t, "fake-kissat", "exit 0")
	dir := t.TempDir()
	write(t, dir, "kissat.json", `{"name": "kissat", "kind": "sat", "command": ["fake-kissat", "{input}", "{proof}"], "proof": "drat-binary", "version": ["fake-kissat", "--version"]}`)
	write(t, dir, "cadical.json", `{"name": "cadical", "kind": "sat", "replaces": true, "command": ["fake-kissat", "{input}"]}`)
	write(t, dir, "README", "not a definition")
	t.Setenv(EnvVar, dir+string(os.PathListSeparator))
	if err := LoadEnv(); err != nil {
		t.Fatal(err)
	}
	if err := Load(filepath.Join(dir, "kissat.json")); err != nil {
		t.Errorf("reading a file again: %v", err)
	}
	d, ok := Lookup("kissat")
	if !ok || d.Source != filepath.Join(dir, "kissat.json") || d.ProofFormat() != ProofDRATBinary || len(d.JSON) == 0 {
		t.Errorf("kissat: %+v", d)
	}
	c, _ := Lookup("cadical")
	if c.Builtin() || c.Program() != "fake-kissat" {
		t.Errorf("cadical not replaced: %+v", c)
	}
	if n := len(All()); n != 7 {
		t.Errorf("%d definitions, want 7", n)
	}
	other := write(t, t.TempDir(), "k.json", `{"name": "kissat", "kind": "sat", "command": ["fake-kissat", "{input}"]}`)
	if err := Load(other); err == nil || !strings.Contains(err.Error(), `field name: solver "kissat" is already defined by `) {
		t.Errorf("second kissat: %v", err)
	}
	Reserve("inproc")
	res := write(t, t.TempDir(), "i.json", `{"name": "inproc", "kind": "sat", "command": ["fake-kissat", "{input}"]}`)
	if err := Load(res); err == nil || !strings.Contains(err.Error(), "in-process solver") {
		t.Errorf("reserved name: %v", err)
	}
}
