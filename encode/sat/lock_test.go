package sat

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
	gs "github.com/crillab/gophersat/solver"
)

// TestGophersatImportedOnlyHere walks the module's source: no non-test Go
// file outside encode/sat may import gophersat, whose calls must all hold
// this package's lock.
func TestGophersatImportedOnlyHere(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	here, _ := filepath.Abs(".")
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, "github.com/crillab/gophersat") && filepath.Dir(path) != here {
				t.Errorf("%s imports %s: gophersat is called only from encode/sat, behind its lock", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("walked only %d Go files under %s", files, root)
	}
}

// lockFree reports whether gophersat's lock is free right now.
func lockFree() bool {
	select {
	case gophersatSem <- struct{}{}:
		<-gophersatSem
		return true
	default:
		return false
	}
}

// TestTimedSearchNeverHoldsLock: a single search with a time limit runs in a
// child process that the limit kills, so once it has timed out nothing holds
// gophersat's lock and the next solve in the process answers.
func TestTimedSearchNeverHoldsLock(t *testing.T) {
	hard := cnf.Pigeonhole(12)
	for i := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		r, err := Solve(ctx, hard, "")
		cancel()
		if err != nil || r.Status != puzzle.Timeout {
			t.Fatalf("run %d: pigeonhole 13/12: %v %s %s, want timeout", i, err, r.Status, r.Message)
		}
		if !lockFree() {
			t.Fatalf("run %d: gophersat's lock is held after a timed-out solve", i)
		}
		ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
		r, err = Solve(ctx, testQueens(8, false), "")
		cancel()
		if err != nil || r.Status != puzzle.OK {
			t.Fatalf("run %d: queens 8 after a timed-out solve: %v %s %s", i, err, r.Status, r.Message)
		}
	}
	for _, run := range []func(context.Context) puzzle.Status{
		func(ctx context.Context) puzzle.Status { return CountBuiltin(ctx, hard).Status },
		func(ctx context.Context) puzzle.Status { return Certify(ctx, hard).Status },
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		st := run(ctx)
		cancel()
		if st != puzzle.Timeout || !lockFree() {
			t.Fatalf("timed builtin count / certificate: %s, lock free %v", st, lockFree())
		}
	}
	// The same searches answer through the child process.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if c := Certify(ctx, cnf.Pigeonhole(5)); c.Status != puzzle.Unsat || len(c.Lemmas) == 0 {
		t.Errorf("certificate through a child: %s %d lemmas %s", c.Status, len(c.Lemmas), c.Message)
	}
	if c := CountBuiltin(ctx, testQueens(4, false)); c.Status != puzzle.OK || c.Count < 2 {
		t.Errorf("builtin count through a child: %s %d %s", c.Status, c.Count, c.Message)
	}
}

// TestCancelledContextNeverTakesLock: a cancelled context is refused before
// the lock, even when the lock is free.
func TestCancelledContextNeverTakesLock(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := acquireGophersat(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("acquire with a cancelled context: %v", err)
	}
	ran := false
	if err := withGophersat(ctx, func() { ran = true }); err == nil || ran {
		t.Fatalf("withGophersat ran with a cancelled context (err %v)", err)
	}
	if !lockFree() {
		t.Fatal("lock held after a refused call")
	}
}

// TestGophersatPanicRecovered: a panic inside gophersat becomes an error and
// releases the lock.
func TestGophersatPanicRecovered(t *testing.T) {
	if err := withGophersat(context.Background(), func() { panic("planted") }); err == nil || !strings.Contains(err.Error(), "planted") {
		t.Errorf("panic: %v", err)
	}
	if !lockFree() {
		t.Fatal("lock held after a panic")
	}
	if r, _ := Solve(context.Background(), testQueens(4, false), ""); r.Status != puzzle.OK {
		t.Fatalf("gophersat after a panic: %s %s", r.Status, r.Message)
	}
}

// TestCountNeverPartial: a gophersat search that ends without a verdict
// (Indet) in the middle of a count makes the count an error, never an OK
// count of the models found so far; for the blocking counter and for the
// enumerator's extension calls alike.
func TestCountNeverPartial(t *testing.T) {
	defer func(h func(context.Context, *gs.Solver) (gs.Status, error)) { gophersatRunHook = h }(gophersatRunHook)
	calls := 0
	gophersatRunHook = func(ctx context.Context, s *gs.Solver) (gs.Status, error) {
		calls++
		if calls > 3 {
			return gs.Indet, nil
		}
		return gophersatRun(ctx, s)
	}
	r, err := Count(context.Background(), testQueens(6, false), CountOptions{Method: MethodBlocking})
	if err != nil || r.Status != puzzle.Error || !strings.Contains(r.Message, "INDET") {
		t.Errorf("blocking count with Indet: %v %s %d %q", err, r.Status, r.Count, r.Message)
	}
	// The enumerator asks gophersat whether auxiliary variables extend a
	// projected assignment (always, with budget 0): every such call says Indet.
	defer func(b int) { auxConflictBudget = b }(auxConflictBudget)
	auxConflictBudget = 0
	rng := rand.New(rand.NewSource(5))
	tried := 0
	for i := 0; i < 200 && tried < 5; i++ {
		calls = 3 // every call answers Indet
		f := randomFormula(rng, 12, 4, 20+rng.Intn(30), 0)
		r, err := Count(context.Background(), f, CountOptions{Threads: 1})
		if calls == 3 {
			continue // no extension call reached gophersat
		}
		tried++
		if err == nil && r.Status == puzzle.OK {
			t.Fatalf("formula %d: enumerating count with Indet extension calls: OK %d", i, r.Count)
		}
	}
	if tried == 0 {
		t.Fatal("no formula reached gophersat for an extension")
	}
}

// TestCertifyBesideCount runs a certificate and counts at once in one
// process (as compare does with plancert beside other variants): under
// -race this finds any gophersat call that escapes the lock, and the
// answers must stay exact.
func TestCertifyBesideCount(t *testing.T) {
	hard := cnf.Pigeonhole(6)
	done := make(chan error, 3)
	go func() {
		for range 3 {
			c := Certify(context.Background(), hard)
			if c.Status != puzzle.Unsat || len(c.Lemmas) == 0 || len(c.Lemmas[len(c.Lemmas)-1]) != 0 {
				done <- fmt.Errorf("certify pigeonhole 7/6: %s, %d lemmas", c.Status, len(c.Lemmas))
				return
			}
		}
		done <- nil
	}()
	for range 2 {
		go func() { done <- countQueens8Blocking() }()
	}
	for range 3 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestStopWorkerReaps: after a timed search the child process is still
// running; StopWorker ends it and reaps it (its CPU time is then the
// parent's, as wait4 counts it), and the next timed search starts a new one.
func TestStopWorkerReaps(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if c := CountBuiltin(ctx, testQueens(4, false)); c.Status != puzzle.OK {
		t.Fatalf("builtin count through a child: %s %s", c.Status, c.Message)
	}
	w := theWorker
	if w == nil {
		t.Fatal("no child process after a timed search")
	}
	StopWorker()
	if theWorker != nil || w.cmd.ProcessState == nil || !w.cmd.ProcessState.Exited() {
		t.Fatalf("StopWorker left the child: worker %v, state %v", theWorker, w.cmd.ProcessState)
	}
	if c := CountBuiltin(ctx, testQueens(4, false)); c.Status != puzzle.OK || c.Count != 2 {
		t.Errorf("count after StopWorker: %s %d %s", c.Status, c.Count, c.Message)
	}
	StopWorker()
}
