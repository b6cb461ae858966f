package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/boardsat/boardsat/harness/bench"
	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/harness/results/report"
	"github.com/boardsat/boardsat/internal/atomicfile"
	"github.com/boardsat/boardsat/internal/filelock"
)

func init() {
	commands["results"] = command{"summarize|table|plot|benchfmt|merge|compare|report results CSV files", runResults}
	helps["results"] = help{
		usage: []string{"results summarize|table|plot|benchfmt|merge [flags] FILE.csv...", "results compare [flags] A.csv B.csv", "results report -o REPORT.html [flags] FILE.csv [B.csv]"},
		about: `Reads results CSV files written by boardsat bench (several files are read as
one) and reports on them:
  summarize  per instance, variant and task: runs, statuses, median, mean, sd and
             a bootstrap 95% CI of the seconds (--time); per puzzle and task the
             scores (solved of those run, not run, PAR-2, virtual best solver,
             unique solves), pairwise wins; speed-ups per puzzle
  table      one of them as a Markdown, CSV or LaTeX table, a pivot of
             instances x variants, or a grid of instances x every task's
             variants side by side (--what summary|scores|wins|speedup|pivot|grid)
  plot       cactus, scaling, scatter and ecdf figures (SVG, PNG or PDF)
  benchfmt   Go benchmark lines for benchstat
  merge      one CSV of every input's rows, duplicated rows dropped
  compare    two files' runs matched by instance, variant and task: ratios,
             significance (Mann-Whitney), geometric mean with its CI, a plot
  report     one self-contained HTML page: sortable, filterable runs, scores,
             pivots with spread, interactive charts; of two files, compared
Rows of one instance and task from several files (the shards of a bench) are
judged together, as one run would have judged them: where nothing is published
and the brute force cannot decide, the majority is over every file's answers.
Rows of different commits are refused unless --mixed. summarize, table and
plot show one time measure, named in every title, caption and axis: --time
cpu (the default: user + sys of the run's whole process tree, what --cpu-limit
limits), wall or solver (the solver's own wall seconds, no process start-up);
a limit is shown in the measure it binds. Run "boardsat results SUBCOMMAND -h" for a subcommand's flags.`,
		examples: []string{
			"results summarize r.csv",
			"results table r.csv --what speedup --format csv",
			"results plot r.csv --kind cactus -o cactus.svg",
			"results benchfmt r.csv -o r.txt",
			"results merge a.csv b.csv -o all.csv",
			"results compare old.csv new.csv",
			"results report r.csv -o report.html",
		},
	}
	helps["results summarize"] = help{
		usage: []string{"results summarize [--baseline VARIANT] [--par K] [--time cpu|wall|solver] [filters] FILE.csv..."},
		about: `Prints, as Markdown, one row per instance, variant and task (runs, a count per
status, answer, median, mean, sd, bootstrap 95% CI of the median wall-clock
seconds); per task each variant's instances solved of N, PAR-K (default PAR-2)
under the recorded limits, unique solves and share of the virtual best solver;
the pairwise wins; then one speed-up table per puzzle. Runs with a CPU limit
are scored by CPU seconds, the others by wall seconds.`,
		examples: []string{"results summarize r.csv", "results summarize r.csv --baseline native/bitboard --par 10"},
	}
	helps["results table"] = help{
		usage: []string{"results table [--what summary|scores|wins|speedup|pivot|grid|runs|status] [--measure median|par2|solved] [--spread iqr|ci] [--format md|csv|latex] [--baseline VARIANT] [--par K] [--time cpu|wall|solver] [filters] [-o FILE] FILE.csv..."},
		about: `Writes one table as Markdown, CSV (tidy: numbers or empty cells, units in
column names, always one table) or LaTeX: the summary, the scores per puzzle
and task (solved of the instances the variant ran, those it did not run,
PAR-K over those it ran, VBS, unique solves), the pairwise wins, the speed-ups against the
baseline, or a pivot per task of instances x variants with one --measure per
cell (LaTeX: booktabs, siunitx columns, best in bold, a dash for no solved
run, caption and label; needs \usepackage{booktabs,siunitx,graphicx}).
The grid is one table of every task side by side: a row per instance, per
task the answer and a column per variant, each cell the median seconds
(--time), "> L s" where the runs hit the limit L of that measure ("> L s
CPU" or "> L s wall" for a limit of the other),
"-" where a ladder did not run it, "(1 run)" where it has fewer runs than
the others (its CSV keeps these cells as text); its columns follow the
order of --variants when given, else the rows' order.
--spread iqr|ci adds to a pivot of medians the spread of each cell's solved
runs: the interquartile range, or the bootstrap 95% CI of the median as
summarize computes it (beside the median in Markdown, two columns in CSV,
a line in small type beneath each instance's medians in LaTeX).
runs is every run, one row each: CPU (user + sys), wall and solver seconds,
peak memory, status ("refused" and "not run" named), answer, the limit that
ended it, message. status counts the runs of optimisation tasks (shortest,
optimum) by MiniZinc Challenge status: OPT (boardsat ok), UNSAT (unsat),
SAT (a timeout, memout or error that still gave an answer), UNKNOWN (one
without), WRONG (wrong); summarize appends it when there are such runs.`,
		examples: []string{"results table r.csv --what pivot --measure par2 --format latex -o t.tex",
			"results table r.csv --what scores --format csv", "results table r.csv --what speedup --format csv -o speedup.csv",
			"results table r.csv --what grid", "results table r.csv --what pivot --spread ci", "results table r.csv --what runs --format csv"},
	}
}

