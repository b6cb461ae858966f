// Package filehash computes the SHA-256 of a file, the one way boardsat
// names a program by its content: an external solver's binary in a bench
// sidecar (solvers/solverdef) and the running executable in checkpoint keys
// (internal/subproblem).
package filehash

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
)

// SHA256 returns the SHA-256, in lower-case hex, of the file at path,
// read as it streams (a solver binary may be large).
func SHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
