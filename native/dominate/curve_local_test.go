package dominate

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/boardsat/boardsat/puzzle"
)

func TestLocalCurve(t *testing.T) {
	for _, c := range []struct{ n, k int }{{13, 7}, {14, 8}} {
		d := puzzle.MustParse(fmt.Sprintf("dominate:%dx%d:Q", c.n, c.n)).(puzzle.Dominate)
		g := newGeom(d)
		o := newOrbitSplit(g)
		tasks, _ := orbitTasks(context.Background(), g, false, c.k, o, countWant)
		e := newEngine(context.Background(), g, false, c.k)
		e.minimal = true
		f, _ := os.Create(fmt.Sprintf("/tmp/fr/curve%d.txt", c.n))
		var tot time.Duration
		for i, st := range tasks {
			t0 := time.Now()
			n0 := e.nodes
			e.run(st)
			dt := time.Since(t0)
			tot += dt
			fmt.Fprintf(f, "%d %d %d %d\n", i, st.chosen[0], e.nodes-n0, dt.Microseconds())
		}
		f.Close()
		t.Logf("n=%d: %d tasks, %d nodes, %v", c.n, len(tasks), e.nodes, tot)
	}
	d := puzzle.MustParse("dominate:15x15:Q").(puzzle.Dominate)
	g := newGeom(d)
	o := newOrbitSplit(g)
	tasks, depth := orbitTasks(context.Background(), g, false, 9, o, countWant)
	f, _ := os.Create("/tmp/fr/tasks15.txt")
	for i, st := range tasks {
		fmt.Fprintf(f, "%d %d\n", i, st.chosen[0])
	}
	f.Close()
	t.Logf("n=15: %d tasks depth %d", len(tasks), depth)
}
