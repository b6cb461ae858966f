package membudget

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseMem reads a memory size as --mem and a suite's mem= give it: a
// number of MiB, or a number with suffix K, M or G (binary units); the
// result is in MiB, at least 1.
func ParseMem(s string) (int64, error) {
	num, mult := s, 1.0
	switch {
	case strings.HasSuffix(strings.ToUpper(s), "G"):
		num, mult = s[:len(s)-1], 1024
	case strings.HasSuffix(strings.ToUpper(s), "M"):
		num = s[:len(s)-1]
	case strings.HasSuffix(strings.ToUpper(s), "K"):
		num, mult = s[:len(s)-1], 1.0/1024
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f <= 0 || f*mult < 1 || f*mult > 1<<30 {
		return 0, fmt.Errorf("bad memory size %q: want like 512M or 2G (at least 1M)", s)
	}
	return int64(f * mult), nil
}
