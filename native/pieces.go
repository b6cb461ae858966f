package native

// Non-attacking pieces strategies.
//
// The seed's algorithm (seeds/000): a depth-first search that keeps, per
// piece type, the set of squares still free for it, and places all copies
// of one type at once as a combination of its free squares (so identical
// pieces never give duplicate placements). Three heuristics pick the type to
// place next: fewest copies left (copies), fewest free squares (free), or
// trying every type and taking the one that leaves fewest moves (lookahead).
// The seed's "lifted" pruning, a switch, also drops from each type's free
// squares those from which it would attack a placed piece. Each combination
// is its own strategy: copies, free, lookahead, and the same with -lifted.
//
// fast (the default): a bitboard counter that places one piece at a time,
// most constraining types first, identical pieces in increasing square
// order, with per-type masks of squares from which the type would attack a
// placed piece; it counts the last piece's squares by popcount instead of
// visiting them, counts one placement of the first type per class under the
// board's symmetries (4 for rectangles, 8 for squares) weighted by its class
// size, and spreads subproblems over all cores. Boards of up to 64 squares
// use single-word masks, boards up to 256 squares four-word masks; larger
// boards fall back to copies-lifted.

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/puzzle"
)

// piecesPollMask sets how often searches poll their context: every 4096 nodes.
const piecesPollMask = 4095

// Heuristics of the seed's search.
const (
	piecesByCopies    = iota // fewest copies left
	piecesByFree             // fewest free squares
	piecesByLookahead        // fewest moves after trying every type
)

func init() {
	tasks := []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All}
	heur := []struct {
		name string
		h    int
		doc  string
	}{
		{"copies", piecesByCopies, "seed DFS, places all copies of the type with fewest copies left"},
		{"free", piecesByFree, "seed DFS, places all copies of the type with fewest free squares"},
		{"lookahead", piecesByLookahead, "seed DFS, places the type whose placements leave fewest moves (slow)"},
	}
	for _, lifted := range []bool{false, true} {
		for _, x := range heur {
			name, doc := x.name, x.doc
			if lifted {
				name += "-lifted"
				doc += ", with the lifted pruning"
			}
			h, l := x.h, lifted
			register(Strategy{Puzzle: "pieces", Name: name, Doc: doc, Tasks: tasks,
				Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
					return piecesSolveSeed(ctx, req, h, l)
				}})
		}
	}
	register(Strategy{Puzzle: "pieces", Name: "fast", Default: true, Tasks: tasks, Solve: piecesSolveFast,
		Doc: "bitboard counter: one piece at a time, popcount at the last piece, board symmetry, all cores; over 256 squares runs copies-lifted"})
}

// piecesSpec checks a pieces request.
func piecesSpec(req puzzle.Request) (puzzle.Pieces, error) {
	p, ok := req.Spec.(puzzle.Pieces)
	if !ok {
		return p, fmt.Errorf("not a pieces instance: %s", req.Spec)
	}
	if p.Board.W < 1 || p.Board.H < 1 {
		return p, fmt.Errorf("pieces: bad board %s", p.Board)
	}
	for k, c := range p.Count {
		if c < 0 {
			return p, fmt.Errorf("pieces: negative count %d of %c", c, puzzle.Kind(k).Letter())
		}
	}
	if p.Total() > p.Board.Size() {
		return p, fmt.Errorf("pieces: %d pieces do not fit on %d squares", p.Total(), p.Board.Size())
	}
	return p, nil
}

// piecesRun collects what every pieces strategy reports.
type piecesRun struct {
	ctx     context.Context
	req     puzzle.Request
	board   puzzle.Board
	nodes   int64
	ticks   int64
	halted  bool
	count   uint64
	first   *puzzle.Solution
	emitErr error
}

// poll checks the context every 4096 nodes; once it reports true it keeps
// doing so.
func (r *piecesRun) poll() bool {
	if !r.halted && r.nodes&piecesPollMask == 0 && r.ctx.Err() != nil {
		r.halted = true
	}
	return r.halted
}

// tick polls the context every 4096 calls, for loops that visit no node
// (the seed's combinations); it reports whether to stop.
func (r *piecesRun) tick() bool {
	r.ticks++
	if !r.halted && r.ticks&piecesPollMask == 0 && r.ctx.Err() != nil {
		r.halted = true
	}
	return r.halted
}

