package main

import (
	"fmt"
	"github.com/boardsat/boardsat/harness/suites"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/paradigm/mip"
	"github.com/boardsat/boardsat/paradigm/mzn"
	"github.com/boardsat/boardsat/puzzle"
)

// TestSubcommandHelp checks "boardsat SUB -h" for every subcommand and every
// results subcommand: exit status 0, the subcommand's own usage line first
// (naming its arguments), only its own flags, and examples of itself.
func TestSubcommandHelp(t *testing.T) {
	var subs [][]string
	for name := range commands {
		subs = append(subs, []string{name})
	}
	for _, s := range resultsSubs {
		subs = append(subs, []string{"results", s})
	}
	for _, s := range []string{"solve", "bench", "collect"} {
		subs = append(subs, []string{"slurm", s})
	}
	args := map[string]string{ // the argument each usage line must name
		"solve": "SPEC", "encode": "SPEC", "compare": "SPEC...", "bench": "SUITE",
		"results": "FILE.csv...", "results summarize": "FILE.csv...", "results table": "FILE.csv...",
		"results plot": "FILE.csv...", "results benchfmt": "FILE.csv...", "results merge": "FILE.csv...",
		"slurm": "SPEC", "slurm solve": "SPEC", "slurm bench": "SUITE", "slurm collect": "DIR", "combine": "SHARD.json...",
	}
	flagLine := regexp.MustCompile(`(?m)^  -([a-z-]+)`)
	issueRef := regexp.MustCompile(`(?i)\bissues? #?\d+`)
	for _, sub := range subs {
		name := strings.Join(sub, " ")
		t.Run(name, func(t *testing.T) {
			status, out, stderr := runCLI(append(slices.Clone(sub), "-h")...)
			if status != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", status, stderr)
			}
			if !strings.HasPrefix(out, "usage: boardsat "+name) {
				t.Errorf("output starts %q, want its own usage line", first(out, 60))
			}
			if a, ok := args[name]; ok && !strings.Contains(strings.SplitN(out, "\n", 2)[0], a) {
				t.Errorf("usage line %q does not name %s", strings.SplitN(out, "\n", 2)[0], a)
			}
			if m := issueRef.FindString(out); m != "" {
				t.Errorf("help names %q: help text names no issue numbers", m)
			}
			h, ok := helps[name]
			if !ok {
				t.Fatalf("no help registered for %q", name)
			}
			if len(h.examples) == 0 || !strings.Contains(out, "examples:\n  boardsat "+name) {
				t.Errorf("no examples of %s:\n%s", name, out)
			}
			for _, e := range h.examples {
				if !strings.HasPrefix(e, name) {
					t.Errorf("example %q is not of %s", e, name)
				}
			}
			// Its own flags only: every flag listed is one its flag set
			// defines, as the flag parse of that flag shows.
			for _, m := range flagLine.FindAllStringSubmatch(out, -1) {
				st, _, errOut := runCLI(append(slices.Clone(sub), "-"+m[1], "-h")...)
				if strings.Contains(errOut, "flag provided but not defined") {
					t.Errorf("-h lists -%s, which %s does not take (status %d)", m[1], name, st)
				}
			}
		})
	}
	_, out, _ := runCLI("results", "table", "-h")
	for _, foreign := range []string{"-kind", "-out-dir", "-x"} {
		if strings.Contains(out, foreign) {
			t.Errorf("results table -h lists plot's flag %s", foreign)
		}
	}
	_, out, _ = runCLI("bench", "-h")
	for _, s := range suites.Builtin.Names() {
		if !strings.Contains(out, "  "+s+": ") {
			t.Errorf("bench -h does not describe the built-in suite %s:\n%s", s, out)
		}
	}
	if !strings.Contains(out, "at least 6") {
		t.Errorf("bench -h does not say how many repetitions benchstat needs")
	}
	// bench's usage line names every flag it takes, and its suite grammar
	// every option, with the defaults of a group that sets none.
	usageLine, _, _ := strings.Cut(out, "\n")
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(out, -1) {
		if !regexp.MustCompile(`[ \[|]--?` + m[1] + `\b`).MatchString(usageLine) {
			t.Errorf("bench's usage line omits -%s: %s", m[1], usageLine)
		}
	}
	for _, opt := range []string{"backends=LIST", "task=T", "repeat=N", "timeout=D", "cpu-limit=D", "mem=M", "ladder=true", "certify=true",
		"timeout=" + suites.DefaultTimeout.String(), fmt.Sprintf("mem=%dM", suites.DefaultMemMB)} {
		if !strings.Contains(out, opt) {
			t.Errorf("bench -h does not give the suite option %s", opt)
		}
	}
	if status, _, _ := runCLI("results", "--help"); status != 0 {
		t.Errorf("results --help: exit %d", status)
	}
}

