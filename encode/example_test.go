package encode_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/puzzle"
)

// Importing encode registers the sat backend: the same request as the
// native backend takes, answered through a SAT encoding (here the default
// model of queens with the totalizer) and gophersat.
func Example() {
	sat, _ := puzzle.Backends.Lookup("sat")
	spec, _ := puzzle.Parse("queens:6")
	ans, err := sat.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.Count, Encoding: "totalizer"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ans.Status, ans.CountString(), ans.Encoding, ans.Solver)
	// Output:
	// ok 4 direct+totalizer gophersat
}

// Resolve names an encoder and a cardinality encoding; Build encodes an
// instance, and the formula writes itself as DIMACS CNF (or OPB) for any
// solver.
func ExampleResolve() {
	spec, _ := puzzle.Parse("queens:4")
	model, card, err := encode.Resolve(spec.Puzzle(), "direct+pairwise")
	if err != nil {
		fmt.Println(err)
		return
	}
	inst, err := model.Build(spec, card, encode.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	st := inst.Formula.Stats()
	fmt.Println(model.Name, card.Name, st.Variables, st.Clauses)
	var dimacs strings.Builder
	if err := inst.Formula.WriteDIMACS(&dimacs); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(dimacs.String(), "\n") {
		if strings.HasPrefix(line, "p cnf") {
			fmt.Println(line)
		}
	}
	// Output:
	// direct pairwise 16 84
	// p cnf 16 84
}