func init() {
	helps["results plot"] = help{
		usage: []string{"results plot [--kind KIND[,KIND...]] [--out-dir DIR] [--ext svg|png|pdf] [--time cpu|wall|solver] [--spread iqr|ci] [filters] FILE.csv...",
			"results plot --kind KIND -o FIGURE.svg|png|pdf [filters] FILE.csv..."},
		about: `Draws figures for print, with one legend below the panels and one style per
variant (native: solid lines, filled markers; SAT: dashed lines, open markers).
--size is the size the figure is printed at (column: 3.5 in wide, the default;
page: 7 in; or WxH inches, at most 9 tall), with 8-9 pt text at that size; a
figure is never taller than 9 in (one that would be is refused); PNG is 300
dpi. Cactus and scaling figures have one panel per puzzle and task of at least
3 instances (the others are named on stderr), a time axis fitted to the data
that names the limit, and draw, in each puzzle and task, the best variant of
each backend, then the next best of any up to --max-variants (8), saying so
under the legend and naming on stderr those left out:
  cactus   per variant, instances solved (x) within a median time (y, log), and
           the virtual best solver (per instance the fastest variant)
  scaling  median time (y, log) against board squares (x), one line per variant
  scatter  median time of variant --x against --y per instance (log-log), one
           square panel, a marker per puzzle, with the diagonal, 2x and 10x
           lines; an instance one of them did not solve sits on the limit line,
           marked x
  ecdf     per task a line of the distribution of the ratio time --y / time --x
           over the instances both solved (log x)
--spread iqr|ci draws on the scaling and scatter figures a grey bar through
each point over the spread of its solved runs (the interquartile range, or
the bootstrap 95% CI of the median as summarize computes it; on the
scatter one bar per axis), said under the legend; a cactus has none (its
points are ranks of medians).
PDF figures embed their font (text outside its Windows-1252 encoding, such as
"≤", is drawn as glyph outlines); SVG figures draw all text as outlines, so they
render the same without the reader's fonts.
Times are CPU seconds by default (--time cpu: user + sys of the run's process
tree, what --cpu-limit limits, stable under load), as in results table and
summarize, and the limit drawn is the one of that measure; a median below 0.1 ms is drawn at 0.1 ms. Without -o each
kind goes to DIR/BASE-KIND.EXT, replacing a figure of that name; -o FILE is
refused when FILE exists, unless --force.`,
		examples: []string{
			"results plot r.csv --ext png",
			"results plot r.csv --kind cactus -o cactus.svg",
			"results plot r.csv --kind scaling --puzzle queens --task count -o q.pdf",
			"results plot r.csv --kind cactus --size page --max-variants 5 -o cactus-page.pdf",
			"results plot r.csv --kind scatter --x sat/pairwise --y sat/totalizer -o s.png",
			"results plot r.csv --kind ecdf --x native/plain --y native/bitboard -o e.pdf",
			"results plot r.csv --variants 'native/*' --time wall",
		},
	}
	helps["results benchfmt"] = help{
		usage: []string{"results benchfmt [-o FILE] FILE.csv..."},
		about: `Writes each solved run as a Go benchmark line named by the requested variant
(BenchmarkBoardsat/instance=.../backend=.../heuristic=.../task=...), for
"benchstat old.txt new.txt". benchstat needs at least 6 runs of a group for a
95% confidence interval: bench with --repeat 6 or more.`,
		examples: []string{"results benchfmt r.csv > r.txt", "results benchfmt old.csv -o old.txt"},
	}
	helps["results merge"] = help{
		usage: []string{"results merge [-o FILE.csv] FILE.csv..."},
		about: `Writes the rows of every input as one results CSV (and, with -o, a sidecar
with every input's sessions). A row equal in every field to an earlier one (a
file given twice) is dropped, with a note on stderr; distinct runs are kept.`,
		examples: []string{"results merge a.csv b.csv -o all.csv"},
	}
}

