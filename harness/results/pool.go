package results

import (
	"fmt"
	"strings"
)

// CommitCount is how many rows came from one commit.
type CommitCount struct {
	Commit string
	Rows   int
}

// Commits returns the distinct commits of the rows with their row counts,
// in order of first appearance. A row without a commit (of an earlier
// schema, or written by hand) is a value of its own, "": its timings may
// come from any code, so it pools with no other commit's.
func Commits(rows []Row) []CommitCount {
	var out []CommitCount
	idx := map[string]int{}
	for _, r := range rows {
		i, ok := idx[r.Commit]
		if !ok {
			i = len(out)
			idx[r.Commit] = i
			out = append(out, CommitCount{Commit: r.Commit})
		}
		out[i].Rows++
	}
	return out
}

// CheckPool refuses rows of more than one commit (timings of different code
// pooled as one), unless mixed is set; then it returns a note naming the
// commits pooled, with their row counts ("" when there is one commit).
func CheckPool(rows []Row, mixed bool) (note string, err error) {
	cs := Commits(rows)
	if len(cs) < 2 {
		return "", nil
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s (%d rows)", shortCommit(c.Commit), c.Rows)
	}
	if !mixed {
		return "", fmt.Errorf("the rows come from %d commits, %s: add --mixed to pool them", len(cs), strings.Join(parts, ", "))
	}
	return "pooled the rows of " + fmt.Sprint(len(cs)) + " commits: " + strings.Join(parts, ", "), nil
}

// shortCommit is a commit's first 12 hex digits, its +dirty kept; "no
// commit recorded" for "".
func shortCommit(c string) string {
	if c == "" {
		return "no commit recorded"
	}
	h, dirty := strings.CutSuffix(c, "+dirty")
	if len(h) > 12 {
		h = h[:12]
	}
	if dirty {
		h += "+dirty"
	}
	return h
}
