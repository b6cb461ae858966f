package puzzle

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Interval is one weighted interval of an Intervals instance (a gene
// prediction of the seed's Gattaca puzzle): the closed range of integer
// positions Start..End, both ends included, and its Value.
type Interval struct {
	Start, End, Value int64
}

// Overlaps reports whether two intervals share a position. Intervals are
// closed, as in the Gattaca statement ("no single index ... contained in
// more than one gene prediction") and the seed's test (a and b are apart
// only when a.End < b.Start or b.End < a.Start): [1,3] and [3,5] overlap.
func (a Interval) Overlaps(b Interval) bool { return !(a.End < b.Start || b.End < a.Start) }

// Intervals is the seed's Gattaca puzzle: choose intervals that pairwise do
// not overlap (see Interval.Overlaps) with the largest total value. Tasks:
// optimum (that value, proved optimal, and one selection reaching it),
// count (the number of optimal selections: distinct sets of intervals, so
// intervals of value 0 multiply it) and first (one optimal selection).
//
// The spec names where the intervals come from: a file (intervals:FILE,
// read when the spec is parsed) or a generator (intervals:random:N:seed=S).
// Its board is N x 1, one cell per interval, so that results record N as
// the instance's size; a selection is Solution.Picks.
type Intervals struct {
	// Path is the file the intervals were read from, as written in the
	// spec; "" for a generated instance.
	Path string
	// N and Seed are the generator's parameters when Path is "".
	N    int
	Seed uint64
	// Items are the intervals in input order; a selection names them by
	// index, from 0.
	Items []Interval
}

// Puzzle returns "intervals".
func (Intervals) Puzzle() string { return "intervals" }

// String returns "intervals:FILE" (the path as written) or
// "intervals:random:N:seed=S".
func (s Intervals) String() string {
	if s.Path != "" {
		return "intervals:" + s.Path
	}
	return fmt.Sprintf("intervals:random:%d:seed=%d", s.N, s.Seed)
}

// Bounds of an intervals instance, so that every total fits in an int64
// (MaxIntervals x MaxIntervalValue < 2^63) and every bad file is refused
// before a solver allocates for it.
const (
	// MaxIntervals bounds the number of intervals of a file or generator.
	MaxIntervals = 1_000_000
	// MaxIntervalValue bounds an interval's value.
	MaxIntervalValue = 1_000_000_000_000
	// MaxIntervalPosition bounds an interval's end.
	MaxIntervalPosition = 1 << 60
	// maxIntervalFile bounds the bytes read from an intervals file.
	maxIntervalFile = 1 << 28
)

// The generator of intervals:random:N:seed=S: positions 0..10N-1 (a DNA
// string of length 10N); interval i starts at a position drawn uniformly,
// has a length drawn uniformly from 1..RandomMaxLength (cut at the string's
// end) and a value drawn uniformly from 1..RandomMaxValue. So about five
// intervals cover a position, an interval overlaps about ten others, and
// small values make ties, so counts of optimal selections above 1 are
// common. Draws come from splitmix64 seeded with S, reduced modulo the
// range (a bias below 2^-40), in the order start, length, value per
// interval: the same spec gives the same instance on every platform and Go
// version.
const (
	RandomMaxLength = 50
	RandomMaxValue  = 10
)

func init() {
	Register(Descriptor{
		Name: "intervals", Order: 70, Syntax: "intervals:FILE | intervals:random:N:seed=S",
		Parse:       parseIntervals,
		Board:       func(s Spec) Board { return Board{W: len(s.(Intervals).Items), H: 1} },
		DefaultTask: Optimum,
		Shape:       PicksShape,
		Check: func(s Spec, sol Solution) error {
			_, err := IntervalsValue(s.(Intervals), sol.Picks)
			return err
		},
		Extend: func(s Spec, sol Solution) error { return extendPicks(s.(Intervals), sol.Picks) },
		Objective: func(s Spec, sol Solution) int64 {
			v, _ := IntervalsValue(s.(Intervals), sol.Picks)
			return v
		},
		Maximize: true,
		Probe:    "intervals:random:3:seed=1",
		Sweep:    &Sweep{Task: Count, Generate: genIntervals, Shrink: shrinkIntervals},
	})
}

// parseIntervals reads "FILE" or "random:N:seed=S" and loads the instance:
// a file that cannot be read or is malformed is an error of the spec.
func parseIntervals(rest string) (Spec, error) {
	if rest == "" {
		return nil, errors.New("bad intervals spec \"intervals:\": want intervals:FILE or intervals:random:N:seed=S")
	}
	if rest == "random" || strings.HasPrefix(rest, "random:") {
		return parseRandomIntervals(rest)
	}
	items, err := ReadIntervalsFile(rest)
	if err != nil {
		return nil, err
	}
	return Intervals{Path: rest, Items: items}, nil
}

func parseRandomIntervals(rest string) (Spec, error) {
	f := strings.Split(rest, ":")
	if len(f) != 3 || !strings.HasPrefix(f[2], "seed=") {
		return nil, fmt.Errorf("bad intervals spec %q: want intervals:random:N:seed=S, like intervals:random:1000:seed=7 (a file named random: write ./random)", "intervals:"+rest)
	}
	n, err := parseInt(f[1], 1, MaxIntervals)
	if err != nil {
		return nil, fmt.Errorf("bad intervals count %q: want N from 1 to %d (%v)", f[1], MaxIntervals, err)
	}
	seed, err := parseNumber(strings.TrimPrefix(f[2], "seed="), 0, 1e19-1)
	if err != nil {
		return nil, fmt.Errorf("bad intervals seed %q: want seed=S, S a whole number from 0 to 10^19-1 without leading zeros (%v)", f[2], err)
	}
	return Intervals{N: n, Seed: seed, Items: RandomIntervals(n, seed)}, nil
}

// splitmix64 is the generator's pseudo-random sequence (Steele, Lea and
// Flood's SplitMix64 finaliser on a Weyl sequence).
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// RandomIntervals returns the instance intervals:random:n:seed=seed (see
// RandomMaxLength for the distribution).
func RandomIntervals(n int, seed uint64) []Interval {
	rng := splitmix64(seed)
	length := int64(10 * n)
	out := make([]Interval, n)
	for i := range out {
		start := int64(rng.next() % uint64(length))
		l := 1 + int64(rng.next()%RandomMaxLength)
		v := 1 + int64(rng.next()%RandomMaxValue)
		out[i] = Interval{Start: start, End: min(start+l-1, length-1), Value: v}
	}
	return out
}

// ReadIntervalsFile reads an intervals file (see ParseIntervalsText).
func ReadIntervalsFile(path string) ([]Interval, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bad intervals file: %v", err)
	}
	defer fh.Close()
	text, err := io.ReadAll(io.LimitReader(fh, maxIntervalFile+1))
	if err != nil {
		return nil, fmt.Errorf("bad intervals file %s: %v", path, err)
	}
	if len(text) > maxIntervalFile {
		return nil, fmt.Errorf("bad intervals file %s: larger than %d bytes", path, maxIntervalFile)
	}
	items, err := ParseIntervalsText(text)
	if err != nil {
		return nil, fmt.Errorf("bad intervals file %s: %v", path, err)
	}
	return items, nil
}