var resultsSubs = []string{"summarize", "table", "plot", "benchfmt", "merge"}

// resultsRun is each results subcommand's function, by name.
var resultsRun = map[string]func(args []string, stdout io.Writer) error{
	"summarize": resultsSummarize,
	"table":     resultsTable,
	"plot":      resultsPlot,
	"benchfmt":  resultsBenchfmt,
	"merge":     resultsMerge,
}

func runResults(args []string, stdout io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help") {
		printHelp(helpOut, flag.NewFlagSet("results", flag.ContinueOnError))
		return flag.ErrHelp
	}
	if len(args) == 0 || !slices.Contains(resultsSubs, args[0]) {
		return badInputf("want a subcommand: boardsat results %s FILE.csv... (boardsat results -h)", strings.Join(resultsSubs, "|"))
	}
	return resultsRun[args[0]](args[1:], stdout)
}

// resultsCmd holds the flags the results subcommands share, each nil where
// a subcommand does not have it, and reads, checks and judges the rows
// they all start from (load).
type resultsCmd struct {
	sub                                 string
	fs                                  *flag.FlagSet
	out, time, tasks, puzzles, variants *string
	par                                 *float64
	// dedup drops rows equal to an earlier one (merge); check is the
	// subcommand's own flag check, run before the rows are filtered.
	dedup   bool
	dropped int
	check   func() error
	mixed   *bool
	force   *bool
}

func newResultsCmd(sub string) *resultsCmd {
	return &resultsCmd{sub: sub, fs: flag.NewFlagSet("results "+sub, flag.ContinueOnError)}
}

// timeFlag adds --time, with the shared default.
func (c *resultsCmd) timeFlag() {
	c.time = c.fs.String("time", report.DefaultTime, "the seconds every table, score and figure is made of: cpu (user + sys of the run's process tree, what --cpu-limit limits), wall (wall clock of the whole run) or solver (the solver's own wall seconds, no process start-up)")
}

// filters adds --task, --puzzle and --variants.
func (c *resultsCmd) filters() {
	c.tasks = c.fs.String("task", "", "only these tasks, comma-separated (default: every task)")
	c.puzzles = c.fs.String("puzzle", "", "only these puzzles, comma-separated (default: every puzzle)")
	c.variants = c.fs.String("variants", "", "only these variants, comma-separated; * matches within a field, as in native/* (default: every variant)")
}

// parFlag adds --par.
func (c *resultsCmd) parFlag() {
	c.par = c.fs.Float64("par", report.DefaultPAR, "the PAR score's penalty factor K: an unsolved run counts K times its limit")
}

// baselineFlag adds --baseline.
func (c *resultsCmd) baselineFlag() *string {
	return c.fs.String("baseline", "", "variant the speed-ups are relative to (default: each puzzle's first variant)")
}

// outFlag adds -o with this usage (--force comes with it in load).
func (c *resultsCmd) outFlag(usage string) {
	c.out = c.fs.String("o", "", usage)
}

// load parses args and reads the files' rows as one (see parse and read).
func (c *resultsCmd) load(args []string) (rows []results.Row, files []string, err error) {
	if files, err = c.parse(args); err != nil {
		return nil, nil, err
	}
	rows, err = c.read(files)
	return rows, files, err
}

