package native_test

import (
	"context"
	"fmt"

	_ "github.com/boardsat/boardsat/native" // registers the native backend
	"github.com/boardsat/boardsat/puzzle"
)

// A backend is looked up by name once its package is imported; the native
// backend answers with the default heuristic unless the request names one.
func Example() {
	native, err := puzzle.Backends.Lookup("native")
	if err != nil {
		fmt.Println(err)
		return
	}
	spec, _ := puzzle.Parse("queens:8")
	ans, err := native.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Count})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ans.Status, ans.CountString(), ans.Heuristic)

	spec, _ = puzzle.Parse("tour:5x5:a1")
	ans, _ = native.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.First})
	fmt.Println(ans.Status, puzzle.Check(spec, *ans.Solution) == nil)
	// Output:
	// ok 92 constellations
	// ok true
}
