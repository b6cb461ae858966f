package puzzle

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Pieces is the non-attacking pieces puzzle: place Count[k] colourless pieces
// of each kind k on the board so that no piece threatens another.
type Pieces struct {
	Board Board
	Count [NumKinds]int
}

// Puzzle returns "pieces".
func (Pieces) Puzzle() string { return "pieces" }

// String returns "pieces:WxH:" followed by each present kind's letter and
// count in canonical order K, Q, B, R, N, such as "pieces:7x8:K3Q1B2R2N3".
func (p Pieces) String() string {
	var sb strings.Builder
	sb.WriteString("pieces:" + p.Board.String() + ":")
	for k, n := range p.Count {
		if n > 0 {
			sb.WriteByte(Kind(k).Letter())
			sb.WriteString(strconv.Itoa(n))
		}
	}
	return sb.String()
}

// Total returns the number of pieces to place.
func (p Pieces) Total() int {
	t := 0
	for _, n := range p.Count {
		t += n
	}
	return t
}

func init() {
	Register(Descriptor{
		Name: "pieces", Order: 20, Syntax: "pieces:WxH:COUNTS",
		Size:        SizeMeasure{"board squares", boardSquares},
		Parse:       parsePieces,
		Board:       func(s Spec) Board { return s.(Pieces).Board },
		DefaultTask: Count,
		Shape:       PlacementShape,
		Check: func(s Spec, sol Solution) error {
			return checkPlacement(s.(Pieces).Board, s.(Pieces).Count, sol.Layout)
		},
		Extend: func(s Spec, sol Solution) error {
			return extendPlacement(s.(Pieces).Board, s.(Pieces).Count, sol.Layout)
		},
		Count: func(s Spec, task Task) (uint64, bool) { return knownIn(knownPieces, s, task) },
		Probe: "pieces:3x3:K1R2",
		Sweep: &Sweep{Task: Count, Generate: genPieces, Shrink: shrinkPieces},
	})
}

// knownPieces maps canonical pieces specs to published solution counts
// (widely published interview instances).
var knownPieces = map[string]uint64{
	"pieces:3x3:K1R2":     4,
	"pieces:4x4:R2N4":     8,
	"pieces:7x7:K2Q2B2N1": 3063828,
}

func parsePieces(rest string) (Spec, error) {
	bs, ps, ok := strings.Cut(rest, ":")
	if !ok || strings.Contains(ps, ":") {
		return nil, fmt.Errorf("bad pieces spec %q: want pieces:WxH:COUNTS, like pieces:7x8:K3Q1B2R2N3", "pieces:"+rest)
	}
	b, err := parseBoard(bs)
	if err != nil {
		return nil, err
	}
	p := Pieces{Board: b}
	seen := [NumKinds]bool{}
	for i := 0; i < len(ps); {
		k, ok := KindOf(ps[i])
		if !ok {
			return nil, fmt.Errorf("unknown piece %q in %q: want K, Q, B, R or N, each followed by a count", ps[i:i+1], ps)
		}
		if seen[k] {
			return nil, fmt.Errorf("piece %c named twice in %q", ps[i], ps)
		}
		seen[k] = true
		j := i + 1
		for j < len(ps) && ps[j] >= '0' && ps[j] <= '9' {
			j++
		}
		n := 1
		if j > i+1 {
			var err error
			if n, err = parseInt(ps[i+1:j], 0, MaxSide*MaxSide); err != nil {
				return nil, fmt.Errorf("bad piece count %q in %q (%v)", ps[i+1:j], ps, err)
			}
		}
		p.Count[k] = n
		i = j
	}
	if p.Total() == 0 {
		return nil, fmt.Errorf("no pieces in %q: name at least one, like K1", "pieces:"+rest)
	}
	if p.Total() > b.Size() {
		return nil, fmt.Errorf("%d pieces cannot fit on the %s board (%d squares)", p.Total(), b, b.Size())
	}
	return p, nil
}

// multisets lists every piece multiset of 1..maxPieces pieces, fewest first.
func multisets(maxPieces int) [][NumKinds]int {
	var out [][NumKinds]int
	var rec func(k, left int, cur [NumKinds]int)
	rec = func(k, left int, cur [NumKinds]int) {
		if k == NumKinds {
			out = append(out, cur)
			return
		}
		for n := 0; n <= left; n++ {
			cur[k] = n
			rec(k+1, left-n, cur)
		}
	}
	rec(0, maxPieces, [NumKinds]int{})
	total := func(c [NumKinds]int) int { return Pieces{Count: c}.Total() }
	out = slices.DeleteFunc(out, func(c [NumKinds]int) bool { return total(c) == 0 })
	sort.SliceStable(out, func(i, j int) bool { return total(out[i]) < total(out[j]) })
	return out
}

// genPieces sweeps every board up to MaxSide with every multiset of up to
// MaxPieces pieces that fits.
func genPieces(lim Limits) []Spec {
	var out []Spec
	for _, b := range sweepBoards(lim.MaxSide) {
		for _, c := range multisets(lim.MaxPieces) {
			p := Pieces{Board: b, Count: c}
			if p.Total() <= b.Size() {
				out = append(out, p)
			}
		}
	}
	return out
}

func shrinkPieces(s Spec) []Spec {
	p := s.(Pieces)
	var out []Spec
	for _, b := range []Board{{W: p.Board.W - 1, H: p.Board.H}, {W: p.Board.W, H: p.Board.H - 1}} {
		if b.W >= 1 && b.H >= 1 && p.Total() <= b.Size() {
			out = append(out, Pieces{Board: b, Count: p.Count})
		}
	}
	if p.Total() > 1 {
		for k := range p.Count {
			if p.Count[k] > 0 {
				q := p
				q.Count[k]--
				out = append(out, q)
			}
		}
	}
	return out
}
