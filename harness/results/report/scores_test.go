package report

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// poolRows: on task count, native/plain and sat/x run queens:4..6, both
// solving all three; sat/x alone also runs pieces:a and pieces:b, which it
// does not solve; native/plain's queens:6 was a refused request, and
// sat/y ran queens:4 alone. Pooled over the task, native/plain would be 2
// of 5 and sat/x 3 of 5 with pieces counted against native/plain; per
// puzzle and task, native/plain is 2 of the 2 queens it ran.
func poolRows() []results.Row {
	mk := func(in, v, st string, secs float64) results.Row {
		r := row(in, v, "count", 1, st, secs)
		r.WallLimit, r.SolverSeconds = 10, secs/10
		return r
	}
	refused := mk("queens:6", "native/plain", results.StatusError, 0)
	refused.Message = results.RefusedMessage("too large for this backend")
	return []results.Row{
		mk("queens:4", "native/plain", results.StatusOK, 1), mk("queens:5", "native/plain", results.StatusOK, 2), refused,
		mk("queens:4", "sat/x", results.StatusOK, 3), mk("queens:5", "sat/x", results.StatusOK, 4), mk("queens:6", "sat/x", results.StatusOK, 5),
		mk("queens:4", "sat/y", results.StatusOK, 0.5),
		mk("pieces:a", "sat/x", results.StatusTimeout, 10), mk("pieces:b", "sat/x", results.StatusTimeout, 10),
	}
}

// TestScoresPerPuzzle: scores are per puzzle and task, never over another
// puzzle's instances; an instance a variant did not run, or only had
// refused, is not run, not unsolved, and is left out of its PAR-2.
func TestScoresPerPuzzle(t *testing.T) {
	a := Aggregate(poolRows(), 2, TimeWall)
	type key struct{ puzzle, variant string }
	got := map[key]Score{}
	for _, s := range a.Scores {
		got[key{s.Puzzle, s.Variant}] = s
	}
	if len(got) != 4 {
		t.Fatalf("%d scores, want 4 (queens: 3 variants, pieces: 1): %+v", len(got), a.Scores)
	}
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
	// queens: sat/y ran queens:4 alone, native/plain had queens:6
	// refused: the scores are over queens:4, the one instance all ran.
	want := []struct {
		k                                                 key
		solved, common, solvedRan, ran, notRun, instances int
		par                                               float64
	}{
		{key{"queens", "native/plain"}, 1, 1, 2, 2, 1, 3, 1},
		{key{"queens", "sat/x"}, 1, 1, 3, 3, 0, 3, 3},
		{key{"queens", "sat/y"}, 1, 1, 1, 1, 2, 3, 0.5},
		{key{"pieces", "sat/x"}, 0, 2, 0, 2, 0, 2, 20},
	}
	for _, w := range want {
		s, ok := got[w.k]
		if !ok || s.Solved != w.solved || s.Common != w.common || s.SolvedRan != w.solvedRan || s.Ran != w.ran || s.NotRun != w.notRun ||
			s.Instances != w.instances || !near(s.PAR, w.par) {
			t.Errorf("%v: %+v, want solved %d of %d common, %d of %d ran, %d not run of %d, PAR-2 %g", w.k, s, w.solved, w.common, w.solvedRan, w.ran, w.notRun, w.instances, w.par)
		}
	}
	if _, ok := got[key{"pieces", "native/plain"}]; ok {
		t.Error("native/plain scored on pieces, which it never ran")
	}
	// The VBS of queens: 0.5 on queens:4; of pieces: nothing solved, 2 x
	// 10 each.
	for _, v := range a.VBS {
		switch v.Puzzle {
		case "queens":
			if v.Solved != 1 || v.Instances != 1 || !near(v.PAR, 0.5) {
				t.Errorf("VBS queens: %+v", v)
			}
		case "pieces":
			if v.Solved != 0 || v.Instances != 2 || !near(v.PAR, 20) {
				t.Errorf("VBS pieces: %+v", v)
			}
		}
	}
	tab := ScoreTable(a, 2)
	var md bytes.Buffer
	if err := tab.Render(&md, "csv"); err != nil {
		t.Fatal(err)
	}
	if line := "queens,count,native/plain,1,1,1,0,0,0.000,2,2,1,3"; !strings.Contains(md.String(), line+"\n") {
		t.Errorf("scores CSV lacks %q:\n%s", line, md.String())
	}
	if note := "queens count: scored over the 1 instances every variant ran, of 3; ran fewer: native/plain 2 of 3, sat/y 1 of 3"; !strings.Contains(tab.Title, note) {
		t.Errorf("scores title %q does not say %q", tab.Title, note)
	}
	// Wins only over instances both ran: native/plain and sat/x meet on
	// queens:4 and queens:5 (native/plain faster on both), not queens:6.
	for _, w := range a.Wins {
		if w.Variant == "native/plain" && w.Versus == "sat/x" && (w.Wins != 2 || w.Losses != 0 || w.Ties != 0 || w.Puzzle != "queens") {
			t.Errorf("wins: %+v", w)
		}
	}
}

