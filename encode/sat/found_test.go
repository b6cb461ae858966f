package sat

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverdef"
)

// TestStoppedCountSaysWhatItFound: a count by an external solver's
// blocking-clause loop that its time limit stops answers timeout with the
// models it had counted (a lower bound), which an interrupted solve
// prints as its partial count; it said only "after 3 projected models"
// in its message, and the answer's partial was null.
func TestStoppedCountSaysWhatItFound(t *testing.T) {
	calls := filepath.Join(t.TempDir(), "calls")
	// Three models of x1..x3 (1 -2 -3, -1 2 -3, -1 -2 3), then a hang.
	cnftest.FakeSolver(t, "fake-slow", `n=$(cat `+calls+` 2>/dev/null || echo 0); n=$((n+1)); echo $n > `+calls+`
case $n in 1) echo "s SATISFIABLE"; echo "v 1 -2 -3 0"; exit 10;; 2) echo "s SATISFIABLE"; echo "v -1 2 -3 0"; exit 10;;
3) echo "s SATISFIABLE"; echo "v -1 -2 3 0"; exit 10;; esac; sleep 60`)
	def := filepath.Join(t.TempDir(), "slow.json")
	os.WriteFile(def, []byte(`{"name": "slow", "kind": "sat", "command": ["fake-slow", "{input}"]}`), 0o644)
	t.Cleanup(solverdef.Forget)
	if err := solverdef.Load(def); err != nil {
		t.Fatal(err)
	}
	f := cnf.New()
	a, b, c := f.Var("x1"), f.Var("x2"), f.Var("x3")
	f.Add(a, b, c)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	r, err := Count(ctx, f, CountOptions{Solver: "slow"})
	if err != nil || r.Status != puzzle.Timeout || r.Found != 3 {
		t.Errorf("stopped count: %+v, %v; want timeout with 3 found", r, err)
	}
}