// found handles one solution for the request's task (First or All); it
// returns false to stop the search.
func (r *piecesRun) found(squares []puzzle.Square, kinds []puzzle.Kind) bool {
	r.count++
	switch r.req.Task {
	case puzzle.First:
		sol := puzzle.PlacementOf(r.board, squares, kinds)
		r.first = &sol
		return false
	case puzzle.All:
		if r.req.Emit != nil {
			if err := r.req.Emit(puzzle.PlacementOf(r.board, squares, kinds)); err != nil {
				r.emitErr = err
				return false
			}
		}
	}
	return true
}

// answer builds the answer of a finished or stopped run.
func (r *piecesRun) answer() (puzzle.Answer, error) {
	return searchAnswer(r.req.Task, r.count, r.nodes, r.halted, r.first, r.emitErr)
}

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

// ---------------------------------------------------------------------------
// The fast counter.

// piecesPlan is the placement order shared by the fast engines: one slot
// per piece, kinds most constraining first, copies of a kind consecutive.
type piecesPlan struct {
	board puzzle.Board
	n     int
	kinds []puzzle.Kind // kinds present, in placement order
	slot  []int         // slot[i]: index into kinds of slot i's kind
	first []bool        // first[i]: slot i is the first copy of its kind
	// need[i][j]: copies of kinds[j] still to place after slot i is filled.
	need [][puzzle.NumKinds]int
	sym  [][]int // the board's symmetries as square permutations (identity first)
}

// newPiecesPlan orders the kinds by total attack-set size on the board,
// largest first (queens, then rooks or bishops, ...), ties in spec order.
func newPiecesPlan(p puzzle.Pieces) *piecesPlan {
	b := p.Board
	pl := &piecesPlan{board: b, n: b.Size()}
	weight := map[puzzle.Kind]int{}
	for k := range puzzle.Kind(puzzle.NumKinds) {
		if p.Count[k] == 0 {
			continue
		}
		pl.kinds = append(pl.kinds, k)
		for q := range pl.n {
			weight[k] += len(b.Attacks(k, puzzle.Square(q)))
		}
	}
	slices.SortStableFunc(pl.kinds, func(a, c puzzle.Kind) int { return weight[c] - weight[a] })
	for j, k := range pl.kinds {
		for c := range p.Count[k] {
			pl.slot = append(pl.slot, j)
			pl.first = append(pl.first, c == 0)
		}
	}
	pl.need = make([][puzzle.NumKinds]int, len(pl.slot))
	for i := range pl.slot {
		for t := i + 1; t < len(pl.slot); t++ {
			pl.need[i][pl.slot[t]]++
		}
	}
	pl.sym = piecesSymmetries(b)
	return pl
}

// piecesSymmetries returns the symmetries of the board as permutations of
// its squares, the identity first: 4 for a rectangle, 8 for a square. Every
// piece's attacks are invariant under them.
func piecesSymmetries(b puzzle.Board) [][]int {
	w, h := b.W, b.H
	maps := []func(f, r int) (int, int){
		func(f, r int) (int, int) { return f, r },
		func(f, r int) (int, int) { return w - 1 - f, r },
		func(f, r int) (int, int) { return f, h - 1 - r },
		func(f, r int) (int, int) { return w - 1 - f, h - 1 - r },
	}
	if w == h {
		maps = append(maps,
			func(f, r int) (int, int) { return r, f },
			func(f, r int) (int, int) { return w - 1 - r, f },
			func(f, r int) (int, int) { return r, w - 1 - f },
			func(f, r int) (int, int) { return w - 1 - r, w - 1 - f },
		)
	}
	out := make([][]int, len(maps))
	for g, m := range maps {
		perm := make([]int, b.Size())
		for q := range perm {
			f, r := b.FileRank(puzzle.Square(q))
			nf, nr := m(f, r)
			perm[q] = int(b.Sq(nf, nr))
		}
		out[g] = perm
	}
	return out
}

