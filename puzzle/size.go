package puzzle

// SizeMeasure is how a puzzle's instances grow: the measure a scaling
// figure puts on its x axis, named for its label.
type SizeMeasure struct {
	// Name labels the axis: "board side", "number of intervals".
	Name string
	// Of is the size of one instance of the puzzle.
	Of func(Spec) float64
}

// boardSquares is the squares of a spec's board.
func boardSquares(s Spec) float64 { b := Describe(s).Board(s); return float64(b.W * b.H) }
