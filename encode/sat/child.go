package sat

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
	gs "github.com/crillab/gophersat/solver"
)

// childEnv, set to "1", makes any binary that links this package serve one
// gophersat search: it reads a searchJob (gob) on stdin, runs it, writes a
// searchResult (gob) on stdout and exits, before main or the tests start.
// Timed searches run that way (searchOne), so that a time limit kills the
// search instead of leaving it to hold gophersat's lock in this process.
const childEnv = "BOARDSAT_GOPHERSAT_CHILD"

func init() {
	if os.Getenv(childEnv) == "1" {
		os.Exit(serveChild(os.Stdin, os.Stdout))
	}
}

// searchMode names a single gophersat search.
type searchMode string

// The single searches searchOne runs.
const (
	modeSolve   searchMode = "solve"       // Solve, then the model
	modeCount   searchMode = "countmodels" // gophersat's CountModels
	modeCertify searchMode = "certify"     // Solve with its RUP certificate
)

// searchJob is a formula and what to do with it, as sent to a child.
type searchJob struct {
	Mode    searchMode
	NumVars int
	Clauses [][]cnf.Lit
	PBs     []cnf.PB
}

// searchResult is gophersat's answer to a searchJob.
type searchResult struct {
	// Verdict is "sat", "unsat" or "indet"; "" when Err or a timeout.
	Verdict string
	Model   []bool // Model[v], v = 1..NumVars, when sat (modeSolve)
	Count   int    // modeCount
	Cert    []string
	Stats   map[string]int64
	Err     string
	Timeout bool
}

// searchOne runs one gophersat search on f: in this process (under the lock,
// to its end) when ctx cannot be cancelled, and otherwise in a child process
// of the same binary, killed when ctx ends, so that no abandoned search ever
// holds this process's gophersat lock.
func searchOne(ctx context.Context, mode searchMode, f *cnf.Formula) searchResult {
	if err := ctx.Err(); err != nil {
		return searchResult{Timeout: true}
	}
	if ctx.Done() == nil {
		return searchHere(ctx, mode, f)
	}
	return searchChild(ctx, mode, f)
}

// searchHere runs the search in this process, holding the lock.
func searchHere(ctx context.Context, mode searchMode, f *cnf.Formula) searchResult {
	var r searchResult
	var lines chan string
	collected := make(chan []string, 1)
	s := gs.New(gophersatProblem(f, nil))
	if mode == modeCertify {
		lines = make(chan string, 1024)
		s.Certified, s.CertChan = true, lines
		go func() {
			var all []string
			for l := range lines {
				all = append(all, l)
			}
			collected <- all
		}()
	}
	st := gs.Indet
	err := withGophersat(ctx, func() {
		if mode == modeCount {
			r.Count = s.CountModels()
			st = gs.Sat
			return
		}
		st = s.Solve()
	})
	if lines != nil {
		close(lines)
		r.Cert = <-collected
	}
	if err != nil {
		if ctx.Err() != nil {
			return searchResult{Timeout: true}
		}
		return searchResult{Err: err.Error()}
	}
	r.Stats = gophersatStats(s)
	r.Stats[puzzle.StatSolverCalls] = 1
	switch st {
	case gs.Sat:
		r.Verdict = "sat"
		if mode == modeSolve {
			m, err := gophersatModel(s, f.NumVars())
			if err != nil {
				return searchResult{Err: err.Error(), Stats: r.Stats}
			}
			r.Model = m
		}
	case gs.Unsat:
		r.Verdict = "unsat"
	default:
		r.Verdict = "indet"
	}
	return r
}

// searchChild runs the search in a child process of this binary.
func searchChild(ctx context.Context, mode searchMode, f *cnf.Formula) searchResult {
	exe, err := os.Executable()
	if err != nil {
		return searchResult{Err: "cannot start a gophersat child process: " + err.Error()}
	}
	job := searchJob{Mode: mode, NumVars: f.NumVars(), Clauses: make([][]cnf.Lit, f.NumClauses()), PBs: f.PBs()}
	for i := range job.Clauses {
		job.Clauses[i] = f.Clause(i)
	}
	var in, out, errOut bytes.Buffer
	if err := gob.NewEncoder(&in).Encode(job); err != nil {
		return searchResult{Err: "encoding a gophersat job: " + err.Error()}
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = &in, &out, &errOut
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return searchResult{Timeout: true}
	}
	var r searchResult
	if err := gob.NewDecoder(&out).Decode(&r); err != nil {
		msg := strings.TrimSpace(errOut.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		return searchResult{Err: fmt.Sprintf("gophersat child process failed (%v): %s", runErr, msg)}
	}
	return r
}

// serveChild is the child's side of searchChild; it returns the exit code.
func serveChild(in io.Reader, out io.Writer) int {
	var job searchJob
	if err := gob.NewDecoder(in).Decode(&job); err != nil {
		fmt.Fprintln(os.Stderr, "gophersat child: reading the job:", err)
		return 2
	}
	f := cnf.New()
	for v := 1; v <= job.NumVars; v++ {
		f.Var(fmt.Sprint("x", v))
	}
	for _, c := range job.Clauses {
		f.Add(c...)
	}
	for _, p := range job.PBs {
		f.AddPB(p.Lits, p.Weights, p.Op, p.K)
	}
	r := searchHere(context.Background(), job.Mode, f)
	if err := gob.NewEncoder(out).Encode(r); err != nil {
		fmt.Fprintln(os.Stderr, "gophersat child: writing the result:", err)
		return 2
	}
	return 0
}