// parse parses args into the flags and the files, and refuses an existing
// -o file without --force.
func (c *resultsCmd) parse(args []string) (files []string, err error) {
	c.mixed = c.fs.Bool("mixed", false, "pool rows of different commits (refused without it); a note names the commits pooled")
	if c.out != nil {
		c.force = c.fs.Bool("force", false, "replace the -o file if it exists (refused without it)")
	}
	if files, err = parseFlags(c.fs, args); err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, badInputf("want at least one results FILE.csv")
	}
	if c.out != nil {
		if err := refuseExisting(*c.out, *c.force); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// read reads the files as one, and checks, filters, pools and judges
// their rows together.
func (c *resultsCmd) read(files []string) ([]results.Row, error) {
	rows, cut, err := results.ReadFilesCut(files...)
	if err != nil {
		return nil, badInput(err)
	}
	for _, w := range cut {
		fmt.Fprintf(stderrOut, "boardsat results %s: warning: %s\n", c.sub, w)
	}
	if c.dedup {
		rows, c.dropped = results.Dedup(rows)
	} else if len(rows) == 0 {
		return nil, badInputf("the results hold no rows (a header only): nothing to show")
	}
	if c.par != nil && !(*c.par > 0) {
		return nil, badInputf("bad --par %g: want a positive factor, like 2 for PAR-2", *c.par)
	}
	if c.check != nil {
		if err := c.check(); err != nil {
			return nil, err
		}
	}
	if c.time != nil {
		if err := report.CheckTime(*c.time); err != nil {
			return nil, badInput(err)
		}
	}
	if c.tasks != nil {
		if rows, err = filterRows(rows, *c.tasks, *c.puzzles, *c.variants); err != nil {
			return nil, err
		}
	}
	if note, err := results.CheckPool(rows, *c.mixed); err != nil {
		return nil, badInput(err)
	} else if note != "" {
		fmt.Fprintf(stderrOut, "boardsat results %s: %s\n", c.sub, note)
	}
	// The files' rows are judged together, as one run would have judged
	// them: shards each judged by their own majority could otherwise both
	// call different answers ok.
	if w, r := bench.Rejudge(rows); w+r > 0 {
		fmt.Fprintf(stderrOut, "boardsat results %s: judged the rows of every file together (majority over all of them): %d row(s) now wrong, %d no longer wrong\n", c.sub, w, r)
	}
	return rows, nil
}

// resultsSummarize prints the summary, scores, wins, speed-ups and
// certificates as Markdown.
func resultsSummarize(args []string, stdout io.Writer) error {
	c := newResultsCmd("summarize")
	baseline := c.baselineFlag()
	c.parFlag()
	c.filters()
	c.timeFlag()
	rows, _, err := c.load(args)
	if err != nil {
		return err
	}
	sums := report.Summarize(rows, *c.time)
	tables, err := speedupTables(sums, *baseline, *c.time)
	if err != nil {
		return badInput(err)
	}
	agg := report.Aggregate(rows, *c.par, *c.time)
	tables = append([]report.Table{report.SummaryTable(sums), report.ScoreTable(agg, *c.par), report.WinsTable(agg)}, tables...)
	if ct := report.CertifyTable(sums); len(ct.Rows) > 0 {
		tables = append(tables, ct)
	}
	if ot := report.OptStatusTable(rows); len(ot.Rows) > 0 {
		tables = append(tables, ot)
	}
	return renderTables(stdout, tables, "md")
}

// renderTables writes tables in format, a blank line between them.
func renderTables(w io.Writer, tables []report.Table, format string) error {
	for i, t := range tables {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := t.Render(w, format); err != nil {
			return err
		}
	}
	return nil
}

// resultsTable writes one --what table in one --format.
func resultsTable(args []string, stdout io.Writer) error {
	c := newResultsCmd("table")
	baseline := c.baselineFlag()
	format := c.fs.String("format", "md", "md, csv or latex")
	what := c.fs.String("what", "summary", "summary, speedup, scores (solved of N, PAR, VBS, unique solves), wins (pairwise), pivot (instances x variants, one task a table), grid (instances x every task's variants, one table), runs (every run's CPU, wall, memory and status) or status (optimisation runs by MiniZinc Challenge status)")
	measure := c.fs.String("measure", report.MeasureMedian, "pivot: the measure per cell: median, par2 or solved")
	spread := c.fs.String("spread", "", "pivot of medians: show with each the spread of the solved runs: iqr (interquartile range) or ci (bootstrap 95% CI of the median, as summarize computes it); beside it in md and csv, beneath it in latex")
	c.parFlag()
	c.outFlag("output file (default: stdout)")
	c.filters()
	c.timeFlag()
	c.check = func() error {
		if err := report.CheckMeasure(*measure); err != nil {
			return badInput(err)
		}
		if err := report.CheckSpread(*spread); err != nil {
			return badInput(err)
		}
		if *spread != "" && (*what != "pivot" || *measure != report.MeasureMedian) {
			return badInputf("--spread goes with --what pivot --measure median")
		}
		return nil
	}
	rows, _, err := c.load(args)
	if err != nil {
		return err
	}
	if !slices.Contains(report.Formats, *format) {
		return badInputf("unknown table format %q: want md, csv or latex", *format)
	}
	time := *c.time
	sums := report.Summarize(rows, time)
	var tables []report.Table
	switch *what {
	case "summary":
		tables = []report.Table{report.SummaryTable(sums)}
	case "scores":
		tables = []report.Table{report.ScoreTable(report.Aggregate(rows, *c.par, time), *c.par)}
	case "wins":
		tables = []report.Table{report.WinsTable(report.Aggregate(rows, *c.par, time))}
	case "grid":
		tables = []report.Table{report.Grid(orderByVariants(rows, *c.variants), time)}
	case "runs":
		tables = []report.Table{report.RunsTable(rows)}
	case "status":
		tables = []report.Table{report.OptStatusTable(rows)}
		if len(tables[0].Rows) == 0 {
			return badInputf("no optimisation runs (tasks %s): no status table", strings.Join(report.OptimisationTasks, ", "))
		}
	case "pivot":
		ps, _ := report.Pivots(rows, *measure, *c.par, time)
		if *spread != "" {
			return writeSpreadPivots(*c.out, stdout, rows, ps, *spread, *format)
		}
		return writeOut(*c.out, stdout, func(w io.Writer) error { return writePivots(w, ps, *format) })
	case "speedup":
		if *format == "csv" {
			ps, err := puzzleSpeedups(sums, *baseline, time)
			if err != nil {
				return badInput(err)
			}
			tables = []report.Table{report.SpeedupTableAll(ps, time)}
		} else if tables, err = speedupTables(sums, *baseline, time); err != nil {
			return badInput(err)
		}
	default:
		return badInputf("unknown --what %q: want summary, speedup, scores, wins, pivot, grid, runs or status", *what)
	}
	return writeOut(*c.out, stdout, func(w io.Writer) error { return renderTables(w, tables, *format) })
}

// writePivots writes the pivots: one long CSV table, Markdown tables, or
// LaTeX tables each split into page-sized ones (report.PivotsLaTeX).
func writePivots(w io.Writer, ps []report.Pivot, format string) error {
	switch format {
	case "csv":
		return report.LongPivots(ps).Render(w, "csv")
	case "latex":
		return report.PivotsLaTeX(w, ps)
	}
	for i, p := range ps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := p.Wide().Render(w, "md"); err != nil {
			return err
		}
	}
	return nil
}