// ParseIntervalsText reads intervals in one of two layouts, told apart by
// the first line that is neither blank nor a comment (# to the end of a
// line is a comment in both):
//
//   - The Gattaca layout, the seed's input: a line with n, the length of
//     the DNA string; the string itself on lines of letters A, C, G, T
//     (n letters in all); a line with g, the number of gene predictions;
//     then g lines "start stop score", 0 <= start <= stop <= n-1. The
//     seed's own reader keeps every line of three fields; this one checks
//     the whole layout, so a malformed file is refused rather than half read.
//   - Bare: every line "start end value", nothing else (when the first
//     line has three fields).
//
// Values are whole numbers from 0 to MaxIntervalValue (a negative value
// never belongs to an optimal selection, and the seed's search, which
// always extends a selection, assumes none); ends are whole numbers with
// 0 <= start <= end (a one-position interval has start = end). An error
// names the line and what is wrong with it.
func ParseIntervalsText(text []byte) ([]Interval, error) {
	lines, err := intervalLines(text)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, errors.New("no intervals (the file is empty)")
	}
	if len(lines[0].fields) != 3 {
		return parseGattaca(lines)
	}
	var items []Interval
	for _, l := range lines {
		if items, err = appendInterval(items, l, -1); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// intervalLine is a line of an intervals file that holds fields, with its
// line number.
type intervalLine struct {
	no     int
	fields []string
}

// intervalLines returns the lines of text that hold fields, comments cut.
func intervalLines(text []byte) ([]intervalLine, error) {
	var lines []intervalLine
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 64*1024), maxIntervalFile)
	for no := 1; sc.Scan(); no++ {
		t := sc.Text()
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t = t[:i]
		}
		if f := strings.Fields(t); len(f) > 0 {
			lines = append(lines, intervalLine{no, f})
		}
	}
	return lines, sc.Err()
}

