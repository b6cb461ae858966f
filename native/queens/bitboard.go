package queens

// N-Queens: bitboard, the row-by-row search on bit masks, one thread.

import (
	"context"
	"math/bits"

	"github.com/boardsat/boardsat/puzzle"
)

func queensSolveBitboard(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	n, err := queensN(req, queensMaxBits)
	if err != nil {
		return puzzle.Answer{}, err
	}
	run := &queensRun{ctx: ctx}
	b := &queensBits{run: run, n: n, mask: queensMask(n), cols: make([]int, n)}
	if req.Task == puzzle.Count {
		b.count(0, 0, 0, 0)
	} else {
		b.visit = run.visitor(req, n)
		b.search(0, 0, 0, 0)
	}
	return run.answer(req, n)
}

// queensMask returns the mask of n columns.
func queensMask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// queensBits is the bit-mask search. left, down and right are the columns
// the queens above attack in the current row along the two diagonals and
// the column.
type queensBits struct {
	run   *queensRun
	n     int
	mask  uint64
	cols  []int
	visit queensVisit
}

// count counts the completions of rows r.. without recording them.
func (b *queensBits) count(r int, left, down, right uint64) {
	if r == b.n {
		b.run.count++
		return
	}
	free := b.mask &^ (left | down | right)
	for free != 0 {
		bit := free & -free
		free ^= bit
		b.run.nodes++
		if !b.run.poll() {
			return
		}
		b.count(r+1, (left|bit)<<1, down|bit, (right|bit)>>1)
	}
}

// search visits every completion of rows r..; it returns false to stop.
func (b *queensBits) search(r int, left, down, right uint64) bool {
	if r == b.n {
		return b.visit(b.cols)
	}
	free := b.mask &^ (left | down | right)
	for free != 0 {
		bit := free & -free
		free ^= bit
		b.run.nodes++
		if !b.run.poll() {
			return false
		}
		b.cols[r] = bits.TrailingZeros64(bit)
		if !b.search(r+1, (left|bit)<<1, down|bit, (right|bit)>>1) {
			return false
		}
	}
	return true
}

// queensSymMin is the smallest n the symmetric counter handles itself;
// below it the boards are too small for its edge restrictions, and the
// bitboard search with the canonical check answers.
const queensSymMin = 5

// queensSplitRow is the row at which the symmetric counter cuts its search
// into independent subproblems.
const queensSplitRow = 3
