package puzzle

// Lines returns the lines a sliding piece of kind k moves along on the
// board: for a rook the files and ranks, for a bishop the diagonals and
// anti-diagonals, for a queen all four (nil for kings and knights). Each
// line lists its squares in order and has at least two; two squares
// threaten each other under k exactly when some line holds both, so "at
// most one piece per line" is the non-attacking rule written as cliques,
// the form integer programs and CP models want.
func (b Board) Lines(k Kind) [][]Square {
	var dirs []step
	switch k {
	case Rook:
		dirs = []step{{1, 0}, {0, 1}}
	case Bishop:
		dirs = []step{{1, 1}, {1, -1}}
	case Queen:
		dirs = []step{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	}
	var out [][]Square
	for _, d := range dirs {
		for s := range Square(b.Size()) {
			f, r := b.FileRank(s)
			if b.On(f-d.df, r-d.dr) {
				continue // not the first square of its line
			}
			var line []Square
			for nf, nr := f, r; b.On(nf, nr); nf, nr = nf+d.df, nr+d.dr {
				line = append(line, b.Sq(nf, nr))
			}
			if len(line) > 1 {
				out = append(out, line)
			}
		}
	}
	return out
}

// Cliques returns sets of squares that pieces of kind k must not share
// (at most one piece per set) for no two to attack each other: the lines
// of a sliding piece (Lines), each attacking pair of squares for kings and
// knights. Two squares threaten each other under k exactly when some set
// holds both.
func (b Board) Cliques(k Kind) [][]Square {
	if k == Rook || k == Bishop || k == Queen {
		return b.Lines(k)
	}
	var out [][]Square
	for s := range Square(b.Size()) {
		for _, t := range b.Attacks(k, s) {
			if t > s {
				out = append(out, []Square{s, t})
			}
		}
	}
	return out
}
