package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	commands["list"] = command{"list puzzles, tasks, backends and their heuristics, encodings and solvers", runList}
	helps["list"] = help{
		usage:    []string{"list"},
		about:    "Lists the puzzles, tasks, backends and each backend's heuristics, encodings\nand solvers (external solvers not on PATH are marked [not installed]), each\ndefault marked, with why it is the default.",
		examples: []string{"list"},
	}
}

func runList(args []string, stdout io.Writer) error {
	pos, err := parseFlags(flag.NewFlagSet("list", flag.ContinueOnError), args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInputf("list takes no arguments")
	}
	fmt.Fprintln(stdout, "puzzles:", strings.Join(puzzle.Puzzles, ", "))
	tasks := make([]string, len(puzzle.Tasks))
	for i, t := range puzzle.Tasks {
		tasks[i] = string(t)
	}
	fmt.Fprintln(stdout, "tasks:  ", strings.Join(tasks, ", "))
	// The columns are as wide as their longest entry over every backend,
	// so that long model names (satunsat-inc-hilbert-lex) keep the
	// descriptions in one column.
	wField, wScope, wName := len("encoding"), len("all"), 0
	for _, name := range puzzle.Backends.Names() {
		b, _ := puzzle.Backends.Lookup(name)
		for _, c := range b.Choices() {
			wField, wScope, wName = max(wField, len(c.Field)), max(wScope, len(c.Puzzle)), max(wName, len(c.Name))
		}
	}
	row := func(w io.Writer, field, scope, name, text string) {
		fmt.Fprintf(w, "  %-*s %-*s %-*s %s\n", wField, field, wScope, scope, wName, name, text)
	}
	// A table a backend shares with one listed before it (the encodings of
	// gophersat-count are the sat backend's) is printed once.
	printed := map[string]string{}
	for _, name := range puzzle.Backends.Names() {
		b, _ := puzzle.Backends.Lookup(name)
		fmt.Fprintf(stdout, "\nbackend %s: %s\n", name, b.Doc())
		var fields []string
		tables := map[string]*strings.Builder{}
		for _, c := range b.Choices() {
			t := tables[c.Field]
			if t == nil {
				t = &strings.Builder{}
				tables[c.Field] = t
				fields = append(fields, c.Field)
			}
			scope := c.Puzzle
			if scope == "" {
				scope = "all"
			}
			def := ""
			if c.Default {
				def = " (default)"
			}
			row(t, c.Field, scope, c.Name, c.Doc+def)
			if c.Default && c.Why != "" {
				row(t, "", "", "", "why default: "+c.Why)
			}
		}
		for _, f := range fields {
			text := tables[f].String()
			if first, ok := printed[text]; ok {
				fmt.Fprintf(stdout, "  %-*s the same as backend %s\n", wField, f, first)
				continue
			}
			printed[text] = name
			fmt.Fprint(stdout, text)
		}
	}
	return nil
}
