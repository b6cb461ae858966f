package encode

import (
	"fmt"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// The direct N-Queens model: one variable q_SQ per square (q_c4: a queen on
// c4), exactly one queen per rank and per file and at most one per diagonal
// and anti-diagonal, each through the chosen cardinality encoding. With
// Options.SymmetryBreaking the queen on rank 1 stands on the left half of
// the board (files a..ceil(N/2)): every solution or its mirror image does,
// so a first solution survives, but counts drop, so the option is for the
// first task only.
func init() {
	register(Encoder{
		Puzzle:  "queens",
		Name:    "direct",
		Doc:     "one variable per square; exactly one queen per rank and file, at most one per diagonal",
		Default: true, Why: whyOnly,
		Tasks: []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All},
		Build: queensBuild,
	})
}

// queensBuild encodes a queens spec.
func queensBuild(spec puzzle.Spec, enc card.Encoding, opt Options) (*Instance, error) {
	qs, ok := spec.(puzzle.Queens)
	if !ok {
		return nil, fmt.Errorf("queens model given a %s spec", spec.Puzzle())
	}
	n := qs.N
	b := qs.Board()
	f := cnf.New()
	q := make([]cnf.Lit, b.Size())
	for s := range q {
		q[s] = f.Var("q_" + b.Name(puzzle.Square(s)))
	}
	line := make([]cnf.Lit, 0, n)
	add := func(op cnf.Op) error {
		if len(line) < 2 && op == cnf.AtMost {
			return nil
		}
		return enc.Encode(f, line, op, 1)
	}
	for r := range n { // ranks
		line = line[:0]
		for c := range n {
			line = append(line, q[b.Sq(c, r)])
		}
		if err := add(cnf.Exactly); err != nil {
			return nil, err
		}
	}
	for c := range n { // files
		line = line[:0]
		for r := range n {
			line = append(line, q[b.Sq(c, r)])
		}
		if err := add(cnf.Exactly); err != nil {
			return nil, err
		}
	}
	for d := -(n - 1); d <= n-1; d++ { // diagonals: file - rank = d
		line = line[:0]
		for r := range n {
			if c := r + d; c >= 0 && c < n {
				line = append(line, q[b.Sq(c, r)])
			}
		}
		if err := add(cnf.AtMost); err != nil {
			return nil, err
		}
	}
	for d := 0; d <= 2*(n-1); d++ { // anti-diagonals: file + rank = d
		line = line[:0]
		for r := range n {
			if c := d - r; c >= 0 && c < n {
				line = append(line, q[b.Sq(c, r)])
			}
		}
		if err := add(cnf.AtMost); err != nil {
			return nil, err
		}
	}
	if opt.SymmetryBreaking {
		for c := (n + 1) / 2; c < n; c++ {
			f.Add(q[b.Sq(c, 0)].Not())
		}
	}
	return &Instance{Formula: f, Decode: placementDecode(b, q, nil)}, nil
}
