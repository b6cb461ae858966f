package swap

import (
	"fmt"

	"github.com/boardsat/boardsat/native/limbs"
	"github.com/boardsat/boardsat/puzzle"
)

// The game: a swap instance as sorted knight squares per colour, its moves
// forward and backward, and its goal.

// swapGame is a swap instance prepared for search.
type swapGame struct {
	b            puzzle.Board
	n            int
	kw, kb       int
	k            int
	alt          bool
	rule         puzzle.Rule
	mstart       []int32 // knight moves of square s: mlist[mstart[s]:mstart[s+1]]
	mlist        []int32
	start        []int32 // white squares sorted, then black squares sorted
	goal         []int32
	cell         []int8     // scratch board: 0 empty, 1 white, 2 black
	keyMode      int        // index for the breadth-first searches
	keyModeAStar int        // index for A*
	binom        [][]uint64 // binom[x][j] = C(x, j) for x <= n, j <= max(kw, kb)
	rankB        uint64     // C(n-kw, kb)
	sides        uint64
	keySpace     uint64
}

const (
	swapKeyDense = iota
	swapKeyRank
	swapKeyBytes
)

func newSwapGame(s puzzle.Swap) (*swapGame, error) {
	n := s.Board.Size()
	if n > swapMaxSquares {
		return nil, fmt.Errorf("the native swap search takes boards of at most %d squares, not %s (%d)", swapMaxSquares, s.Board, n)
	}
	g := &swapGame{b: s.Board, n: n, kw: len(s.White), kb: len(s.Black), alt: s.Turns == puzzle.Alternate, rule: s.Rule}
	g.k = g.kw + g.kb
	if g.kw+g.kb > n {
		return nil, fmt.Errorf("%d knights do not fit on %d squares", g.k, n)
	}
	g.mstart = make([]int32, n+1)
	for sq := range n {
		for _, t := range s.Board.KnightMoves(puzzle.Square(sq)) {
			g.mlist = append(g.mlist, int32(t))
		}
		g.mstart[sq+1] = int32(len(g.mlist))
	}
	conv := func(a, b []puzzle.Square) []int32 {
		out := make([]int32, 0, len(a)+len(b))
		for _, q := range a {
			out = append(out, int32(q))
		}
		for _, q := range b {
			out = append(out, int32(q))
		}
		swapSortSeg(out[:len(a)])
		swapSortSeg(out[len(a):])
		return out
	}
	g.start = conv(s.White, s.Black)
	g.goal = conv(s.TargetWhite, s.TargetBlack)
	g.cell = make([]int8, n)
	g.sides = 1
	if g.alt {
		g.sides = 2
	}
	// Choose the index: the rank space is C(n,kw) * C(n-kw,kb) * sides.
	g.keyMode, g.keyModeAStar = swapKeyBytes, swapKeyBytes
	kmax := max(g.kw, g.kb)
	binom := make([][]uint64, n+1)
	fits := true
	for x := 0; x <= n && fits; x++ {
		binom[x] = make([]uint64, kmax+1)
		binom[x][0] = 1
		for j := 1; j <= kmax && x > 0; j++ {
			sum, over := limbs.Add64(binom[x-1][j-1], binom[x-1][j])
			if over {
				fits = false
				break
			}
			binom[x][j] = sum
		}
	}
	if fits {
		space, over1 := limbs.Mul64(binom[n][g.kw], binom[n-g.kw][g.kb])
		space2, over2 := limbs.Mul64(space, g.sides)
		if !over1 && !over2 {
			g.keyModeAStar = swapKeyRank
			g.binom, g.rankB, g.keySpace = binom, binom[n-g.kw][g.kb], space2
			g.keyMode = swapKeyRank
			if space2 <= swapDenseLimit {
				g.keyMode = swapKeyDense
			}
			if space2 <= swapDenseLimitAStar {
				g.keyModeAStar = swapKeyDense
			}
		}
	}
	return g, nil
}

// swapSortSeg sorts a short slice of squares (insertion sort).
func swapSortSeg(a []int32) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// swapResort restores the order of seg after seg[i] changed.
func swapResort(seg []int32, i int) {
	for i > 0 && seg[i] < seg[i-1] {
		seg[i], seg[i-1] = seg[i-1], seg[i]
		i--
	}
	for i+1 < len(seg) && seg[i] > seg[i+1] {
		seg[i], seg[i+1] = seg[i+1], seg[i]
		i++
	}
}

// rank returns a state's combination rank key (rank and dense modes).
func (g *swapGame) rank(st []int32, side uint8) uint64 {
	var rw, rb uint64
	for i, q := range st[:g.kw] {
		rw += g.binom[q][i+1]
	}
	// Black squares are ranked among the squares white leaves free.
	j := 0
	for i, q := range st[g.kw:] {
		for j < g.kw && st[j] < q {
			j++
		}
		rb += g.binom[int(q)-j][i+1]
	}
	return (rw*g.rankB+rb)*g.sides + uint64(side)
}

