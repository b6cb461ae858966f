// Package suites holds the benchmark suite format (a plain-text file, one run
// group per line) and the built-in suites, one embedded .suite file each.
package suites

import (
	"embed"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/harness/compare"
	"github.com/boardsat/boardsat/internal/inputfile"
	"github.com/boardsat/boardsat/puzzle"
)

// A suite file is plain text, one run group per line:
//
//	# comment (blank lines are ignored too)
//	SPEC... [backends=LIST] [task=TASK] [repeat=N] [timeout=D] [cpu-limit=D] [mem=M] [ladder=true] [certify=true]
//
// Fields are separated by white space. The options are named as bench's
// flags are (cpu-limit= as --cpu-limit); cpulimit=, the older spelling, is
// still read, so that suite files written before keep running. Every field
// without one of the keys is an instance spec; a spec may hold brace ranges, {4..12} for numbers or
// {a,b,c} for alternatives, expanded like a shell's (queens:{4..12},
// pieces:{5..7}x{5..7}:K2N2). The options:
//
//	backends  comma-separated variants or patterns, as for compare
//	          (native/*, sat/seqcounter/gophersat, all, ...); default all
//	task      count, first, all, shortest or unique; default: the puzzle's
//	          default task (count; first for tours; shortest for swaps)
//	repeat    repetitions of every run; default 1
//	timeout   wall-clock limit per run (Go duration: 10s, 2m); default 1m
//	cpu-limit CPU-time limit per run (user + sys of the run's whole process
//	          tree, the limit SAT competitions use); default none
//	mem       memory limit per run: a number of MiB, or with a suffix K, M
//	          or G; default 2G
//	ladder    true: the specs form a ladder of growing difficulty; once a
//	          variant times out or runs out of memory on one, its later specs
//	          in this group are not run (their rows say so, status timeout)
//	certify   true: every run is certified (solve --certify; bench --certify
//	          for every group): its row's variant ends in /certify, and it
//	          carries certified, proof_bytes and check_seconds
//
// The run order interleaves repetitions: every run of repetition 1 (groups
// in file order, specs in order, variants in order), then repetition 2, ...
// so that slow drifts of the machine spread over all variants.

// Group is one line of a suite: specs x variants x task x repetitions.
type Group struct {
	Line     int
	Specs    []puzzle.Spec
	Backends string
	Patterns []compare.Pattern
	// Task is "" for each puzzle's default task.
	Task    puzzle.Task
	Repeat  int
	Timeout time.Duration
	// CPULimit is the CPU-time limit of each run (0: none).
	CPULimit time.Duration
	MemMB    int64
	Ladder   bool
	// Certify runs every variant of the group certified (solve --certify:
	// each refutation proved and checked); its rows are the variant's name
	// with "/certify" appended.
	Certify bool
}

// Suite is a parsed suite.
type Suite struct {
	Name   string
	Groups []Group
}

// oldCPULimit is the older spelling of the option cpu-limit=, still read.
const oldCPULimit = "cpulimit"

// Default limits of a group that does not set them.
const (
	DefaultTimeout = time.Minute
	DefaultMemMB   = 2048
)

// builtinFiles are the built-in suites, one file each: suites/NAME.suite,
// whose header comment says what it measures.
//
//go:embed suites/*.suite
var builtinFiles embed.FS

// Builtin holds the built-in suites' text, by name (the file name less
// .suite): quick (a smoke benchmark of every puzzle and variant), paper,
// and one suite per study (intervals, dominate, paradigms, frontier,
// certify, methods).
var Builtin = puzzle.NewRegistry[string]("suite")

func init() {
	entries, err := builtinFiles.ReadDir("suites")
	if err != nil {
		panic(err) // the embedded directory is always there
	}
	for _, e := range entries {
		data, err := builtinFiles.ReadFile("suites/" + e.Name())
		if err != nil {
			panic(err)
		}
		Builtin.Add(strings.TrimSuffix(e.Name(), ".suite"), string(data))
	}
}

// Load returns the built-in suite of that name, or reads the suite file at
// that path.
func Load(nameOrPath string) (Suite, error) {
	if text, err := Builtin.Lookup(nameOrPath); err == nil {
		return Parse(nameOrPath, text)
	}
	data, err := inputfile.ReadFile(nameOrPath, MaxFileBytes)
	if err != nil {
		if os.IsNotExist(err) {
			return Suite{}, fmt.Errorf("no built-in suite or suite file %q (built-in: %s)", nameOrPath, strings.Join(Builtin.Names(), ", "))
		}
		return Suite{}, err
	}
	return Parse(nameOrPath, string(data))
}