// writeSpreadPivots writes the pivots with their spreads (to out, or to
// stdout): one long CSV table, Markdown tables, or LaTeX tables (the
// spread beneath each median).
func writeSpreadPivots(out string, stdout io.Writer, rows []results.Row, ps []report.Pivot, kind, format string) error {
	if format == "latex" {
		with, err := report.PivotsSpread(ps, rows, kind)
		if err != nil {
			return badInput(err)
		}
		return writeOut(out, stdout, func(w io.Writer) error { return report.PivotsLaTeX(w, with) })
	}
	sps, err := report.PivotSpreads(ps, rows, kind)
	if err != nil {
		return badInput(err)
	}
	return writeOut(out, stdout, func(w io.Writer) error {
		if format == "csv" {
			return report.LongPivotsSpread(ps, sps, kind).Render(w, "csv")
		}
		var tables []report.Table
		for i, p := range ps {
			tables = append(tables, p.WideSpread(sps[i], kind))
		}
		return renderTables(w, tables, "md")
	})
}

// resultsPlot draws the figures (plotResults).
func resultsPlot(args []string, stdout io.Writer) error {
	c := newResultsCmd("plot")
	c.outFlag("write one figure of one --kind (default kind: cactus) to this file; the extension picks svg, png or pdf")
	kinds := c.fs.String("kind", "", "figures to draw, comma-separated: cactus, scaling, scatter, ecdf (default: all four, or cactus with -o)")
	ext := c.fs.String("ext", "svg", "figure format when -o is not given: svg, png or pdf")
	outDir := c.fs.String("out-dir", "", "directory for the figures when -o is not given (default: the first CSV's directory)")
	xv := c.fs.String("x", "", "scatter: variant on the x axis (default: the pair with most instances solved in common)")
	yv := c.fs.String("y", "", "scatter: variant on the y axis")
	c.filters()
	c.timeFlag()
	size := c.fs.String("size", "column", "print size: column (3.5 in wide), page (7 in) or WxH in inches; text is 8-9 pt at that size")
	spread := c.fs.String("spread", "", "scaling and scatter: a grey bar through each point over the spread of its solved runs: iqr (interquartile range) or ci (bootstrap 95% CI of the median, as summarize computes it)")
	maxVariants := c.fs.Int("max-variants", report.DefaultMaxVariants, "cactus and scaling: draw at most this many variants (0: all), the best of each backend in each puzzle and task first (kept even beyond it), then the best by solved count and PAR-2; a note names those left out")
	rows, files, err := c.load(args)
	if err != nil {
		return err
	}
	if err := report.CheckSpread(*spread); err != nil {
		return badInput(err)
	}
	return plotResults(rows, files[0], plotArgs{kinds: *kinds, ext: *ext, outDir: *outDir, out: *c.out, x: *xv, y: *yv, time: *c.time,
		size: *size, maxVariants: *maxVariants, spread: *spread}, stdout)
}

