package sat

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
	gs "github.com/crillab/gophersat/solver"
)

// searchMode names a single gophersat search.
type searchMode string

// The single searches searchOne runs.
const (
	modeSolve   searchMode = "solve"       // Solve, then the model
	modeCount   searchMode = "countmodels" // gophersat's CountModels
	modeCertify searchMode = "certify"     // Solve with its RUP certificate
	// modeIncOpen starts a kept solver (Session) on the job's formula and
	// solves it; modeIncSolve appends the job's clauses and PB constraints
	// to that solver and solves again, its learnt clauses kept.
	modeIncOpen  searchMode = "inc-open"
	modeIncSolve searchMode = "inc-solve"
	// modeOptimal runs gophersat's own optimisation (Solver.Optimal) on the
	// formula with the job's cost function, answering each improved model
	// as it is found (Verdict "improved"), then the final verdict.
	modeOptimal searchMode = "optimal"
)

// searchJob is a formula and what to do with it, as sent to a child.
type searchJob struct {
	Mode    searchMode
	NumVars int
	Clauses [][]cnf.Lit
	PBs     []cnf.PB
	// Cost is the objective of modeOptimal.
	Cost Objective
}

// searchResult is gophersat's answer to a searchJob.
type searchResult struct {
	// Verdict is "sat", "unsat" or "indet"; "" when Err or a timeout.
	Verdict string
	Model   []bool // Model[v], v = 1..NumVars, when sat (modeSolve, modeCertify, the incremental and optimal modes)
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
		if mode == modeSolve || mode == modeCertify {
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

// worker is the child process that serves timed searches, one at a time,
// started on first use and reused until a search must be abandoned, when
// it is killed (and the next search starts a new one).
type worker struct {
	cmd  *exec.Cmd
	in   io.WriteCloser // the worker's stdin: closing it ends the worker
	enc  *gob.Encoder
	dec  *gob.Decoder
	errb *tailBuffer
}

// workerSem guards theWorker: one search at a time goes to the worker.
var (
	workerSem = make(chan struct{}, 1)
	theWorker *worker
)

// startWorker starts a child process of this binary serving searches.
func startWorker() (*worker, error) {
	if !workerEntry.Load() {
		return nil, errors.New("this program does not call sat.ServeWorker first thing, so its binary cannot serve as the worker")
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	// The worker exits when its stdin closes, that is when this process
	// ends, and within a tenth of a second of that in the middle of a
	// search (solverproc.ExitWithParent).
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w := &worker{cmd: cmd, in: in, enc: gob.NewEncoder(in), dec: gob.NewDecoder(out), errb: &tailBuffer{}}
	cmd.Stderr = w.errb
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	// Under a memory cap the kernel's out-of-memory killer ends the worker
	// first, not boardsat, which can then answer memout (best effort).
	os.WriteFile(fmt.Sprintf("/proc/%d/oom_score_adj", cmd.Process.Pid), []byte("1000"), 0o644)
	return w, nil
}

// StopWorker ends the search child process, if one runs, and waits for
// it. A process measured by wait4 (/usr/bin/time, a shell's time) counts
// only the children it has reaped: without this, a worker that ends only
// when its parent's exit closes its stdin would be reaped by init, and its
// CPU time would be missing from the command's. The CLI calls it before it
// exits; a later search starts a new worker.
func StopWorker() {
	workerSem <- struct{}{}
	defer func() { <-workerSem }()
	if theWorker != nil {
		theWorker.in.Close()
		theWorker.cmd.Wait()
		theWorker = nil
	}
}

// kill ends the worker process.
func (w *worker) kill() {
	w.cmd.Process.Kill()
	w.cmd.Wait()
}

// searchChild runs the search in the worker process, killing it when ctx
// ends first.
func searchChild(ctx context.Context, mode searchMode, f *cnf.Formula) searchResult {
	return sharedRoundTrip(ctx, searchJob{Mode: mode, NumVars: f.NumVars(), Clauses: formulaClauses(f), PBs: f.PBs()}, nil)
}

// sharedRoundTrip runs job on the shared worker process (started when
// none runs), one job at a time, passing intermediate answers to progress
// (nil for none); a worker killed by ctx's end is dropped, and the next job
// starts a new one.
func sharedRoundTrip(ctx context.Context, job searchJob, progress func(searchResult)) searchResult {
	select {
	case workerSem <- struct{}{}:
	case <-ctx.Done():
		return searchResult{Timeout: true}
	}
	defer func() { <-workerSem }()
	if theWorker == nil {
		w, err := startWorker()
		if err != nil {
			return searchResult{Err: "cannot start a gophersat child process: " + err.Error()}
		}
		theWorker = w
	}
	r, killed := theWorker.roundTrip(ctx, job, progress)
	if killed {
		theWorker = nil
	}
	return r
}

// formulaClauses returns f's clauses.
func formulaClauses(f *cnf.Formula) [][]cnf.Lit {
	out := make([][]cnf.Lit, f.NumClauses())
	for i := range out {
		out[i] = f.Clause(i)
	}
	return out
}

// roundTrip sends job to the worker and waits for its final answer,
// passing each intermediate one (Verdict "improved") to progress. When ctx
// ends first, or the pipe to the worker fails, it kills the worker
// (gophersat cannot be interrupted) and reports killed; the worker must
// not be used again. progress runs on another goroutine, but returns
// before roundTrip does.
func (w *worker) roundTrip(ctx context.Context, job searchJob, progress func(searchResult)) (r searchResult, killed bool) {
	done := make(chan searchResult, 1)
	go func() {
		if err := w.enc.Encode(job); err != nil {
			done <- searchResult{Err: "sending a job to the gophersat child process: " + err.Error()}
			return
		}
		for {
			var r searchResult
			if err := w.dec.Decode(&r); err != nil {
				done <- searchResult{Err: "the gophersat child process failed: " + err.Error() + w.errb.last()}
				return
			}
			if r.Verdict != verdictImproved {
				done <- r
				return
			}
			if progress != nil {
				progress(r)
			}
		}
	}()
	select {
	case r := <-done:
		if r.Err != "" && (strings.HasPrefix(r.Err, "sending a job") || strings.HasPrefix(r.Err, "the gophersat child")) {
			w.kill()
			return r, true
		}
		return r, false
	case <-ctx.Done():
		// gophersat cannot be interrupted: kill the process it runs in.
		w.kill()
		<-done
		return searchResult{Timeout: true}, true
	}
}

// verdictImproved marks an intermediate answer of modeOptimal.
const verdictImproved = "improved"

// tailBuffer keeps the end of what a child writes on stderr.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(p), nil
}

// last returns the last line written, as ": line", or "".
func (t *tailBuffer) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return ""
	}
	return ": " + s
}
