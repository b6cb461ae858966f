package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
)

// TestSidecarNeverReplacesTheUsersFiles holds the promise that bench's
// sidecar (r.csv.meta.json) and its reserve are never written through a
// link, and that a file of the user's at the sidecar's name is replaced
// only with --force: bench refuses before its first run, and the link's
// target or the user's file is left as it was.
func TestSidecarNeverReplacesTheUsersFiles(t *testing.T) {
	s := mustSuite(t, "queens:4 backends=bt-good")
	run := func(out string, force bool) error {
		_, err := Bench(context.Background(), s, Options{Runner: testRunner(), Out: out, Force: force})
		return err
	}
	for _, name := range []string{".meta.json", ".meta.json.reserve"} {
		dir := t.TempDir()
		out := filepath.Join(dir, "r.csv")
		victim := filepath.Join(dir, "victim")
		os.WriteFile(victim, []byte("victim\n"), 0o644)
		os.Symlink(victim, out+name)
		if err := run(out, false); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("a link at r.csv%s: %v, want a refusal", name, err)
		}
		if err := run(out, true); err == nil {
			t.Errorf("a link at r.csv%s with --force: accepted", name)
		}
		if data, _ := os.ReadFile(victim); string(data) != "victim\n" {
			t.Errorf("written through the link at r.csv%s: the victim holds %q", name, data)
		}
		if fi, err := os.Lstat(out + results.MetaPath("")); name != ".meta.json" && err == nil {
			t.Errorf("a refused start left a sidecar behind (%v)", fi.Mode())
		}
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	os.WriteFile(results.MetaPath(out), []byte("mine\n"), 0o644)
	if err := run(out, false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("the user's r.csv.meta.json beside a new r.csv: %v, want a refusal naming --force", err)
	}
	if data, _ := os.ReadFile(results.MetaPath(out)); string(data) != "mine\n" {
		t.Errorf("the user's sidecar became %q", data)
	}
	if err := run(out, true); err != nil {
		t.Errorf("--force: %v", err)
	}
	if _, ok, err := results.ReadMeta(out); !ok || err != nil {
		t.Errorf("after --force the sidecar is not bench's: %v", err)
	}
}
