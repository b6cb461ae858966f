package tour

// Knight's tours: the exhaustive counter and first-tour search, with
// dead-end pruning, start-class symmetry and subproblems on all cores.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/boardsat/boardsat/internal/subproblem"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/native/symmetry"
	"github.com/boardsat/boardsat/puzzle"
)

// ---------------------------------------------------------------------------
// Exhaustive search.

// tourSearch is the state of one exhaustive depth-first search. It keeps,
// for every square, its number of unvisited neighbours (cnt) and how many
// unvisited squares have 0 or 1 of them, which gives the pruning rules: with
// more than one square left, no unvisited square may be cut off, no
// neighbour of the current square may be a dead end, and at most one
// unvisited square (the path's end) may have a single way in.
type tourSearch struct {
	g       *tourGraph
	visited []bool
	cnt     []int8
	c0, c1  int
	left    int
	end     int32 // the fixed last square (closed tours), or -1
	path    []int32

	nodes, backtracks int64
	count             uint64
	first             bool // stop at the first tour
	found             bool
	stopped           bool
	stop              *atomic.Bool
	ctx               context.Context
	order             []int32 // scratch for candidate ordering
	keys              []int64 // scratch: the candidates' keys
	// key, if set, orders a first search's moves (smaller first) instead of
	// fewest onward moves; i is the move's index in the seed's order.
	key func(u int32, i int) int64
	// budget, if positive, stops a first search after that many dead ends.
	budget int64
	// closedStart, if not -1, asks for a closed tour back to this square.
	closedStart int32
	// connect adds the connectivity prune: every unvisited square must be
	// reachable from the current one through unvisited squares.
	connect bool
	stamp   []int32 // connectivity scratch: visit marks
	mark    int32
	queue   []int32
}

func newTourSearch(g *tourGraph) *tourSearch {
	s := &tourSearch{g: g, visited: make([]bool, g.n), cnt: make([]int8, g.n), end: -1, closedStart: -1,
		path: make([]int32, 0, g.n), order: make([]int32, 0, 8*g.n), keys: make([]int64, 0, 8*g.n)}
	s.reset()
	return s
}

func (s *tourSearch) reset() {
	s.c0, s.c1 = 0, 0
	for v := range s.g.n {
		s.visited[v] = false
		c := int8(s.g.off[v+1] - s.g.off[v])
		s.cnt[v] = c
		if c == 0 {
			s.c0++
		} else if c == 1 {
			s.c1++
		}
	}
	s.left = s.g.n
	s.path = s.path[:0]
	s.end = -1
	s.found = false
}

func (s *tourSearch) visit(x int32) {
	s.visited[x] = true
	s.left--
	s.path = append(s.path, x)
	switch s.cnt[x] {
	case 0:
		s.c0--
	case 1:
		s.c1--
	}
	for _, y := range s.g.nb(x) {
		c := s.cnt[y]
		s.cnt[y] = c - 1
		if s.visited[y] {
			continue
		}
		switch c {
		case 1:
			s.c1--
			s.c0++
		case 2:
			s.c1++
		}
	}
}

func (s *tourSearch) unvisit(x int32) {
	for _, y := range s.g.nb(x) {
		c := s.cnt[y]
		s.cnt[y] = c + 1
		if s.visited[y] {
			continue
		}
		switch c {
		case 0:
			s.c0--
			s.c1++
		case 1:
			s.c1--
		}
	}
	switch s.cnt[x] {
	case 0:
		s.c0++
	case 1:
		s.c1++
	}
	s.visited[x] = false
	s.left++
	s.path = s.path[:len(s.path)-1]
}

// viable applies the pruning rules at the current square; it reports
// whether the search may continue below it.
func (s *tourSearch) viable(cur int32) bool {
	if s.left <= 1 {
		return true
	}
	m0, m1 := 0, 0
	for _, y := range s.g.nb(cur) {
		if s.visited[y] {
			continue
		}
		switch s.cnt[y] {
		case 0:
			m0++
		case 1:
			m1++
		}
	}
	if m0 > 0 || s.c0 > 0 {
		return false
	}
	e := s.c1 - m1 // unvisited squares away from cur with one way in: path ends
	if s.end >= 0 {
		if s.cnt[s.end] == 1 && !s.adjacent(cur, s.end) {
			e--
		}
		return e == 0
	}
	return e <= 1
}

