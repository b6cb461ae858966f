package subproblem

import (
	"os"
	"testing"

	"github.com/boardsat/boardsat/internal/buildinfo"
	"github.com/boardsat/boardsat/internal/filehash"
)

// TestVersionOfBuild: a clean build's key is its commit cut to 12 digits;
// a dirty one, or one without a commit, adds the executable's hash, the
// one filehash computes.
func TestVersionOfBuild(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := filehash.SHA256(self)
	if err != nil {
		t.Fatal(err)
	}
	if got := exeHash(); got != sum[:12] {
		t.Errorf("exeHash %q, want the first 12 digits of %q", got, sum)
	}
	hash := func() string { return "h" }
	commit := "0123456789abcdef0123"
	for _, c := range []struct {
		b    buildinfo.Build
		want string
	}{
		{buildinfo.Build{Commit: commit}, "0123456789ab"},
		{buildinfo.Build{Commit: commit, Dirty: true}, "0123456789ab+dirty+build-h"},
		{buildinfo.Build{}, "build-h"},
	} {
		if got := version(c.b, hash); got != c.want {
			t.Errorf("version(%+v) = %q, want %q", c.b, got, c.want)
		}
	}
}