// isGoal reports whether a state's squares are the targets.
func (g *swapGame) isGoal(st []int32) bool {
	for i, q := range st {
		if q != g.goal[i] {
			return false
		}
	}
	return true
}

func (g *swapGame) fill(st []int32) {
	for i, q := range st {
		if i < g.kw {
			g.cell[q] = 1
		} else {
			g.cell[q] = 2
		}
	}
}

func (g *swapGame) clear(st []int32) {
	for _, q := range st {
		g.cell[q] = 0
	}
}

// landingOK applies the rule to a knight of colour c (1 white, 2 black)
// landing on t, with g.cell holding the board once the knight has left its
// square (and not yet arrived).
func (g *swapGame) landingOK(t int32, c int8) bool {
	switch g.rule {
	case puzzle.RuleOwn:
		for _, u := range g.mlist[g.mstart[t]:g.mstart[t+1]] {
			if g.cell[u] == c {
				return false
			}
		}
	case puzzle.RuleEnemy:
		for _, u := range g.mlist[g.mstart[t]:g.mstart[t+1]] {
			if x := g.cell[u]; x != 0 && x != c {
				return false
			}
		}
	}
	return true
}

// movers returns the index range of the knights that may move from a state
// with the given side to move.
func (g *swapGame) movers(side uint8) (lo, hi int) {
	if !g.alt {
		return 0, g.k
	}
	if side == 0 {
		return 0, g.kw
	}
	return g.kw, g.k
}

// nextSide is the side to move after a move made with side to move.
func (g *swapGame) nextSide(side uint8) uint8 {
	if g.alt {
		return side ^ 1
	}
	return 0
}

// expand appends the successors of st (side to move side) to out, k squares each.
func (g *swapGame) expand(st []int32, side uint8, out []int32) []int32 {
	g.fill(st)
	lo, hi := g.movers(side)
	for i := lo; i < hi; i++ {
		from := st[i]
		c := int8(1)
		if i >= g.kw {
			c = 2
		}
		g.cell[from] = 0
		for _, t := range g.mlist[g.mstart[from]:g.mstart[from+1]] {
			if g.cell[t] != 0 || !g.landingOK(t, c) {
				continue
			}
			out = g.appendMoved(out, st, i, t)
		}
		g.cell[from] = c
	}
	g.clear(st)
	return out
}

// appendMoved appends to out the state st with knight i moved to square to,
// that colour's squares kept sorted, as every state key requires.
func (g *swapGame) appendMoved(out, st []int32, i int, to int32) []int32 {
	base := len(out)
	out = append(out, st...)
	nx := out[base:]
	nx[i] = to
	if i < g.kw {
		swapResort(nx[:g.kw], i)
	} else {
		swapResort(nx[g.kw:], i-g.kw)
	}
	return out
}

// expandBack appends the predecessors of st (side to move side) to out: the
// states from which one legal move leads to st.
func (g *swapGame) expandBack(st []int32, side uint8, out []int32) []int32 {
	g.fill(st)
	lo, hi := 0, g.k
	if g.alt { // the last move was made by the side not to move now
		lo, hi = g.movers(side ^ 1)
	}
	for i := lo; i < hi; i++ {
		t := st[i]
		c := int8(1)
		if i >= g.kw {
			c = 2
		}
		g.cell[t] = 0
		if g.landingOK(t, c) {
			for _, f := range g.mlist[g.mstart[t]:g.mstart[t+1]] {
				if g.cell[f] != 0 {
					continue
				}
				out = g.appendMoved(out, st, i, f)
			}
		}
		g.cell[t] = c
	}
	g.clear(st)
	return out
}

// moveBetween returns the move that turns state a into state b.
func (g *swapGame) moveBetween(a, b []int32) puzzle.Move {
	var m puzzle.Move
	for _, q := range a {
		if !swapHas(b, q) {
			m.From = puzzle.Square(q)
		}
	}
	for _, q := range b {
		if !swapHas(a, q) {
			m.To = puzzle.Square(q)
		}
	}
	return m
}

func swapHas(a []int32, q int32) bool {
	for _, x := range a {
		if x == q {
			return true
		}
	}
	return false
}

// planOf turns a sequence of states into the moves between them.
func (g *swapGame) planOf(states [][]int32) []puzzle.Move {
	plan := []puzzle.Move{}
	for i := 1; i < len(states); i++ {
		plan = append(plan, g.moveBetween(states[i-1], states[i]))
	}
	return plan
}