func (s *tourSearch) adjacent(a, b int32) bool {
	for _, y := range s.g.nb(a) {
		if y == b {
			return true
		}
	}
	return false
}

// connected reports whether every unvisited square can be reached from cur
// through unvisited squares.
func (s *tourSearch) connected(cur int32) bool {
	if s.stamp == nil {
		s.stamp = make([]int32, s.g.n)
		s.queue = make([]int32, 0, s.g.n)
	}
	s.mark++
	if s.mark == 0 {
		clear(s.stamp)
		s.mark = 1
	}
	q := s.queue[:0]
	for _, y := range s.g.nb(cur) {
		if !s.visited[y] && s.stamp[y] != s.mark {
			s.stamp[y] = s.mark
			q = append(q, y)
		}
	}
	for i := 0; i < len(q); i++ {
		for _, y := range s.g.nb(q[i]) {
			if !s.visited[y] && s.stamp[y] != s.mark {
				s.stamp[y] = s.mark
				q = append(q, y)
			}
		}
	}
	s.queue = q
	return len(q) == s.left
}

// deadEnd counts a dead end and stops a budgeted search past its budget.
func (s *tourSearch) deadEnd() {
	s.backtracks++
	if s.budget > 0 && s.backtracks > s.budget {
		s.stopped = true
	}
}

// poll counts a node and reports whether the search must stop (context
// done, or another worker saw it); once stopped it stays stopped.
func (s *tourSearch) poll() bool {
	s.nodes++
	if s.stopped {
		return true
	}
	if s.nodes&4095 == 0 {
		if (s.stop != nil && s.stop.Load()) || (s.ctx != nil && s.ctx.Err() != nil) {
			s.stopped = true
			if s.stop != nil {
				s.stop.Store(true)
			}
		}
	}
	return s.stopped
}

// dfs counts (or, with first, finds) the completions of the current path.
func (s *tourSearch) dfs(cur int32) {
	if s.poll() {
		return
	}
	if s.left == 0 {
		if s.closedStart >= 0 && (len(s.path) < 3 || !s.adjacent(cur, s.closedStart)) {
			s.deadEnd()
			return
		}
		s.count++
		if s.first {
			s.found = true
		}
		return
	}
	if !s.viable(cur) || (s.closedStart >= 0 && s.cnt[s.closedStart] == 0) || (s.connect && !s.connected(cur)) {
		s.deadEnd()
		return
	}
	nb := s.g.nb(cur)
	if s.first {
		// Try the squares in Warnsdorff order: fewest onward moves first.
		base := len(s.order)
		for i, y := range nb {
			if s.visited[y] || (y == s.end && s.left > 1) {
				continue
			}
			k := int64(s.cnt[y])<<8 | int64(i)
			if s.key != nil {
				k = s.key(y, i)
			}
			j := len(s.order)
			s.order = append(s.order, y)
			s.keys = append(s.keys, k)
			for j > base && s.keys[j-1] > k {
				s.order[j], s.keys[j] = s.order[j-1], s.keys[j-1]
				j--
			}
			s.order[j], s.keys[j] = y, k
		}
		for i := base; i < len(s.order); i++ {
			y := s.order[i]
			s.visit(y)
			s.dfs(y)
			if s.found || s.stopped {
				s.order, s.keys = s.order[:base], s.keys[:base]
				return
			}
			s.unvisit(y)
		}
		s.order, s.keys = s.order[:base], s.keys[:base]
		return
	}
	for _, y := range nb {
		if s.visited[y] || (y == s.end && s.left > 1) {
			continue
		}
		s.visit(y)
		s.dfs(y)
		s.unvisit(y)
	}
}

