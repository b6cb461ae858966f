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
			fmt.Fprintf(t, "  %-9s %-7s %-22s %s%s\n", c.Field, scope, c.Name, c.Doc, def)
			if c.Default && c.Why != "" {
				fmt.Fprintf(t, "  %-9s %-7s %-22s why default: %s\n", "", "", "", c.Why)
			}
		}
		for _, f := range fields {
			text := tables[f].String()
			if first, ok := printed[text]; ok {
				fmt.Fprintf(stdout, "  %-9s the same as backend %s\n", f, first)
				continue
			}
			printed[text] = name
			fmt.Fprint(stdout, text)
		}
	}
	return nil
}
