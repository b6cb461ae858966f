package proof_test

import (
	"strings"
	"testing"

	"github.com/boardsat/boardsat/proof"
)

// TestFormatHint: a proof read in the wrong DRAT format is refused with
// the format it reads as; one that is neither (cryptominisat5 writes FRAT,
// whose first line is "o ...") is refused without sending the user to the
// other format, which fails too.
func TestFormatHint(t *testing.T) {
	for _, c := range []struct {
		name string
		data string
		f    proof.Format
		want string
		not  string
	}{
		{"binary read as ASCII", "a\x04\x00a\x00", proof.ASCII, `a binary proof? it reads as one: proof check --format binary, or "proof": "drat-binary"`, "neither"},
		{"ASCII read as binary", "2 0\n0\n", proof.Binary, `an ASCII proof? it reads as one: proof check --format ascii, or "proof": "drat-ascii"`, "neither"},
		{"FRAT read as binary", "o 1 1 2 0\nf 1 0\n", proof.Binary, "neither ASCII nor binary DRAT", "--format"},
		{"FRAT read as ASCII", "o 1 1 2 0\nf 1 0\n", proof.ASCII, "neither ASCII nor binary DRAT", "--format"},
		{"FRAT detected", "o 1 1 2 0\nf 1 0\n", proof.Auto, "neither ASCII nor binary DRAT", "--format"},
	} {
		_, err := proof.ParseDRAT([]byte(c.data), c.f)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), c.not) {
			t.Errorf("%s: %v; want it to say %q and not %q", c.name, err, c.want, c.not)
		}
	}
	// A truncated proof is not a format question: no hint.
	if _, err := proof.ParseDRAT([]byte("1 2"), proof.ASCII); err == nil || strings.Contains(err.Error(), "reads as one") || strings.Contains(err.Error(), "neither") {
		t.Errorf("truncated: %v", err)
	}
}