// MaxPlannedRuns bounds the runs of a suite: its specs times their
// repetitions, counted from the brace groups before any is expanded, so
// that a brace bomb ({1..3} sixteen times: 43 million specs) is refused
// at once instead of being expanded into gigabytes.
const MaxPlannedRuns = 1_000_000

// MaxFileBytes bounds a suite file, and MaxGroups the run groups (lines)
// of a suite: a larger file, or a suite of more lines, is refused at once,
// from its size or at the line past the bound, before the runs are
// planned (a suite of a million one-run lines would otherwise be parsed
// whole before MaxPlannedRuns refused it). Braces plan many runs on one
// line; the built-in suites have a few dozen lines at most.
const (
	MaxFileBytes int64 = 1 << 20
	MaxGroups          = 10_000
)

// Parse reads a suite's text; name labels errors.
func Parse(name, text string) (Suite, error) {
	s := Suite{Name: name}
	planned := 0 // specs x repeat of the groups so far
	for i, line := range strings.Split(text, "\n") {
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if len(s.Groups) == MaxGroups {
			return Suite{}, fmt.Errorf("suite %s line %d: more than %d run groups (lines), the most a suite may have: split the suite, or use brace ranges", name, i+1, MaxGroups)
		}
		g, err := parseGroup(line, MaxPlannedRuns-planned)
		if err != nil {
			return Suite{}, fmt.Errorf("suite %s line %d: %v", name, i+1, err)
		}
		g.Line = i + 1
		planned += len(g.Specs) * g.Repeat
		s.Groups = append(s.Groups, g)
	}
	if len(s.Groups) == 0 {
		return Suite{}, fmt.Errorf("suite %s has no run groups", name)
	}
	return s, nil
}

// parseGroup reads one line of a suite; room is how many runs (specs x
// repeat) the suite may still plan.
func parseGroup(line string, room int) (Group, error) {
	g := Group{Backends: "all", Repeat: 1, Timeout: DefaultTimeout, MemMB: DefaultMemMB}
	seen := map[string]bool{}
	var err error
	var specFields []string
	for _, f := range strings.Fields(line) {
		key, val, isOpt := strings.Cut(f, "=")
		switch key {
		case oldCPULimit:
			key = "cpu-limit"
		case "backends", "task", "repeat", "timeout", "cpu-limit", "mem", "ladder", "certify":
		default:
			if isOpt && !strings.ContainsAny(key, ":{") {
				// Every spec starts PUZZLE: (its own = come after), so a
				// KEY= without a colon is a misspelt option, not a spec.
				return g, fmt.Errorf("unknown option %s= in %q: want backends, task, repeat, timeout, cpu-limit, mem, ladder or certify", key, f)
			}
			isOpt = false
		}
		if !isOpt {
			// Expanded once the options, repeat among them, are read.
			specFields = append(specFields, f)
			continue
		}
		if seen[key] {
			return g, fmt.Errorf("option %s given twice", key)
		}
		seen[key] = true
		switch key {
		case "backends":
			g.Backends = val
		case "task":
			if g.Task, err = puzzle.ParseTask(val); err != nil {
				return g, err
			}
		case "repeat":
			if g.Repeat, err = strconv.Atoi(val); err != nil || g.Repeat < 1 {
				return g, fmt.Errorf("bad repeat=%s: want a whole number from 1", val)
			}
		case "timeout":
			if g.Timeout, err = time.ParseDuration(val); err != nil || g.Timeout <= 0 {
				return g, fmt.Errorf("bad timeout=%s: want a positive duration like 30s or 2m", val)
			}
		case "cpu-limit":
			if g.CPULimit, err = time.ParseDuration(val); err != nil || g.CPULimit <= 0 {
				return g, fmt.Errorf("bad cpu-limit=%s: want a positive duration like 30s or 2m", val)
			}
		case "mem":
			if g.MemMB, err = ParseMem(val); err != nil {
				return g, err
			}
		case "ladder":
			if g.Ladder, err = strconv.ParseBool(val); err != nil {
				return g, fmt.Errorf("bad ladder=%s: want true or false", val)
			}
		case "certify":
			if g.Certify, err = strconv.ParseBool(val); err != nil {
				return g, fmt.Errorf("bad certify=%s: want true or false", val)
			}
		}
	}
	for _, f := range specFields {
		limit := (room / g.Repeat) - len(g.Specs)
		specs, err := expandBraces(f, limit)
		if errors.Is(err, errPastLimit) {
			return g, tooManySpecs(f, g.Repeat)
		}
		if err != nil {
			return g, err
		}
		for _, s := range specs {
			spec, err := puzzle.Parse(s)
			if err != nil {
				return g, err
			}
			g.Specs = append(g.Specs, spec)
		}
	}
	if len(g.Specs) == 0 {
		return g, fmt.Errorf("no instance spec in %q", strings.TrimSpace(line))
	}
	if g.Patterns, err = compare.ParseList(g.Backends); err != nil {
		return g, err
	}
	return g, nil
}

