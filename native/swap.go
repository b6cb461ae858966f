package native

// Knight swap: shortest plans by breadth-first search (with the number of
// distinct shortest plans, counted through the BFS layers), bidirectional
// breadth-first search, and A* with an admissible, consistent heuristic.
//
// A state is the set of squares of each colour (sorted, white then black)
// and, for alternating turns, the side to move. States get dense ids in the
// order they are found; the index from state to id is a dense array when the
// space of combination ranks is small, a map keyed by the rank (one uint64)
// when the rank fits, and a map keyed by the squares' bytes otherwise.

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	tasks := []puzzle.Task{puzzle.Shortest, puzzle.First, puzzle.Count}
	register(Strategy{Puzzle: "swap", Name: "bfs", Default: true, Tasks: tasks,
		Doc: "breadth-first search over positions (as the seed); counts shortest plans through the layers",
		Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			return swapSolve(ctx, req, swapBFS)
		}})
	register(Strategy{Puzzle: "swap", Name: "bidir", Tasks: tasks,
		Doc: "bidirectional breadth-first search, layer by layer from both ends; counts shortest plans at the meeting layer",
		Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			return swapSolve(ctx, req, swapBidir)
		}})
	register(Strategy{Puzzle: "swap", Name: "astar", Tasks: []puzzle.Task{puzzle.Shortest, puzzle.First},
		Doc: "A* with per-colour min-cost knight-distance matching, square-colour parity and turn order (consistent)",
		Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			return swapSolve(ctx, req, swapAStar)
		}})
}

// swapMaxSquares bounds the boards the native swap searches accept; their
// per-square tables stay small, and larger boards have astronomically many
// positions anyway.
const swapMaxSquares = 1 << 16

// swapDenseLimit is the largest rank space indexed by a dense array (64 MB
// of int32) in the breadth-first searches, which visit much of the space;
// A* visits little of it and keeps dense arrays to swapDenseLimitAStar.
const (
	swapDenseLimit      = 1 << 24
	swapDenseLimitAStar = 1 << 16
)

// swapResult is what one search found.
type swapResult struct {
	status   puzzle.Status
	length   int
	count    uint64
	overflow bool // count exceeds uint64
	plan     []puzzle.Move
	nodes    int64
	states   int64
}

