package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/boardsat/boardsat/puzzle"
)

// FieldOrder is the order of a variant's values after the backend name: a
// backend takes the fields its Choices declare, in this order.
var FieldOrder = []string{"heuristic", "encoding", "solver"}

// Variant is one way of solving: a backend with values for the request
// fields it takes. It is written BACKEND[/VALUE...] with one value per field
// the backend declares (see FieldOrder), such as native/bitboard,
// sat/seqcounter/gophersat or gophersat-count/pairwise. An empty or missing
// value means the backend's default.
type Variant struct {
	Backend string
	// Fields names the request fields the backend takes, in FieldOrder;
	// Values holds one value per field ("" for the default).
	Fields, Values []string
}

// String returns the variant's canonical form, trailing defaults left out.
func (v Variant) String() string {
	parts := append([]string{v.Backend}, v.Values...)
	for len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return strings.Join(parts, "/")
}

// Value returns the variant's value for a field ("" if none).
func (v Variant) Value(field string) string {
	if i := slices.Index(v.Fields, field); i >= 0 {
		return v.Values[i]
	}
	return ""
}

// Request returns the request for spec and task with the variant's values.
func (v Variant) Request(spec puzzle.Spec, task puzzle.Task) puzzle.Request {
	return puzzle.Request{Spec: spec, Task: task, Heuristic: v.Value("heuristic"),
		Encoding: v.Value("encoding"), Solver: v.Value("solver")}
}

// Unreliable maps backends known to give wrong answers to the reason. They
// are left out of "all" and included only when named; when they disagree,
// the report says the disagreement is known. A backend declares itself
// unreliable with a method KnownWrong() string (gophersat-count does); the
// map adds backends a caller marks so without changing them.
var Unreliable = map[string]string{}

// UnreliableReason returns why a backend is known to be wrong, or "".
func UnreliableReason(name string) string {
	if r, ok := Unreliable[name]; ok {
		return r
	}
	if b, err := puzzle.Backends.Lookup(name); err == nil {
		if kw, ok := b.(interface{ KnownWrong() string }); ok {
			return kw.KnownWrong()
		}
	}
	return ""
}

// NamedOnlyReason returns why a backend runs only when named in a list
// and is left out of "all" (it declares so with a method NamedOnly()
// string: the cp and mip backends, which run optional external solvers
// and count by printing every solution), or "".
func NamedOnlyReason(name string) string {
	if b, err := puzzle.Backends.Lookup(name); err == nil {
		if no, ok := b.(interface{ NamedOnly() string }); ok {
			return no.NamedOnly()
		}
	}
	return ""
}

