package puzzle

// Kind is one of the five piece kinds (pawns never take part). The order of
// the constants is the canonical order of pieces in a spec: K, Q, B, R, N.
type Kind int8

// The piece kinds, in canonical spec order. NoPiece marks an empty square.
const (
	King Kind = iota
	Queen
	Bishop
	Rook
	Knight
	NumKinds = 5
	NoPiece  = Kind(-1)
)

// kindLetters holds each kind's letter, indexed by Kind.
const kindLetters = "KQBRN"

// Letter returns the kind's upper-case letter, or '.' for NoPiece.
func (k Kind) Letter() byte {
	if k < 0 || k >= NumKinds {
		return '.'
	}
	return kindLetters[k]
}

// String returns the kind's letter as a string.
func (k Kind) String() string { return string(k.Letter()) }

// KindOf returns the kind named by an upper-case letter K, Q, B, R or N.
func KindOf(letter byte) (Kind, bool) {
	for k := range Kind(NumKinds) {
		if kindLetters[k] == letter {
			return k, true
		}
	}
	return NoPiece, false
}

// step is one (file, rank) displacement.
type step struct{ df, dr int }

var (
	orthogonal  = []step{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	diagonal    = []step{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	allAround   = append(append([]step{}, orthogonal...), diagonal...)
	knightSteps = []step{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
)

// Attacks returns the squares a piece of kind k standing on s threatens on an
// otherwise empty board, in a fixed order. Sliding pieces are not blocked:
// when no piece may threaten another, a blocked line of attack would still
// threaten the blocker, so empty-board attack sets decide the puzzle exactly.
func (b Board) Attacks(k Kind, s Square) []Square {
	switch k {
	case King:
		return b.leap(s, allAround)
	case Knight:
		return b.leap(s, knightSteps)
	case Rook:
		return b.slide(s, orthogonal)
	case Bishop:
		return b.slide(s, diagonal)
	case Queen:
		return b.slide(s, allAround)
	}
	return nil
}

// KnightMoves returns the squares a knight on s can move to, in a fixed order.
func (b Board) KnightMoves(s Square) []Square { return b.leap(s, knightSteps) }

func (b Board) leap(s Square, steps []step) []Square {
	f, r := b.FileRank(s)
	var out []Square
	for _, d := range steps {
		if b.On(f+d.df, r+d.dr) {
			out = append(out, b.Sq(f+d.df, r+d.dr))
		}
	}
	return out
}

func (b Board) slide(s Square, dirs []step) []Square {
	f, r := b.FileRank(s)
	var out []Square
	for _, d := range dirs {
		for nf, nr := f+d.df, r+d.dr; b.On(nf, nr); nf, nr = nf+d.df, nr+d.dr {
			out = append(out, b.Sq(nf, nr))
		}
	}
	return out
}
