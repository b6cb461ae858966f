package brute

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/native"
	"github.com/boardsat/boardsat/puzzle"
)

func solve(t *testing.T, spec string, task puzzle.Task) puzzle.Answer {
	t.Helper()
	ans, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(spec), Task: task})
	if err != nil {
		t.Fatalf("%s %s: %v", spec, task, err)
	}
	return ans
}

// TestPublishedCounts: the brute force equals every published count within
// its limits (REFERENCE.md values copied into puzzle's tables), and
// answers unsat where the count is 0.
func TestPublishedCounts(t *testing.T) {
	specs := []string{"queens:1", "queens:2", "queens:3", "queens:4", "queens:5", "queens:6",
		"pieces:3x3:K1R2", "pieces:4x4:R2N4", "tour:4x4:a1:closed", "tour:3x5:a1:closed",
		"kingpath:4x4:b1:2", "kingpath:4x4:b1:5", "kingpath:4x4:c1:9", "kingpath:4x4:a2:16",
		"mnk:3x3:3", "mnk:3x3:3:positions", "mnk:3x3:3:moves=5"}
	checked := 0
	for _, s := range specs {
		spec := puzzle.MustParse(s)
		want, ok := puzzle.KnownCount(spec, puzzle.Count)
		if !ok {
			continue
		}
		checked++
		ans := solve(t, s, puzzle.Count)
		got := ans.Count
		if ans.Status == puzzle.Unsat {
			got = 0
		} else if ans.Status != puzzle.OK {
			t.Fatalf("%s: %s %s", s, ans.Status, ans.Message)
		}
		if got != want {
			t.Errorf("%s: brute force %d, published %d", s, got, want)
		}
	}
	if checked < 16 {
		t.Fatalf("only %d published counts within the limits", checked)
	}
}

// TestPublishedShortest: shortest swap plans of the published swaps, and
// every plan it returns passes the checker.
func TestPublishedShortest(t *testing.T) {
	for _, s := range []string{"swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free", "swap:4x3"} {
		spec := puzzle.MustParse(s)
		want, ok := puzzle.KnownShortest(spec)
		if !ok {
			t.Fatalf("%s: nothing published", s)
		}
		ans := solve(t, s, puzzle.Shortest)
		if ans.Status != puzzle.OK || ans.Length != want || ans.Solution == nil || len(ans.Solution.Plan) != want {
			t.Fatalf("%s: %s length %d, published %d", s, ans.Status, ans.Length, want)
		}
		if err := puzzle.Check(spec, *ans.Solution); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// TestFirstSolutionsCheck: first solutions pass the checker, and instances
// with no solution are unsat.
func TestFirstSolutionsCheck(t *testing.T) {
	for _, c := range []struct {
		spec string
		sat  bool
	}{{"queens:6", true}, {"queens:3", false}, {"pieces:4x4:R2N4", true}, {"pieces:3x3:Q3", false},
		{"tour:5x4:a1", true}, {"tour:3x3:a1", false}, {"tour:4x4:a1", false}, {"swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free", true}} {
		ans := solve(t, c.spec, puzzle.First)
		if !c.sat {
			if ans.Status != puzzle.Unsat {
				t.Errorf("%s: %s, want unsat", c.spec, ans.Status)
			}
			continue
		}
		if ans.Status != puzzle.OK || ans.Solution == nil {
			t.Fatalf("%s: %s", c.spec, ans.Status)
		}
		if err := puzzle.Check(puzzle.MustParse(c.spec), *ans.Solution); err != nil {
			t.Errorf("%s: %v", c.spec, err)
		}
	}
}

// TestEveryPuzzle: the backend answers the probe instance of every
// registered puzzle, so every puzzle has a third opinion.
func TestEveryPuzzle(t *testing.T) {
	for _, p := range puzzle.Puzzles {
		d, err := puzzle.Lookup(p)
		if err != nil {
			t.Fatal(err)
		}
		specs := []puzzle.Spec{puzzle.MustParse(d.Probe)}
		if d.Sweep != nil {
			specs = append(specs, d.Sweep.Generate(puzzle.Limits{MaxSide: 3, MaxPieces: 2})...)
		}
		answered := 0
		for _, spec := range specs {
			ans, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: d.DefaultTask})
			var big TooLarge
			switch {
			case errors.As(err, &big):
			case err != nil || (ans.Status != puzzle.OK && ans.Status != puzzle.Unsat):
				t.Errorf("%s: %v %s", spec, err, ans.Status)
			default:
				answered++
			}
		}
		if answered == 0 {
			t.Errorf("%s: no instance answered", p)
		}
	}
}

// TestRefusals: past the limits, and for what it does not do, a clear error.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		spec string
		task puzzle.Task
	}{{"queens:8", puzzle.Count}, {"pieces:7x8:K3Q1B2R2N3", puzzle.Count}, {"tour:5x5:a1", puzzle.Count}, {"tour:5x4:*", puzzle.Count},
		{"swap:5x4", puzzle.Shortest}, {"queens:5", puzzle.Unique}, {"tour:5x5:a1", puzzle.All}, {"kingpath:5x4:a1:3", puzzle.Count},
		{"mnk:4x3:3", puzzle.Count}, {"mnk:3x3:3:moves=5", puzzle.Value}, {"mnk:4x3:3", puzzle.Value}, {"mnk:3x3:3:positions", puzzle.First}} {
		_, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(c.spec), Task: c.task})
		if err == nil {
			t.Errorf("%s %s: accepted", c.spec, c.task)
		}
	}
}

