package answer

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
)

// TestRoundTrip: an answer written by New and Write reads back by Last with
// every field, past the Item lines of a task all.
func TestRoundTrip(t *testing.T) {
	spec, err := puzzle.Parse("queens:4")
	if err != nil {
		t.Fatal(err)
	}
	req := puzzle.Request{Spec: spec, Task: puzzle.Count}
	ans := puzzle.Answer{Status: puzzle.OK, Count: 2, Encoding: "totalizer", EncodeSeconds: 0.5, SolveSeconds: 0.25,
		Stats: map[string]int64{puzzle.StatNodes: 7}, Bound: big.NewInt(3)}
	var buf bytes.Buffer
	buf.WriteString(`{"index":1,"instance":"queens:4","solution":{"rows":[".Q..","...Q","Q...","..Q."]}}` + "\n")
	if err := New("sat", req, ans, 1.5).Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Last(buf.String())
	if err != nil {
		t.Fatal(err)
	}
	if got.Instance != "queens:4" || got.Puzzle != "queens" || got.Backend != "sat" || got.Task != "count" || got.Status != OK ||
		got.Count == nil || *got.Count != "2" || Str(got.Encoding) != "totalizer" || got.Heuristic != nil ||
		Float(got.EncodeSeconds) != 0.5 || Float(got.SolveSeconds) != 0.25 || got.Stats[puzzle.StatNodes] != 7 ||
		got.Bound == nil || *got.Bound != "3" || got.Objective != nil || got.Seconds != 1.5 || got.Message != nil {
		t.Errorf("read back %+v", got)
	}
}

// TestEveryKeyPresent: every key of the contract is written, null where it
// does not apply.
func TestEveryKeyPresent(t *testing.T) {
	spec, _ := puzzle.Parse("queens:4")
	var buf bytes.Buffer
	New("native", puzzle.Request{Spec: spec, Task: puzzle.First}, puzzle.Answer{Status: puzzle.Unsat}, 0).Write(&buf)
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"instance", "puzzle", "backend", "heuristic", "encoding", "solver", "task", "status", "count",
		"solution", "length", "objective", "bound", "value", "seconds", "encode_seconds", "solve_seconds", "stats",
		"method", "fallbacks", "theorem", "unchecked", "message", "partial", "certified", "certificate"} {
		v, ok := m[k]
		if !ok {
			t.Errorf("key %q missing", k)
		}
		if k != "instance" && k != "puzzle" && k != "backend" && k != "task" && k != "status" && k != "seconds" && v != nil {
			t.Errorf("key %q = %v, want null", k, v)
		}
	}
	if len(m) != 26 {
		t.Errorf("%d keys, want 26", len(m))
	}
}

// TestInterruptedPartial: an interrupted split count carries what it had
// finished, never as its count; any other status, and an interrupted
// search that did not split, carries no partial.
func TestInterruptedPartial(t *testing.T) {
	spec, _ := puzzle.Parse("queens:10")
	ran := &puzzle.SplitReport{InShard: 40, Done: 13, Partial: big.NewInt(287)}
	req := puzzle.Request{Spec: spec, Task: puzzle.Count, Split: &puzzle.SplitOptions{Checkpoint: "q10.ckpt", Ran: ran}}
	a := New("native", req, puzzle.Answer{Status: puzzle.Status(Interrupted)}, 1)
	if a.Status.Exit() != ExitInterrupted || a.Count != nil || a.Partial == nil ||
		a.Partial.Count != "287" || a.Partial.Done != 13 || a.Partial.Subproblems != 40 || Str(a.Partial.Checkpoint) != "q10.ckpt" {
		t.Errorf("interrupted count: %+v, partial %+v", a, a.Partial)
	}
	if a := New("native", req, puzzle.Answer{Status: puzzle.Timeout}, 1); a.Partial != nil {
		t.Errorf("a timeout carries a partial: %+v", a.Partial)
	}
	req.Split.Ran = nil
	if a := New("native", req, puzzle.Answer{Status: puzzle.Status(Interrupted)}, 1); a.Partial != nil {
		t.Errorf("a search that did not split carries a partial: %+v", a.Partial)
	}
}

// TestRefusal: a refused request says so by its status, with the reason.
func TestRefusal(t *testing.T) {
	a := Refusal("queens:04", "sat", "count", errors.New("bad number"))
	if a.Status != Refused || a.Instance != "queens:04" || a.Puzzle != "" || Str(a.Message) != "bad number" || a.Status.Answered() {
		t.Errorf("refusal %+v", a)
	}
	a = Refusal("queens:8", "sat", "unique", errors.New("no such task"))
	if a.Instance != "queens:8" || a.Puzzle != "queens" {
		t.Errorf("refusal of a good spec: %+v", a)
	}
}

func TestLastNone(t *testing.T) {
	for _, out := range []string{"", "not json\n", `{"index":1,"instance":"queens:4"}`} {
		if _, err := Last(out); !errors.Is(err, ErrNoAnswer) {
			t.Errorf("Last(%q): %v, want ErrNoAnswer", out, err)
		}
	}
	if _, err := Last(strings.Repeat("x\n", 3) + `{"status":"refused","message":"m"}`); err != nil {
		t.Error(err)
	}
}

// TestPartialOfUnsplitCount: an interrupted count not split into
// subproblems carries what it had counted as its partial count (a lower
// bound), with no subproblems; it was null.
func TestPartialOfUnsplitCount(t *testing.T) {
	spec, _ := puzzle.Parse("queens:9")
	a := New("sat", puzzle.Request{Spec: spec, Task: puzzle.Count}, puzzle.Answer{Status: puzzle.Status(Interrupted), Found: big.NewInt(17)}, 1)
	if a.Partial == nil || a.Partial.Count != "17" || a.Partial.Subproblems != 0 || a.Count != nil {
		t.Errorf("partial %+v, count %v; want partial 17 of no subproblems, no count", a.Partial, a.Count)
	}
}