// TestHelpListsFromRegistry checks that the lists "boardsat help" prints
// come from the registries: every task in solve's summary, in registry
// order, and every puzzle's spec syntax; that it names no issue; and that
// solve -h gives every puzzle's default task.
func TestHelpListsFromRegistry(t *testing.T) {
	status, out, stderr := runCLI("help")
	if status != 0 || stderr != "" {
		t.Fatalf("boardsat help: exit %d, stderr %q", status, stderr)
	}
	if want := "solve one instance (" + taskNames() + ")"; !strings.Contains(out, want) {
		t.Errorf("boardsat help does not list the tasks as %q:\n%s", want, out)
	}
	for _, name := range puzzle.Puzzles {
		d, err := puzzle.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "  "+d.Syntax+"\n") {
			t.Errorf("boardsat help does not list the spec %s", d.Syntax)
		}
	}
	if m := regexp.MustCompile(`(?i)\bissues? #?\d+`).FindString(out); m != "" {
		t.Errorf("boardsat help names %q", m)
	}
	_, out, _ = runCLI("solve", "-h")
	for _, name := range puzzle.Puzzles {
		d, err := puzzle.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if want := name + " " + string(d.DefaultTask); !strings.Contains(out, want) {
			t.Errorf("solve -h does not give %s's default task as %q", name, want)
		}
	}
}

// TestCLIDocListsEveryFlag: the command summary of docs/cli.md names
// every flag of the commands it gives in full (solve, encode, compare,
// bench, combine, proof, list, version), so that a flag -h lists is never
// missing from the page; slurm and results have their own pages
// (cluster.md, harness.md).
func TestCLIDocListsEveryFlag(t *testing.T) {
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	const head = "## Commands\n\n```\n"
	_, block, ok := strings.Cut(string(data), head)
	if !ok {
		t.Fatalf("docs/cli.md has no %q", head)
	}
	block, _, _ = strings.Cut(block, "```")
	lines := map[string]string{} // command -> its usage lines, comments cut
	cur := ""
	for _, l := range strings.Split(block, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "boardsat" {
			cur = f[1]
			if cur == "proof" {
				cur += " " + f[2]
			}
		}
		l, _, _ = strings.Cut(l, "#")
		lines[cur] += " " + l
	}
	flagLine := regexp.MustCompile(`(?m)^  -([a-z-]+)`)
	for _, name := range []string{"solve", "encode", "compare", "bench", "combine", "proof check", "proof check-lrat", "list", "version"} {
		doc, ok := lines[name]
		if !ok {
			t.Errorf("docs/cli.md gives no usage of %s", name)
			continue
		}
		_, out, _ := runCLI(append(strings.Fields(name), "-h")...)
		for _, m := range flagLine.FindAllStringSubmatch(out, -1) {
			if !regexp.MustCompile(`[ \[|]--?` + regexp.QuoteMeta(m[1]) + `\b`).MatchString(doc) {
				t.Errorf("docs/cli.md: the usage of %s omits -%s, which %s -h lists", name, m[1], name)
			}
		}
	}
}

// TestEncodeHelpListsModels: encode -h lists the puzzles each model
// writer has, from its registry (the help kept a hand-written list), a
// plan marked as one.
func TestEncodeHelpListsModels(t *testing.T) {
	_, out, _ := runCLI("encode", "-h")
	for _, w := range []struct {
		prefix  string
		puzzles []string
		plan    func(string) bool
	}{{"  mzn:", mzn.Puzzles(), mzn.NeedsHorizon}, {"  lp, mps:", mip.Puzzles(), mip.NeedsHorizon}} {
		line := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, w.prefix) {
				line = l
			}
		}
		if line == "" || len(w.puzzles) == 0 {
			t.Errorf("encode -h has no line %q (puzzles %v):\n%s", w.prefix, w.puzzles, out)
			continue
		}
		for _, p := range w.puzzles {
			name := p
			if w.plan(p) {
				name += " (plan)"
			}
			if !strings.Contains(line, " "+name) {
				t.Errorf("encode -h's %q line lacks %q: %s", w.prefix, name, line)
			}
		}
	}
}
