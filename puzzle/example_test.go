package puzzle_test

import (
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// Parse reads an instance's spec string into a Spec, which prints back in
// canonical form; a bad spec is an error that says what is wrong.
func ExampleParse() {
	spec, err := puzzle.Parse("pieces:7x8:K3Q1B2R2N3")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(spec, spec.Puzzle(), puzzle.BoardOf(spec).Size(), puzzle.DefaultTask(spec))

	_, err = puzzle.Parse("queens:08")
	fmt.Println(err)
	// Output:
	// pieces:7x8:K3Q1B2R2N3 pieces 56 count
	// bad queens spec "queens:08": want queens:N with N from 1 to 4096 ("08" has a leading zero: write 8)
}

// Check is the independent checker: it says why a solution does not
// solve an instance.
func ExampleCheck() {
	spec, _ := puzzle.Parse("queens:4")
	b := puzzle.BoardOf(spec)
	layout := make([]puzzle.Kind, b.Size())
	for i := range layout {
		layout[i] = puzzle.NoPiece
	}
	for _, name := range []string{"b1", "d2", "a3", "c4"} {
		sq, _ := b.ParseSquare(name)
		layout[sq] = puzzle.Queen
	}
	fmt.Println(puzzle.Check(spec, puzzle.Solution{Board: b, Layout: layout}))
	sq, _ := b.ParseSquare("c4")
	layout[sq] = puzzle.NoPiece
	sq, _ = b.ParseSquare("b4")
	layout[sq] = puzzle.Queen
	fmt.Println(puzzle.Check(spec, puzzle.Solution{Board: b, Layout: layout}) != nil)
	// Output:
	// <nil>
	// true
}
