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
		about:    "Lists the puzzles, tasks, backends and each backend's heuristics, encodings\nand solvers (external solvers not on PATH are marked [not installed]).",
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
	for _, name := range puzzle.Backends.Names() {
		b, _ := puzzle.Backends.Lookup(name)
		fmt.Fprintf(stdout, "\nbackend %s: %s\n", name, b.Doc())
		for _, c := range b.Choices() {
			scope := c.Puzzle
			if scope == "" {
				scope = "all"
			}
			def := ""
			if c.Default {
				def = " (default)"
			}
			fmt.Fprintf(stdout, "  %-9s %-7s %-22s %s%s\n", c.Field, scope, c.Name, c.Doc, def)
		}
	}
	return nil
}
