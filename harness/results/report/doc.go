// Package report makes what a paper shows from results rows (package
// results): summary statistics with bootstrap confidence intervals
// (gonum/stat), PAR-k scores, wins and the virtual best solver, speed-up
// and pivot tables (Markdown, CSV, LaTeX booktabs), figures (gonum/plot:
// cactus, scaling, scatter and ECDF plots) and Go benchmark format lines
// for benchstat. It only reads rows; the harness that writes them does not
// import it.
package report
