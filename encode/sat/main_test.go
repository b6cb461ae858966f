package sat

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
)

// TestMain serves timed gophersat searches when this test binary was
// started as their worker, and runs the tests otherwise.
func TestMain(m *testing.M) {
	ServeWorker()
	os.Exit(m.Run())
}

// A program that never called ServeWorker cannot start a worker of its own
// binary: the child would run the program instead of serving searches, so
// the timed search fails with an error that says why.
func TestWorkerNeedsServeWorker(t *testing.T) {
	StopWorker()
	workerEntry.Store(false)
	defer workerEntry.Store(true)
	f := cnf.New()
	f.Add(f.Var("x"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := searchOne(ctx, modeSolve, f)
	if !strings.Contains(r.Err, "ServeWorker") {
		t.Fatalf("search without ServeWorker: %+v, want an error naming ServeWorker", r)
	}
	workerEntry.Store(true)
	if r := searchOne(ctx, modeSolve, f); r.Err != "" || r.Verdict != "sat" {
		t.Fatalf("search after ServeWorker: %+v, want sat", r)
	}
}
