package tour

import (
	"context"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// TestAutoRecordsWhatRan: tour auto names the method that answered and the
// methods it tried before with their errors; answers by theorem name the
// theorem.
func TestAutoRecordsWhatRan(t *testing.T) {
	for _, c := range []struct {
		spec      string
		task      puzzle.Task
		method    string
		fallbacks []string // prefixes, in order
		theorem   bool
	}{
		{"tour:12x12:a1", puzzle.First, "divide", nil, false},
		{"tour:30x3:a1", puzzle.First, "warnsdorff-roth+bt", []string{"divide: error: "}, false},
		{"tour:5x5:a1", puzzle.First, "exhaustive", nil, false},
		{"tour:5x5:a1", puzzle.Count, "exhaustive", nil, false},
		{"tour:3x5:a1:closed", puzzle.Count, "exhaustive", nil, true},
		{"tour:5x5:b1", puzzle.First, "exhaustive", nil, true},
	} {
		ans, err := search.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse(c.spec), Task: c.task, Threads: 1})
		if err != nil || (ans.Status != puzzle.OK && ans.Status != puzzle.Unsat) {
			t.Fatalf("%s %s: %v %s", c.spec, c.task, err, ans.Status)
		}
		if ans.Heuristic != "auto" || ans.Method != c.method || len(ans.Fallbacks) != len(c.fallbacks) {
			t.Errorf("%s %s: heuristic %q method %q fallbacks %q, want auto %q %q", c.spec, c.task, ans.Heuristic, ans.Method, ans.Fallbacks, c.method, c.fallbacks)
			continue
		}
		for i, f := range c.fallbacks {
			if !strings.HasPrefix(ans.Fallbacks[i], f) {
				t.Errorf("%s: fallback %q, want %q...", c.spec, ans.Fallbacks[i], f)
			}
		}
		if (ans.Theorem != "") != c.theorem {
			t.Errorf("%s %s: theorem %q", c.spec, c.task, ans.Theorem)
		}
	}
}
