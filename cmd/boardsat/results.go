package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/boardsat/boardsat/results"
)

func init() {
	commands["results"] = command{"summarize|table|plot|benchfmt|merge results CSV files", runResults}
}

var resultsSubs = []string{"summarize", "table", "plot", "benchfmt", "merge"}

func runResults(args []string, stdout io.Writer) error {
	if len(args) == 0 || !slices.Contains(resultsSubs, args[0]) {
		return badInputf("want a subcommand: boardsat results %s FILE.csv...", strings.Join(resultsSubs, "|"))
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("results "+sub, flag.ContinueOnError)
	var (
		baseline = fs.String("baseline", "", "summarize, table: variant the speed-ups are relative to (default: each puzzle's first variant)")
		format   = fs.String("format", "md", "table: md, csv or latex")
		what     = fs.String("what", "summary", "table: summary or speedup")
		out      = fs.String("o", "", "output file (table, benchfmt, merge: default stdout; plot: one figure of one --kind, format by extension)")
		kinds    = fs.String("kind", strings.Join(results.PlotKinds, ","), "plot: figures to draw: cactus, scaling, scatter")
		ext      = fs.String("ext", "svg", "plot: figure format when -o is not given: svg, png or pdf")
		outDir   = fs.String("out-dir", "", "plot: directory for the figures (default: the first CSV's directory)")
		xv       = fs.String("x", "", "plot scatter: variant on the x axis (default: the pair with most instances solved in common)")
		yv       = fs.String("y", "", "plot scatter: variant on the y axis")
	)
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return badInputf("want at least one results FILE.csv")
	}
	rows, err := results.ReadFiles(files...)
	if err != nil {
		return badInput(err)
	}
	switch sub {
	case "summarize":
		sums := results.Summarize(rows)
		tables, err := speedupTables(sums, *baseline)
		if err != nil {
			return badInput(err)
		}
		if err := results.SummaryTable(sums).Render(stdout, "md"); err != nil {
			return err
		}
		for _, t := range tables {
			fmt.Fprintln(stdout)
			if err := t.Render(stdout, "md"); err != nil {
				return err
			}
		}
		return nil
	case "table":
		if !slices.Contains(results.Formats, *format) {
			return badInputf("unknown table format %q: want md, csv or latex", *format)
		}
		sums := results.Summarize(rows)
		var tables []results.Table
		switch *what {
		case "summary":
			tables = []results.Table{results.SummaryTable(sums)}
		case "speedup":
			if tables, err = speedupTables(sums, *baseline); err != nil {
				return badInput(err)
			}
		default:
			return badInputf("unknown --what %q: want summary or speedup", *what)
		}
		return writeOut(*out, stdout, func(w io.Writer) error {
			for i, t := range tables {
				if i > 0 {
					fmt.Fprintln(w)
				}
				if err := t.Render(w, *format); err != nil {
					return err
				}
			}
			return nil
		})
	case "plot":
		return plotResults(rows, files[0], *kinds, *ext, *outDir, *out, *xv, *yv, stdout)
	case "benchfmt":
		var sessions []results.Session
		if m, ok, err := results.ReadMeta(files[0]); err != nil {
			return badInput(err)
		} else if ok {
			sessions = m.Sessions
		}
		return writeOut(*out, stdout, func(w io.Writer) error { return results.WriteBenchfmt(w, rows, sessions) })
	case "merge":
		if err := writeOut(*out, stdout, func(w io.Writer) error { return results.Write(w, rows) }); err != nil {
			return err
		}
		if *out == "" {
			return nil
		}
		// The merged file's sidecar holds every input's sessions.
		var m results.Meta
		for _, f := range files {
			if mm, ok, err := results.ReadMeta(f); err != nil {
				return badInput(err)
			} else if ok {
				m.Sessions = append(m.Sessions, mm.Sessions...)
			}
		}
		if len(m.Sessions) == 0 {
			return nil
		}
		data, _ := json.MarshalIndent(m, "", "  ")
		return results.WriteFileAtomic(results.MetaPath(*out), func(w io.Writer) error {
			_, err := w.Write(append(data, '\n'))
			return err
		})
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
	return results.WriteFileAtomic(path, write)
}

// speedupTables returns one speed-up table per puzzle, against baseline if
// that puzzle has it, else against the puzzle's first variant. A baseline
// that is in no puzzle is an error.
func speedupTables(sums []results.Summary, baseline string) ([]results.Table, error) {
	if baseline != "" && !slices.ContainsFunc(sums, func(s results.Summary) bool { return s.Variant == baseline }) {
		_, err := results.Speedups(sums, baseline)
		return nil, err
	}
	var out []results.Table
	for _, p := range results.Puzzles(sums) {
		var ps []results.Summary
		for _, s := range sums {
			if s.Puzzle == p {
				ps = append(ps, s)
			}
		}
		b := baseline
		if b == "" || !slices.ContainsFunc(ps, func(s results.Summary) bool { return s.Variant == b }) {
			b = ps[0].Variant
		}
		sp, err := results.Speedups(ps, b)
		if err != nil {
			return nil, err
		}
		if len(sp) == 0 {
			continue
		}
		t := results.SpeedupTable(sp, b)
		t.Title = p + ": " + t.Title
		out = append(out, t)
	}
	return out, nil
}

func plotResults(rows []results.Row, first, kinds, ext, outDir, out, xv, yv string, stdout io.Writer) error {
	var ks []string
	for _, k := range strings.Split(kinds, ",") {
		if !slices.Contains(results.PlotKinds, k) {
			return badInputf("unknown figure kind %q: want cactus, scaling or scatter", k)
		}
		ks = append(ks, k)
	}
	if !slices.Contains(results.PlotFormats, ext) {
		return badInputf("unknown figure format %q: want svg, png or pdf", ext)
	}
	if (xv == "") != (yv == "") {
		return badInputf("--x and --y go together")
	}
	sums := results.Summarize(rows)
	if xv != "" {
		for _, v := range []string{xv, yv} {
			if !slices.ContainsFunc(sums, func(s results.Summary) bool { return s.Variant == v }) {
				return badInputf("unknown variant %q: the results hold %s", v, strings.Join(results.Variants(rows), ", "))
			}
		}
	}
	if out != "" && (len(ks) != 1 || (ks[0] == "scaling" && len(results.Puzzles(sums)) > 1) || (ks[0] == "cactus" && len(results.Tasks(sums)) > 1)) {
		return badInputf("-o names one figure: give one --kind (for scaling, results of one puzzle; for cactus, of one task), or use --out-dir")
	}
	if outDir == "" {
		outDir = filepath.Dir(first)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return badInput(err)
	}
	base := strings.TrimSuffix(filepath.Base(first), filepath.Ext(first))
	name := func(kind string) string {
		if out != "" {
			return out
		}
		return filepath.Join(outDir, base+"-"+kind+"."+ext)
	}
	var written []string
	for _, k := range ks {
		switch k {
		case "cactus":
			tasks := results.Tasks(sums)
			for _, task := range tasks {
				f, err := results.Cactus(sums, task)
				if err != nil {
					continue // nothing solved for this task
				}
				n := name("cactus")
				if len(tasks) > 1 {
					n = name("cactus-" + task)
				}
				if err := results.SaveFigure(f, n); err != nil {
					return badInput(err)
				}
				written = append(written, n)
			}
		case "scaling":
			for _, pz := range results.Puzzles(sums) {
				p, err := results.Scaling(sums, pz)
				if err != nil {
					continue // nothing solved for this puzzle
				}
				n := name("scaling-" + pz)
				if err := results.SaveFigure(p, n); err != nil {
					return badInput(err)
				}
				written = append(written, n)
			}
		case "scatter":
			x, y := xv, yv
			if x == "" {
				var ok bool
				if x, y, ok = results.ScatterPair(sums); !ok {
					if len(ks) == 1 {
						return badInputf("no two variants solved an instance in common: no scatter plot")
					}
					continue
				}
			}
			p, err := results.Scatter(sums, x, y)
			if err != nil {
				return badInput(err)
			}
			if err := results.SaveFigure(p, name("scatter")); err != nil {
				return badInput(err)
			}
			written = append(written, name("scatter"))
		}
	}
	if len(written) == 0 {
		return badInputf("nothing to plot: no solved runs")
	}
	for _, w := range written {
		fmt.Fprintln(stdout, w)
	}
	return nil
}
