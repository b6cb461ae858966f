package results

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/puzzle"
)

// TestStatusTableCoversEveryStatus: every status of the three
// vocabularies (a backend's, the JSON answer's, a row's) has its line in
// StatusTable, a backend's and an answer's status on exactly one; a
// backend's status keeps its name in the answer (answer.New copies it); no
// line names a status outside its vocabulary; and docs/contract.md shows
// every line.
func TestStatusTableCoversEveryStatus(t *testing.T) {
	count := func(keep func(StatusMapping) bool) int {
		n := 0
		for _, m := range StatusTable {
			if keep(m) {
				n++
			}
		}
		return n
	}
	for _, s := range puzzle.Statuses {
		if n := count(func(m StatusMapping) bool { return m.Puzzle == s }); n != 1 {
			t.Errorf("backend status %q on %d lines, want 1", s, n)
		}
		if m := RowStatus(answer.Status(s)); m.Puzzle != s {
			t.Errorf("backend status %q reaches the row by the line of %q", s, m.Puzzle)
		}
	}
	for _, s := range answer.Statuses {
		if n := count(func(m StatusMapping) bool { return m.Answer == s }); n != 1 {
			t.Errorf("answer status %q on %d lines, want 1", s, n)
		}
	}
	for _, s := range Statuses {
		if count(func(m StatusMapping) bool { return m.Row == s }) == 0 {
			t.Errorf("row status %q on no line", s)
		}
	}
	doc, err := os.ReadFile("../../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range StatusTable {
		if (m.Puzzle != "" && !slices.Contains(puzzle.Statuses, m.Puzzle)) || (m.Answer != "" && !slices.Contains(answer.Statuses, m.Answer)) ||
			!slices.Contains(Statuses, m.Row) {
			t.Errorf("line %+v names a status outside its vocabulary", m)
		}
		if row := statusDocRow(m); !strings.Contains(string(doc), row) {
			t.Errorf("docs/contract.md lacks the status line\n%s", row)
		}
	}
	if m := RowStatus("no-such"); m.Row != StatusError {
		t.Errorf("an unknown answer status gives row %q, want error", m.Row)
	}
}

// statusDocRow is a StatusTable line as docs/contract.md's table writes it.
func statusDocRow(m StatusMapping) string {
	cell := func(s string) string {
		if s == "" {
			return "—"
		}
		return "`" + s + "`"
	}
	return "| " + strings.Join([]string{cell(string(m.Puzzle)), cell(string(m.Answer)), cell(m.Row), cell(m.Limit), m.Note}, " | ") + " |"
}
