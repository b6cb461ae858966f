package encode

import (
	"fmt"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// The direct non-attacking pieces model: one variable per square and kind
// present (N_b1: a knight on b1); at most one piece per square and exactly
// Count[k] pieces of kind k, through the chosen cardinality encoding; and a
// binary clause "not both" for every pair (kind k on s, kind k2 on t) where
// k on s attacks t or k2 on t attacks s. Attacks are those of an empty board,
// which decide the puzzle exactly, by the encoder's own predicate
// (piecesAttack): the SAT side shares no geometry with the native searches
// (puzzle.Board.Attacks) nor with the checker. No symmetry breaking:
// Options.SymmetryBreaking is ignored.
func init() {
	register(Encoder{
		Puzzle:  "pieces",
		Name:    "direct",
		Doc:     "one variable per square and kind; at most one piece per square, exactly Count of each kind, no attacked pair",
		Default: true, Why: whyOnly,
		Tasks: []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All},
		Build: piecesBuild,
	})
}

// piecesBuild encodes a pieces spec.
func piecesBuild(spec puzzle.Spec, enc card.Encoding, _ Options) (*Instance, error) {
	ps, ok := spec.(puzzle.Pieces)
	if !ok {
		return nil, fmt.Errorf("pieces model given a %s spec", spec.Puzzle())
	}
	b := ps.Board
	size := b.Size()
	var kinds []puzzle.Kind
	for k, c := range ps.Count {
		if c > 0 {
			kinds = append(kinds, puzzle.Kind(k))
		}
	}
	nk := len(kinds)
	f := cnf.New()
	// x[i*size+s]: a piece of kinds[i] on square s; the projection.
	x := make([]cnf.Lit, nk*size)
	for i, k := range kinds {
		for s := range size {
			x[i*size+s] = f.Var(k.String() + "_" + b.Name(puzzle.Square(s)))
		}
	}
	if nk > 1 {
		on := make([]cnf.Lit, nk)
		for s := range size {
			for i := range kinds {
				on[i] = x[i*size+s]
			}
			if err := enc.Encode(f, on, cnf.AtMost, 1); err != nil {
				return nil, err
			}
		}
	}
	for i, k := range kinds {
		if err := enc.Encode(f, x[i*size:(i+1)*size], cnf.Exactly, ps.Count[k]); err != nil {
			return nil, fmt.Errorf("exactly %d %c on %d squares: %w", ps.Count[k], k.Letter(), size, err)
		}
	}
	// Every unordered pair of squares s < t: a piece of kinds[i] on s and
	// one of kinds[j] on t clash when either attacks the other. Attacks on
	// an empty board are symmetric, so that is when kinds[i] or kinds[j]
	// attacks along the offset between s and t.
	for s := range size {
		fs, rs := s%b.W, s/b.W
		for t := s + 1; t < size; t++ {
			df, dr := t%b.W-fs, t/b.W-rs
			var mask uint8
			for i, k := range kinds {
				if piecesAttack(k, df, dr) {
					mask |= 1 << i
				}
			}
			if mask == 0 {
				continue
			}
			for i := range kinds {
				for j := range kinds {
					if mask&(1<<i|1<<j) != 0 {
						f.Add(x[i*size+s].Not(), x[j*size+t].Not())
					}
				}
			}
		}
	}
	decode := placementDecode(b, x, func(v int) (puzzle.Square, puzzle.Kind) {
		return puzzle.Square(v % size), kinds[v/size]
	})
	return &Instance{Formula: f, Decode: decode}, nil
}
