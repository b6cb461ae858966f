package pieces

// Non-attacking kings and knights counted by a row-by-row transfer-matrix
// dynamic programme, strategy "dp". It shares nothing with the searches: it
// never places a piece on a board, it counts rows.
//
// A king reaches one rank, a knight two, so a placement is valid exactly
// when each rank is valid on its own (no king beside another piece) and
// compatible with the two ranks below it. The board is processed rank by
// rank along its shorter side (a wider board is transposed; the attack
// geometry of kings and knights is symmetric under transposition). A state
// is the contents of the last two ranks (only the last one when there are no
// knights), as indices into the list of valid ranks, and holds a table of
// counts indexed by the numbers of kings and knights placed so far,
// truncated at the numbers wanted. Counts are exact: each is a fixed number
// of 64-bit limbs, enough for 3^squares.
//
// The width is limited by the state space: the number of valid ranks grows
// like 1.62^W for kings only (Fibonacci), 2^W for knights only and about
// 2.4^W for both (fewer when the counts wanted are small), and the states
// with knights are pairs of ranks. A board is refused, with the figure, when
// its valid ranks exceed PiecesDPMaxRows, its states or transitions per rank
// PiecesDPMaxStates or PiecesDPMaxWork, or its count tables the
// memory budget (package membudget). In practice, with every count allowed: kings alone up
// to width 19 (10,946 ranks), knights alone up to width 13 (8,192 ranks),
// a mix up to width 11 (8,997 ranks) where the transitions allow it.
// Queens, bishops and rooks reach across the board and are refused.

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"sync"

	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// Limits of the dp strategy (see the file comment).
var (
	// PiecesDPMaxRows caps the valid ranks (their pairs are compared once).
	PiecesDPMaxRows int64 = 12_000
	// PiecesDPMaxStates caps the states of one rank.
	PiecesDPMaxStates int64 = 1 << 24
	// PiecesDPMaxWork caps the state transitions of one rank.
	PiecesDPMaxWork int64 = 4 << 30
)

func init() {
	search.Register(search.Strategy{Puzzle: "pieces", Name: "dp", Tasks: []puzzle.Task{puzzle.Count}, Solve: piecesSolveDP,
		Doc: "kings and knights only: rank-by-rank transfer-matrix DP over the last two ranks, exact counts, any height"})
}

// piecesSolveDP answers a count request for kings and knights.
func piecesSolveDP(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	p, err := piecesSpec(req)
	if err != nil {
		return puzzle.Answer{}, err
	}
	for k, c := range p.Count {
		if c > 0 && puzzle.Kind(k) != puzzle.King && puzzle.Kind(k) != puzzle.Knight {
			return puzzle.Answer{}, fmt.Errorf("the dp strategy counts kings and knights only (pieces that reach one or two ranks); %s has %c",
				p, puzzle.Kind(k).Letter())
		}
	}
	threads := search.Threads(req.Threads)
	kings, knights := p.Count[puzzle.King], p.Count[puzzle.Knight]
	d, err := newPiecesDP(p.Board, kings, knights)
	if err != nil {
		return puzzle.Answer{}, err
	}
	tab, stopped := d.run(ctx, threads)
	stats := map[string]int64{puzzle.StatStates: d.peak}
	if stopped {
		return puzzle.Answer{Status: puzzle.Timeout, Message: ctx.Err().Error(), Stats: stats}, nil
	}
	ans := puzzle.Answer{Status: puzzle.OK, Stats: stats,
		Message: fmt.Sprintf("%d valid ranks, at most %d states per rank", len(d.rows), d.peak)}
	if kings <= d.maxK && knights <= d.maxN {
		ans.SetCount(tab[kings][knights])
	} // else more kings than fit: count 0, status ok as the other counters say
	return ans, nil
}

// KingsKnightsTable counts the placements of non-attacking kings and
// knights on board b for every number of kings up to maxKings and of
// knights up to maxKnights, in one run of the dp strategy: table[k][n] is
// the number with exactly k kings and n knights. It is how the whole row of
// a triangle such as OEIS A193580 (k kings on an n x n board, every k) is
// asked for; a negative maximum means as many as fit. threads <= 0 means
// one per core.
func KingsKnightsTable(ctx context.Context, b puzzle.Board, maxKings, maxKnights, threads int) ([][]*big.Int, error) {
	if b.W < 1 || b.H < 1 {
		return nil, fmt.Errorf("pieces: bad board %s", b)
	}
	if maxKings < 0 {
		maxKings = b.Size()
	}
	if maxKnights < 0 {
		maxKnights = b.Size()
	}
	threads = search.Threads(threads)
	d, err := newPiecesDP(b, maxKings, maxKnights)
	if err != nil {
		return nil, err
	}
	tab, stopped := d.run(ctx, threads)
	if stopped {
		return nil, ctx.Err()
	}
	return tab, nil
}

