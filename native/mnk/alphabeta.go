package mnk

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/puzzle"
)

// table is the transposition table shared by the threads: positions up to
// board symmetry (the least image of the mover's and the other side's
// stones), each with the proven bounds on its value for the side to move,
// and the move that decided it. Buckets of two entries: one kept for the
// position with the most empty squares (the largest subtree), one always
// replaced. Striped locks keep entries whole.
type table struct {
	mask    uint64
	entries []entry
	locks   []sync.Mutex
}

type entry struct {
	a, b   uint64
	lo, hi int8
	move   int8
	empty  int8 // empty squares of the position; 0: the slot is free
}

// tableBits is the log2 of the table's buckets for a board of n squares:
// enough for the small boards, 2^20 buckets (48 MB) at most.
func tableBits(n int) int {
	return min(20, max(10, n-3))
}

func newTable(n int) *table {
	size := 1 << tableBits(n)
	return &table{mask: uint64(size - 1), entries: make([]entry, 2*size), locks: make([]sync.Mutex, 4096)}
}

func hash2(a, b uint64) uint64 {
	h := a*0x9E3779B97F4A7C15 ^ (b+0x632BE59BD9B4E019)*0xC2B2AE3D27D4EB4F
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>29
}

func (t *table) probe(a, b uint64) (entry, bool) {
	i := hash2(a, b) & t.mask
	l := &t.locks[i&4095]
	l.Lock()
	defer l.Unlock()
	for _, e := range t.entries[2*i : 2*i+2] {
		if e.empty != 0 && e.a == a && e.b == b {
			return e, true
		}
	}
	return entry{}, false
}

func (t *table) store(n entry) {
	i := hash2(n.a, n.b) & t.mask
	l := &t.locks[i&4095]
	l.Lock()
	defer l.Unlock()
	slot := t.entries[2*i : 2*i+2]
	for j := range slot {
		if e := &slot[j]; e.empty != 0 && e.a == n.a && e.b == n.b {
			e.lo, e.hi, e.move = max(e.lo, n.lo), min(e.hi, n.hi), n.move
			return
		}
	}
	if n.empty >= slot[0].empty {
		slot[1] = slot[0]
		slot[0] = n
		return
	}
	slot[1] = n
}

// prover is one thread's alpha-beta search on the shared table.
type prover struct {
	ctx   context.Context
	g     *game
	t     *table
	nodes int64
	// abort, if set, stops the search when it becomes true (the other
	// thread settled the question this search was for).
	abort *atomic.Bool
	// done, if set, also stops the search when it becomes true.
	done *atomic.Bool
	// recall, if set, also stops the search when it becomes true (the
	// thread is wanted elsewhere).
	recall  *atomic.Bool
	stopped bool
	// scores is scratch space for move ordering, one slice per ply.
	scores [][]int32
	order  [][]int8
}

func newProver(ctx context.Context, g *game, t *table) *prover {
	p := &prover{ctx: ctx, g: g, t: t}
	for range g.n + 1 {
		p.scores = append(p.scores, make([]int32, g.n))
		p.order = append(p.order, make([]int8, 0, g.n))
	}
	return p
}

func (p *prover) poll() {
	p.nodes++
	if p.nodes&4095 == 0 && (p.ctx.Err() != nil || p.abort != nil && p.abort.Load() || p.done != nil && p.done.Load() ||
		p.recall != nil && p.recall.Load()) {
		p.stopped = true
	}
}

// canon returns the least image of (own, opp) under the board symmetries.
// It also returns the symmetry that maps (own, opp) there.
func (p *prover) canon(own, opp uint64) (uint64, uint64, int) {
	a, b, sym := own, opp, 0
	for i := 1; i < len(p.g.syms); i++ {
		ia := p.g.image(i, own)
		if ia > a {
			continue
		}
		ib := p.g.image(i, opp)
		if ia < a || ib < b {
			a, b, sym = ia, ib, i
		}
	}
	return a, b, sym
}