// resultsBenchfmt writes the solved runs as Go benchmark lines.
func resultsBenchfmt(args []string, stdout io.Writer) error {
	c := newResultsCmd("benchfmt")
	c.outFlag("output file (default: stdout)")
	rows, files, err := c.load(args)
	if err != nil {
		return err
	}
	var sessions []results.Session
	if m, ok, err := results.ReadMeta(files[0]); err != nil {
		return badInput(err)
	} else if ok {
		sessions = m.Sessions
	}
	return writeOut(*c.out, stdout, func(w io.Writer) error { return report.WriteBenchfmt(w, rows, sessions) })
}

// resultsMerge writes the rows of every input as one results file, and
// with -o a sidecar of every input's sessions.
func resultsMerge(args []string, stdout io.Writer) error {
	c := newResultsCmd("merge")
	c.outFlag("output file (default: stdout)")
	c.dedup = true
	rows, files, err := c.load(args)
	if err != nil {
		return err
	}
	if c.dropped > 0 {
		fmt.Fprintf(stderrOut, "boardsat results merge: dropped %d duplicated row(s) (the same run given twice)\n", c.dropped)
	}
	writeRows := func(w io.Writer) error { return results.Write(w, rows) }
	if *c.out == "" {
		return writeOut("", stdout, writeRows)
	}
	// The lock of bench -o (package filelock), held from before the file
	// is replaced to after its sidecar is: no merge replaces a results
	// file that a bench is writing, nor a bench starts on it meanwhile.
	lock, err := filelock.Acquire(*c.out)
	if err != nil {
		return badInput(err)
	}
	defer lock.Release()
	// The merged file's sidecar holds every input's sessions, once each.
	var m results.Meta
	seen := map[string]bool{}
	for _, f := range files {
		mm, ok, err := results.ReadMeta(f)
		if err != nil {
			return badInput(err)
		}
		for _, s := range mm.Sessions {
			key, _ := json.Marshal(s)
			if ok && !seen[string(key)] {
				seen[string(key)] = true
				m.Sessions = append(m.Sessions, s)
			}
		}
	}
	// A sidecar that cannot be written is refused before the rows are.
	if len(m.Sessions) > 0 {
		if err := results.CheckMeta(lock, *c.force); err != nil {
			return badInput(err)
		}
	}
	if err := atomicfile.WriteLocked(lock, writeRows); err != nil {
		return err
	}
	if len(m.Sessions) == 0 {
		return nil
	}
	return results.WriteMeta(lock, m, *c.force)
}

// drawKind draws one figure kind: cactus and scaling of lines (the
// variants they draw), scatter and ecdf of sums for the variants x and y
// (--x, --y, else report.ScatterPair's), which it returns.
func drawKind(k string, lines, sums []report.Summary, a plotArgs) (f *report.Figure, x, y string, err error) {
	switch k {
	case "cactus":
		f, err = report.Cactus(lines, a.time)
	case "scaling":
		f, err = report.Scaling(lines, a.time)
	case "scatter", "ecdf":
		x, y = a.x, a.y
		if x == "" {
			var ok bool
			if x, y, ok = report.ScatterPair(sums); !ok {
				return nil, "", "", fmt.Errorf("no two variants solved an instance in common")
			}
		}
		if k == "scatter" {
			f, err = report.Scatter(sums, x, y, a.time)
		} else {
			f, err = report.ECDF(sums, x, y, a.time)
		}
	}
	return f, x, y, err
}

// filterRows keeps the rows of the listed tasks, puzzles and variants
// (comma-separated; empty keeps all). A name the rows do not hold is bad
// input naming what they hold; so is a filter that keeps nothing.
func filterRows(rows []results.Row, tasks, puzzles, variants string) ([]results.Row, error) {
	type filter struct {
		flag, list string
		field      func(results.Row) string
		pattern    bool
	}
	for _, f := range []filter{
		{"--task", tasks, func(r results.Row) string { return r.Task }, false},
		{"--puzzle", puzzles, func(r results.Row) string { return r.Puzzle }, false},
		{"--variants", variants, func(r results.Row) string { return r.Variant }, true},
	} {
		if f.list == "" {
			continue
		}
		var have []string
		for _, r := range rows {
			if v := f.field(r); !slices.Contains(have, v) {
				have = append(have, v)
			}
		}
		var kept []results.Row
		for _, want := range strings.Split(f.list, ",") {
			matched := false
			for _, h := range have {
				if ok, err := path.Match(want, h); err != nil {
					return nil, badInputf("bad %s pattern %q: %v", f.flag, want, err)
				} else if ok || want == h {
					matched = true
				}
			}
			if !matched {
				return nil, badInputf("%s %q matches nothing: the results hold %s", f.flag, want, strings.Join(have, ", "))
			}
		}
		for _, r := range rows {
			for _, want := range strings.Split(f.list, ",") {
				if ok, _ := path.Match(want, f.field(r)); ok || want == f.field(r) {
					kept = append(kept, r)
					break
				}
			}
		}
		rows = kept
	}
	if len(rows) == 0 {
		return nil, badInputf("the filters keep no rows")
	}
	return rows, nil
}

