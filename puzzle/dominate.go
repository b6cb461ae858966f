package puzzle

import (
	"fmt"
	"strconv"
	"strings"
)

// Dominate is the domination problem: place pieces of one kind so that
// every square of the board is dominated, that is occupied or attacked by
// a piece. Its solutions are the dominating sets of at most K pieces; K is
// the spec's k= when given and the domination number (the fewest pieces
// that dominate, found by the solver) otherwise, so that without k= the
// solutions are exactly the minimum dominating sets. Independent further
// asks that no two pieces attack each other (independent domination).
//
// Attacks are taken on the empty board: a queen attacks every square of its
// lines whatever stands between. Blocking would change nothing: when
// another piece stands between a slider and a square, that piece is on the
// same line and nearer, so it attacks the square itself; likewise two
// pieces on one line with a third between them are not independent either
// way. So these are the queen-graph numbers of OEIS A075458 and A002564.
type Dominate struct {
	Board Board
	Piece Kind
	// HasK reports whether the spec bounds the set size (k=K).
	HasK bool
	// K is the largest set size allowed when HasK.
	K int
	// Independent asks for sets in which no two pieces attack each other.
	Independent bool
}

// DominateMaxSquares bounds the boards of domination specs: 4096 squares
// (64x64). Every backend keeps bitsets of the board per square, and no
// domination search reaches boards this large anyway.
const DominateMaxSquares = 4096

// Puzzle returns "dominate".
func (Dominate) Puzzle() string { return "dominate" }

// String returns "dominate:WxH:P[:k=K][:independent]".
func (d Dominate) String() string {
	s := "dominate:" + d.Board.String() + ":" + d.Piece.String()
	if d.HasK {
		s += ":k=" + strconv.Itoa(d.K)
	}
	if d.Independent {
		s += ":independent"
	}
	return s
}

func init() {
	Register(Descriptor{
		Name: "dominate", Order: 60, Syntax: "dominate:WxH:P[:k=K][:independent]",
		Size:        SizeMeasure{"board squares", boardSquares},
		Parse:       parseDominate,
		Board:       func(s Spec) Board { return s.(Dominate).Board },
		DefaultTask: Optimum,
		Shape:       PlacementShape,
		Check:       func(s Spec, sol Solution) error { return checkDominate(s.(Dominate), sol) },
		Count:       knownDominateCount,
		Optimum:     knownDominateOptimum,
		Objective: func(_ Spec, sol Solution) int64 {
			n := int64(0)
			for _, k := range sol.Layout {
				if k != NoPiece {
					n++
				}
			}
			return n
		},
		Probe: "dominate:2x2:K",
		Sweep: &Sweep{Task: Count, Generate: genDominate, Shrink: shrinkDominate},
	})
}

func parseDominate(rest string) (Spec, error) {
	f := strings.Split(rest, ":")
	if len(f) < 2 || len(f) > 4 {
		return nil, fmt.Errorf("bad dominate spec %q: want dominate:WxH:P[:k=K][:independent], like dominate:8x8:Q", "dominate:"+rest)
	}
	b, err := parseBoard(f[0])
	if err != nil {
		return nil, err
	}
	if b.Size() > DominateMaxSquares {
		return nil, fmt.Errorf("dominate board %s too large: %d squares, at most %d", b, b.Size(), DominateMaxSquares)
	}
	d := Dominate{Board: b}
	k, ok := NoPiece, len(f[1]) == 1
	if ok {
		k, ok = KindOf(f[1][0])
	}
	if !ok {
		return nil, fmt.Errorf("bad dominate piece %q: want one of Q K R B N", f[1])
	}
	d.Piece = k
	for _, opt := range f[2:] {
		switch {
		case strings.HasPrefix(opt, "k="):
			if d.HasK {
				return nil, fmt.Errorf("dominate option k= given twice")
			}
			n, err := parseInt(opt[2:], 0, b.Size())
			if err != nil {
				return nil, fmt.Errorf("bad dominate bound %q: want k=K with K a whole number from 0 to %d (the squares of %s; %v)", opt, b.Size(), b, err)
			}
			d.HasK, d.K = true, n
		case opt == "independent":
			if d.Independent {
				return nil, fmt.Errorf("dominate option independent given twice")
			}
			d.Independent = true
		default:
			return nil, fmt.Errorf("unknown dominate option %q: want k=K or independent", opt)
		}
	}
	return d, nil
}

