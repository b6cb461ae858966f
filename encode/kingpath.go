package encode

import (
	"fmt"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/puzzle"
)

// The king-path model: x[t][s] "the path's square number t+1 is s", for
// the L steps of the path. Exactly one square per step and at most one step
// per square (through the chosen cardinality encoding); a step's square and
// the next one's are a king's move apart (x[t][s] implies some x[t+1][u]
// with u next to s); the start fixed at step 1 unless every start counts.
// The primary variables are the x[t][s]: each path sets exactly one
// assignment of them, so the projected model count is the path count.
func init() {
	register(Encoder{
		Puzzle:  "kingpath",
		Name:    "position",
		Doc:     "x[t][s]: square s at step t; one square per step, one step per square, king moves between steps",
		Default: true, Why: whyOnly,
		Tasks: []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All},
		Build: kingPathBuild,
	})
}

// kingPathMaxVars bounds the formula: L x W*H position variables.
const kingPathMaxVars = 1 << 20

func kingPathBuild(spec puzzle.Spec, enc card.Encoding, _ Options) (*Instance, error) {
	k, ok := spec.(puzzle.KingPath)
	if !ok {
		return nil, fmt.Errorf("the king-path model encodes king paths, not %s", spec.Puzzle())
	}
	b, l := k.Board, k.Length
	n := b.Size()
	if l*n > kingPathMaxVars {
		return nil, fmt.Errorf("the king-path model needs %d x %d variables: too many (at most %d)", l, n, kingPathMaxVars)
	}
	f := cnf.New()
	x := make([][]cnf.Lit, l)
	for t := range l {
		x[t] = make([]cnf.Lit, n)
		for s := range n {
			x[t][s] = f.Var(fmt.Sprintf("x_%d_%s", t+1, b.Name(puzzle.Square(s))))
		}
	}
	for t := range l {
		if err := enc.Encode(f, x[t], cnf.Exactly, 1); err != nil {
			return nil, err
		}
	}
	if l > 1 {
		steps := make([]cnf.Lit, l)
		for s := range n {
			for t := range l {
				steps[t] = x[t][s]
			}
			if err := enc.Encode(f, steps, cnf.AtMost, 1); err != nil {
				return nil, err
			}
		}
	}
	for s := range n {
		next := kingSteps(b, puzzle.Square(s))
		for t := 0; t+1 < l; t++ {
			c := []cnf.Lit{x[t][s].Not()}
			for _, u := range next {
				c = append(c, x[t+1][u])
			}
			f.Add(c...)
		}
	}
	if !k.AllStarts {
		f.Add(x[0][k.Start])
	}
	return &Instance{Formula: f, Decode: pathDecode(b, l, func(s, t int) cnf.Lit { return x[t][s] })}, nil
}
