package sat

// The worker's side of the timed searches: the entry point a program calls
// first thing, which turns the process into a gophersat worker when its
// parent started it as one.

import (
	"context"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/solvers/solverproc"
	gs "github.com/crillab/gophersat/solver"
)

// childEnv, set to "1", asks a program that calls ServeWorker to be a
// gophersat worker: it reads searchJobs (gob) on stdin and answers each
// with a searchResult (gob) on stdout until stdin ends. Timed searches run
// in such a worker (searchOne), so that a time limit kills the search
// instead of leaving it to hold gophersat's lock in this process.
const childEnv = "BOARDSAT_GOPHERSAT_CHILD"

// workerEntry is set once ServeWorker has returned: the program can start
// a worker of its own binary (startWorker refuses otherwise, since the
// child would run the program instead of serving searches).
var workerEntry atomic.Bool

// ServeWorker is the worker's entry point. A program that may run timed
// gophersat searches (boardsat's main, the TestMain of a test binary that
// runs them) calls it first thing: when the program was started as a
// worker (childEnv), it serves searches until its stdin ends and exits,
// never returning; otherwise it returns at once, and the program may start
// workers.
func ServeWorker() {
	if os.Getenv(childEnv) == "1" {
		solverproc.ExitWithParent(1) // not one search beyond a killed boardsat
		os.Exit(serveChild(os.Stdin, os.Stdout))
	}
	workerEntry.Store(true)
}

// serveChild is the child's side of searchChild: it answers jobs until its
// input ends, and returns the exit code.
func serveChild(in io.Reader, out io.Writer) int {
	dec, enc := gob.NewDecoder(in), gob.NewEncoder(out)
	var kept *gs.Solver // the solver of modeIncOpen / modeIncSolve
	for {
		var job searchJob
		if err := dec.Decode(&job); err != nil {
			if err == io.EOF {
				return 0
			}
			fmt.Fprintln(os.Stderr, "gophersat child: reading a job:", err)
			return 2
		}
		f := cnf.New()
		for v := 1; v <= job.NumVars; v++ {
			f.Var(fmt.Sprint("x", v))
		}
		var r searchResult
		switch job.Mode {
		case modeIncOpen:
			addJob(f, job)
			kept = gs.New(gophersatProblem(f, nil))
			r = solveKept(kept, job.NumVars)
		case modeIncSolve:
			if kept == nil {
				r = searchResult{Err: "no kept solver to append to"}
				break
			}
			r = appendKept(kept, job.Clauses, job.PBs)
			if r.Err == "" && r.Verdict == "" {
				r = solveKept(kept, job.NumVars)
			}
		case modeOptimal:
			addJob(f, job)
			var failed error
			r = optimalHere(context.Background(), f, job.Cost, func(p searchResult) {
				if failed == nil {
					failed = enc.Encode(p)
				}
			})
			if failed != nil {
				fmt.Fprintln(os.Stderr, "gophersat child: writing a result:", failed)
				return 2
			}
		default:
			addJob(f, job)
			r = searchHere(context.Background(), job.Mode, f)
		}
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "gophersat child: writing the result:", err)
			return 2
		}
	}
}

// addJob adds the job's clauses and PB constraints to f.
func addJob(f *cnf.Formula, job searchJob) {
	for _, c := range job.Clauses {
		f.Add(c...)
	}
	for _, p := range job.PBs {
		f.AddPB(p.Lits, p.Weights, p.Op, p.K)
	}
}
