package puzzle

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Spec is one puzzle instance. Every spec has a canonical string form:
// Parse(s.String()) returns an equal spec, and String is what every CSV row
// and JSON answer records.
type Spec interface {
	// Puzzle names the puzzle, the name its descriptor is registered
	// under ("queens" for queens:8; Puzzles lists them all).
	Puzzle() string
	// String returns the canonical spec string.
	String() string
}

// parseSquareSet reads comma-separated squares, rejects repeats, and returns
// them sorted.
func parseSquareSet(b Board, val string) ([]Square, error) {
	if val == "" {
		return nil, errors.New("no squares")
	}
	var out []Square
	for _, name := range strings.Split(val, ",") {
		q, err := b.ParseSquare(name)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, q) {
			return nil, fmt.Errorf("square %s named twice", name)
		}
		out = append(out, q)
	}
	slices.Sort(out)
	return out, nil
}

// sweepBoards lists every board with sides 1..maxSide, fewest squares
// first, for the sweeps.
func sweepBoards(maxSide int) []Board {
	var out []Board
	for w := 1; w <= maxSide; w++ {
		for h := 1; h <= maxSide; h++ {
			out = append(out, Board{W: w, H: h})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Size() < out[j].Size() })
	return out
}

// shrunkBoards lists the boards one file or one rank smaller than b that
// still have a square, for shrinking.
func shrunkBoards(b Board) []Board {
	var out []Board
	for _, s := range []Board{{W: b.W - 1, H: b.H}, {W: b.W, H: b.H - 1}} {
		if s.W >= 1 && s.H >= 1 {
			out = append(out, s)
		}
	}
	return out
}

// moveSquare returns the square of board to at the file and rank q has on
// board from, or a1 when to is too small to have it.
func moveSquare(from, to Board, q Square) Square {
	f, r := from.FileRank(q)
	if to.On(f, r) {
		return to.Sq(f, r)
	}
	return 0
}