// rowWeight scores a square by a row through it that holds c stones of
// one side and none of the other: rows nearer completion weigh more.
var rowWeight = [...]int32{1, 4, 24, 160, 1200, 9000, 70000, 500000}

// ab returns the value of the position for the side to move (own stones)
// within the window (alpha, beta), fail-soft: a result <= alpha is an upper
// bound, >= beta a lower bound, else exact. The position has no row.
func (p *prover) ab(own, opp uint64, alpha, beta int8) int8 {
	p.poll()
	if p.stopped {
		return 0
	}
	g := p.g
	empty := g.full &^ (own | opp)
	ne := bits.OnesCount64(empty)
	if ne == 0 {
		return 0
	}
	win, threat, live, liveMe, liveOpp := g.scanLines(own, opp, ne)
	switch {
	case win != 0:
		return 1
	case !liveMe && !liveOpp:
		return 0
	case !liveMe && alpha >= 0:
		return 0 // at most a draw: fails low
	case !liveOpp && beta <= 0:
		return 0 // at least a draw: fails high
	case threat&(threat-1) != 0:
		return -1 // two threats: one block is not enough
	}
	moves := empty
	if threat != 0 {
		moves = threat // a forced block
	} else if dead := empty &^ live; dead != 0 {
		// Squares on no row either side can still complete are alike:
		// keep one of them.
		moves = empty&live | dead&-dead
	}
	var a0, b0 uint64
	var sym int
	useTable := ne >= 4
	hint := int8(-1)
	if useTable {
		a0, b0, sym = p.canon(own, opp)
		if e, ok := p.t.probe(a0, b0); ok {
			switch {
			case e.lo >= beta:
				return e.lo
			case e.hi <= alpha:
				return e.hi
			case e.lo == e.hi:
				return e.lo
			}
			alpha, beta = max(alpha, e.lo), min(beta, e.hi)
			if e.move >= 0 {
				hint = int8(p.g.inv[sym][e.move])
			}
		}
	}
	alpha0, beta0 := alpha, beta
	order := p.orderMoves(own, opp, moves, live, ne, hint)
	best, bestMove := int8(-2), int8(-1)
	for _, q := range order {
		v := -p.ab(opp, own|1<<q, -beta, -alpha)
		if p.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, q
		}
		alpha = max(alpha, best)
		if alpha >= beta {
			break
		}
	}
	if useTable && bestMove >= 0 {
		// The table keeps the move as it is on the canonical image.
		n := entry{a: a0, b: b0, lo: -1, hi: 1, move: int8(p.g.perm[sym][bestMove]), empty: int8(ne)}
		n.lo, n.hi = bounds(best, alpha0, beta0)
		p.t.store(n)
	}
	return best
}

// bounds returns what a fail-soft result best within the window (alpha,
// beta) says of the value: an upper bound, a lower bound, or both.
func bounds(best, alpha, beta int8) (lo, hi int8) {
	switch {
	case best <= alpha:
		return -1, best
	case best >= beta:
		return best, 1
	}
	return best, best
}

// scanLines reads the rows of the position with ne empty squares, own to
// move: win holds the squares that complete an own row, threat those that
// complete one of the opponent's, live the squares of every row either
// side can still complete with the moves it has left (liveMe, liveOpp: one
// such row exists).
func (g *game) scanLines(own, opp uint64, ne int) (win, threat, live uint64, liveMe, liveOpp bool) {
	mine, theirs := (ne+1)/2, ne/2 // moves left to each side
	k := g.k
	for _, l := range g.lines {
		if l&opp == 0 {
			need := k - bits.OnesCount64(l&own)
			if need == 1 {
				win |= l &^ own
			}
			if need <= mine {
				liveMe = true
				live |= l
			}
		}
		if l&own == 0 {
			need := k - bits.OnesCount64(l&opp)
			if need == 1 {
				threat |= l &^ opp
			}
			if need <= theirs {
				liveOpp = true
				live |= l
			}
		}
	}
	return win, threat, live, liveMe, liveOpp
}