// Dominates reports why sol is not a dominating set of d's kind (every
// square occupied or attacked; only d's piece; no two pieces attacking
// each other when d.Independent; at most d.K pieces when d.HasK), or nil.
// It says nothing about minimality. It is the checker's own geometry
// (threatens), shared by Check and the brute-force backend.
func Dominates(d Dominate, sol Solution) error {
	ps, got, err := placedPieces(d.Board, sol.Layout)
	if err != nil {
		return err
	}
	for k, n := range got {
		if Kind(k) != d.Piece && n > 0 {
			return fmt.Errorf("%d pieces of kind %c, want only %c", n, Kind(k).Letter(), d.Piece.Letter())
		}
	}
	if d.HasK && len(ps) > d.K {
		return fmt.Errorf("%d pieces, want at most %d", len(ps), d.K)
	}
	b := d.Board
	for r := range b.H {
	square:
		for f := range b.W {
			for _, p := range ps {
				if (p.f == f && p.r == r) || threatens(p.k, p.f, p.r, f, r) {
					continue square
				}
			}
			return fmt.Errorf("square %s is neither occupied nor attacked", b.Name(b.Sq(f, r)))
		}
	}
	if d.Independent {
		for i, p := range ps {
			for _, q := range ps[i+1:] {
				if err := clash(b, p, q); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkDominate is Dominates, and when the domination number of d is
// published (and no k= is given), the set must have exactly that size: the
// solutions of a spec without k= are the minimum dominating sets.
func checkDominate(d Dominate, sol Solution) error {
	if err := Dominates(d, sol); err != nil {
		return err
	}
	if d.HasK {
		return nil
	}
	if g, ok := dominationNumber(d); ok {
		n := 0
		for _, k := range sol.Layout {
			if k != NoPiece {
				n++
			}
		}
		if n != g {
			return fmt.Errorf("%d pieces, but the published minimum is %d", n, g)
		}
	}
	return nil
}

// The published domination numbers and counts, n x n boards from n = 1.
// Sources (read 2026-11-27): the OEIS entries' internal format, A075458
// revision #103 (Feb 16 2025), A002564 #99 (Apr 14 2025), A002568 #38
// (Oct 04 2024), A002563 as of its Sep 02 2021 extension; the frontier
// terms are from Mia Müßig (A002564 n = 15..19, A002568 n = 16..30, both
// Oct 2024), Andy Huchala (A002564 n = 14, 2024), Andrew Howroyd (A002568
// n = 13..15, 2021), Haynes, Hedetniemi and Henning, "Structures of
// Domination in Graphs" (Springer 2021), Table 14 (A002563 n = 16..18),
// and Rostami and Bright, "Queen Domination by SAT Solving" (arXiv
// 2508.11945, 2025), whose certified search corrected A002563 at n = 16
// and settled it at n = 19: their terms are the classes of the minimum
// sets they published with the paper (docs/families/dominate.md says how
// they were read).
var (
	// queenDomination is OEIS A075458, gamma(Q_n), n = 1..25.
	queenDomination = []int{1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13}
	// queenDominatingSets is OEIS A002564, the number of minimum queen
	// dominating sets, n = 1..19.
	queenDominatingSets = []uint64{1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8, 288, 4632, 205832, 2968, 124, 16, 84}
	// queenDominatingClasses is OEIS A002563, the minimum queen dominating
	// sets up to the 8 symmetries of the board, n = 1..19. The 2021 value
	// at n = 16 (43) cannot be right (2968 sets need at least 2968/8 = 371
	// classes); n = 16 and 19 are the classes of the sets Rostami and
	// Bright published: 2968 and 84 sets in 371 and 11 classes.
	queenDominatingClasses = []uint64{1, 1, 1, 3, 37, 1, 13, 638, 21, 1, 1, 1, 41, 588, 25872, 371, 22, 2, 11}
	// queenIndependentSets is OEIS A002568, the number of minimum
	// independent queen dominating sets, n = 1..30.
	queenIndependentSets = []uint64{1, 4, 1, 16, 16, 120, 8, 728, 92, 8, 2, 840, 24, 436, 10188,
		128, 12, 224, 8424, 312, 72, 192, 8784, 368, 56, 224, 14500, 280, 10880, 240}
	// knightDomination is OEIS A006075, gamma(N_n), n = 1..20.
	knightDomination = []int{1, 4, 4, 4, 5, 8, 10, 12, 14, 16, 21, 24, 28, 32, 36, 40, 46, 52, 57, 62}
)

// knownDominateOptimum returns the published domination number of d (the
// fewest pieces that dominate), if one is known: queens (A075458) and
// knights (A006075) on n x n boards; kings on any board,
// ceil(W/3)*ceil(H/3) (each king dominates at most a 3x3 block, and the
// blocks of a 3x3 tiling need one each); rooks on any board, min(W, H);
// bishops on n x n, n. Independent domination has no table here. With
// k=K below the minimum nothing is known (the instance is infeasible).
func knownDominateOptimum(s Spec) (int, bool) {
	d := s.(Dominate)
	g, ok := dominationNumber(d)
	if !ok || (d.HasK && g > d.K) {
		// With k below the minimum the instance has no solution: the
		// count table says 0 for those it knows.
		return 0, false
	}
	return g, true
}

// dominationNumber returns the published domination number of d's board
// and piece, whatever d's k=.
func dominationNumber(d Dominate) (int, bool) {
	if d.Independent {
		return 0, false
	}
	b := d.Board
	n := b.W
	square := b.W == b.H
	switch d.Piece {
	case Queen:
		if square && n <= len(queenDomination) {
			return queenDomination[n-1], true
		}
	case Knight:
		if square && n <= len(knightDomination) {
			return knightDomination[n-1], true
		}
	case King:
		return ((b.W + 2) / 3) * ((b.H + 2) / 3), true
	case Rook:
		return min(b.W, b.H), true
	case Bishop:
		if square {
			return n, true
		}
	}
	return 0, false
}

// knownDominateCount returns the published number of minimum dominating
// sets of queens on n x n (A002564), of minimum independent ones
// (A002568), or of minimum sets up to the board's symmetries (task
// Unique, A002563). With k=K the count is of sets of at most K pieces:
// the same number when K is the published minimum, 0 when K is below it.
func knownDominateCount(s Spec, task Task) (uint64, bool) {
	d := s.(Dominate)
	if (task != Count && task != Unique) || d.Piece != Queen || d.Board.W != d.Board.H {
		return 0, false
	}
	n := d.Board.W
	table := queenDominatingSets
	switch {
	case task == Unique && d.Independent:
		return 0, false
	case task == Unique:
		table = queenDominatingClasses
	case d.Independent:
		table = queenIndependentSets
	}
	if n > len(table) || table[n-1] == 0 {
		return 0, false
	}
	if d.HasK {
		if d.Independent || n > len(queenDomination) {
			return 0, false
		}
		switch g := queenDomination[n-1]; {
		case d.K < g:
			return 0, true
		case d.K > g:
			return 0, false
		}
	}
	return table[n-1], true
}

// genDominate sweeps every piece on every board with sides up to MaxSide,
// plain and independent.
func genDominate(lim Limits) []Spec {
	var out []Spec
	for _, b := range sweepBoards(lim.MaxSide) {
		for k := range Kind(NumKinds) {
			out = append(out, Dominate{Board: b, Piece: k}, Dominate{Board: b, Piece: k, Independent: true})
		}
	}
	return out
}

func shrinkDominate(s Spec) []Spec {
	d := s.(Dominate)
	var out []Spec
	if d.HasK && d.K > 0 {
		n := d
		n.K--
		out = append(out, n)
	}
	for _, b := range shrunkBoards(d.Board) {
		n := d
		n.Board = b
		if n.HasK && n.K > b.Size() {
			n.K = b.Size()
		}
		out = append(out, n)
	}
	return out
}
