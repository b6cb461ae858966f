package gbdhash

import (
	"compress/gzip"
	"crypto/md5"
	"encoding/hex"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// md5hex is the MD5 of text, computed apart from the scanner.
func md5hex(text string) string {
	s := md5.Sum([]byte(text))
	return hex.EncodeToString(s[:])
}

// TestNormalForms: each file hashes to the MD5 of the normal form GBD's
// code writes for it, worked out by hand from that code.
func TestNormalForms(t *testing.T) {
	cases := []struct {
		name, file, normal string
		hash               func([]byte) (string, error)
	}{
		{"cnf", "c a comment\np cnf 3 2\n1 -2 0\n+3\n  2 0\n", "1 -2 0 3 2 0", CNF},
		{"cnf without header", "1 0\n-1 2 0\n", "1 0 -1 2 0", CNF},
		{"cnf last clause without 0", "p cnf 2 2\n1 0\n-1 2\n", "1 0 -1 2 0", CNF},
		{"cnf CRLF and tabs", "p cnf 2 1\r\n1\t-2 0\r\n", "1 -2 0", CNF},
		{"cnf empty clause", "p cnf 1 2\n0\n1 0\n", "0 1 0", CNF},
		{"cnf empty", "c nothing\np cnf 0 0\n", "", CNF},
		// boardsat's OPB: a comment header, the objective, clauses as >= 1.
		{"opb", "* #variable= 2 #constraint= 2\n* var x1 a\nmin: +1 x1 +2 x2 ;\n+1 x1 +1 x2 >= 1 ;\n+1 ~x1 -3 x2 = -1 ;\n",
			"min: 1 x1 2 x2;1 x1 1 x2 >= 1;1 ~x1 -3 x2 = -1;", OPB},
		{"opb without objective", "+2 x1 +1 x2 <= 2 ;\n", "2 x1 1 x2 <= 2;", OPB},
		// classic WCNF: top 4, two hard clauses and two soft ones.
		{"wcnf classic", "p wcnf 2 4 4\nc var 1 a\n4 1 2 0\n4 -1 0\n1 -2 0\n3 2 0\n", "h 1 2 0 h -1 0 1 -2 0 3 2 0", WCNF},
		// 2022 WCNF: GBD's code sets its separator flag after soft clauses
		// only, so no space comes before a clause until a soft one was
		// written.
		{"wcnf 2022", "c x\nh 1 2 0\nh -1 0\n1 -2 0\n3 2 0\nh 1 0\n", "h 1 2 0h -1 01 -2 0 3 2 0 h 1 0", WCNF},
	}
	for _, c := range cases {
		got, err := c.hash([]byte(c.file))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if want := md5hex(c.normal); got != want {
			t.Errorf("%s: hash %s, want md5(%q) = %s", c.name, got, c.normal, want)
		}
	}
	// The empty formula's identifier is the MD5 of nothing (RFC 1321's
	// first test vector).
	if got, _ := CNF([]byte("p cnf 0 0\n")); got != "d41d8cd98f00b204e9800998ecf8427e" {
		t.Errorf("empty formula: %s", got)
	}
}

// TestInvariance is GBD's own property test of its CNF hash: a formula
// with random white space around every token, a random comment and a
// random header hashes as the formula itself.
func TestInvariance(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	ws := []string{" ", "\t", "\r", "\n"}
	randomWS := func(min int) string {
		var b strings.Builder
		for i := rng.Intn(3) + min; i > 0; i-- {
			b.WriteString(ws[rng.Intn(len(ws))])
		}
		return b.String()
	}
	for trial := 0; trial < 100; trial++ {
		var clauses []string
		for i := rng.Intn(20); i > 0; i-- {
			var lits []string
			for j := rng.Intn(6); j > 0; j-- {
				lits = append(lits, strings.TrimPrefix(strings.Repeat("-", rng.Intn(2))+string(rune('1'+rng.Intn(9))), ""))
			}
			clauses = append(clauses, strings.Join(append(lits, "0"), " "))
		}
		ref := strings.Join(clauses, "\n") + "\n"
		want, err := CNF([]byte(ref))
		if err != nil {
			t.Fatal(err)
		}
		if n := md5hex(strings.Join(clauses, " ")); want != n {
			t.Fatalf("%q: %s, want %s", ref, want, n)
		}
		var v strings.Builder
		v.WriteString(randomWS(0))
		if rng.Intn(2) == 0 {
			v.WriteString("c some comment 1 2 0\n")
		}
		if rng.Intn(2) == 0 {
			v.WriteString("p cnf 9 99\n")
		}
		for _, tok := range strings.Fields(ref) {
			v.WriteString(randomWS(1))
			v.WriteString(tok)
		}
		v.WriteString(randomWS(0))
		if got, err := CNF([]byte(v.String())); err != nil || got != want {
			t.Fatalf("variant %q of %q: %s %v, want %s", v.String(), ref, got, err, want)
		}
	}
}

// TestBadInput: text that is not a number where GBD reads one is an error
// naming the line, as GBD's parser throws.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		file string
		hash func([]byte) (string, error)
		want string
	}{
		{"p cnf 1 1\n1 x 0\n", CNF, "line 2"},
		{"+1 x1 +1 x2 1 ;", OPB, "line 1"},
		{"p wcnf 1 1 5\nw 1 0\n", WCNF, "weight"},
	} {
		if _, err := c.hash([]byte(c.file)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.file, err, c.want)
		}
	}
}

// TestPublishedHashes: SAT Competition instances as GBD serves them, each
// named by its published GBD hash (the file name's first 32 characters;
// copies of the test files of GBD's gbdc library, gzipped). Each hashes to
// its name, also with comments, CRLF line ends and a changed header
// added; one literal changed, it does not.
func TestPublishedHashes(t *testing.T) {
	files, err := filepath.Glob("testdata/*.cnf.gz")
	if err != nil || len(files) < 2 {
		t.Fatalf("testdata: %v %v", files, err)
	}
	for _, path := range files {
		data := gunzip(t, path)
		want := filepath.Base(path)[:32]
		if got, err := CNF(data); err != nil || got != want {
			t.Errorf("%s: %s %v", path, got, err)
		}
		text := string(data)
		header, body, _ := strings.Cut(text, "\n")
		variant := "c exported by someone\r\n" + strings.Replace(header, "p cnf", "p  cnf", 1) + "\r\nc more\n" + strings.ReplaceAll(body, "\n", " \r\n")
		if got, _ := CNF([]byte(variant)); got != want {
			t.Errorf("%s with comments and CRLF: %s", path, got)
		}
		i := strings.Index(body, " ")
		changed := header + "\n" + body[:i] + "1" + body[i:]
		if got, _ := CNF([]byte(changed)); got == want {
			t.Errorf("%s with a literal changed still hashes to %s", path, want)
		}
	}
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