// weight returns how many placements the set of squares set stands for if
// it is the least (as a sorted list) of its images under the board's
// symmetries, and 0 if it is not.
func (pl *piecesPlan) weight(set []int) uint64 {
	img := make([]int, len(set))
	fixed := 0
	for _, perm := range pl.sym {
		for i, q := range set {
			img[i] = perm[q]
		}
		slices.Sort(img)
		switch c := slices.Compare(img, set); {
		case c < 0:
			return 0
		case c == 0:
			fixed++
		}
	}
	return uint64(len(pl.sym) / fixed)
}

// piecesTask is one subproblem of the fast counter: the first slots filled
// (squares in slot order) and the weight of their class.
type piecesTask struct {
	prefix []int
	weight uint64
}

// piecesSymSets bounds the number of ways to choose the first kind's
// squares for which the fast counter enumerates them up to symmetry (and
// the number of subproblems it makes).
const piecesSymSets = 200000

// piecesChoose returns n choose k, saturating at 1<<62.
func piecesChoose(n, k int) uint64 {
	c := uint64(1)
	for i := range k {
		c = c * uint64(n-i) / uint64(i+1)
		if c > 1<<62/uint64(n+1) {
			return 1 << 62
		}
	}
	return c
}

// tasks splits the count into subproblems (and reports the partial
// placements it visited): each placement of the first
// kind's copies up to symmetry (weighted by its class size), extended by
// every square of the next slot; with many copies of the first kind, simply
// the first two slots' squares.
func (pl *piecesPlan) tasks(legal func(prefix []int) bool) (out []piecesTask, nodes int64) {
	c0 := 0
	for c0 < len(pl.slot) && pl.slot[c0] == 0 {
		c0++
	}
	sets := piecesChoose(pl.n, c0)
	useSym := c0 < len(pl.slot) && sets <= piecesSymSets && len(pl.sym) > 1
	depth := min(2, len(pl.slot))
	if useSym {
		depth = c0
		if sets*uint64(pl.n) <= piecesSymSets {
			depth++
		}
	}
	prefix := make([]int, 0, depth)
	var walk func()
	walk = func() {
		i := len(prefix)
		if i == depth {
			w := uint64(1)
			if useSym {
				if w = pl.weight(prefix[:c0]); w == 0 {
					return
				}
			}
			out = append(out, piecesTask{slices.Clone(prefix), w})
			return
		}
		start := 0
		if !pl.first[i] {
			start = prefix[i-1] + 1
		}
		for q := start; q < pl.n; q++ {
			prefix = append(prefix, q)
			if legal(prefix) {
				nodes++
				if useSym && i+1 == c0 && pl.weight(prefix) == 0 {
					prefix = prefix[:i]
					continue
				}
				walk()
			}
			prefix = prefix[:i]
		}
	}
	walk()
	return out, nodes
}

// piecesSolveFast answers with the fast counter.
func piecesSolveFast(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	p, err := piecesSpec(req)
	if err != nil {
		return puzzle.Answer{}, err
	}
	if p.Board.Size() > 256 {
		ans, err := piecesSolveSeed(ctx, req, piecesByCopies, true)
		ans.Heuristic = "copies-lifted"
		return ans, err
	}
	pl := newPiecesPlan(p)
	threads := req.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	run := &piecesRun{ctx: ctx, req: req, board: p.Board}
	if len(pl.slot) == 0 {
		run.count = 1
		if req.Task != puzzle.Count {
			run.count = 0
			run.found(nil, nil)
		}
		return run.answer()
	}
	var e piecesEngine
	if pl.n <= 64 {
		e = newPieces64(pl)
	} else {
		e = newPiecesWide(pl)
	}
	if req.Task != puzzle.Count {
		e.enumerate(run)
		return run.answer()
	}
	var stop atomic.Bool
	tasks, nodes := pl.tasks(e.legal)
	run.nodes = nodes
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := e.worker(ctx, &stop)
			var sum uint64
			for {
				i := next.Add(1) - 1
				if i >= int64(len(tasks)) || stop.Load() {
					break
				}
				if ctx.Err() != nil {
					stop.Store(true)
					break
				}
				sum += tasks[i].weight * w.countFrom(tasks[i].prefix)
			}
			mu.Lock()
			run.count += sum
			run.nodes += w.nodeCount()
			mu.Unlock()
		}()
	}
	wg.Wait()
	run.halted = stop.Load()
	return run.answer()
}

