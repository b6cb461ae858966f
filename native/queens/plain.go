package queens

// N-Queens: plain, the seeds' row-by-row backtracker with attack counters.

import (
	"context"

	"github.com/boardsat/boardsat/puzzle"
)

func queensSolvePlain(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	n, err := queensN(req, puzzle.MaxSide)
	if err != nil {
		return puzzle.Answer{}, err
	}
	run := &queensRun{ctx: ctx}
	p := &queensPlain{run: run, n: n, visit: run.visitor(req, n),
		cols: make([]int, n), colUsed: make([]int8, n),
		diag: make([]int8, 2*n-1), anti: make([]int8, 2*n-1)}
	p.place(0)
	return run.answer(req, n)
}

// queensPlain is the seeds' backtracker: one queen per row, and counters of
// queens per column, diagonal (r+c) and anti-diagonal (r-c+n-1).
type queensPlain struct {
	run                 *queensRun
	n                   int
	visit               queensVisit
	cols                []int
	colUsed, diag, anti []int8
}

// place tries every column for row r; it returns false to stop the search.
func (p *queensPlain) place(r int) bool {
	if r == p.n {
		return p.visit(p.cols)
	}
	n := p.n
	for c := range n {
		if p.colUsed[c] != 0 || p.diag[r+c] != 0 || p.anti[r-c+n-1] != 0 {
			continue
		}
		p.run.nodes++
		if !p.run.poll() {
			return false
		}
		p.cols[r] = c
		p.colUsed[c]++
		p.diag[r+c]++
		p.anti[r-c+n-1]++
		ok := p.place(r + 1)
		p.colUsed[c]--
		p.diag[r+c]--
		p.anti[r-c+n-1]--
		if !ok {
			return false
		}
	}
	return true
}

// queensSolveBitboard answers with the single-threaded bit-mask search.