// TestTimeout: a stopped search is a timeout, never a partial count.
func TestTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, s := range []string{"queens:6", "tour:4x4:*", "swap:4x3"} {
		spec := puzzle.MustParse(s)
		ans, err := Backend{}.Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.DefaultTask(spec)})
		if err != nil || ans.Status != puzzle.Timeout || ans.Count != 0 {
			t.Errorf("%s: %v %s %d", s, err, ans.Status, ans.Count)
		}
	}
}

// TestAgreesWithNative: on every small board the brute force and the native
// searches (which share nothing with it but spec parsing) give the same
// counts; for swaps, the same shortest lengths and numbers of plans.
func TestAgreesWithNative(t *testing.T) {
	var specs []string
	for w := 1; w <= 5; w++ {
		for h := 1; h <= 4; h++ {
			specs = append(specs, fmt.Sprintf("tour:%dx%d:a1", w, h))
			if w*h <= 12 {
				specs = append(specs, fmt.Sprintf("tour:%dx%d:*", w, h))
			}
			specs = append(specs, fmt.Sprintf("tour:%dx%d:a1:closed", w, h))
		}
	}
	for l := 1; l <= 9; l++ {
		specs = append(specs, fmt.Sprintf("kingpath:3x3:*:%d", l), fmt.Sprintf("kingpath:4x3:b2:%d", l))
	}
	for _, p := range []string{"K2", "Q2", "B3", "R3", "N4", "K1Q1B1R1N1", "Q1N2"} {
		specs = append(specs, "pieces:4x4:"+p, "pieces:3x5:"+p)
	}
	for _, l := range []int{1, 3, 5} {
		specs = append(specs, fmt.Sprintf("mnk:3x3:3:moves=%d:positions", l), fmt.Sprintf("mnk:3x3:2:moves=%d", l))
	}
	specs = append(specs, "mnk:3x3:3:moves=6", "mnk:4x4:4:moves=4", "mnk:3x3:3:pos=X...O....", "mnk:3x3:3:pos=X...O...X:positions",
		"mnk:4x2:3", "mnk:3x2:2:positions", "mnk:1x7:3", "mnk:3x3:1")
	specs = append(specs, "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free", "swap:3x3:w=a3,c3:b=a1,c1:rule=own:turns=alternate",
		"swap:4x3:w=a1,a2:b=d1,d2:rule=enemy:turns=free", "swap:4x3", "swap:3x4")
	for _, s := range specs {
		spec := puzzle.MustParse(s)
		task := puzzle.Count
		b, errB := Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: task})
		n, errN := native.Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: task, Threads: 1})
		if errB != nil || errN != nil {
			t.Fatalf("%s: brute %v, native %v", s, errB, errN)
		}
		vb, vn := b.CountString()+"/"+strconv.Itoa(b.Length), n.CountString()+"/"+strconv.Itoa(n.Length)
		if b.Status == puzzle.Unsat {
			vb = "0/0"
		}
		if n.Status == puzzle.Unsat {
			vn = "0/0"
		}
		if (b.Status != puzzle.OK && b.Status != puzzle.Unsat) || vb != vn {
			t.Errorf("%s: brute %s %s, native %s %s", s, b.Status, vb, n.Status, vn)
		}
	}
}

// TestNoGeometry: the brute force proposes candidates knowing no geometry:
// its code calls none of the board's coordinate or move helpers, only the
// checker (puzzle.Check, puzzle.Extender) and the board's size.
func TestNoGeometry(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	forbidden := map[string]bool{"Attacks": true, "KnightMoves": true, "FileRank": true, "Sq": true, "On": true, "W": true, "H": true}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && forbidden[sel.Sel.Name] {
				t.Errorf("%s uses .%s: the brute force knows no geometry", name, sel.Sel.Name)
			}
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("only %d files checked", checked)
	}
}

// TestMNKValueAgreesWithNative: the brute-force minimax through the
// checker and the native alpha-beta give the same value, and the brute
// force's game passes the checker.
func TestMNKValueAgreesWithNative(t *testing.T) {
	for _, s := range []string{"mnk:3x3:3", "mnk:3x2:2", "mnk:4x2:3", "mnk:2x2:2", "mnk:3x3:2", "mnk:1x7:3", "mnk:4x2:2",
		"mnk:3x3:3:pos=X.......O", "mnk:3x3:3:pos=X...O...X", "mnk:3x3:3:pos=.X..O...."} {
		spec := puzzle.MustParse(s)
		b := solve(t, s, puzzle.Value)
		n, err := native.Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Value})
		if err != nil || b.Status != puzzle.OK || n.Status != puzzle.OK {
			t.Fatalf("%s: brute %s, native %s %v", s, b.Status, n.Status, err)
		}
		if b.GameValue != n.GameValue {
			t.Errorf("%s: brute %s, native %s", s, b.GameValue, n.GameValue)
		}
		if err := puzzle.Check(spec, *b.Solution); err != nil {
			t.Errorf("%s: brute game %v: %v", s, b.Solution.GameNames(), err)
		}
	}
}
