package mip

import (
	"fmt"

	"github.com/boardsat/boardsat/puzzle"
)

// The queens model (queens:N): a binary x_SQ per square, 1 when a queen
// stands there. Each rank and each file holds exactly one queen (rows
// rank_R and file_F: sum = 1) and each diagonal and anti-diagonal at most
// one (rows diag_I: sum <= 1; the bishop lines of puzzle.Board.Lines). No
// objective: any feasible point is a solution.
func init() {
	builders.Add("queens", func(spec puzzle.Spec, _ Options) (*Model, error) {
		b := spec.(puzzle.Queens).Board()
		var p Program
		p.Comments = []string{spec.String() + ": x_SQ = 1 when a queen stands on SQ",
			"one queen per rank and per file, at most one per diagonal"}
		var x [puzzle.NumKinds][]int
		x[puzzle.Queen] = squareVars(&p, b, "x")
		q := x[puzzle.Queen]
		for i := range b.W {
			var rank, file []int
			for j := range b.W {
				rank = append(rank, q[b.Sq(j, i)])
				file = append(file, q[b.Sq(i, j)])
			}
			p.AddRow(fmt.Sprintf("rank_%d", i+1), rank, nil, EQ, 1)
			p.AddRow("file_"+puzzle.FileName(i), file, nil, EQ, 1)
		}
		for i, line := range b.Lines(puzzle.Bishop) {
			p.AddRow(fmt.Sprintf("diag_%d", i), pick(q, line), nil, LE, 1)
		}
		return &Model{Program: p, Decode: placementDecoder(b, x)}, nil
	})
}
