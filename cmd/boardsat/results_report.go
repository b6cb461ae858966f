package main

import (
	"io"
	"os"
	"slices"
	"strings"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/results/htmlreport"
	"github.com/boardsat/boardsat/harness/results/report"
	"github.com/boardsat/boardsat/internal/atomicfile"
)

func init() {
	resultsSubs = append(resultsSubs, "report")
	resultsRun["report"] = resultsReport
	helps["results report"] = help{
		usage: []string{"results report -o REPORT.html [--time cpu|wall|solver] [--spread iqr|ci] [--par K] [--x VARIANT --y VARIANT] [filters] FILE.csv [B.csv]"},
		about: `Writes one self-contained HTML page (every style and script inside: it opens
without a network) of the results: a sortable, filterable table of every run
(instance, variant, task, status, answer, CPU, wall and solver seconds,
memory, message), the scores per puzzle and task, the pivots of medians per
instance and variant with their spread (--spread: ci, the bootstrap 95% CI
of the median as summarize computes it, the default; or iqr), the
optimisation runs by MiniZinc Challenge status, a cactus chart per puzzle
and task and a scatter of two variants (--x, --y; default: the pair that
solved most instances in common); hovering a chart's mark names its run,
clicking a legend entry hides that variant in every chart. Every time is in
the --time measure. Given a second file B.csv, the page adds the
comparison of the two (as results compare: per-instance ratios, Mann-Whitney
tests, geometric means with their CI, a chart of A against B); each file is
then read, pooled and judged on its own. -o is refused when it exists
(unless --force) and when it is a symbolic link.`,
		examples: []string{"results report r.csv -o report.html", "results report old.csv new.csv --time wall -o ab.html"},
	}
}

// resultsReport writes the HTML report of one file, or of two compared.
func resultsReport(args []string, stdout io.Writer) error {
	c := newResultsCmd("report")
	c.outFlag("the HTML file to write (required)")
	spread := c.fs.String("spread", report.SpreadCI, "the pivots' spread of each median: ci (bootstrap 95% CI of the median, as summarize computes it) or iqr (interquartile range)")
	xv := c.fs.String("x", "", "scatter: variant on the x axis (default: the pair with most instances solved in common)")
	yv := c.fs.String("y", "", "scatter: variant on the y axis")
	c.parFlag()
	c.filters()
	c.timeFlag()
	c.check = func() error {
		if err := report.CheckSpread(*spread); err != nil || *spread == "" {
			return badInputf("unknown --spread %q: want iqr or ci", *spread)
		}
		if (*xv == "") != (*yv == "") {
			return badInputf("--x and --y go together")
		}
		return nil
	}
	files, err := c.parse(args)
	if err != nil {
		return err
	}
	if *c.out == "" {
		return badInputf("want -o REPORT.html: the report is a file")
	}
	if st, err := os.Lstat(*c.out); err == nil && st.Mode()&os.ModeSymlink != 0 {
		return badInputf("%s is a symbolic link: the report is never written through a link; name another file", *c.out)
	}
	if len(files) > 2 {
		return badInputf("want one results file, or two to compare, not %d", len(files))
	}
	var sides [][]results.Row
	for _, f := range files {
		rows, err := c.read([]string{f})
		if err != nil {
			return err
		}
		sides = append(sides, rows)
	}
	o := htmlreport.Options{Time: *c.time, PAR: *c.par, Spread: *spread, Files: files, X: *xv, Y: *yv}
	if *xv != "" {
		for _, v := range []string{*xv, *yv} {
			if !slices.Contains(report.Variants(sides[0]), v) {
				return badInputf("unknown variant %q: the results hold %s", v, strings.Join(report.Variants(sides[0]), ", "))
			}
		}
	}
	if len(sides) == 2 {
		o.B = sides[1]
		o.LabelA, o.LabelB = compareLabels(files[0], files[1])
	}
	if err := atomicfile.Write(*c.out, func(w io.Writer) error { return htmlreport.Write(w, sides[0], o) }); err != nil {
		return badInput(err)
	}
	_, err = io.WriteString(stdout, *c.out+"\n")
	return err
}