// piecesEngine is a fast counter for one board size class.
type piecesEngine interface {
	// legal reports whether the squares of the first slots are a legal
	// partial placement (in order, no threats).
	legal(prefix []int) bool
	// enumerate visits every solution in order, for First and All.
	enumerate(run *piecesRun)
	// worker returns a counter for subproblems that polls ctx and stop.
	worker(ctx context.Context, stop *atomic.Bool) piecesCounter
}

// piecesCounter counts the completions of subproblems.
type piecesCounter interface {
	countFrom(prefix []int) uint64
	nodeCount() int64
}

// ---------------------------------------------------------------------------
// Single-word engine: boards of up to 64 squares.

// pieces64 holds the tables of the single-word engine.
type pieces64 struct {
	pl    *piecesPlan
	all   uint64
	att   [puzzle.NumKinds][64]uint64 // att[j][q]: squares kinds[j] on q attacks
	above [64]uint64                  // squares after q
}

func newPieces64(pl *piecesPlan) *pieces64 {
	e := &pieces64{pl: pl}
	if pl.n == 64 {
		e.all = ^uint64(0)
	} else {
		e.all = 1<<uint(pl.n) - 1
	}
	for j, k := range pl.kinds {
		for q := range pl.n {
			for _, t := range pl.board.Attacks(k, puzzle.Square(q)) {
				e.att[j][q] |= 1 << uint(t)
			}
		}
	}
	for q := range pl.n {
		e.above[q] = e.all &^ (2<<uint(q) - 1)
	}
	return e
}

// pieces64State is the search state: squares no piece may take (occupied or
// attacked), per kind the squares from which it would attack a placed
// piece, and the last square taken.
type pieces64State struct {
	blocked uint64
	forb    [puzzle.NumKinds]uint64
	last    int
}

// cand returns the squares slot i may take.
func (e *pieces64) cand(i int, st *pieces64State) uint64 {
	c := e.all &^ (st.blocked | st.forb[e.pl.slot[i]])
	if !e.pl.first[i] {
		c &= e.above[st.last]
	}
	return c
}

// place puts slot i's piece on q.
func (e *pieces64) place(i, q int, st *pieces64State) {
	j := e.pl.slot[i]
	st.blocked |= 1<<uint(q) | e.att[j][q]
	for u := j + 1; u < len(e.pl.kinds); u++ {
		st.forb[u] |= e.att[u][q]
	}
	st.last = q
}

// legal reports whether prefix is a legal partial placement.
func (e *pieces64) legal(prefix []int) bool {
	var st pieces64State
	for i, q := range prefix {
		if e.cand(i, &st)&(1<<uint(q)) == 0 {
			return false
		}
		e.place(i, q, &st)
	}
	return true
}

// enumerate visits every solution, in increasing order of squares per slot.
func (e *pieces64) enumerate(run *piecesRun) {
	m := len(e.pl.slot)
	sq := make([]puzzle.Square, m)
	kinds := make([]puzzle.Kind, m)
	for i, j := range e.pl.slot {
		kinds[i] = e.pl.kinds[j]
	}
	var walk func(i int, st pieces64State) bool
	walk = func(i int, st pieces64State) bool {
		if i == m {
			return run.found(sq, kinds)
		}
		c := e.cand(i, &st)
		for c != 0 {
			q := bits.TrailingZeros64(c)
			c &= c - 1
			run.nodes++
			if run.poll() {
				return false
			}
			sq[i] = puzzle.Square(q)
			nst := st
			e.place(i, q, &nst)
			if !walk(i+1, nst) {
				return false
			}
		}
		return true
	}
	walk(0, pieces64State{})
}

// pieces64Worker counts subproblems on the single-word engine.
type pieces64Worker struct {
	*pieces64
	ctx    context.Context
	stop   *atomic.Bool
	nodes  int64
	ticks  int64 // loop iterations, for polling
	halted bool
	m      int
	slot   []int
	first  []bool
	// needAt[i][u]: copies of kinds[u] to place after slot i.
	needAt [][puzzle.NumKinds]int
}

func (e *pieces64) worker(ctx context.Context, stop *atomic.Bool) piecesCounter {
	return &pieces64Worker{pieces64: e, ctx: ctx, stop: stop, m: len(e.pl.slot),
		slot: e.pl.slot, first: e.pl.first, needAt: e.pl.need}
}

