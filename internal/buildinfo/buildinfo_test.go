package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestCommitFromStampOrVCS: the go command's VCS settings win; without
// them the -X stamp (make build in a git worktree) gives the commit; with
// neither the commit is Unknown, and the build says so in one warning.
func TestCommitFromStampOrVCS(t *testing.T) {
	vcs := &debug.BuildInfo{Main: debug.Module{Path: "m", Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "aaaa"}, {Key: "vcs.modified", Value: "false"}}}
	none := &debug.BuildInfo{Main: debug.Module{Path: "m", Version: "(devel)"}}
	cases := []struct {
		bi    *debug.BuildInfo
		stamp string
		want  string
	}{
		{vcs, "bbbb+dirty", "aaaa"},
		{none, "bbbb+dirty", "bbbb+dirty"},
		{none, "bbbb", "bbbb"},
		{nil, "cccc", "cccc"},
		{none, "", Unknown},
		{nil, "", Unknown},
	}
	for _, c := range cases {
		b := fromInfo(c.bi, c.stamp)
		if got := b.CommitLabel(); got != c.want {
			t.Errorf("info %v stamp %q: commit %q, want %q", c.bi != nil, c.stamp, got, c.want)
		}
		if (b.Warning() == "") != (c.want != Unknown) || strings.Contains(b.Warning(), "\n") {
			t.Errorf("stamp %q: warning %q", c.stamp, b.Warning())
		}
		if !strings.Contains(b.String(), "commit:    "+c.want) {
			t.Errorf("stamp %q: version text lacks the commit:\n%s", c.stamp, b)
		}
	}
}
