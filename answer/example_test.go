package answer_test

import (
	"fmt"

	"github.com/boardsat/boardsat/answer"
)

// Last reads the answer a solve printed (boardsat solve --format json):
// the last line with a status, past the lines of a task all.
func ExampleLast() {
	out := `{"index":1,"instance":"queens:4","solution":{"rows":[".Q..","...Q","Q...","..Q."]}}
{"instance":"queens:4","puzzle":"queens","backend":"native","heuristic":"bitboard","task":"all","status":"ok","count":2,"seconds":0.001}
`
	a, err := answer.Last(out)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Instance, a.Status, *a.Count, answer.Str(a.Heuristic), a.Status.Answered())

	refused, _ := answer.Last(`{"instance":"queens:4","status":"refused","message":"the sat backend does not do task value"}`)
	fmt.Println(refused.Status, answer.Str(refused.Message))
	// Output:
	// queens:4 ok 2 bitboard true
	// refused the sat backend does not do task value
}