// tourTask is one subtree of an exhaustive count: a path prefix (replayed
// with visit), a fixed end or -1, and a multiplicity.
type tourTask struct {
	prefix []int32
	end    int32
	weight uint64
}

// tourRootTasks returns the subtrees a count of t splits into before they
// are split further between workers.
func tourRootTasks(g *tourGraph, t puzzle.Tour) []tourTask {
	if t.Closed {
		// Each undirected cycle passes through the anchor (a square of
		// least degree) using two of its neighbours p < q: count the
		// paths anchor, p, ..., q.
		anchor := int32(0)
		for v := range g.n {
			if len(g.nb(int32(v))) < len(g.nb(anchor)) {
				anchor = int32(v)
			}
		}
		var tasks []tourTask
		nb := g.nb(anchor)
		for i, p := range nb {
			for _, q := range nb[i+1:] {
				a, b := p, q
				if a > b {
					a, b = b, a
				}
				tasks = append(tasks, tourTask{prefix: []int32{anchor, a}, end: b, weight: 1})
			}
		}
		return tasks
	}
	if !t.AllStarts {
		return []tourTask{{prefix: []int32{int32(t.Start)}, end: -1, weight: 1}}
	}
	reps, sizes := symmetry.SquareClasses(g.b)
	var tasks []tourTask
	for i, r := range reps {
		if g.n%2 == 1 && tourColour(g.b, int(r)) == 1 {
			continue // no open tour from the minority colour
		}
		tasks = append(tasks, tourTask{prefix: []int32{r}, end: -1, weight: sizes[i]})
	}
	return tasks
}

// tourSplit expands tasks by one move each (keeping only viable ones) until
// there are at least want of them or they stop growing.
func tourSplit(g *tourGraph, tasks []tourTask, want int) []tourTask {
	s := newTourSearch(g)
	for range 12 {
		if len(tasks) >= want {
			break
		}
		var next []tourTask
		grew := false
		for _, tk := range tasks {
			s.reset()
			for _, v := range tk.prefix {
				s.visit(v)
			}
			s.end = tk.end
			cur := tk.prefix[len(tk.prefix)-1]
			if s.left == 0 || !s.viable(cur) {
				if s.left == 0 {
					next = append(next, tk)
				}
				continue
			}
			for _, y := range g.nb(cur) {
				if s.visited[y] || (y == s.end && s.left > 1) {
					continue
				}
				p := append(slices.Clone(tk.prefix), y)
				next = append(next, tourTask{prefix: p, end: tk.end, weight: tk.weight})
				grew = true
			}
		}
		tasks = next
		if !grew {
			break
		}
	}
	return tasks
}

// tourSplitWant is how many subproblems an exhaustive count aims for:
// fixed, so that the split (and with it checkpoints and shards) is the same
// whatever the number of threads.
const tourSplitWant = 256

// tourCount counts the tours of t exhaustively.
func tourCount(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t := req.Spec.(puzzle.Tour)
	b := t.Board
	if t.Closed {
		if r := tourClosedImpossible(b); r != "" {
			a := tourUnsat(r)
			return a, nil
		}
		if b.Size() > TourCountMaxClosed {
			return puzzle.Answer{}, fmt.Errorf("the exhaustive counter refuses closed tours on boards of more than %d squares (%s has %d)",
				TourCountMaxClosed, b, b.Size())
		}
	} else {
		if b.Size() > TourCountMaxOpen {
			return puzzle.Answer{}, fmt.Errorf("the exhaustive counter refuses open tours on boards of more than %d squares (%s has %d)",
				TourCountMaxOpen, b, b.Size())
		}
		if r := tourImpossible(t); r != "" {
			return tourUnsat(r), nil
		}
	}
	g := newTourGraph(b)
	tasks := tourSplit(g, tourRootTasks(g, t), tourSplitWant)
	var (
		stop       atomic.Bool
		mu         sync.Mutex
		nodes, bts int64
	)
	partition := fmt.Sprintf("tour paths of %d-%d moves: %d subproblems", tourPrefixMin(tasks), tourPrefixMax(tasks), len(tasks))
	res, err := search.RunSplit(ctx, req, "exhaustive", partition, len(tasks), func() subproblem.Solver {
		s := newTourSearch(g)
		s.stop, s.ctx = &stop, ctx
		return func(id int) (uint64, bool) {
			tk := tasks[id]
			s.reset()
			for _, v := range tk.prefix {
				s.visit(v)
			}
			s.end = tk.end
			s.count = 0
			n0, b0 := s.nodes, s.backtracks
			s.dfs(tk.prefix[len(tk.prefix)-1])
			mu.Lock()
			nodes += s.nodes - n0
			bts += s.backtracks - b0
			mu.Unlock()
			return s.count * tk.weight, !s.stopped
		}
	})
	if err != nil {
		return puzzle.Answer{}, err
	}
	ans := search.SplitAnswer(res, tourStats(nodes, bts))
	if ans.Status == puzzle.OK && ans.CountString() == "0" && search.Whole(req) {
		return puzzle.Answer{Status: puzzle.Unsat, Count: 0, Stats: ans.Stats, Message: "no tour (exhaustive search)"}, nil
	}
	return ans, nil
}

