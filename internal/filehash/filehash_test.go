package filehash

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSHA256: the digest of a known content (FIPS 180-2's "abc"), and an
// error, not a digest, for a file that is not there.
func TestSHA256(t *testing.T) {
	p := filepath.Join(t.TempDir(), "abc")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := SHA256(p)
	if want := "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; err != nil || got != want {
		t.Errorf("SHA256(abc) = %q, %v; want %q", got, err, want)
	}
	if got, err := SHA256(p + ".missing"); err == nil || got != "" {
		t.Errorf("missing file: %q, %v", got, err)
	}
}
