package encode

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/brute"
	"github.com/boardsat/boardsat/puzzle"
)

// TestOwnGeometry: the SAT side never calls the native searches' geometry
// (puzzle.Board.Attacks, KnightMoves); it has its own (piecesAttack, the
// tour and swap encoders' move tables), so a bug in one is not shared.
func TestOwnGeometry(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	sub, _ := filepath.Glob("*/*.go")
	files = append(files, sub...)
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
			if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Attacks" || sel.Sel.Name == "KnightMoves") {
				t.Errorf("%s uses %s: the SAT side keeps its own geometry", name, sel.Sel.Name)
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("only %d files checked", checked)
	}
}

// TestPiecesAttackAgreesWithChecker: for every pair of kinds (the same kind
// twice included) on boards up to 5x4, the SAT count of two non-attacking
// pieces equals the brute force's, which decides through the independent
// checker alone.
func TestPiecesAttackAgreesWithChecker(t *testing.T) {
	letters := "KQBRN"
	for w := 1; w <= 5; w++ {
		for h := 1; h <= 4; h++ {
			for i := range letters {
				for j := i; j < len(letters); j++ {
					counts := string(letters[i]) + "1" + string(letters[j]) + "1"
					if i == j {
						counts = string(letters[i]) + "2"
					}
					spec, err := puzzle.Parse(fmt.Sprintf("pieces:%dx%d:%s", w, h, counts))
					if err != nil {
						continue // too many pieces for the board
					}
					req := puzzle.Request{Spec: spec, Task: puzzle.Count, Threads: 1}
					want, err := brute.Backend{}.Solve(context.Background(), req)
					if err != nil {
						t.Fatal(err)
					}
					got, err := Backend{}.Solve(context.Background(), req)
					if err != nil {
						t.Fatal(err)
					}
					value := func(a puzzle.Answer) string {
						if a.Status == puzzle.Unsat {
							return "0"
						}
						return string(a.Status) + " " + a.CountString()
					}
					if g, w := value(got), value(want); g != w && !(g == "ok 0" && w == "0") {
						t.Errorf("%s: SAT %s %s, checker brute force %s %s", spec, got.Status, got.CountString(), want.Status, want.CountString())
					}
				}
			}
		}
	}
}