// fields returns the fields a backend's choices declare, in FieldOrder,
// restricted to choices for puzzleName (all puzzles if puzzleName is "").
func fields(b puzzle.Backend, puzzleName string) []string {
	var out []string
	for _, f := range FieldOrder {
		for _, c := range b.Choices() {
			if c.Field == f && (puzzleName == "" || c.Puzzle == "" || c.Puzzle == puzzleName) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// choices returns the names of a backend's choices for a field and puzzle,
// in registration order, and the default's name ("" if none is marked).
func choices(b puzzle.Backend, field, puzzleName string) (names []string, def string) {
	for _, c := range b.Choices() {
		if c.Field != field || (puzzleName != "" && c.Puzzle != "" && c.Puzzle != puzzleName) {
			continue
		}
		if !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
		if c.Default && def == "" {
			def = c.Name
		}
	}
	return names, def
}

// Pattern is one item of a --backends list: "all", or a variant whose
// values may be "*" (every choice of that field for the puzzle at hand).
type Pattern struct {
	All     bool
	Backend string
	Values  []string
}

// String returns the pattern as written.
func (p Pattern) String() string {
	if p.All {
		return "all"
	}
	return strings.Join(append([]string{p.Backend}, p.Values...), "/")
}

// ParseList reads a comma-separated --backends list. Every backend must be
// registered and every value a choice it declares (for some puzzle); an
// encoding may be MODEL+CARD with each part a declared choice.
func ParseList(list string) ([]Pattern, error) {
	var out []Pattern
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("empty item in backend list %q", list)
		}
		p, err := ParsePattern(item)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// ParsePattern reads one variant pattern (see ParseList).
func ParsePattern(item string) (Pattern, error) {
	if item == "all" {
		return Pattern{All: true}, nil
	}
	parts := strings.Split(item, "/")
	b, err := puzzle.Backends.Lookup(parts[0])
	if err != nil {
		return Pattern{}, fmt.Errorf("bad variant %q: %v", item, err)
	}
	fs := fields(b, "")
	vals := placeLone(b, fs, parts[1:])
	if len(vals) > len(fs) {
		want := parts[0]
		for _, f := range fs {
			want += "/" + strings.ToUpper(f)
		}
		return Pattern{}, fmt.Errorf("bad variant %q: backend %s takes at most %d values (%s)", item, parts[0], len(fs), want)
	}
	for i, v := range vals {
		if v == "" || v == "*" {
			continue
		}
		names, _ := choices(b, fs[i], "")
		ok := slices.Contains(names, v)
		if !ok && strings.Contains(v, "+") {
			ok = true
			for _, part := range strings.Split(v, "+") {
				ok = ok && slices.Contains(names, part)
			}
		}
		if !ok && i == 0 && len(parts) == 2 && len(fs) > 1 {
			return Pattern{}, loneUnknown(b, item, parts[0], v, fs)
		}
		if !ok {
			return Pattern{}, fmt.Errorf("bad variant %q: unknown %s %q for backend %s: want one of %s",
				item, fs[i], v, parts[0], strings.Join(names, ", "))
		}
	}
	return Pattern{Backend: parts[0], Values: vals}, nil
}

// loneUnknown is the error for a lone value (BACKEND/NAME) that is a
// choice of none of the backend's fields. placeLone reads such a value as
// any field's, so the error names them all; the choices of the last fields
// (the solvers, the one a user most likely meant: sat/kissat) are listed,
// the first field's (the encodings, hundreds of names) left to boardsat list.
func loneUnknown(b puzzle.Backend, item, backend, v string, fs []string) error {
	var lists []string
	for _, f := range fs[1:] {
		names, _ := choices(b, f, "")
		list := f + "s: " + strings.Join(names, ", ")
		if f == "solver" {
			list += ", or one a definition names (--solvers PATH)"
		}
		lists = append(lists, list)
	}
	return fmt.Errorf("bad variant %q: %q is no %s of backend %s (%s; %ss: boardsat list)",
		item, v, strings.Join(fs, " nor "), backend, strings.Join(lists, "; "), fs[0])
}

// placeLone moves a lone value that is no choice of the first field but
// a choice of a later one to that field: sat/kissat is sat//kissat, a
// solver named without an encoding.
func placeLone(b puzzle.Backend, fs, vals []string) []string {
	if len(vals) != 1 || vals[0] == "" || vals[0] == "*" || len(fs) < 2 {
		return vals
	}
	if names, _ := choices(b, fs[0], ""); slices.Contains(names, vals[0]) || strings.Contains(vals[0], "+") {
		return vals
	}
	for j := 1; j < len(fs); j++ {
		if names, _ := choices(b, fs[j], ""); slices.Contains(names, vals[0]) {
			out := make([]string, j+1)
			out[j] = vals[0]
			return out
		}
	}
	return vals
}

// Expand turns patterns into the variants they stand for on puzzleName, in
// order, without repeats. "all" is every reliable backend (but those
// that run only when named, NamedOnlyReason) with every
// heuristic and every encoding it declares for the puzzle, on its default
// solver; a backend that declares choices but none for this puzzle is left
// out. A "*" value is every choice of that field for the puzzle.
func Expand(patterns []Pattern, puzzleName string) []Variant {
	var out []Variant
	seen := map[string]bool{}
	add := func(v Variant) {
		if s := v.String(); !seen[s] {
			seen[s] = true
			out = append(out, v)
		}
	}
	for _, p := range patterns {
		if p.All {
			for _, name := range puzzle.Backends.Names() {
				if UnreliableReason(name) != "" || NamedOnlyReason(name) != "" {
					continue
				}
				b, _ := puzzle.Backends.Lookup(name)
				if len(fields(b, "")) > 0 && len(fields(b, puzzleName)) == 0 {
					continue
				}
				vals := make([]string, len(fields(b, "")))
				for i, f := range fields(b, "") {
					if f != "solver" {
						vals[i] = "*"
					}
				}
				for _, v := range expandOne(b, name, vals, puzzleName) {
					add(v)
				}
			}
			continue
		}
		b, _ := puzzle.Backends.Lookup(p.Backend)
		for _, v := range expandOne(b, p.Backend, p.Values, puzzleName) {
			add(v)
		}
	}
	return out
}

// expandOne expands the "*" values of one backend's pattern.
func expandOne(b puzzle.Backend, name string, vals []string, puzzleName string) []Variant {
	fs := fields(b, "")
	out := []Variant{{Backend: name, Fields: fs, Values: make([]string, len(fs))}}
	for i, f := range fs {
		v := ""
		if i < len(vals) {
			v = vals[i]
		}
		opts := []string{v}
		if v == "*" {
			opts = starChoices(b, f, puzzleName)
		}
		var next []Variant
		for _, base := range out {
			for _, o := range opts {
				nv := Variant{Backend: name, Fields: fs, Values: slices.Clone(base.Values)}
				nv.Values[i] = o
				next = append(next, nv)
			}
		}
		out = next
	}
	return out
}

// ParseVariant reads one concrete variant (no "*", not "all").
func ParseVariant(s string) (Variant, error) {
	p, err := ParsePattern(s)
	if err != nil {
		return Variant{}, err
	}
	if p.All || slices.Contains(p.Values, "*") {
		return Variant{}, fmt.Errorf("variant %q is a pattern, not one variant", s)
	}
	b, _ := puzzle.Backends.Lookup(p.Backend)
	fs := fields(b, "")
	vals := make([]string, len(fs))
	copy(vals, p.Values)
	return Variant{Backend: p.Backend, Fields: fs, Values: vals}, nil
}

// starChoices is what "*" stands for in a field on a puzzle: every choice of
// the field for the puzzle. When the field has both choices for this puzzle
// only and choices for every puzzle (for encodings: the puzzle's models and
// the cardinality encodings), a value combines them as MODEL+CARD: every
// general choice on the default specific one (written alone), then every
// other specific choice with the default general one.
func starChoices(b puzzle.Backend, field, puzzleName string) []string {
	var specific, general []string
	var defSpecific, defGeneral string
	for _, c := range b.Choices() {
		if c.Field != field {
			continue
		}
		switch c.Puzzle {
		case "":
			general = append(general, c.Name)
			if c.Default && defGeneral == "" {
				defGeneral = c.Name
			}
		case puzzleName:
			specific = append(specific, c.Name)
			if c.Default && defSpecific == "" {
				defSpecific = c.Name
			}
		}
	}
	if len(specific) == 0 || len(general) == 0 {
		return append(specific, general...)
	}
	if defGeneral == "" {
		defGeneral = general[0]
	}
	out := slices.Clone(general)
	for _, m := range specific {
		if m != defSpecific {
			out = append(out, m+"+"+defGeneral)
		}
	}
	return out
}
