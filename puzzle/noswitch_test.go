package puzzle

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// specTypes finds the Spec types of this package from its source: every
// type with a method Puzzle() that returns a string literal, mapped to that
// puzzle name.
func specTypes(t *testing.T) map[string]string {
	fset := token.NewFileSet()
	out := map[string]string{}
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != "Puzzle" || len(fd.Body.List) != 1 {
				continue
			}
			ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			lit, ok := ret.Results[0].(*ast.BasicLit)
			if !ok {
				continue
			}
			recv, ok := fd.Recv.List[0].Type.(*ast.Ident)
			if !ok {
				continue
			}
			out[recv.Name], _ = strconv.Unquote(lit.Value)
		}
	}
	return out
}

// ownPuzzle reports whether a file belongs to puzzle name: NAME.go or
// NAME_*.go in any package (puzzle/tour.go, encode/tour.go), or any file
// of a package directory named for it (native/tour/divide.go).
func ownPuzzle(path, name string) bool {
	base := strings.TrimSuffix(filepath.Base(path), ".go")
	return base == name || strings.HasPrefix(base, name+"_") || filepath.Base(filepath.Dir(path)) == name
}

// puzzleSwitches returns a description of every place in src (a Go file at
// path) that dispatches on a puzzle outside that puzzle's own files: a type
// switch case or type assertion naming a Spec type, and a switch case, map
// key or comparison naming a puzzle by its string.
func puzzleSwitches(fset *token.FileSet, path string, src any, types map[string]string, names []string) ([]string, error) {
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return nil, err
	}
	inPuzzle := f.Name.Name == "puzzle"
	// specOf returns the puzzle of a type expression naming a Spec type.
	specOf := func(e ast.Expr) (string, bool) {
		switch x := e.(type) {
		case *ast.Ident:
			if inPuzzle {
				p, ok := types[x.Name]
				return p, ok
			}
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == "puzzle" {
				p, ok := types[x.Sel.Name]
				return p, ok
			}
		}
		return "", false
	}
	nameOf := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, _ := strconv.Unquote(lit.Value)
		return s, slices.Contains(names, s)
	}
	var out []string
	flag := func(n ast.Node, p, what string) {
		if !ownPuzzle(path, p) {
			out = append(out, fmt.Sprintf("%s: %s %s", fset.Position(n.Pos()), what, p))
		}
	}
	// cases flags the case expressions of a switch body that name a puzzle.
	cases := func(body *ast.BlockStmt, puzzleOf func(ast.Expr) (string, bool), what string) {
		for _, c := range body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if p, ok := puzzleOf(e); ok {
					flag(e, p, what)
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.TypeSwitchStmt:
			cases(x.Body, specOf, "type switch case on the spec type of")
		case *ast.TypeAssertExpr:
			if x.Type != nil {
				if p, ok := specOf(x.Type); ok {
					flag(x, p, "type assertion to the spec type of")
				}
			}
		case *ast.SwitchStmt:
			cases(x.Body, nameOf, "switch case on the puzzle name")
		case *ast.KeyValueExpr:
			if p, ok := nameOf(x.Key); ok {
				flag(x, p, "map key on the puzzle name")
			}
		case *ast.BinaryExpr:
			if x.Op == token.EQL || x.Op == token.NEQ {
				for _, e := range []ast.Expr{x.X, x.Y} {
					if p, ok := nameOf(e); ok {
						flag(x, p, "comparison with the puzzle name")
					}
				}
			}
		}
		return true
	})
	return out, nil
}

// TestNoPuzzleSwitch fails when code outside a puzzle's own files
// dispatches on that puzzle: everything puzzle-specific goes through its
// Descriptor (or, in native and encode, through the strategies and encoders
// its own files register). Test files may build instances of any puzzle and
// are not checked.
func TestNoPuzzleSwitch(t *testing.T) {
	types := specTypes(t)
	for _, want := range []string{"Queens", "Pieces", "Tour", "Swap"} {
		if _, ok := types[want]; !ok {
			t.Fatalf("spec type %s not found in the puzzle sources (found %v)", want, types)
		}
	}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		found, err := puzzleSwitches(fset, path, nil, types, Puzzles)
		checked++
		for _, f := range found {
			t.Error(f)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("walked only %d Go files: is the module root at ..?", checked)
	}
}

// TestNoPuzzleSwitchCatches feeds the detector code that must be flagged,
// and code that must not be, so the guard above cannot pass vacuously.
func TestNoPuzzleSwitchCatches(t *testing.T) {
	types := specTypes(t)
	cases := []struct {
		path, src string
		want      int
	}{
		{"compare/x.go", `package compare
func f(s puzzle.Spec) { switch s.(type) { case puzzle.Tour, puzzle.Swap: } }`, 2},
		{"compare/x.go", `package compare
func f(s puzzle.Spec) bool { _, ok := s.(puzzle.Swap); return ok }`, 1},
		{"cmd/boardsat/x.go", `package main
func f(s puzzle.Spec) { switch s.Puzzle() { case "queens": case "other": } }`, 1},
		{"compare/x.go", `package compare
var m = map[string]string{"tour": "tour:5x5:a1"}`, 1},
		{"bench/x.go", `package bench
func f(s puzzle.Spec) bool { return s.Puzzle() == "pieces" }`, 1},
		{"puzzle/x.go", `package puzzle
func f(s Spec) { switch s.(type) { case Queens: } }`, 1},
		// A puzzle's own files may dispatch on it.
		{"native/tour/divide.go", `package tour
func f(s puzzle.Spec) puzzle.Tour { return s.(puzzle.Tour) }`, 0},
		{"encode/tour_model.go", `package encode
func f(s puzzle.Spec) puzzle.Tour { return s.(puzzle.Tour) }`, 0},
		// ... but not another puzzle's directory.
		{"native/queens/x.go", `package queens
func f(s puzzle.Spec) puzzle.Tour { return s.(puzzle.Tour) }`, 1},
		{"puzzle/swap.go", `package puzzle
func f(s Spec) bool { _, ok := s.(Swap); return ok && s.Puzzle() == "swap" }`, 0},
		// Other strings and types are not puzzles.
		{"compare/x.go", `package compare
func f(s string, x any) { switch s { case "closed": }; _ = x.(puzzle.Board) }`, 0},
	}
	for _, c := range cases {
		found, err := puzzleSwitches(token.NewFileSet(), c.path, c.src, types, Puzzles)
		if err != nil {
			t.Fatal(err)
		}
		if len(found) != c.want {
			t.Errorf("%s: %q: found %d (%v), want %d", c.path, c.src, len(found), found, c.want)
		}
	}
}
