package puzzle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// parseNumber reads a whole number written in a spec (a board side, a
// rank, a count, a bound, a seed): decimal digits only, no sign, no leading
// zero but for 0 itself, so that every number has one spelling and a spec
// one canonical form; and from lo to hi. The error says which rule the
// text breaks, in a few words the caller puts after its own, which name
// the field and what it wants.
func parseNumber(s string, lo, hi uint64) (uint64, error) {
	switch {
	case s == "":
		return 0, errors.New("no number given")
	case strings.TrimLeft(s, "0123456789") != "":
		return 0, fmt.Errorf("%q is not a whole number", s)
	case len(s) > 1 && s[0] == '0':
		if t := strings.TrimLeft(s, "0"); t != "" {
			return 0, fmt.Errorf("%q has a leading zero: write %s", s, t)
		}
		return 0, fmt.Errorf("%q has a leading zero: write 0", s)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s is out of range", s)
	}
	return n, nil
}

// parseInt is parseNumber for a number that is an int.
func parseInt(s string, lo, hi int) (int, error) {
	n, err := parseNumber(s, uint64(lo), uint64(hi))
	return int(n), err
}