func (w *pieces64Worker) nodeCount() int64 { return w.nodes }

func (w *pieces64Worker) countFrom(prefix []int) uint64 {
	if w.halted {
		return 0
	}
	var st pieces64State
	for i, q := range prefix {
		w.place(i, q, &st)
	}
	if len(prefix) == w.m {
		return 1
	}
	return w.count(len(prefix), st)
}

// count counts the completions from slot i: the last slot by popcount.
func (w *pieces64Worker) count(i int, st pieces64State) uint64 {
	j := w.slot[i]
	c := w.all &^ (st.blocked | st.forb[j])
	if !w.first[i] {
		c &= w.above[st.last]
	}
	if i == w.m-1 {
		return uint64(bits.OnesCount64(c))
	}
	var total uint64
	att := &w.att[j]
	if i == w.m-2 {
		// The last two pieces: the second by popcount for each first.
		u := w.slot[i+1]
		w.nodes += int64(bits.OnesCount64(c))
		for c != 0 {
			q := bits.TrailingZeros64(c)
			c &= c - 1
			free := w.all &^ (st.blocked | 1<<uint(q) | att[q])
			if u == j {
				total += uint64(bits.OnesCount64(free &^ st.forb[j] & w.above[q]))
			} else {
				total += uint64(bits.OnesCount64(free &^ (st.forb[u] | w.att[u][q])))
			}
		}
		return total
	}
	nk := len(w.pl.kinds)
	need := &w.needAt[i]
	for c != 0 {
		q := bits.TrailingZeros64(c)
		c &= c - 1
		w.nodes++
		w.ticks++
		if w.halted || (w.ticks&piecesPollMask == 0 && w.poll()) {
			return 0
		}
		nst := st
		nst.blocked |= 1<<uint(q) | att[q]
		nst.last = q
		free := w.all &^ nst.blocked
		ok := true
		// Later copies of this kind go after q.
		if need[j] > 0 && bits.OnesCount64(free&^st.forb[j]&w.above[q]) < need[j] {
			continue
		}
		for u := j + 1; u < nk; u++ {
			nst.forb[u] |= w.att[u][q]
			if bits.OnesCount64(free&^nst.forb[u]) < need[u] {
				ok = false
				break
			}
		}
		if ok {
			total += w.count(i+1, nst)
		}
	}
	return total
}

// poll reports whether to stop (context done or another worker stopped).
func (w *pieces64Worker) poll() bool {
	if !w.halted && (w.stop.Load() || w.ctx.Err() != nil) {
		w.stop.Store(true)
		w.halted = true
	}
	return w.halted
}

// ---------------------------------------------------------------------------
// Four-word engine: boards of 65 to 256 squares.

// piecesWord is a set of up to 256 squares.
type piecesWord [4]uint64

func (a piecesWord) or(b piecesWord) piecesWord {
	return piecesWord{a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]}
}

func (a piecesWord) andNot(b piecesWord) piecesWord {
	return piecesWord{a[0] &^ b[0], a[1] &^ b[1], a[2] &^ b[2], a[3] &^ b[3]}
}

func (a piecesWord) count() int {
	return bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) + bits.OnesCount64(a[2]) + bits.OnesCount64(a[3])
}

func (a piecesWord) has(q int) bool { return a[q>>6]&(1<<uint(q&63)) != 0 }

func (a *piecesWord) add(q int) { a[q>>6] |= 1 << uint(q&63) }

