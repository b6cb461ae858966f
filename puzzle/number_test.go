package puzzle

import (
	"strings"
	"testing"
)

// TestParseNumber: the one reading of a spec's numbers, and its reasons.
func TestParseNumber(t *testing.T) {
	for _, c := range []struct {
		s      string
		lo, hi uint64
		want   uint64
		err    string
	}{
		{"0", 0, 9, 0, ""},
		{"8", 1, 9, 8, ""},
		{"4096", 1, 4096, 4096, ""},
		{"9999999999999999999", 0, 1e19 - 1, 1e19 - 1, ""},
		{"", 0, 9, 0, "no number given"},
		{"08", 0, 9, 0, `"08" has a leading zero: write 8`},
		{"00", 0, 9, 0, `"00" has a leading zero: write 0`},
		{"+8", 0, 9, 0, `"+8" is not a whole number`},
		{"-1", 0, 9, 0, `"-1" is not a whole number`},
		{"1e3", 0, 9999, 0, `"1e3" is not a whole number`},
		{"8 ", 0, 9, 0, `"8 " is not a whole number`},
		{"0", 1, 9, 0, "0 is out of range"},
		{"4097", 1, 4096, 0, "4097 is out of range"},
		{"99999999999999999999999", 0, 1<<64 - 1, 0, "is out of range"},
	} {
		n, err := parseNumber(c.s, c.lo, c.hi)
		if c.err == "" && (err != nil || n != c.want) {
			t.Errorf("parseNumber(%q, %d, %d) = %d, %v; want %d", c.s, c.lo, c.hi, n, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("parseNumber(%q, %d, %d) = %d, %v; want an error saying %q", c.s, c.lo, c.hi, n, err, c.err)
		}
	}
}

// TestSpecNumbersSayWhy: a bad number in any spec is refused with the
// field it stands for and the reason.
func TestSpecNumbersSayWhy(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"queens:08", `bad queens spec "queens:08": want queens:N with N from 1 to 4096 ("08" has a leading zero: write 8)`},
		{"queens:0", "0 is out of range"},
		{"pieces:08x8:Q1", `bad board "08x8": sides must be whole numbers from 1 to 4096 ("08" has a leading zero: write 8)`},
		{"pieces:8x8:Q01", `bad piece count "01"`},
		{"tour:8x8:a08", `bad square "a08"`},
		{"kingpath:4x4:a1:06", `bad kingpath length "06"`},
		{"dominate:8x8:Q:k=05", `bad dominate bound "k=05"`},
		{"mnk:3x3:03", `bad mnk K "03"`},
		{"mnk:3x3:3:moves=+2", `bad mnk moves "+2"`},
		{"intervals:random:010:seed=1", `bad intervals count "010"`},
		{"intervals:random:10:seed=01", `bad intervals seed "seed=01"`},
	} {
		_, err := Parse(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): %v; want an error containing %q", c.spec, err, c.want)
		}
	}
	for _, s := range []string{"1/1", "2/7", "7/7"} {
		if _, err := ParseShard(s); err != nil {
			t.Errorf("ParseShard(%q): %v", s, err)
		}
	}
	for _, s := range []string{"0/1", "8/7", "02/7", "+1/2", "1/", "1"} {
		if _, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) accepted", s)
		}
	}
}
