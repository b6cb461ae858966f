// Package puzzle defines the chess-board constraint puzzles boardsat solves:
// boards and squares, the five piece kinds and their attack geometry, instance
// specs (parse and format), solutions, published counts, the contract every
// solving backend implements, and an independent solution checker.
//
// Both backends (native search and SAT encoding) import this package and
// nothing of each other, so their agreement means something.
package puzzle

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSide is the largest board side any spec may name. It bounds memory for
// the per-square tables solvers build; tours on 1000x1000 boards fit well.
const MaxSide = 4096

// Board is a W x H rectangle: W files (columns) and H ranks (rows).
type Board struct {
	W, H int
}

// Square is a square's index on its board: rank*W + file, both from zero,
// so a1 is 0 and index order runs along rank 1 first.
type Square int

// Size returns the number of squares, W*H.
func (b Board) Size() int { return b.W * b.H }

// String formats the board as "WxH".
func (b Board) String() string { return fmt.Sprintf("%dx%d", b.W, b.H) }

// Sq returns the square at file f and rank r, both from zero.
func (b Board) Sq(f, r int) Square { return Square(r*b.W + f) }

// FileRank returns the zero-based file and rank of s.
func (b Board) FileRank(s Square) (f, r int) { return int(s) % b.W, int(s) / b.W }

// On reports whether the zero-based file f and rank r lie on the board.
func (b Board) On(f, r int) bool { return f >= 0 && f < b.W && r >= 0 && r < b.H }

// Valid reports whether s is a square of the board.
func (b Board) Valid(s Square) bool { return s >= 0 && int(s) < b.Size() }

// FileName returns the letters of zero-based file f: a..z for the first 26
// files, then aa, ab, ..., az, ba, ... (bijective base 26, as spreadsheet
// columns), so boards of any width have algebraic names and a square's name is
// always its letters followed by its rank number.
func FileName(f int) string {
	var buf [8]byte
	i := len(buf)
	for n := f + 1; n > 0; n = (n - 1) / 26 {
		i--
		buf[i] = byte('a' + (n-1)%26)
	}
	return string(buf[i:])
}

// Name returns the algebraic name of s, such as "a1" or "ab12".
func (b Board) Name(s Square) string {
	f, r := b.FileRank(s)
	return FileName(f) + strconv.Itoa(r+1)
}

// ParseSquare reads an algebraic square name (letters, then a rank from 1)
// and checks that it lies on the board.
func (b Board) ParseSquare(name string) (Square, error) {
	i := 0
	for i < len(name) && name[i] >= 'a' && name[i] <= 'z' {
		i++
	}
	if i == 0 || i > 4 || i == len(name) {
		return 0, fmt.Errorf("bad square %q: want file letters then a rank number, like a1", name)
	}
	f := 0
	for _, c := range name[:i] {
		f = f*26 + int(c-'a') + 1
	}
	f--
	r, err := parseInt(name[i:], 1, MaxSide)
	if err != nil {
		return 0, fmt.Errorf("bad square %q: want file letters then a rank number, like a1 (%v)", name, err)
	}
	r--
	if !b.On(f, r) {
		return 0, fmt.Errorf("square %s is off the %s board", name, b)
	}
	return b.Sq(f, r), nil
}

// parseBoard reads "WxH" with both sides from 1 to MaxSide.
func parseBoard(s string) (Board, error) {
	ws, hs, ok := strings.Cut(s, "x")
	if !ok {
		return Board{}, fmt.Errorf("bad board %q: want WxH, like 8x8", s)
	}
	w, err := parseInt(ws, 1, MaxSide)
	h, err2 := parseInt(hs, 1, MaxSide)
	if err == nil {
		err = err2
	}
	if err != nil {
		return Board{}, fmt.Errorf("bad board %q: sides must be whole numbers from 1 to %d (%v)", s, MaxSide, err)
	}
	return Board{w, h}, nil
}