// ParseMem reads a memory size: a number of MiB, or a number with suffix K,
// M or G (binary units); the result is in MiB, at least 1.
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

var braceRE = regexp.MustCompile(`\{([^{}]*)\}`)

// expandBraces expands the brace groups of s, the innermost first,
// recursively: {a..b} for the integers a to b, {x,y,z} for alternatives.
// More than limit specs are refused, by the count of the groups before
// anything is expanded (braceCount), so the refusal allocates nothing.
func expandBraces(s string, limit int) ([]string, error) {
	if braceCount(s, limit) > limit {
		return nil, errPastLimit
	}
	loc := braceRE.FindStringSubmatchIndex(s)
	if loc == nil {
		if strings.ContainsAny(s, "{}") {
			return nil, fmt.Errorf("unbalanced brace in %q", s)
		}
		return []string{s}, nil
	}
	body := s[loc[2]:loc[3]]
	alts, err := braceAlternatives(body, s)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, a := range alts {
		rest, err := expandBraces(s[:loc[0]]+a+s[loc[1]:], limit-len(out))
		if err != nil {
			return nil, err
		}
		out = append(out, rest...)
	}
	return out, nil
}

// braceAlternatives lists the alternatives of one brace group's body (of
// field s, for the error).
func braceAlternatives(body, s string) ([]string, error) {
	lo, hi, ok := strings.Cut(body, "..")
	if !ok {
		return strings.Split(body, ","), nil
	}
	a, err1 := strconv.Atoi(lo)
	b, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || b < a || b-a > 10000 {
		return nil, fmt.Errorf("bad range {%s} in %q: want {FROM..TO} with FROM <= TO", body, s)
	}
	alts := make([]string, 0, b-a+1)
	for n := a; n <= b; n++ {
		alts = append(alts, strconv.Itoa(n))
	}
	return alts, nil
}

// braceCount returns the number of specs the innermost brace groups of s
// expand to (the product of their sizes), or limit+1 as soon as it passes
// limit: the count of a field without nested groups, which a nested one's
// expansion checks again at each level.
func braceCount(s string, limit int) int {
	n := 1
	for _, m := range braceRE.FindAllStringSubmatch(s, -1) {
		k := strings.Count(m[1], ",") + 1
		if lo, hi, ok := strings.Cut(m[1], ".."); ok {
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil || b < a {
				return 1 // a bad range: expandBraces says why
			}
			k = b - a + 1
			if b-a > limit {
				return limit + 1
			}
		}
		if n > (limit+1)/k {
			return limit + 1
		}
		n *= k
	}
	return n
}

// errPastLimit is expandBraces' refusal of a field that expands to more
// specs than its limit; parseGroup says by how many.
var errPastLimit = errors.New("past the limit of specs")

// tooManySpecs is the refusal of a field that takes the suite past
// MaxPlannedRuns, with the specs it expands to (counted, not expanded).
func tooManySpecs(field string, repeat int) error {
	n := braceCount(field, 1<<60)
	count := strconv.Itoa(n)
	if n > 1<<60 {
		count = "more than 2^60"
	}
	if len(field) > 60 {
		// Cut after a whole brace group, where one ends in the first 60
		// bytes.
		cut := 60
		if i := strings.LastIndexByte(field[:60], '}'); i > 0 {
			cut = i + 1
		}
		field = field[:cut] + "..."
	}
	return fmt.Errorf("%q expands to %s specs, which with repeat %d take the suite past the %d runs (specs x repeat) a suite may plan: split the suite or narrow its ranges",
		field, count, repeat, MaxPlannedRuns)
}
