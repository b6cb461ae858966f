package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
)

func TestEncodeCommand(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		status int
		out    string // prefix of stdout
		errMsg string // substring of stderr
	}{
		{"dimacs", []string{"encode", "queens:4", "--encoding", "seqcounter"}, 0, "c t pmc\np cnf ", ""},
		{"no aux", []string{"encode", "queens:4", "--encoding", "pairwise"}, 0, "c t mc\np cnf 16 ", ""},
		{"default", []string{"encode", "pieces:3x3:K1R2"}, 0, "c t pmc\np cnf ", ""},
		{"model+card", []string{"encode", "queens:4", "--encoding", "direct+ladder", "--format", "opb"}, 0, "* #variable= ", ""},
		{"native opb", []string{"encode", "queens:4", "--encoding", "native", "--format", "opb"}, 0, "* #variable= 16 ", ""},
		{"native dimacs", []string{"encode", "queens:4", "--encoding", "native"}, 2, "", "DIMACS CNF cannot express"},
		{"amo only", []string{"encode", "pieces:4x4:R2N4", "--encoding", "commander"}, 2, "", "expresses only at-most-one"},
		{"unknown encoding", []string{"encode", "queens:4", "--encoding", "nonesuch"}, 2, "", "unknown encoding \"nonesuch\": want a cardinality encoding (pairwise, "},
		{"bad spec", []string{"encode", "queens:0"}, 2, "", "bad queens spec"},
		{"bad format", []string{"encode", "queens:4", "--format", "xml"}, 2, "", "unknown format"},
		{"wcnf without objective", []string{"encode", "queens:4", "--format", "wcnf"}, 2, "", "no objective"},
		{"dominate opb", []string{"encode", "dominate:3x3:K", "--encoding", "satunsat+seqcounter", "--format", "opb"}, 0, "* #variable= 9 #constraint= 9\n", ""},
		{"dominate wcnf", []string{"encode", "dominate:3x3:K", "--encoding", "satunsat+seqcounter", "--format", "wcnf"}, 0, "p wcnf 9 18 10\nc var 1 x_a1\n", ""},
		// The default model, with lex-leader symmetry breaking: its aux too.
		{"dominate default", []string{"encode", "dominate:3x3:K", "--format", "opb"}, 0, "* #variable= 50 #constraint= 139\n", ""},
		{"wcnf with PB", []string{"encode", "dominate:3x3:K:k=1", "--encoding", "native", "--format", "wcnf"}, 2, "", "DIMACS CNF cannot express"},
		{"no spec", []string{"encode"}, 2, "", "one SPEC"},
		{"mzn", []string{"encode", "queens:4", "--format", "mzn"}, 0, "% queens:4 as a MiniZinc model", ""},
		{"mzn dominate", []string{"encode", "dominate:3x3:K", "--format", "mzn"}, 0, "% dominate:3x3:K as a MiniZinc model", ""},
		{"lp", []string{"encode", "dominate:3x3:K", "--format", "lp"}, 0, "\\ dominate:3x3:K: x_SQ = 1", ""},
		{"mps", []string{"encode", "tour:5x5:a1", "--format", "mps"}, 0, "* tour:5x5:a1: a_SQ_SQ2", ""},
		{"mzn of a game", []string{"encode", "mnk:3x3:3", "--format", "mzn"}, 2, "", "no MiniZinc model for mnk"},
		{"mzn of a swap without a horizon", []string{"encode", "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free", "--format", "mzn"}, 2, "", "give the horizon with --steps T"},
		{"mzn of a swap", []string{"encode", "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free", "--format", "mzn", "--steps", "16"}, 0, "% swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free as a MiniZinc model of a plan of 16 moves", ""},
		{"lp of a swap", []string{"encode", "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free", "--format", "lp", "--steps", "4"}, 0, "\\ swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free as a plan of 4 moves", ""},
		{"lp of a swap without a horizon", []string{"encode", "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free", "--format", "lp"}, 2, "", "give the horizon with --steps T"},
		{"lp of a king path", []string{"encode", "kingpath:3x3:a1:3", "--format", "lp"}, 2, "", "no integer-programming model for kingpath"},
		{"mps bad spec", []string{"encode", "queens:x", "--format", "mps"}, 2, "", "bad queens spec"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if got := run(c.args, &out, &errb); got != c.status {
				t.Fatalf("status %d, want %d (stderr %q)", got, c.status, errb.String())
			}
			if !strings.HasPrefix(out.String(), c.out) {
				t.Errorf("stdout starts %q, want %q", first(out.String(), 40), c.out)
			}
			if c.status != 0 && out.Len() != 0 {
				t.Errorf("failed run wrote %d bytes to stdout", out.Len())
			}
			if !strings.Contains(errb.String(), c.errMsg) || strings.Count(errb.String(), "\n") > 1 {
				t.Errorf("stderr %q, want one line containing %q", errb.String(), c.errMsg)
			}
		})
	}
}