// dpRow is one valid rank: the squares of its kings and knights as bit
// masks, and how many of each.
type dpRow struct {
	king, knight uint64
	nk, nn       int
}

// piecesDP is one transfer-matrix run.
type piecesDP struct {
	w, h       int
	maxK, maxN int // truncation of the count tables
	vec, limbs int // table entries per state, limbs per entry
	rows       []dpRow
	comp       [][]int32 // comp[b]: ranks that may follow rank b
	knights    bool      // states are pairs of ranks
	peak       int64     // most states in one rank
	wmask      uint64
}

func newPiecesDP(b puzzle.Board, maxK, maxN int) (*piecesDP, error) {
	w, h := min(b.W, b.H), max(b.W, b.H)
	if w > 40 {
		return nil, fmt.Errorf("the dp strategy refuses %s: its shorter side %d is over 40", b, w)
	}
	// At most ceil(w/2)*ceil(h/2) kings fit; truncating there keeps tables small.
	maxK = min(maxK, ((w+1)/2)*((h+1)/2))
	maxN = min(maxN, w*h)
	d := &piecesDP{w: w, h: h, maxK: maxK, maxN: maxN, knights: maxN > 0, wmask: 1<<uint(w) - 1}
	if r := dpCountRows(w, maxK, maxN); r > PiecesDPMaxRows {
		return nil, fmt.Errorf("the dp strategy refuses %s: %d valid ranks of width %d, over its limit of %d (states are pairs of ranks)",
			b, r, w, PiecesDPMaxRows)
	}
	d.vec = (maxK + 1) * (maxN + 1)
	d.limbs = (w*h*1585/1000)/64 + 1 // 3^squares < 2^(1.585 squares)
	// Enumerate valid ranks: a king never beside another piece. Ranks are
	// built square by square, pruning as soon as a king has a neighbour.
	var build func(pos int, king, knight uint64, nk, nn int) error
	build = func(pos int, king, knight uint64, nk, nn int) error {
		if pos == w {
			d.rows = append(d.rows, dpRow{king, knight, nk, nn})
			return nil
		}
		if err := build(pos+1, king, knight, nk, nn); err != nil {
			return err
		}
		bit := uint64(1) << uint(pos)
		prevKing := pos > 0 && king&(bit>>1) != 0
		prevAny := pos > 0 && (king|knight)&(bit>>1) != 0
		if nn < maxN && !prevKing {
			if err := build(pos+1, king, knight|bit, nk, nn+1); err != nil {
				return err
			}
		}
		if nk < maxK && !prevAny {
			if err := build(pos+1, king|bit, knight, nk+1, nn); err != nil {
				return err
			}
		}
		return nil
	}
	if err := build(0, 0, 0, 0, 0); err != nil {
		return nil, err
	}
	// Compatible successors of each rank (one rank apart).
	d.comp = make([][]int32, len(d.rows))
	var pairs int64
	for i, r := range d.rows {
		for j, s := range d.rows {
			if d.conflict1(r, s) {
				continue
			}
			d.comp[i] = append(d.comp[i], int32(j))
		}
		pairs += int64(len(d.comp[i]))
	}
	states := int64(len(d.rows))
	work := pairs
	if d.knights {
		states = pairs
		// each pair (a, b) tries every successor of b: sum over b of
		// |pred(b)| * |comp(b)|, and pred(b) = comp(b) by symmetry.
		work = 0
		for _, c := range d.comp {
			work += int64(len(c)) * int64(len(c))
		}
	}
	mem := 2 * states * int64(d.vec*d.limbs) * 8
	switch {
	case states > PiecesDPMaxStates:
		return nil, fmt.Errorf("the dp strategy refuses %s: %d states per rank (width %d) over its limit of %d", b, states, w, PiecesDPMaxStates)
	case work > PiecesDPMaxWork:
		return nil, fmt.Errorf("the dp strategy refuses %s: %d transitions per rank (width %d) over its limit of %d", b, work, w, PiecesDPMaxWork)
	case mem > membudget.Budget():
		return nil, fmt.Errorf("the dp strategy refuses %s: %d states with %d-entry count tables need about %s, over its memory budget of %s (solve --mem sets it)",
			b, states, d.vec, membudget.Bytes(mem), membudget.Bytes(membudget.Budget()))
	}
	return d, nil
}

// conflict1 reports whether rank s directly above rank r attacks it.
func (d *piecesDP) conflict1(r, s dpRow) bool {
	m := d.wmask
	ro, so := r.king|r.knight, s.king|s.knight
	near := func(x uint64) uint64 { return (x | x<<1 | x>>1) & m }
	far := func(x uint64) uint64 { return (x<<2 | x>>2) & m }
	return s.king&near(ro) != 0 || r.king&near(so) != 0 || s.knight&far(ro) != 0 || r.knight&far(so) != 0
}