// orderMoves returns the moves in the order to search them: the table's
// move first, then by the rows each serves (own and blocking), most first.
func (p *prover) orderMoves(own, opp, moves, live uint64, ply int, hint int8) []int8 {
	sc := p.scores[ply]
	order := p.order[ply][:0]
	for s := moves; s != 0; s &= s - 1 {
		sc[bits.TrailingZeros64(s)] = 0
	}
	for _, l := range p.g.lines {
		if l&live == 0 || l&moves == 0 {
			continue
		}
		var w int32
		if l&opp == 0 {
			w += rowWeight[min(bits.OnesCount64(l&own), len(rowWeight)-1)]
		}
		if l&own == 0 {
			w += rowWeight[min(bits.OnesCount64(l&opp), len(rowWeight)-1)]
		}
		for s := l & moves; s != 0; s &= s - 1 {
			sc[bits.TrailingZeros64(s)] += w
		}
	}
	if hint >= 0 && moves&(1<<hint) != 0 {
		sc[hint] = 1 << 30
	}
	for s := moves; s != 0; s &= s - 1 {
		q := int8(bits.TrailingZeros64(s))
		i := len(order)
		order = append(order, q)
		for i > 0 && sc[order[i-1]] < sc[q] {
			order[i] = order[i-1]
			i--
		}
		order[i] = q
	}
	p.order[ply] = order
	return order
}

// bestFirst returns the moves of a position (own to move) in search
// order, the table's move first: the order in which the principal line
// tries them, so that it mostly tries a best move first.
func (p *prover) bestFirst(own, opp uint64) []int8 {
	empty := p.g.full &^ (own | opp)
	ne := bits.OnesCount64(empty)
	hint := int8(-1)
	a, b, sym := p.canon(own, opp)
	if e, ok := p.t.probe(a, b); ok && e.move >= 0 {
		hint = int8(p.g.inv[sym][e.move])
	}
	return slices.Clone(p.orderMoves(own, opp, empty, p.g.full, ne, hint))
}

// split is one first move (m1) of the side to move and the distinct
// replies to it; value[j] is set for a reply that ends the game.
type split struct {
	m1      int8
	replies []int8
	ends    []int8 // per reply: 2 if the game goes on, else its value for the first mover
	refuted atomic.Bool
	passed  atomic.Int32
}

// rootSplits lists the first two plies up to symmetry, the first moves in
// search order. A first move that wins at once is returned as won.
func rootSplits(p *prover, own, opp uint64) (splits []*split, won int8) {
	g := p.g
	empty := g.full &^ (own | opp)
	seen := map[[2]uint64]bool{}
	for _, q := range p.orderMoves(own, opp, empty, g.full, 0, -1) {
		if g.wins(own|1<<q, int(q)) {
			return nil, q
		}
		a, b, _ := p.canon(opp, own|1<<q)
		if seen[[2]uint64{a, b}] {
			continue
		}
		seen[[2]uint64{a, b}] = true
		sp := &split{m1: q}
		o2, p2 := opp, own|1<<q
		rest := g.full &^ (o2 | p2)
		seen2 := map[[2]uint64]bool{}
		for _, r := range p.orderMoves(o2, p2, rest, g.full, 1, -1) {
			c, d, _ := p.canon(p2, o2|1<<r)
			if seen2[[2]uint64{c, d}] {
				continue
			}
			seen2[[2]uint64{c, d}] = true
			end := int8(2)
			switch {
			case g.wins(o2|1<<r, int(r)):
				end = -1
			case rest&(rest-1) == 0:
				end = 0
			}
			sp.replies = append(sp.replies, r)
			sp.ends = append(sp.ends, end)
		}
		splits = append(splits, sp)
	}
	return splits, -1
}