func first(s string, n int) string { return s[:min(n, len(s))] }

func TestEncodeFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "q8.cnf")
	var stdout, stderr, stats bytes.Buffer
	encodeStderr = &stats
	defer func() { encodeStderr = os.Stderr }()
	if st := run([]string{"encode", "queens:8", "--encoding", "totalizer", "-o", name, "-v"}, &stdout, &stderr); st != 0 {
		t.Fatalf("status %d: %s", st, stderr.String())
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("c t pmc\np cnf ")) || !bytes.Contains(data, []byte("\nc var 1 q_a1\n")) || stdout.Len() != 0 {
		t.Errorf("file starts %q; stdout has %d bytes", first(string(data), 40), stdout.Len())
	}
	if st, err := os.Stat(name); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("%s: %v %v, want mode 0644", name, st, err)
	}
	if !strings.Contains(stats.String(), "64 primary") {
		t.Errorf("-v printed %q, want the statistics", stats.String())
	}
	// Bad input leaves the existing file untouched and no temporary files.
	if st := run([]string{"encode", "queens:8", "--encoding", "native", "-o", name, "--force"}, &stdout, &stderr); st != 2 {
		t.Fatalf("native as DIMACS: status %d, want 2", st)
	}
	again, _ := os.ReadFile(name)
	if !bytes.Equal(again, data) {
		t.Error("a failed encode changed the output file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the output file", len(entries))
	}
	// An existing file is replaced only with --force.
	stderr.Reset()
	if st := run([]string{"encode", "queens:5", "-o", name}, &stdout, &stderr); st != 2 || !strings.Contains(stderr.String(), "already exists: add --force") {
		t.Errorf("-o onto an existing file: status %d, stderr %q", st, stderr.String())
	}
	if again, _ := os.ReadFile(name); !bytes.Equal(again, data) {
		t.Error("a refused encode changed the output file")
	}
	// Without -v nothing goes to stderr.
	stats.Reset()
	if st := run([]string{"encode", "queens:5", "-o", name, "--force"}, &stdout, &stderr); st != 0 || stats.Len() != 0 {
		t.Errorf("status %d, stats %q", st, stats.String())
	}
}

// TestEncodingModelAlone: --encoding satunsat, a model boardsat list
// names, is taken with its default card encoding, and answers as the same
// model named with it does (dominate:6x6:Q: 3 queens).
func TestEncodingModelAlone(t *testing.T) {
	for _, enc := range []string{"satunsat", "satunsat+seqcounter"} {
		status, out, errOut := runCLI("solve", "dominate:6x6:Q", "--backend", "sat", "--encoding", enc, "--format", "json")
		a, err := answer.Last(out)
		if status != 0 || err != nil || a.Status != "ok" || answer.Str(a.Encoding) != "satunsat+seqcounter" || a.Objective == nil || a.Objective.String() != "3" {
			t.Errorf("--encoding %s: exit %d, %v, stdout %q, stderr %q; want ok, satunsat+seqcounter, 3", enc, status, err, out, errOut)
		}
	}
}