// appendInterval appends the interval "start end value" on line l to
// items; dnaLen, when not negative, bounds its end.
func appendInterval(items []Interval, l intervalLine, dnaLen int64) ([]Interval, error) {
	if len(l.fields) != 3 {
		return nil, fmt.Errorf("line %d: want an interval \"start end value\", got %d fields %q", l.no, len(l.fields), strings.Join(l.fields, " "))
	}
	var v [3]int64
	for i, f := range l.fields {
		x, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: %q is not a whole number (want \"start end value\")", l.no, f)
		}
		v[i] = x
	}
	iv := Interval{Start: v[0], End: v[1], Value: v[2]}
	switch {
	case iv.Start < 0:
		return nil, fmt.Errorf("line %d: start %d is negative", l.no, iv.Start)
	case iv.End < iv.Start:
		return nil, fmt.Errorf("line %d: interval ends before it starts (start %d, end %d): ends given backwards?", l.no, iv.Start, iv.End)
	case iv.End > MaxIntervalPosition:
		return nil, fmt.Errorf("line %d: end %d is past %d", l.no, iv.End, int64(MaxIntervalPosition))
	case dnaLen >= 0 && iv.End >= dnaLen:
		return nil, fmt.Errorf("line %d: end %d is past the DNA string (length %d, last index %d)", l.no, iv.End, dnaLen, dnaLen-1)
	case iv.Value < 0 || iv.Value > MaxIntervalValue:
		return nil, fmt.Errorf("line %d: value %d is out of range 0..%d", l.no, iv.Value, int64(MaxIntervalValue))
	}
	if len(items) == MaxIntervals {
		return nil, fmt.Errorf("line %d: more than %d intervals", l.no, MaxIntervals)
	}
	return append(items, iv), nil
}

// intervalCount reads what, a whole number alone on line l.
func intervalCount(l intervalLine, what string) (int64, error) {
	if len(l.fields) != 1 {
		return 0, fmt.Errorf("line %d: want %s alone on its line, got %q", l.no, what, strings.Join(l.fields, " "))
	}
	n, err := strconv.ParseInt(l.fields[0], 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("line %d: %s %q is not a whole number", l.no, what, l.fields[0])
	}
	return n, nil
}