// tourPrefixMin and tourPrefixMax bound the subproblems' path lengths in
// moves (for the partition's description).
func tourPrefixMin(tasks []tourTask) int {
	m := -1
	for _, tk := range tasks {
		if m < 0 || len(tk.prefix)-1 < m {
			m = len(tk.prefix) - 1
		}
	}
	return max(m, 0)
}

func tourPrefixMax(tasks []tourTask) int {
	m := 0
	for _, tk := range tasks {
		m = max(m, len(tk.prefix)-1)
	}
	return m
}

// tourFirstExhaustive finds a tour by exhaustive search in Warnsdorff order,
// or proves that none exists.
func tourFirstExhaustive(ctx context.Context, t puzzle.Tour) puzzle.Answer {
	if r := tourImpossible(t); r != "" {
		return tourUnsat(r)
	}
	g := newTourGraph(t.Board)
	s := newTourSearch(g)
	s.ctx, s.first, s.connect = ctx, true, true
	var tasks []tourTask
	if t.Closed {
		// A closed tour from Start: fix its first move p and its last
		// square q, both neighbours of Start, p < q (direction is free).
		nb := g.nb(int32(t.Start))
		for i, p := range nb {
			for _, q := range nb[i+1:] {
				tasks = append(tasks, tourTask{prefix: []int32{int32(t.Start), min(p, q)}, end: max(p, q)})
			}
		}
		if g.n == 1 {
			return tourUnsat("no closed tour on 1x1 (convention)")
		}
	} else if t.AllStarts {
		reps, _ := symmetry.SquareClasses(g.b)
		for _, r := range reps {
			if g.n%2 == 0 || tourColour(g.b, int(r)) == 0 {
				tasks = append(tasks, tourTask{prefix: []int32{r}, end: -1})
			}
		}
	} else {
		tasks = []tourTask{{prefix: []int32{int32(t.Start)}, end: -1}}
	}
	for _, tk := range tasks {
		s.reset()
		for _, v := range tk.prefix {
			s.visit(v)
		}
		s.end = tk.end
		s.dfs(tk.prefix[len(tk.prefix)-1])
		if s.found {
			return puzzle.Answer{Status: puzzle.OK, Solution: tourSolution(t.Board, s.path), Stats: tourStats(s.nodes, s.backtracks)}
		}
		if ctx.Err() != nil {
			return puzzle.Answer{Status: puzzle.Timeout, Message: ctx.Err().Error(), Stats: tourStats(s.nodes, s.backtracks)}
		}
	}
	return puzzle.Answer{Status: puzzle.Unsat, Message: "no tour (exhaustive search)", Stats: tourStats(s.nodes, s.backtracks)}
}

func tourSolveExhaustive(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t := req.Spec.(puzzle.Tour)
	if req.Task == puzzle.Count {
		return tourCount(ctx, req)
	}
	return tourFirstExhaustive(ctx, t), nil
}