// orderByVariants orders rows by the first of the --variants patterns
// each matches (a stable sort: file order within one pattern), so that a
// table whose columns follow the rows' order (the grid) lists the variants
// as the command line does; without --variants the rows stay as they are.
func orderByVariants(rows []results.Row, variants string) []results.Row {
	if variants == "" {
		return rows
	}
	pats := strings.Split(variants, ",")
	rank := func(r results.Row) int {
		for i, p := range pats {
			if ok, _ := path.Match(p, r.Variant); ok || p == r.Variant {
				return i
			}
		}
		return len(pats)
	}
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b results.Row) int { return rank(a) - rank(b) })
	return out
}

// refuseExisting refuses to write over an existing file at path unless
// force is set (--force), and a FIFO, device or socket in its place even
// then (atomicfile refuses it: said first, not after --force); "" is
// stdout, never refused.
func refuseExisting(path string, force bool) error {
	if st, err := os.Stat(path); path == "" || err == nil && st.IsDir() {
		// A directory is refused where the file is written, in the
		// words of that refusal.
		return nil
	}
	if err := atomicfile.CheckTarget(path); err != nil {
		return err
	}
	if force {
		return nil
	}
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return badInputf("%s already exists: add --force to replace it, or name another file", path)
	}
	return nil
}

// writeOut writes to path atomically, or to stdout when path is "".
func writeOut(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return err
		}
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	return atomicfile.Write(path, write)
}

// puzzleSpeedups returns each puzzle's speed-ups, against baseline if that
// puzzle has it, else against the puzzle's first variant. A baseline that
// is in no puzzle is an error.
func puzzleSpeedups(sums []report.Summary, baseline, time string) ([]report.PuzzleSpeedups, error) {
	if baseline != "" && !slices.ContainsFunc(sums, func(s report.Summary) bool { return s.Variant == baseline }) {
		_, err := report.Speedups(sums, baseline, time)
		return nil, err
	}
	var out []report.PuzzleSpeedups
	for _, p := range report.Puzzles(sums) {
		var ps []report.Summary
		for _, s := range sums {
			if s.Puzzle == p {
				ps = append(ps, s)
			}
		}
		b := baseline
		if b == "" || !slices.ContainsFunc(ps, func(s report.Summary) bool { return s.Variant == b }) {
			b = ps[0].Variant
		}
		sp, err := report.Speedups(ps, b, time)
		if err != nil {
			return nil, err
		}
		if len(sp) > 0 {
			out = append(out, report.PuzzleSpeedups{Puzzle: p, Baseline: b, Speedups: sp})
		}
	}
	return out, nil
}

// speedupTables returns one speed-up table per puzzle (see puzzleSpeedups).
func speedupTables(sums []report.Summary, baseline, time string) ([]report.Table, error) {
	ps, err := puzzleSpeedups(sums, baseline, time)
	if err != nil {
		return nil, err
	}
	var out []report.Table
	for _, p := range ps {
		t := report.SpeedupTable(p.Speedups, p.Baseline, time)
		t.Title = p.Puzzle + ": " + t.Title
		out = append(out, t)
	}
	return out, nil
}

// plotArgs are the plot subcommand's flags.
type plotArgs struct {
	kinds, ext, outDir, out, x, y, time, size, spread string
	maxVariants                                       int
}

