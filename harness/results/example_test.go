package results_test

import (
	"fmt"
	"strings"

	"github.com/boardsat/boardsat/harness/results"
)

// Read takes a results CSV (as bench writes it) and returns its rows; each
// row is one run, with its status and answer.
func ExampleRead() {
	rows, err := results.ReadFiles("testdata/bench.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rows[0]
	fmt.Println(len(rows), r.Instance, r.Variant, r.Task, r.Status, r.AnswerString(), r.Solved())

	var buf strings.Builder
	if err := results.Write(&buf, rows[:1]); err != nil {
		fmt.Println(err)
		return
	}
	again, _ := results.Read(strings.NewReader(buf.String()), "one row")
	fmt.Println(len(again), again[0].Instance == r.Instance)
	// Output:
	// 74 queens:4 native/plain count ok 2 true
	// 1 true
}