// parseGattaca reads the Gattaca layout: the DNA length, the DNA string,
// the number of gene predictions, the predictions.
func parseGattaca(lines []intervalLine) ([]Interval, error) {
	dnaLen, err := intervalCount(lines[0], "the DNA length n")
	if err != nil {
		return nil, err
	}
	i, seen := 1, int64(0)
	for ; seen < dnaLen; i++ {
		if i == len(lines) {
			return nil, fmt.Errorf("the DNA string ends after %d of its %d letters", seen, dnaLen)
		}
		l := lines[i]
		if len(l.fields) != 1 || strings.Trim(l.fields[0], "ACGT") != "" {
			return nil, fmt.Errorf("line %d: want DNA letters A, C, G, T (%d of %d read), got %q", l.no, seen, dnaLen, strings.Join(l.fields, " "))
		}
		seen += int64(len(l.fields[0]))
	}
	if seen != dnaLen {
		return nil, fmt.Errorf("line %d: the DNA string has %d letters, the first line says %d", lines[i-1].no, seen, dnaLen)
	}
	if i == len(lines) {
		return nil, errors.New("no intervals (the number of gene predictions is missing after the DNA string)")
	}
	g, err := intervalCount(lines[i], "the number of gene predictions g")
	if err != nil {
		return nil, err
	}
	if g == 0 {
		return nil, fmt.Errorf("line %d: no intervals (g is 0)", lines[i].no)
	}
	if g > MaxIntervals {
		return nil, fmt.Errorf("line %d: %d intervals, more than %d", lines[i].no, g, MaxIntervals)
	}
	rest := lines[i+1:]
	if int64(len(rest)) != g {
		return nil, fmt.Errorf("line %d: says %d gene predictions, %d lines follow", lines[i].no, g, len(rest))
	}
	var items []Interval
	for _, l := range rest {
		if items, err = appendInterval(items, l, dnaLen); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// IntervalsValue is the checker of an intervals selection: picks must
// name intervals of s by index, each once, in increasing order, no two
// overlapping (closed intervals: see Interval.Overlaps). It returns the
// selection's total value. That the selection is optimal is for the caller
// to compare.
func IntervalsValue(s Intervals, picks []int) (int64, error) {
	var total int64
	for i, p := range picks {
		if p < 0 || p >= len(s.Items) {
			return 0, fmt.Errorf("interval %d does not exist (the instance has %d, numbered from 0)", p, len(s.Items))
		}
		if i > 0 && p <= picks[i-1] {
			return 0, fmt.Errorf("intervals not in increasing order: %d after %d", p, picks[i-1])
		}
		total += s.Items[p].Value
	}
	// Sorted by start, a selection is apart exactly when each interval ends
	// before the next one starts.
	byStart := slices.Clone(picks)
	slices.SortFunc(byStart, func(a, b int) int {
		return cmp.Compare(s.Items[a].Start, s.Items[b].Start)
	})
	for i := 1; i < len(byStart); i++ {
		a, b := s.Items[byStart[i-1]], s.Items[byStart[i]]
		if a.Overlaps(b) {
			return 0, fmt.Errorf("intervals %d [%d,%d] and %d [%d,%d] overlap", byStart[i-1], a.Start, a.End, byStart[i], b.Start, b.End)
		}
	}
	return total, nil
}

// extendPicks checks the last pick of a partial selection against those
// before it, which the caller has checked.
func extendPicks(s Intervals, picks []int) error {
	if len(picks) == 0 {
		return nil
	}
	last := picks[len(picks)-1]
	if last < 0 || last >= len(s.Items) {
		return fmt.Errorf("interval %d does not exist", last)
	}
	for _, p := range picks[:len(picks)-1] {
		if p >= last {
			return fmt.Errorf("intervals not in increasing order: %d after %d", last, p)
		}
		if s.Items[p].Overlaps(s.Items[last]) {
			return fmt.Errorf("intervals %d and %d overlap", p, last)
		}
	}
	return nil
}

// sweepIntervals is the largest instance of the sweep: the seed's search
// and the brute force stay fast up to here, whatever the limits.
const sweepIntervals = 8

// genIntervals sweeps generated instances of 1..8 intervals, three seeds
// each (no limit applies).
func genIntervals(Limits) []Spec {
	var out []Spec
	for k := 1; k <= sweepIntervals; k++ {
		for seed := uint64(1); seed <= 3; seed++ {
			out = append(out, Intervals{N: k, Seed: seed, Items: RandomIntervals(k, seed)})
		}
	}
	return out
}

// shrinkIntervals offers the generated instance with one interval fewer
// (same seed: the first N-1 intervals are not the same ones, but a
// smaller instance is what a shrink wants).
func shrinkIntervals(s Spec) []Spec {
	iv := s.(Intervals)
	if iv.Path != "" || iv.N <= 1 {
		return nil
	}
	return []Spec{Intervals{N: iv.N - 1, Seed: iv.Seed, Items: RandomIntervals(iv.N-1, iv.Seed)}}
}