// atLeast decides on the threads whether the side to move can reach value
// t or better: whether some first move holds t against every reply. It
// returns the answer and the first move that holds it. The replies are
// the tasks, in order; a reply other than the first of its first move
// waits until that first reply held (young brothers wait): a first move
// that fails is mostly refuted by its first reply, so the threads refute
// different first moves instead of racing on one. When the first reply of
// the leading first move (the first not refuted, the likeliest to hold)
// holds, threads busy with later first moves are called back (their work
// so far stays in the table) to search its other replies side by side. A
// task is abandoned as soon as another refutes its first move, or the
// question is settled.
func atLeast(ctx context.Context, provers []*prover, splits []*split, own, opp uint64, t int8) (bool, int8) {
	for i, sp := range splits {
		if len(sp.replies) == 0 && t <= 0 {
			// The first move fills the board: a draw.
			return true, splits[i].m1
		}
	}
	q := &atLeastRun{ctx: ctx, splits: splits, own: own, opp: opp, t: t, holds: -1}
	q.wake = sync.NewCond(&q.mu)
	for i, sp := range splits {
		sp.refuted.Store(false)
		sp.passed.Store(0)
		for j := range sp.replies {
			q.tasks = append(q.tasks, atLeastTask{i, j})
		}
	}
	q.taken = make([]bool, len(q.tasks))
	q.eldest = make([]bool, len(splits))
	q.running = make([]int, len(provers))
	q.recall = make([]atomic.Bool, len(provers))
	for w := range q.running {
		q.running[w] = -1
	}
	var wg sync.WaitGroup
	for w, p := range provers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q.work(w, p)
		}()
	}
	wg.Wait()
	return q.holds >= 0, q.holds
}

// atLeastTask is one reply (r) to one first move (s, an index in splits).
type atLeastTask struct{ s, r int }

// atLeastRun is one atLeast question shared by its threads: the tasks,
// which are taken, and what is known of each first move, under mu.
type atLeastRun struct {
	ctx      context.Context
	splits   []*split
	own, opp uint64
	t        int8

	mu      sync.Mutex
	wake    *sync.Cond
	tasks   []atLeastTask
	taken   []bool
	eldest  []bool        // per first move: its first reply held
	running []int         // each thread's task, or -1
	recall  []atomic.Bool // per thread: leave the task for the leading first move's
	done    atomic.Bool
	holds   int8 // the first move that holds t, or -1
}

func (q *atLeastRun) stopAll() bool { return q.done.Load() || q.ctx.Err() != nil }

// lead returns the index of the first first move not refuted, or -1.
func (q *atLeastRun) lead() int {
	return slices.IndexFunc(q.splits, func(sp *split) bool { return !sp.refuted.Load() })
}

// next takes the next task thread w may start, waiting while the only
// ones left wait for their first reply; -1 when there is none.
func (q *atLeastRun) next(w int) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.running[w] = -1
	for !q.stopAll() {
		waiting := false
		for i, tk := range q.tasks {
			switch {
			case q.taken[i]:
			case q.splits[tk.s].refuted.Load():
				q.taken[i] = true
			case tk.r > 0 && !q.eldest[tk.s]:
				waiting = true
			default:
				q.taken[i], q.running[w] = true, i
				q.recall[w].Store(false)
				return i
			}
		}
		if !waiting {
			return -1
		}
		q.wake.Wait()
	}
	return -1
}

// finish records task tk's value v, and calls back the threads busy with
// first moves after the leading one once its first reply held.
func (q *atLeastRun) finish(tk atLeastTask, v int8) {
	q.mu.Lock()
	defer q.mu.Unlock()
	sp := q.splits[tk.s]
	switch {
	case v < q.t:
		sp.refuted.Store(true)
	case int(sp.passed.Add(1)) == len(sp.replies):
		if q.holds < 0 {
			q.holds = sp.m1
		}
		q.done.Store(true)
	}
	if v >= q.t && tk.r == 0 {
		q.eldest[tk.s] = true
	}
	if l := q.lead(); l >= 0 && q.eldest[l] {
		for w, i := range q.running {
			if i >= 0 && q.tasks[i].s > l {
				q.recall[w].Store(true)
			}
		}
	}
	q.wake.Broadcast()
}

