package pieces

// Non-attacking pieces: the seed's search (combinations per type, with the
// copies, free and lookahead heuristics, optionally lifted).

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/boardsat/boardsat/puzzle"
)

// ---------------------------------------------------------------------------
// The seed's algorithm, on bit sets of any size.

// pieceSet is a set of squares, one bit per square.
type pieceSet []uint64

func newPieceSet(n int) pieceSet { return make(pieceSet, (n+63)/64) }

func (s pieceSet) has(q int) bool { return s[q>>6]&(1<<uint(q&63)) != 0 }
func (s pieceSet) add(q int)      { s[q>>6] |= 1 << uint(q&63) }
func (s pieceSet) del(q int)      { s[q>>6] &^= 1 << uint(q&63) }

// meets reports whether s and t share a square.
func (s pieceSet) meets(t pieceSet) bool {
	for i, w := range s {
		if w&t[i] != 0 {
			return true
		}
	}
	return false
}

// empty reports whether s has no square.
func (s pieceSet) empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// size returns the number of squares in s.
func (s pieceSet) size() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// squares appends the squares of s in increasing order to out.
func (s pieceSet) squares(out []int) []int {
	for i, w := range s {
		for w != 0 {
			out = append(out, i*64+bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
	return out
}

// piecesSeed is the seed's search.
type piecesSeed struct {
	run    *piecesRun
	heur   int
	lifted bool
	n      int                         // squares
	att    [puzzle.NumKinds][]pieceSet // att[k][q]: squares a k on q attacks
	occ    pieceSet                    // squares holding pieces
	placed []puzzle.Square
	kinds  []puzzle.Kind
	// free[d] holds the free sets of every type at depth d.
	free [][puzzle.NumKinds]pieceSet
}

// piecesSolveSeed answers with the seed's search.
func piecesSolveSeed(ctx context.Context, req puzzle.Request, heur int, lifted bool) (puzzle.Answer, error) {
	p, err := piecesSpec(req)
	if err != nil {
		return puzzle.Answer{}, err
	}
	if err := piecesSeedFits(p); err != nil {
		return puzzle.Answer{}, err
	}
	run := &piecesRun{ctx: ctx, req: req, board: p.Board}
	s := &piecesSeed{run: run, heur: heur, lifted: lifted, n: p.Board.Size(), occ: newPieceSet(p.Board.Size())}
	types := 0
	for k := range puzzle.Kind(puzzle.NumKinds) {
		if p.Count[k] == 0 {
			continue
		}
		types++
		s.att[k] = make([]pieceSet, s.n)
		for q := range s.n {
			a := newPieceSet(s.n)
			for _, t := range p.Board.Attacks(k, puzzle.Square(q)) {
				a.add(int(t))
			}
			s.att[k][q] = a
		}
	}
	s.free = make([][puzzle.NumKinds]pieceSet, types+1)
	for d := range s.free {
		for k := range puzzle.NumKinds {
			if p.Count[k] > 0 {
				s.free[d][k] = newPieceSet(s.n)
			}
		}
	}
	for k := range puzzle.NumKinds {
		if p.Count[k] > 0 {
			for q := range s.n {
				s.free[0][k].add(q)
			}
		}
	}
	s.solve(0, p.Count)
	return run.answer()
}

// piecesSeedMaxTables bounds the memory of the seed search's tables: per
// kind present, one bit set of the board for each square (attacks), and
// the free sets of every depth.
const piecesSeedMaxTables = 256 << 20

// piecesSeedFits refuses, before allocating anything, a board whose tables
// would pass piecesSeedMaxTables: they grow with squares x squares.
func piecesSeedFits(p puzzle.Pieces) error {
	types := 0
	for _, c := range p.Count {
		if c > 0 {
			types++
		}
	}
	n := p.Board.Size()
	bytes := int64(types) * int64(n+types+1) * int64((n+63)/64) * 8
	if bytes > piecesSeedMaxTables {
		return fmt.Errorf("the seed searches keep squares x squares bit tables: %s would need %d MB (limit %d MB); use heuristic fast or geometric, whose memory does not grow with the board",
			p.Board, bytes>>20, piecesSeedMaxTables>>20)
	}
	return nil
}

// solve searches from depth d, with rem[k] copies of kind k still to place
// (all of a kind at once); it returns false to stop.
func (s *piecesSeed) solve(d int, rem [puzzle.NumKinds]int) bool {
	s.run.nodes++
	if s.run.poll() {
		return false
	}
	left := false
	for k := range puzzle.NumKinds {
		if rem[k] > 0 {
			left = true
			if s.free[d][k].empty() {
				return true
			}
		}
	}
	if !left {
		return s.run.found(s.placed, s.kinds)
	}
	best := puzzle.NoPiece
	bestScore := 0
	for k := range puzzle.Kind(puzzle.NumKinds) {
		if rem[k] == 0 {
			continue
		}
		var score int
		switch s.heur {
		case piecesByCopies:
			score = rem[k]
		case piecesByFree:
			score = s.free[d][k].size()
		default:
			s.moves(d, k, rem, func() bool { score++; return true })
		}
		if best == puzzle.NoPiece || score < bestScore {
			best, bestScore = k, score
		}
	}
	if s.heur == piecesByLookahead && bestScore == 0 {
		return true
	}
	next := rem
	next[best] = 0
	return s.moves(d, best, rem, func() bool { return s.solve(d+1, next) })
}

// moves enumerates the placements of all rem[k] copies of kind k on its free
// squares at depth d that threaten no piece (placed or new), computes the
// free sets at depth d+1, and calls fn for each placement that leaves every
// other remaining kind a free square (fn sees the pieces placed); it
// returns false as soon as fn does.
func (s *piecesSeed) moves(d int, k puzzle.Kind, rem [puzzle.NumKinds]int, fn func() bool) bool {
	var buf [64]int
	cand := s.free[d][k].squares(buf[:0])
	return s.combine(d, k, rem, cand, rem[k], fn)
}

// combine chooses need more squares for kind k from cand (increasing).
func (s *piecesSeed) combine(d int, k puzzle.Kind, rem [puzzle.NumKinds]int, cand []int, need int, fn func() bool) bool {
	if need == 0 {
		return s.apply(d, k, rem, fn)
	}
	for i := 0; i+need <= len(cand); i++ {
		if s.run.tick() {
			return false
		}
		q := cand[i]
		// The new piece may not attack any piece on the board (placed
		// before or earlier in this combination); symmetric attacks mean
		// no piece attacks it either.
		if s.att[k][q].meets(s.occ) {
			continue
		}
		s.occ.add(q)
		s.placed = append(s.placed, puzzle.Square(q))
		s.kinds = append(s.kinds, k)
		ok := s.combine(d, k, rem, cand[i+1:], need-1, fn)
		s.placed = s.placed[:len(s.placed)-1]
		s.kinds = s.kinds[:len(s.kinds)-1]
		s.occ.del(q)
		if !ok {
			return false
		}
	}
	return true
}

// apply computes the free sets at depth d+1 after the last rem[k] pieces
// placed (all of kind k) and calls fn if every other remaining kind keeps a
// free square.
func (s *piecesSeed) apply(d int, k puzzle.Kind, rem [puzzle.NumKinds]int, fn func() bool) bool {
	newPieces := s.placed[len(s.placed)-rem[k]:]
	for u := range puzzle.Kind(puzzle.NumKinds) {
		if rem[u] == 0 || u == k {
			continue
		}
		nf, of := s.free[d+1][u], s.free[d][u]
		copy(nf, of)
		for _, q := range newPieces {
			nf.del(int(q))
			a := s.att[k][q]
			for i := range nf {
				nf[i] &^= a[i]
			}
			if s.lifted {
				// Lifted: a u on any of these squares would attack q.
				au := s.att[u][q]
				for i := range nf {
					nf[i] &^= au[i]
				}
			}
		}
		if nf.empty() {
			return true
		}
	}
	return fn()
}
