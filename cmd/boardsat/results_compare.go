package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/results/comparison"
	"github.com/boardsat/boardsat/harness/results/report"
)

func init() {
	resultsSubs = append(resultsSubs, "compare")
	resultsRun["compare"] = resultsCompare
	helps["results compare"] = help{
		usage: []string{"results compare [--time cpu|wall|solver] [--format md|csv] [--plot FIGURE.svg|png|pdf] [filters] [-o FILE] A.csv B.csv"},
		about: `Compares two results files of the same runs (two commits, two machines, two
solver versions): matches their runs by instance, variant and task, and
prints per instance the median seconds (--time) of the solved runs of A and
of B and their ratio B/A (below 1: B faster), with a Mann-Whitney U test
(two-sided; exact without ties on small samples, else the normal
approximation with tie correction) where both sides have 4 runs or more,
significant at p < 0.05, as benchstat judges; then per variant and task,
and over all, the geometric mean of the ratios with its bootstrap 95% CI,
how many instances B ran significantly faster or slower, and those only
one side solved. Each file is read, pooled and judged on its own (they may
be of different commits). --plot draws A against B, one point per instance,
variant and task, a marker per puzzle (report's scatter).`,
		examples: []string{"results compare old.csv new.csv", "results compare old.csv new.csv --time wall --plot ab.svg",
			"results compare a.csv b.csv --format csv -o ab.csv"},
	}
}

// compareLabels names the two sides by their files' base names, or by
// their paths where those are the same.
func compareLabels(a, b string) (string, string) {
	la, lb := strings.TrimSuffix(filepath.Base(a), ".csv"), strings.TrimSuffix(filepath.Base(b), ".csv")
	if la == lb {
		la, lb = a, b
	}
	if la == lb {
		la, lb = "A "+la, "B "+lb
	}
	return la, lb
}

// resultsCompare compares two results files.
func resultsCompare(args []string, stdout io.Writer) error {
	c := newResultsCmd("compare")
	format := c.fs.String("format", "md", "md or csv (csv: the per-instance table only, tidy)")
	plot := c.fs.String("plot", "", "also draw A against B to this figure file (svg, png or pdf; refused when it exists, unless --force)")
	c.outFlag("output file (default: stdout)")
	c.filters()
	c.timeFlag()
	files, err := c.parse(args)
	if err != nil {
		return err
	}
	if len(files) != 2 {
		return badInputf("want two results files, A.csv and B.csv, not %d", len(files))
	}
	if *format != "md" && *format != "csv" {
		return badInputf("unknown --format %q: want md or csv", *format)
	}
	if *plot != "" {
		if !slices.Contains(report.PlotFormats, strings.TrimPrefix(strings.ToLower(filepath.Ext(*plot)), ".")) {
			return badInputf("cannot tell the figure format of %q: want a .svg, .png or .pdf file", *plot)
		}
		force := c.fs.Lookup("force").Value.String() == "true"
		if err := refuseExisting(*plot, force); err != nil {
			return err
		}
	}
	var sides [2][]results.Row
	for i, f := range files {
		if sides[i], err = c.read([]string{f}); err != nil {
			return err
		}
	}
	res := comparison.Compare(sides[0], sides[1], *c.time)
	if len(res.Pairs) == 0 {
		return badInputf("%s and %s have no instance, variant and task in common: nothing to compare", files[0], files[1])
	}
	la, lb := compareLabels(files[0], files[1])
	if *plot != "" {
		f, err := comparison.Figure(sides[0], sides[1], *c.time, la, lb)
		if err != nil {
			return badInputf("--plot: %v", err)
		}
		if err := report.SaveFigure(f, *plot); err != nil {
			return badInput(err)
		}
	}
	tables := res.Tables(la, lb)
	if *format == "csv" {
		tables = tables[:1]
	}
	if err := writeOut(*c.out, stdout, func(w io.Writer) error { return renderTables(w, tables, *format) }); err != nil {
		return err
	}
	if res.OnlyA+res.OnlyB > 0 {
		fmt.Fprintf(stderrOut, "boardsat results compare: not compared: %d instance, variant and task group(s) only in %s, %d only in %s\n",
			res.OnlyA, files[0], res.OnlyB, files[1])
	}
	return nil
}
