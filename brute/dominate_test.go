package brute

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/boardsat/boardsat/native"
	"github.com/boardsat/boardsat/puzzle"
)

// dominateSpecs is a sweep of small domination instances: every piece on
// boards up to 4x4 and 5x3, plain, independent, with k= at the minimum,
// below it and above it.
func dominateSpecs() []string {
	var specs []string
	for _, p := range "QKRBN" {
		for _, wh := range [][2]int{{1, 1}, {2, 1}, {3, 1}, {2, 2}, {3, 2}, {4, 2}, {3, 3}, {4, 3}, {5, 3}, {4, 4}} {
			base := fmt.Sprintf("dominate:%dx%d:%c", wh[0], wh[1], p)
			specs = append(specs, base, base+":independent", base+":k=1")
			if wh[0]*wh[1] >= 2 {
				specs = append(specs, base+":k=2:independent")
			}
			if wh[0]*wh[1] >= 4 {
				specs = append(specs, base+":k=4")
			}
		}
	}
	return append(specs, "dominate:5x5:Q", "dominate:5x5:Q:independent", "dominate:5x5:N", "dominate:5x5:K:k=4")
}

// dominateValue is an answer's number: the optimum, the count, whether a
// set was found, or "unsat".
func dominateValue(ans puzzle.Answer, task puzzle.Task) string {
	switch {
	case ans.Status == puzzle.Unsat:
		return "unsat"
	case ans.Status != puzzle.OK:
		return string(ans.Status) + " " + ans.Message
	case task == puzzle.Optimum:
		return fmt.Sprintf("%v/%v", ans.Objective, ans.Bound)
	case task == puzzle.First:
		return "found"
	}
	return ans.CountString()
}

// TestDominateAgreesWithNative: on every instance of the sweep the brute
// force (every set of squares through the checker) and both native
// strategies give the same optimum, count and existence, and the brute
// force's optimum equals the published one wherever there is one (the
// king, rook and bishop formulas, knights, queens).
func TestDominateAgreesWithNative(t *testing.T) {
	published := 0
	for _, s := range dominateSpecs() {
		spec := puzzle.MustParse(s)
		for _, task := range []puzzle.Task{puzzle.Optimum, puzzle.Count, puzzle.First} {
			b, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: task})
			if err != nil {
				t.Fatalf("%s %s: brute %v", s, task, err)
			}
			vb := dominateValue(b, task)
			for _, h := range []string{"bnb", "naive"} {
				n, err := native.Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: task, Heuristic: h, Threads: 1})
				if err != nil {
					t.Fatalf("%s %s %s: %v", s, task, h, err)
				}
				if vn := dominateValue(n, task); vn != vb {
					t.Errorf("%s %s: brute %s, native %s %s", s, task, vb, h, vn)
				}
			}
			if task == puzzle.Optimum && b.Status == puzzle.OK {
				if g, ok := puzzle.KnownOptimum(spec); ok {
					published++
					if b.Objective.Int64() != int64(g) {
						t.Errorf("%s: brute force optimum %v, published %d", s, b.Objective, g)
					}
				}
			}
		}
	}
	if published < 60 {
		t.Fatalf("only %d published optima checked", published)
	}
}

// boardImages returns the images of square (f, r) of a w x h board under
// its symmetries, computed here from coordinates: the 8 of the square for
// w = h, else the 4 that keep the sides.
func boardImages(w, h int) [][]int {
	var maps []func(f, r int) (int, int)
	maps = append(maps,
		func(f, r int) (int, int) { return f, r },
		func(f, r int) (int, int) { return w - 1 - f, r },
		func(f, r int) (int, int) { return f, h - 1 - r },
		func(f, r int) (int, int) { return w - 1 - f, h - 1 - r })
	if w == h {
		maps = append(maps,
			func(f, r int) (int, int) { return r, f },
			func(f, r int) (int, int) { return h - 1 - r, f },
			func(f, r int) (int, int) { return r, w - 1 - f },
			func(f, r int) (int, int) { return h - 1 - r, w - 1 - f })
	}
	out := make([][]int, len(maps))
	for i, m := range maps {
		out[i] = make([]int, w*h)
		for s := range w * h {
			f, r := m(s%w, s/w)
			out[i][s] = r*w + f
		}
	}
	return out
}

// TestDominateUniqueAgreesWithNative: the native unique count equals the
// classes, under the board's symmetries computed here, of the sets the
// brute force accepts: every set of squares of the minimum size (or of
// at most K with k=) through the checker.
func TestDominateUniqueAgreesWithNative(t *testing.T) {
	for _, s := range []string{"dominate:4x4:Q", "dominate:5x5:Q", "dominate:4x4:K", "dominate:4x3:N", "dominate:4x4:R:independent",
		"dominate:5x3:B", "dominate:4x4:K:k=4", "dominate:3x3:Q:k=2:independent", "dominate:4x4:N:independent"} {
		spec := puzzle.MustParse(s)
		d := spec.(puzzle.Dominate)
		w, h := d.Board.W, d.Board.H
		limit := d.K
		if !d.HasK {
			opt, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Optimum})
			if err != nil || opt.Status != puzzle.OK {
				t.Fatalf("%s: brute optimum %v %s", s, err, opt.Status)
			}
			limit = int(opt.Objective.Int64())
		}
		imgs := boardImages(w, h)
		classes := map[string]bool{}
		layout := make([]puzzle.Kind, w*h)
		for i := range layout {
			layout[i] = puzzle.NoPiece
		}
		var set []int
		var rec func(from int)
		rec = func(from int) {
			if puzzle.Dominates(d, puzzle.Solution{Board: d.Board, Layout: layout}) == nil && (d.HasK || len(set) == limit) {
				var least []int
				for _, m := range imgs {
					img := make([]int, len(set))
					for i, q := range set {
						img[i] = m[q]
					}
					slices.Sort(img)
					if least == nil || slices.Compare(img, least) < 0 {
						least = img
					}
				}
				classes[fmt.Sprint(least)] = true
			}
			if len(set) == limit {
				return
			}
			for q := from; q < w*h; q++ {
				set = append(set, q)
				layout[q] = d.Piece
				rec(q + 1)
				layout[q] = puzzle.NoPiece
				set = set[:len(set)-1]
			}
		}
		rec(0)
		for _, h := range []string{"bnb", "naive"} {
			n, err := native.Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Unique, Heuristic: h})
			got := n.Count
			if n.Status == puzzle.Unsat {
				got = 0
			}
			if err != nil || (n.Status != puzzle.OK && n.Status != puzzle.Unsat) || got != uint64(len(classes)) {
				t.Errorf("%s unique %s: %v %s %d, brute force %d classes", s, h, err, n.Status, got, len(classes))
			}
		}
	}
}