// next removes and returns the lowest square of a, or -1 if it is empty.
func (a *piecesWord) next() int {
	for i, w := range a {
		if w != 0 {
			a[i] = w & (w - 1)
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// piecesWide holds the tables of the four-word engine.
type piecesWide struct {
	pl    *piecesPlan
	all   piecesWord
	att   [puzzle.NumKinds][]piecesWord
	above []piecesWord
}

func newPiecesWide(pl *piecesPlan) *piecesWide {
	e := &piecesWide{pl: pl, above: make([]piecesWord, pl.n)}
	for q := range pl.n {
		e.all.add(q)
	}
	for j, k := range pl.kinds {
		e.att[j] = make([]piecesWord, pl.n)
		for q := range pl.n {
			for _, t := range pl.board.Attacks(k, puzzle.Square(q)) {
				e.att[j][q].add(int(t))
			}
		}
	}
	for q := range pl.n {
		for t := q + 1; t < pl.n; t++ {
			e.above[q].add(t)
		}
	}
	return e
}

// piecesWideState is pieces64State on four words.
type piecesWideState struct {
	blocked piecesWord
	forb    [puzzle.NumKinds]piecesWord
	last    int
}

func (e *piecesWide) cand(i int, st *piecesWideState) piecesWord {
	c := e.all.andNot(st.blocked.or(st.forb[e.pl.slot[i]]))
	if !e.pl.first[i] {
		a := e.above[st.last]
		c = piecesWord{c[0] & a[0], c[1] & a[1], c[2] & a[2], c[3] & a[3]}
	}
	return c
}

func (e *piecesWide) place(i, q int, st *piecesWideState) {
	j := e.pl.slot[i]
	var bit piecesWord
	bit.add(q)
	st.blocked = st.blocked.or(bit).or(e.att[j][q])
	for u := j + 1; u < len(e.pl.kinds); u++ {
		st.forb[u] = st.forb[u].or(e.att[u][q])
	}
	st.last = q
}

func (e *piecesWide) legal(prefix []int) bool {
	var st piecesWideState
	for i, q := range prefix {
		if !e.cand(i, &st).has(q) {
			return false
		}
		e.place(i, q, &st)
	}
	return true
}

func (e *piecesWide) enumerate(run *piecesRun) {
	m := len(e.pl.slot)
	sq := make([]puzzle.Square, m)
	kinds := make([]puzzle.Kind, m)
	for i, j := range e.pl.slot {
		kinds[i] = e.pl.kinds[j]
	}
	var walk func(i int, st piecesWideState) bool
	walk = func(i int, st piecesWideState) bool {
		if i == m {
			return run.found(sq, kinds)
		}
		c := e.cand(i, &st)
		for q := c.next(); q >= 0; q = c.next() {
			run.nodes++
			if run.poll() {
				return false
			}
			sq[i] = puzzle.Square(q)
			nst := st
			e.place(i, q, &nst)
			if !walk(i+1, nst) {
				return false
			}
		}
		return true
	}
	walk(0, piecesWideState{})
}

// piecesWideWorker counts subproblems on the four-word engine.
type piecesWideWorker struct {
	*piecesWide
	ctx    context.Context
	stop   *atomic.Bool
	nodes  int64
	halted bool
}

func (e *piecesWide) worker(ctx context.Context, stop *atomic.Bool) piecesCounter {
	return &piecesWideWorker{piecesWide: e, ctx: ctx, stop: stop}
}

func (w *piecesWideWorker) nodeCount() int64 { return w.nodes }

func (w *piecesWideWorker) countFrom(prefix []int) uint64 {
	if w.halted {
		return 0
	}
	var st piecesWideState
	for i, q := range prefix {
		w.place(i, q, &st)
	}
	if len(prefix) == len(w.pl.slot) {
		return 1
	}
	return w.count(len(prefix), st)
}

func (w *piecesWideWorker) count(i int, st piecesWideState) uint64 {
	c := w.cand(i, &st)
	if i == len(w.pl.slot)-1 {
		return uint64(c.count())
	}
	j := w.pl.slot[i]
	need := &w.pl.need[i]
	var total uint64
	for q := c.next(); q >= 0; q = c.next() {
		w.nodes++
		if w.halted || (w.nodes&piecesPollMask == 0 && w.poll()) {
			return 0
		}
		nst := st
		w.place(i, q, &nst)
		free := w.all.andNot(nst.blocked)
		ok := true
		for u := j; u < len(w.pl.kinds) && ok; u++ {
			f := free.andNot(nst.forb[u])
			if u == j {
				a := w.above[q]
				f = piecesWord{f[0] & a[0], f[1] & a[1], f[2] & a[2], f[3] & a[3]}
			}
			ok = f.count() >= need[u]
		}
		if ok {
			total += w.count(i+1, nst)
		}
	}
	return total
}

func (w *piecesWideWorker) poll() bool {
	if !w.halted && (w.stop.Load() || w.ctx.Err() != nil) {
		w.stop.Store(true)
		w.halted = true
	}
	return w.halted
}