// swapSolve runs one search on a swap request and turns its result into an answer.
func swapSolve(ctx context.Context, req puzzle.Request, search func(context.Context, *swapGame, bool) swapResult) (puzzle.Answer, error) {
	spec, ok := req.Spec.(puzzle.Swap)
	if !ok {
		return puzzle.Answer{}, fmt.Errorf("not a swap spec: %s", req.Spec)
	}
	g, err := newSwapGame(spec)
	if err != nil {
		return puzzle.Answer{}, err
	}
	res := search(ctx, g, req.Task == puzzle.Count)
	ans := puzzle.Answer{Status: res.status,
		Stats: map[string]int64{puzzle.StatNodes: res.nodes, puzzle.StatStates: res.states}}
	switch res.status {
	case puzzle.Timeout:
		ans.Message = "deadline passed before the search finished"
	case puzzle.OK:
		ans.Length = res.length
		if req.Task == puzzle.Count {
			if res.overflow {
				ans.Status = puzzle.Error
				ans.Message = fmt.Sprintf("more than %d shortest plans of length %d: the count does not fit in 64 bits", uint64(1<<64-1), res.length)
				break
			}
			ans.Count = res.count
		} else {
			ans.Solution = &puzzle.Solution{Board: spec.Board, Plan: res.plan}
		}
	}
	return ans, nil
}

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
			sum, carry := bits.Add64(binom[x-1][j-1], binom[x-1][j], 0)
			if carry != 0 {
				fits = false
				break
			}
			binom[x][j] = sum
		}
	}
	if fits {
		hi1, space := bits.Mul64(binom[n][g.kw], binom[n-g.kw][g.kb])
		hi2, space2 := bits.Mul64(space, g.sides)
		if hi1 == 0 && hi2 == 0 {
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

// swapStore holds the states found by one search, by dense id.
type swapStore struct {
	g      *swapGame
	sq     []int32 // k squares per state
	side   []uint8
	depth  []int32
	count  []uint64
	parent []int32
	dense  []int32
	m64    map[uint64]int32
	mstr   map[string]int32
	buf    []byte
	counts bool // keep path counts
}

func newSwapStore(g *swapGame, withCount bool, keyMode int) *swapStore {
	s := &swapStore{g: g}
	switch keyMode {
	case swapKeyDense:
		s.dense = make([]int32, g.keySpace) // id+1; 0 is absent
		c := int(min(g.keySpace, 1<<12))
		s.sq = make([]int32, 0, c*g.k)
		s.side = make([]uint8, 0, c)
		s.depth = make([]int32, 0, c)
		s.parent = make([]int32, 0, c)
		if withCount {
			s.count = make([]uint64, 0, c)
		}
	case swapKeyRank:
		s.m64 = map[uint64]int32{}
	default:
		s.mstr = map[string]int32{}
	}
	s.counts = withCount
	return s
}

func (s *swapStore) bytesKey(st []int32, side uint8) []byte {
	s.buf = s.buf[:0]
	for _, q := range st {
		s.buf = append(s.buf, byte(q), byte(q>>8), byte(q>>16))
	}
	return append(s.buf, side)
}

// find returns the id of a state, or -1.
func (s *swapStore) find(st []int32, side uint8) int32 {
	switch {
	case s.dense != nil:
		return s.dense[s.g.rank(st, side)] - 1
	case s.m64 != nil:
		if id, ok := s.m64[s.g.rank(st, side)]; ok {
			return id
		}
	default:
		if id, ok := s.mstr[string(s.bytesKey(st, side))]; ok {
			return id
		}
	}
	return -1
}

// add returns the id of a state, adding it with the given depth and parent
// if it is new (added reports which).
func (s *swapStore) add(st []int32, side uint8, depth, parent int32) (id int32, added bool) {
	id = int32(len(s.side))
	switch {
	case s.dense != nil:
		r := s.g.rank(st, side)
		if old := s.dense[r]; old > 0 {
			return old - 1, false
		}
		s.dense[r] = id + 1
	case s.m64 != nil:
		r := s.g.rank(st, side)
		if old, ok := s.m64[r]; ok {
			return old, false
		}
		s.m64[r] = id
	default:
		key := s.bytesKey(st, side)
		if old, ok := s.mstr[string(key)]; ok {
			return old, false
		}
		s.mstr[string(key)] = id
	}
	s.sq = append(s.sq, st...)
	s.side = append(s.side, side)
	s.depth = append(s.depth, depth)
	s.parent = append(s.parent, parent)
	if s.counts {
		s.count = append(s.count, 0)
	}
	return id, true
}

func (s *swapStore) state(id int32) []int32 {
	k := s.g.k
	return s.sq[int(id)*k : int(id+1)*k : int(id+1)*k]
}

func (s *swapStore) len() int { return len(s.side) }

// pathTo returns the states from the store's root to id, root first.
func (s *swapStore) pathTo(id int32) [][]int32 {
	var rev [][]int32
	for ; id >= 0; id = s.parent[id] {
		rev = append(rev, s.state(id))
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// planOf turns a sequence of states into the moves between them.
func (g *swapGame) planOf(states [][]int32) []puzzle.Move {
	plan := []puzzle.Move{}
	for i := 1; i < len(states); i++ {
		plan = append(plan, g.moveBetween(states[i-1], states[i]))
	}
	return plan
}

// swapAddCount adds b to *a, noting overflow.
func swapAddCount(a *uint64, b uint64, overflow *bool) {
	sum, carry := bits.Add64(*a, b, 0)
	if carry != 0 {
		*overflow = true
		sum = 1<<64 - 1
	}
	*a = sum
}

// swapPollEvery is how many expansions pass between context polls.
const swapPollEvery = 4096

// swapBFS is breadth-first search from the start. Ids are handed out in BFS
// order, so the queue is the store itself. With count set it finishes the
// layer before the goal's so the goal's path count is complete.
func swapBFS(ctx context.Context, g *swapGame, count bool) swapResult {
	s := newSwapStore(g, true, g.keyMode)
	root, _ := s.add(g.start, 0, 0, -1)
	s.count[root] = 1
	var res swapResult
	if g.isGoal(g.start) {
		return swapResult{status: puzzle.OK, length: 0, count: 1, plan: []puzzle.Move{}, states: 1}
	}
	goal := int32(-1)
	var buf []int32
	k := g.k
	for id := int32(0); int(id) < s.len(); id++ {
		if goal >= 0 && s.depth[id] >= s.depth[goal] {
			break // the layer before the goal's is done
		}
		res.nodes++
		if res.nodes%swapPollEvery == 0 && ctx.Err() != nil {
			res.status, res.states = puzzle.Timeout, int64(s.len())
			return res
		}
		d := s.depth[id]
		nside := g.nextSide(s.side[id])
		buf = g.expand(s.state(id), s.side[id], buf[:0])
		for off := 0; off < len(buf); off += k {
			nx := buf[off : off+k]
			j, added := s.add(nx, nside, d+1, id)
			if added {
				s.count[j] = s.count[id]
				if goal < 0 && g.isGoal(nx) {
					goal = j
					if !count {
						break
					}
				}
			} else if s.depth[j] == d+1 {
				swapAddCount(&s.count[j], s.count[id], &res.overflow)
			}
		}
		if goal >= 0 && !count {
			break
		}
	}
	res.states = int64(s.len())
	if goal < 0 {
		res.status = puzzle.Unsat
		return res
	}
	res.status, res.length, res.count = puzzle.OK, int(s.depth[goal]), s.count[goal]
	res.plan = g.planOf(s.pathTo(goal))
	return res
}

// swapBidir is bidirectional breadth-first search: it expands a whole layer
// of whichever side has the smaller frontier, and stops after the first
// layer in which the two searches meet. Every shortest plan crosses that
// layer at exactly one meeting state, so the number of shortest plans is the
// sum over meeting states of the forward times the backward path counts.
func swapBidir(ctx context.Context, g *swapGame, count bool) swapResult {
	var res swapResult
	if g.isGoal(g.start) {
		return swapResult{status: puzzle.OK, length: 0, count: 1, plan: []puzzle.Move{}, states: 1}
	}
	fw, bw := newSwapStore(g, true, g.keyMode), newSwapStore(g, true, g.keyMode)
	r, _ := fw.add(g.start, 0, 0, -1)
	fw.count[r] = 1
	for side := range uint8(g.sides) {
		r, _ := bw.add(g.goal, side, 0, -1)
		bw.count[r] = 1
	}
	type side struct {
		s, other *swapStore
		lo, hi   int // current frontier ids
		back     bool
	}
	sf := &side{s: fw, other: bw, lo: 0, hi: fw.len()}
	sb := &side{s: bw, other: fw, lo: 0, hi: bw.len(), back: true}
	var buf []int32
	k := g.k
	for {
		if sf.lo == sf.hi || sb.lo == sb.hi {
			res.status = puzzle.Unsat
			break
		}
		cur := sf
		if sb.hi-sb.lo < sf.hi-sf.lo {
			cur = sb
		}
		var meets []int32 // ids in cur.s of new states also in the other search
		for id := int32(cur.lo); id < int32(cur.hi); id++ {
			res.nodes++
			if res.nodes%swapPollEvery == 0 && ctx.Err() != nil {
				res.status, res.states = puzzle.Timeout, int64(fw.len()+bw.len())
				return res
			}
			st, sd, d := cur.s.state(id), cur.s.side[id], cur.s.depth[id]
			var nside uint8
			if cur.back {
				nside = 0
				if g.alt {
					nside = sd ^ 1
				}
				buf = g.expandBack(st, sd, buf[:0])
			} else {
				nside = g.nextSide(sd)
				buf = g.expand(st, sd, buf[:0])
			}
			for off := 0; off < len(buf); off += k {
				nx := buf[off : off+k]
				j, added := cur.s.add(nx, nside, d+1, id)
				if added {
					cur.s.count[j] = cur.s.count[id]
					if cur.other.find(nx, nside) >= 0 {
						meets = append(meets, j)
					}
				} else if cur.s.depth[j] == d+1 {
					swapAddCount(&cur.s.count[j], cur.s.count[id], &res.overflow)
				}
			}
			if len(meets) > 0 && !count {
				break
			}
		}
		cur.lo, cur.hi = cur.hi, cur.s.len()
		if len(meets) == 0 {
			continue
		}
		best, bestID := int32(-1), int32(-1)
		for _, j := range meets {
			o := cur.other.find(cur.s.state(j), cur.s.side[j])
			l := cur.s.depth[j] + cur.other.depth[o]
			if best < 0 || l < best {
				best, bestID = l, j
			}
		}
		var total uint64
		for _, j := range meets {
			o := cur.other.find(cur.s.state(j), cur.s.side[j])
			if cur.s.depth[j]+cur.other.depth[o] != best {
				continue
			}
			hi, lo := bits.Mul64(cur.s.count[j], cur.other.count[o])
			if hi != 0 {
				res.overflow = true
			}
			swapAddCount(&total, lo, &res.overflow)
		}
		o := cur.other.find(cur.s.state(bestID), cur.s.side[bestID])
		var fwID, bwID int32 = bestID, o
		if cur.back {
			fwID, bwID = o, bestID
		}
		path := fw.pathTo(fwID)
		back := bw.pathTo(bwID) // goal ... meeting state
		for i := len(back) - 2; i >= 0; i-- {
			path = append(path, back[i])
		}
		res.status, res.length, res.count = puzzle.OK, int(best), total
		res.plan = g.planOf(path)
		break
	}
	res.states = int64(fw.len() + bw.len())
	return res
}

// swapInf is the heuristic value of a state from which the targets cannot
// be reached (a knight cut off from every target square).
const swapInf = int32(1 << 30)

// swapHeur is the A* heuristic: per colour, the minimum over assignments of
// knights to that colour's targets of the sum of knight distances on the
// empty board (a knight needs at least that many moves whatever stands in
// its way), raised to the parity the square colours force on that colour's
// number of moves, and combined by the turn order. Each move changes one
// colour's bound by at most one and flips its parity, so the heuristic is
// consistent, not merely admissible.
type swapHeur struct {
	g      *swapGame
	distW  [][]int32 // distW[j][sq]: knight distance from sq to white target j
	distB  [][]int32
	parity []int8 // square colour
	goalPW int    // sum of target colours, white
	goalPB int
}

// swapMatchExact is the largest colour for which the heuristic solves the
// assignment exactly; larger colours use the sum of nearest-target distances.
const swapMatchExact = 10

func newSwapHeur(g *swapGame) *swapHeur {
	h := &swapHeur{g: g, parity: make([]int8, g.n)}
	for sq := range g.n {
		f, r := g.b.FileRank(puzzle.Square(sq))
		h.parity[sq] = int8((f + r) & 1)
	}
	bfs := func(t int32) []int32 {
		d := make([]int32, g.n)
		for i := range d {
			d[i] = swapInf
		}
		d[t] = 0
		q := []int32{t}
		for len(q) > 0 {
			x := q[0]
			q = q[1:]
			for _, y := range g.mlist[g.mstart[x]:g.mstart[x+1]] {
				if d[y] == swapInf {
					d[y] = d[x] + 1
					q = append(q, y)
				}
			}
		}
		return d
	}
	for _, t := range g.goal[:g.kw] {
		h.distW = append(h.distW, bfs(t))
		h.goalPW += int(h.parity[t])
	}
	for _, t := range g.goal[g.kw:] {
		h.distB = append(h.distB, bfs(t))
		h.goalPB += int(h.parity[t])
	}
	return h
}

// match returns a lower bound on the moves knights need to reach dist's
// targets: the exact min-cost assignment for up to swapMatchExact knights.
func swapMatch(knights []int32, dist [][]int32, dp []int32) int32 {
	k := len(knights)
	if k > swapMatchExact {
		var sum int32
		for _, q := range knights {
			best := swapInf
			for _, d := range dist {
				best = min(best, d[q])
			}
			if best == swapInf {
				return swapInf
			}
			sum += best
		}
		return sum
	}
	// dp[mask]: cheapest way to send the first popcount(mask) knights to the targets in mask.
	full := 1<<k - 1
	dp = dp[:full+1]
	for i := range dp {
		dp[i] = swapInf
	}
	dp[0] = 0
	for mask := 0; mask < full; mask++ {
		if dp[mask] == swapInf {
			continue
		}
		q := knights[bits.OnesCount(uint(mask))]
		for j := range k {
			if mask&(1<<j) != 0 {
				continue
			}
			if d := dist[j][q]; d != swapInf && dp[mask]+d < dp[mask|1<<j] {
				dp[mask|1<<j] = dp[mask] + d
			}
		}
	}
	return dp[full]
}

// value returns the heuristic of a state, or swapInf.
func (h *swapHeur) value(st []int32, side uint8, dp []int32) int32 {
	g := h.g
	hw := swapMatch(st[:g.kw], h.distW, dp)
	hb := swapMatch(st[g.kw:], h.distB, dp)
	if hw == swapInf || hb == swapInf {
		return swapInf
	}
	pw, pb := h.goalPW, h.goalPB
	for _, q := range st[:g.kw] {
		pw += int(h.parity[q])
	}
	for _, q := range st[g.kw:] {
		pb += int(h.parity[q])
	}
	// The number of moves each colour makes from here is at least its bound
	// and has the parity of its square-colour change.
	w := hw + (hw+int32(pw))&1
	b := hb + (hb+int32(pb))&1
	if !g.alt {
		return w + b
	}
	// Alternating: the side to move makes ceil(L/2) of the next L moves.
	first, second := w, b
	pf, ps := int32(pw&1), int32(pb&1)
	if side == 1 {
		first, second, pf, ps = b, w, ps, pf
	}
	for l := max(2*first-1, 2*second, 0); ; l++ {
		c, f := (l+1)/2, l/2
		if c >= first && f >= second && c&1 == pf && f&1 == ps {
			return l
		}
	}
}

// swapAStar is A* with swapHeur. The heuristic is consistent, so the first
// time the goal leaves the queue its depth is the shortest plan length and
// a closed state never needs reopening. The open list is a bucket queue by
// f = g + h, last in first out within a bucket (deeper states first).
func swapAStar(ctx context.Context, g *swapGame, _ bool) swapResult {
	var res swapResult
	if g.k > 0 && g.n*g.k > 1<<24 {
		// Per-target distance tables would be too large; BFS needs none.
		return swapBFS(ctx, g, false)
	}
	h := newSwapHeur(g)
	dp := make([]int32, 1<<min(max(g.kw, g.kb), swapMatchExact))
	s := newSwapStore(g, false, g.keyModeAStar)
	closed := []bool{}
	type entry struct{ id, g int32 }
	var buckets [][]entry
	push := func(id, gv, f int32) {
		for int(f) >= len(buckets) {
			buckets = append(buckets, nil)
		}
		buckets[f] = append(buckets[f], entry{id, gv})
	}
	h0 := h.value(g.start, 0, dp)
	root, _ := s.add(g.start, 0, 0, -1)
	closed = append(closed, false)
	if h0 == swapInf {
		res.status, res.states = puzzle.Unsat, 1
		return res
	}
	push(root, 0, h0)
	var buf []int32
	k := g.k
	for f := 0; f < len(buckets); {
		if len(buckets[f]) == 0 {
			buckets[f] = nil
			f++
			continue
		}
		e := buckets[f][len(buckets[f])-1]
		buckets[f] = buckets[f][:len(buckets[f])-1]
		if closed[e.id] || s.depth[e.id] != e.g {
			continue
		}
		st, sd := s.state(e.id), s.side[e.id]
		if g.isGoal(st) {
			res.status, res.length = puzzle.OK, int(e.g)
			res.plan = g.planOf(s.pathTo(e.id))
			res.states = int64(s.len())
			return res
		}
		closed[e.id] = true
		res.nodes++
		if res.nodes%swapPollEvery == 0 && ctx.Err() != nil {
			res.status, res.states = puzzle.Timeout, int64(s.len())
			return res
		}
		nside := g.nextSide(sd)
		buf = g.expand(st, sd, buf[:0])
		for off := 0; off < len(buf); off += k {
			nx := buf[off : off+k]
			j, added := s.add(nx, nside, e.g+1, e.id)
			if added {
				closed = append(closed, false)
			} else if closed[j] || s.depth[j] <= e.g+1 {
				continue
			} else {
				s.depth[j], s.parent[j] = e.g+1, e.id
			}
			hv := h.value(nx, nside, dp)
			if hv == swapInf {
				closed[j] = true // dead end: no plan continues from here
				continue
			}
			push(j, e.g+1, e.g+1+hv)
		}
	}
	res.status, res.states = puzzle.Unsat, int64(s.len())
	return res
}