func plotResults(rows []results.Row, first string, a plotArgs, stdout io.Writer) error {
	kinds := a.kinds
	if kinds == "" {
		kinds = strings.Join(report.PlotKinds, ",")
		if a.out != "" {
			kinds = "cactus"
		}
	}
	var ks []string
	for _, k := range strings.Split(kinds, ",") {
		if !slices.Contains(report.PlotKinds, k) {
			return badInputf("unknown figure kind %q: want cactus, scaling, scatter or ecdf", k)
		}
		ks = append(ks, k)
	}
	if a.spread != "" && !slices.Contains(ks, "scaling") && !slices.Contains(ks, "scatter") {
		return badInputf("--spread is drawn on scaling and scatter figures: add --kind scaling or scatter")
	}
	if a.out != "" && len(ks) != 1 {
		return badInputf("-o names one figure: give one --kind (cactus, scaling, scatter or ecdf), or use --out-dir for several")
	}
	if !slices.Contains(report.PlotFormats, a.ext) {
		return badInputf("unknown figure format %q: want svg, png or pdf", a.ext)
	}
	if a.out != "" && !slices.Contains(report.PlotFormats, strings.TrimPrefix(strings.ToLower(filepath.Ext(a.out)), ".")) {
		return badInputf("cannot tell the figure format of %q: want a .svg, .png or .pdf file", a.out)
	}
	if (a.x == "") != (a.y == "") {
		return badInputf("--x and --y go together")
	}
	size, err := report.ParseSize(a.size)
	if err != nil {
		return badInput(err)
	}
	if a.maxVariants < 0 {
		return badInputf("--max-variants must be 0 (all) or more, not %d", a.maxVariants)
	}
	sums := report.Summarize(rows, a.time)
	// Cactus and scaling figures draw one line per variant: a few only, so
	// that a legend stays readable at column width, and never without
	// every backend that ran (report.SelectionRule).
	lines, lineRows, note, caption := sums, rows, "", ""
	if kept, left := report.SelectVariants(rows, a.maxVariants, a.time); len(left) > 0 && (slices.Contains(ks, "cactus") || slices.Contains(ks, "scaling")) {
		lines = slices.DeleteFunc(slices.Clone(sums), func(s report.Summary) bool { return !slices.Contains(kept, s.Variant) })
		lineRows = slices.DeleteFunc(slices.Clone(rows), func(r results.Row) bool { return !slices.Contains(kept, r.Variant) })
		caption = fmt.Sprintf("%d of %d variants: %s.", len(kept), len(kept)+len(left), report.SelectionRule)
		note = fmt.Sprintf("boardsat results plot: cactus and scaling draw %s; left out: %s (choose with --variants or --max-variants)\n",
			strings.TrimSuffix(caption, "."), strings.Join(left, ", "))
	}
	if a.x != "" {
		for _, v := range []string{a.x, a.y} {
			if !slices.ContainsFunc(sums, func(s report.Summary) bool { return s.Variant == v }) {
				return badInputf("unknown variant %q: the results hold %s", v, strings.Join(report.Variants(rows), ", "))
			}
		}
	}
	outDir := a.outDir
	if outDir == "" {
		outDir = filepath.Dir(first)
	}
	base := strings.TrimSuffix(filepath.Base(first), filepath.Ext(first))
	var written []string
	for _, k := range ks {
		f, x, y, err := drawKind(k, lines, sums, a)
		if err != nil {
			if len(ks) == 1 {
				return badInputf("%s: %v", k, err)
			}
			continue // nothing of this kind to draw
		}
		if k == "cactus" || k == "scaling" {
			f.Note = caption
			if len(f.Left) > 0 {
				f.Note = strings.TrimSpace(f.Note + fmt.Sprintf(" Not drawn: %d puzzle(s) and task(s) of fewer than %d instances (results table --what scores has them).",
					len(f.Left), report.MinPanelInstances))
				note += fmt.Sprintf("boardsat results plot: %s leaves out the puzzles and tasks of fewer than %d instances: %s\n", k, report.MinPanelInstances, strings.Join(f.Left, ", "))
			}
		}
		if a.spread != "" && (k == "scaling" || k == "scatter") {
			src := rows
			if k == "scaling" {
				src = lineRows // the variants drawn
			}
			if err := report.DrawSpread(f, k, src, a.spread, a.time, x, y); err != nil {
				return badInputf("%s: %v", k, err)
			}
		}
		// Panels beyond what a page takes go to further files. Under the
		// default names, boardsat's own, a link is refused, never written
		// through.
		name, save := a.out, report.SaveFigureSize
		if name == "" {
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return badInput(err)
			}
			name, save = report.DefaultFigurePath(outDir, base, k, a.ext), report.SaveDefaultFigure
		}
		parts := report.SplitFigure(f, size)
		for i, part := range parts {
			if err := save(part, report.SplitPath(name, i), size); err != nil {
				return badInput(err)
			}
			written = append(written, report.SplitPath(name, i))
		}
		if len(parts) > 1 {
			note += fmt.Sprintf("boardsat results plot: the %d panels of %s do not fit one page: drawn in %d files, %s to %s\n",
				len(f.Panels), k, len(parts), name, report.SplitPath(name, len(parts)-1))
		}
	}
	if len(written) == 0 {
		return badInputf("nothing to plot: no solved runs")
	}
	for _, w := range written {
		fmt.Fprintln(stdout, w)
	}
	fmt.Fprint(stderrOut, note) // once the figures are written: bad input stays one line
	return nil
}