// TestTimeMeasure: --time picks the seconds of every score, table and
// figure, and each names it: solver seconds are a tenth of the wall
// seconds in poolRows, CPU seconds half of them.
func TestTimeMeasure(t *testing.T) {
	for _, c := range []struct {
		time, name string
		median     float64 // native/plain on queens:5
	}{{TimeSolver, "solver seconds", 0.2}, {TimeCPU, "CPU seconds", 1.001}, {TimeWall, "wall-clock seconds", 2}} {
		ps, err := Pivots(poolRows(), MeasureMedian, 2, c.time)
		if err != nil {
			t.Fatal(err)
		}
		if v := ps[0].Values[1][0]; math.Abs(v-c.median) > 1e-9 {
			t.Errorf("%s: median %g, want %g", c.time, v, c.median)
		}
		var tex bytes.Buffer
		if err := ps[0].LaTeX(&tex); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(tex.String(), "\\caption{Median "+c.name+" of the solved runs") {
			t.Errorf("%s: the LaTeX caption does not name %q:\n%s", c.time, c.name, tex.String())
		}
		titles := []string{ScoreTable(Aggregate(poolRows(), 2, c.time), 2).Title, WinsTable(Aggregate(poolRows(), 2, c.time)).Title,
			SummaryTable(Summarize(poolRows(), c.time)).Title, Grid(poolRows(), c.time).Title}
		for _, title := range titles {
			if !strings.Contains(title, c.name) {
				t.Errorf("%s: title %q does not name %q", c.time, title, c.name)
			}
		}
		f, err := Cactus(Summarize(poolRows(), c.time), c.time)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.yLabel, c.name) {
			t.Errorf("%s: cactus axis %q does not name %q", c.time, f.yLabel, c.name)
		}
	}
	if err := CheckTime("user"); err == nil || !strings.Contains(err.Error(), "cpu, wall or solver") {
		t.Errorf("unknown --time: %v", err)
	}
}

// TestRefusedCell: a refused run has no value in any measure of the pivot
// (never twice the limit), and the LaTeX marks it "ref", which the
// footnote explains; a timeout is scored at twice the limit.
func TestRefusedCell(t *testing.T) {
	for _, m := range Measures {
		ps, _ := Pivots(poolRows(), m, 2, TimeWall)
		p := ps[0]
		i, j := slices.Index(p.Instances, "queens:6"), slices.Index(p.Variants, "native/plain")
		if v := p.Values[i][j]; !math.IsNaN(v) {
			t.Errorf("%s: refused cell %g, want none", m, v)
		}
		var tex bytes.Buffer
		if err := p.LaTeX(&tex); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(tex.String(), "queens:6 & {ref} &") || !strings.Contains(tex.String(), "refused by the backend") {
			t.Errorf("%s: the refused cell is not marked ref with a note saying so:\n%s", m, tex.String())
		}
	}
	ps, _ := Pivots(poolRows(), MeasurePAR2, 2, TimeWall)
	if v := ps[1].Values[0][0]; ps[1].Puzzle != "pieces" || v != 20 {
		t.Errorf("PAR-2 of a timeout: %g (%s), want 20", v, ps[1].Puzzle)
	}
}

// TestScoreCaptionBounded: thirty puzzles and tasks, each with a variant
// that ran one instance of two, give a scores caption of a few lines that
// says how many there are (the notes in full ran to 4,000 characters on
// the quick suite, which LaTeX cannot set); two give the notes in full.
func TestScoreCaptionBounded(t *testing.T) {
	mk := func(puzzles int) Table {
		var rows []results.Row
		for p := range puzzles {
			for _, in := range []string{"a", "b"} {
				inst := fmt.Sprintf("p%d:%s", p, in)
				rows = append(rows, row(inst, "native/x", "count", 1, results.StatusOK, 0.1))
				if in == "a" {
					rows = append(rows, row(inst, "sat/y", "count", 1, results.StatusOK, 0.2))
				}
			}
		}
		return ScoreTable(Aggregate(rows, 2, TimeCPU), 2)
	}
	if tb := mk(30); len(tb.Title) > 1000 || !strings.Contains(tb.Title, "In 30 puzzles and tasks a variant ran fewer") {
		t.Errorf("30 puzzles: caption of %d characters: %q", len(tb.Title), tb.Title)
	}
	if tb := mk(2); !strings.Contains(tb.Title, "p0 count: scored over the 1 instances every variant ran, of 2; ran fewer: sat/y 1 of 2") {
		t.Errorf("2 puzzles: caption %q lacks the notes", tb.Title)
	}
}