// putBack returns a recalled task to the pool.
func (q *atLeastRun) putBack(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.taken[i] = false
	q.wake.Broadcast()
}

// work is thread w's loop: it searches tasks with p until none is left.
func (q *atLeastRun) work(w int, p *prover) {
	defer func() {
		q.mu.Lock()
		q.running[w] = -1
		q.wake.Broadcast()
		q.mu.Unlock()
	}()
	for {
		n := q.next(w)
		if n < 0 {
			return
		}
		tk := q.tasks[n]
		sp := q.splits[tk.s]
		v := sp.ends[tk.r]
		if v == 2 {
			p.abort, p.done, p.recall, p.stopped = &sp.refuted, &q.done, &q.recall[w], false
			v = p.ab(q.own|1<<sp.m1, q.opp|1<<sp.replies[tk.r], q.t-1, q.t)
			if p.stopped {
				switch {
				case q.stopAll():
					return
				case q.recall[w].Load() && !sp.refuted.Load():
					q.putBack(n)
				}
				continue
			}
		}
		q.finish(tk, v)
	}
}

// value solves the position for the side to move on threads threads: first
// whether it wins, then whether it draws. It returns the value and a first
// move that achieves it.
func solveValue(ctx context.Context, g *game, own, opp uint64, threads int) (v int8, move int8, provers []*prover) {
	t := newTable(g.n)
	for range threads {
		provers = append(provers, newProver(ctx, g, t))
	}
	splits, won := rootSplits(provers[0], own, opp)
	if won >= 0 {
		return 1, won, provers
	}
	if ok, m := atLeast(ctx, provers, splits, own, opp, 1); ok {
		return 1, m, provers
	}
	if ok, m := atLeast(ctx, provers, splits, own, opp, 0); ok {
		return 0, m, provers
	}
	return -1, splits[0].m1, provers
}

// valueSearch answers task value by alpha-beta; the solution is a game
// played on by best moves.
func valueSearch(ctx context.Context, req puzzle.Request, m puzzle.MNK) (puzzle.Answer, error) {
	if err := refuseValue(m); err != nil {
		return puzzle.Answer{}, err
	}
	g := newGame(m)
	x, o, xToMove := start(m)
	own, opp := x, o
	if !xToMove {
		own, opp = o, x
	}
	v, first, provers := solveValue(ctx, g, own, opp, search.Threads(req.Threads))
	// Each thread's share of the solve (before the principal line), so
	// that the split between threads can be read off an answer.
	split := map[string]int64{}
	if len(provers) > 1 {
		for i, p := range provers {
			split[fmt.Sprintf("nodes_thread_%d", i+1)] = p.nodes
		}
	}
	stopped := ctx.Err() != nil
	var pv []int8
	if !stopped {
		p := provers[0]
		p.abort, p.done, p.recall, p.stopped = nil, nil, nil, false
		geq := func(a, b uint64, t int8) bool { return p.ab(a, b, t-1, t) >= t }
		pv = []int8{first}
		if !g.wins(own|1<<first, int(first)) {
			pv = append(pv, principal(g, opp, own|1<<first, -v, geq, p.bestFirst)...)
		}
		stopped = p.stopped
	}
	ans := valueAnswer(v, pv, m, sumNodes(provers), stopped)
	for k, n := range split {
		ans.Stats[k] = n
	}
	return ans, nil
}

func sumNodes(ps []*prover) int64 {
	var n int64
	for _, p := range ps {
		n += p.nodes
	}
	return n
}

// alphaBetaSolve dispatches the default strategy's tasks.
func alphaBetaSolve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	m := req.Spec.(puzzle.MNK)
	switch req.Task {
	case puzzle.Value:
		return valueSearch(ctx, req, m)
	case puzzle.Count:
		return count(ctx, m)
	case puzzle.First, puzzle.All:
		return enumerate(ctx, req, m)
	}
	return puzzle.Answer{}, fmt.Errorf("native heuristic alphabeta does not do task %s", req.Task)
}