// conflict2 reports whether rank s two ranks above rank r attacks it.
func (d *piecesDP) conflict2(r, s dpRow) bool {
	m := d.wmask
	ro, so := r.king|r.knight, s.king|s.knight
	side := func(x uint64) uint64 { return (x<<1 | x>>1) & m }
	return s.knight&side(ro) != 0 || r.knight&side(so) != 0
}

// dpLayer maps a state key to its count table in a slab.
type dpLayer struct {
	index map[uint64]int32
	slab  []uint64
}

// run performs the DP and returns table[k][n]; it reports true when the
// context stopped it.
func (d *piecesDP) run(ctx context.Context, threads int) ([][]*big.Int, bool) {
	stride := d.vec * d.limbs
	nr := uint64(len(d.rows))
	// The empty rank is rows[0] (built with no piece first).
	start := &dpLayer{index: map[uint64]int32{0: 0}, slab: make([]uint64, stride)}
	start.slab[0] = 1
	cur := []*dpLayer{start}
	for range d.h {
		if ctx.Err() != nil {
			return nil, true
		}
		next := make([]*dpLayer, threads)
		var wg sync.WaitGroup
		for wi := range threads {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out := &dpLayer{index: map[uint64]int32{}}
				for _, l := range cur {
					for key, at := range l.index {
						a, b := key/nr, key%nr
						src := l.slab[int(at)*stride : int(at)*stride+stride]
						for _, c := range d.comp[b] {
							if uint64(c)%uint64(threads) != uint64(wi) {
								continue
							}
							if d.knights && d.conflict2(d.rows[a], d.rows[c]) {
								continue
							}
							nkey := uint64(c)
							if d.knights {
								nkey = b*nr + uint64(c)
							}
							d.addShifted(out, nkey, src, d.rows[c])
						}
					}
				}
				next[wi] = out
			}()
		}
		wg.Wait()
		var states int64
		for _, l := range next {
			states += int64(len(l.index))
		}
		d.peak = max(d.peak, states)
		cur = next
	}
	tab := make([][]*big.Int, d.maxK+1)
	for k := range tab {
		tab[k] = make([]*big.Int, d.maxN+1)
		for n := range tab[k] {
			sum := make([]uint64, d.limbs)
			for _, l := range cur {
				for _, at := range l.index {
					e := int(at)*stride + (k*(d.maxN+1)+n)*d.limbs
					limbs.Add(sum, l.slab[e:e+d.limbs])
				}
			}
			tab[k][n] = limbs.Big(sum)
		}
	}
	return tab, false
}

// addShifted adds src, shifted by rank r's kings and knights, to the table
// of key in out (creating it).
func (d *piecesDP) addShifted(out *dpLayer, key uint64, src []uint64, r dpRow) {
	stride := d.vec * d.limbs
	at, ok := out.index[key]
	if !ok {
		at = int32(len(out.slab) / stride)
		out.index[key] = at
		out.slab = append(out.slab, make([]uint64, stride)...)
	}
	dst := out.slab[int(at)*stride : int(at)*stride+stride]
	L, N1 := d.limbs, d.maxN+1
	for k := 0; k+r.nk <= d.maxK; k++ {
		for n := 0; n+r.nn <= d.maxN; n++ {
			s := (k*N1 + n) * L
			if L == 1 {
				if src[s] != 0 {
					dst[((k+r.nk)*N1+n+r.nn)*L] += src[s]
				}
				continue
			}
			t := ((k+r.nk)*N1 + n + r.nn) * L
			var c uint64
			for i := range L {
				dst[t+i], c = bits.Add64(dst[t+i], src[s+i], c)
			}
		}
	}
}

// dpCountRows counts the valid ranks of width w with at most maxK kings and
// maxN knights (no king beside another piece), capped at 1<<62, without
// listing them.
func dpCountRows(w, maxK, maxN int) int64 {
	// ways[last][k][n]: ranks so far whose last square is empty (0), a
	// knight (1) or a king (2), with k kings and n knights.
	type tab = [3][][]int64
	mk := func() tab {
		var t tab
		for i := range t {
			t[i] = make([][]int64, maxK+1)
			for k := range t[i] {
				t[i][k] = make([]int64, maxN+1)
			}
		}
		return t
	}
	cur := mk()
	cur[0][0][0] = 1
	const capv = int64(1) << 62
	add := func(a, b int64) int64 { return min(capv, a+b) }
	for range w {
		next := mk()
		for last := range 3 {
			for k := 0; k <= maxK; k++ {
				for n := 0; n <= maxN; n++ {
					c := cur[last][k][n]
					if c == 0 {
						continue
					}
					next[0][k][n] = add(next[0][k][n], c)
					if n < maxN && last != 2 {
						next[1][k][n+1] = add(next[1][k][n+1], c)
					}
					if k < maxK && last == 0 {
						next[2][k+1][n] = add(next[2][k+1][n], c)
					}
				}
			}
		}
		cur = next
	}
	var total int64
	for last := range 3 {
		for k := range cur[last] {
			for _, c := range cur[last][k] {
				total = add(total, c)
			}
		}
	}
	return total
}
