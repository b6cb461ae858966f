package encode

// Knight swaps (spec swap:...) as SAT planning, model "plan": the formula
// "a plan of exactly T moves exists", solved for T = a lower bound upward.
//
// Variables: w[t,s] and b[t,s], "a white (black) knight stands on square s
// after t moves", t = 0..T (auxiliary); m[t,u,v], "move t takes the knight
// on u to v", one per directed knight edge (primary: the moves determine the
// plan, and the plan determines every w and b, so a count projected onto the
// moves counts plans). Constraints per move t:
//
//   - exactly one m[t,.] (the chosen cardinality encoding);
//   - m[t,u,v] needs a knight on u (of the colour whose turn it is, with
//     alternating turns) and v empty before the move, and leaves u empty and
//     v holding that knight after it;
//   - frame axioms: a square changes only when a move leaves or enters it;
//     never two colours on a square;
//   - the rule, on the board after the move: own, no knight of the mover's
//     colour a knight's move from v; enemy, no knight of the other colour;
//   - the start position at t = 0 and the targets at t = T.
//
// Sound pruning (it removes no plan, so counts stay exact): w[t,s] is false
// when no white knight can reach s within the white moves made by step t, or
// reach a white target within the white moves left (knight distances on the
// empty board); a move whose before or after square is thus impossible gets
// no variable. A certified run (sat.Proving) encodes without this pruning:
// its refutations must prove "no plan of exactly T moves" from the rules
// alone, and a pruned formula is refuted by the knight distances (for
// small T its start or target clauses are empty), an argument outside the
// proof.
//
// The search over T skips lengths that are impossible for sound reasons:
// each colour needs at least its min-cost assignment of knights to targets
// in knight distance, and each colour's number of moves has the parity of
// the change in the colours of its knights' squares; with alternating turns
// white makes ceil(T/2) moves and black floor(T/2), which fixes T modulo 4.
// Every other T up to the answer is shown unsatisfiable by the solver, so
// the first satisfiable T is the shortest plan length. An unreachable goal
// is proven by the recurrence diameter: when no loop-free sequence of m
// positions-after-moves exists from the start (a satisfiability check of its
// own), every reachable position is within m-1 moves, and once every T < m
// is excluded the answer is unsat. (That argument can need very long runs:
// on some small unreachable instances the answer is a timeout, never a
// wrong one.)
//
// Model "plancert" is the same search, and then solves the formula of the
// last length found impossible again with gophersat for its certificate of
// unsatisfiability (RUP lemmas, the empty clause last), which swapCheckRUP
// checks with its own unit propagation.
//
// Counting is a projected count over the move variables at the shortest
// length. It is exact with every solver; clasp's projected enumeration is
// much the fastest here (gophersat's DPLL enumerator, which cannot learn,
// walks every legal prefix of a plan).

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/proof"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	register(Encoder{Puzzle: "swap", Name: "plan", Default: true, Why: "the search plancert runs, without the certificate it adds and checks",
		Tasks: []puzzle.Task{puzzle.Shortest, puzzle.First, puzzle.Count},
		Doc:   "SAT planning: w/b occupancy per step, one move var per knight edge per step, frame axioms, rule, turns; T searched upward",
		Build: swapBuild, Solve: func(ctx context.Context, req puzzle.Request, enc card.Encoding) (puzzle.Answer, error) {
			return swapSolve(ctx, req, enc, false)
		}})
	register(Encoder{Puzzle: "swap", Name: "plancert",
		Tasks: []puzzle.Task{puzzle.Shortest, puzzle.First, puzzle.Count},
		Doc:   "the plan model, plus gophersat's RUP certificate that T-1 (the last length tried) is impossible, checked by boardsat (clausal encodings)",
		Build: swapBuild, Solve: func(ctx context.Context, req puzzle.Request, enc card.Encoding) (puzzle.Answer, error) {
			return swapSolve(ctx, req, enc, true)
		}})
}

// swapInfo is what the encoder knows of an instance before choosing T.
type swapInfo struct {
	s          puzzle.Swap
	n          int
	nb         [][]int // knight neighbours by square
	alt        bool
	fromW      []int // knight distance from the nearest white start
	fromB      []int
	toW        []int // knight distance to the nearest white target
	toB        []int
	lbW, lbB   int // min-cost assignment of each colour to its targets
	parW, parB int // parity of each colour's number of moves
	// noPrune encodes every square at every step, the knight distances
	// unused (a certified run: the proofs then rest on the rules alone).
	noPrune bool
}

const swapUnreachable = 1 << 30

func newSwapInfo(s puzzle.Swap) swapInfo {
	b := s.Board
	n := b.Size()
	in := swapInfo{s: s, n: n, alt: s.Turns == puzzle.Alternate}
	in.nb = knightNeighbours(b)
	in.fromW, in.fromB = in.distFrom(s.White...), in.distFrom(s.Black...)
	in.toW, in.toB = in.distFrom(s.TargetWhite...), in.distFrom(s.TargetBlack...)
	in.lbW = in.assign(s.White, s.TargetWhite)
	in.lbB = in.assign(s.Black, s.TargetBlack)
	colour := func(q puzzle.Square) int { return squareColour(b, int(q)) }
	for _, q := range s.White {
		in.parW ^= colour(q)
	}
	for _, q := range s.TargetWhite {
		in.parW ^= colour(q)
	}
	for _, q := range s.Black {
		in.parB ^= colour(q)
	}
	for _, q := range s.TargetBlack {
		in.parB ^= colour(q)
	}
	return in
}

// distFrom returns the knight distance from the nearest of src to every square.
func (in *swapInfo) distFrom(src ...puzzle.Square) []int {
	d := make([]int, in.n)
	for i := range d {
		d[i] = swapUnreachable
	}
	var q []int
	for _, s := range src {
		d[s] = 0
		q = append(q, int(s))
	}
	for len(q) > 0 {
		x := q[0]
		q = q[1:]
		for _, y := range in.nb[x] {
			if d[y] == swapUnreachable {
				d[y] = d[x] + 1
				q = append(q, y)
			}
		}
	}
	return d
}

// assign returns the least total knight distance over assignments of the
// knights to distinct targets (exact up to 12 knights, the sum of nearest
// target distances beyond), or swapUnreachable.
func (in *swapInfo) assign(knights, targets []puzzle.Square) int {
	k := len(knights)
	dist := make([][]int, k)
	for j, t := range targets {
		dist[j] = in.distFrom(t)
	}
	if k > 12 {
		sum := 0
		for _, q := range knights {
			best := swapUnreachable
			for j := range targets {
				best = min(best, dist[j][q])
			}
			if best == swapUnreachable {
				return swapUnreachable
			}
			sum += best
		}
		return sum
	}
	dp := make([]int, 1<<k)
	for i := range dp {
		dp[i] = swapUnreachable
	}
	dp[0] = 0
	for mask := range dp {
		if dp[mask] == swapUnreachable || mask == len(dp)-1 {
			continue
		}
		q := knights[bits.OnesCount(uint(mask))]
		for j := range k {
			if mask&(1<<j) == 0 && dist[j][q] != swapUnreachable {
				dp[mask|1<<j] = min(dp[mask|1<<j], dp[mask]+dist[j][q])
			}
		}
	}
	return dp[len(dp)-1]
}

// movesBy returns how many moves white and black make among the first t.
func (in *swapInfo) movesBy(t int) (w, b int) {
	if in.alt {
		return (t + 1) / 2, t / 2
	}
	return t, t
}

// possibleT reports whether a plan of exactly T moves passes the lower
// bounds and the parity argument.
func (in *swapInfo) possibleT(T int) bool {
	if in.lbW == swapUnreachable || in.lbB == swapUnreachable {
		return false
	}
	if !in.alt {
		return T >= in.lbW+in.lbB && T%2 == (in.parW+in.parB)%2
	}
	w, b := in.movesBy(T)
	return w >= in.lbW && b >= in.lbB && w%2 == in.parW && b%2 == in.parB
}

// firstT returns the least T that possibleT allows, or -1 if none.
func (in *swapInfo) firstT() int {
	if in.lbW == swapUnreachable || in.lbB == swapUnreachable {
		return -1
	}
	for T := 0; ; T++ {
		if in.possibleT(T) {
			return T
		}
	}
}

// swapPlan is one encoded planning formula.
type swapPlan struct {
	in    *swapInfo
	T     int
	f     *cnf.Formula
	fls   cnf.Lit     // a variable fixed false, standing for impossible facts
	w, b  [][]cnf.Lit // [t][s]
	moves [][]swapMove
	// blackFirst: with alternating turns, black makes move 1 (backward runs).
	blackFirst bool
}

type swapMove struct {
	lit      cnf.Lit
	from, to int
}

// add appends a clause, dropping the false literal and skipping clauses it satisfies.
func (p *swapPlan) add(lits ...cnf.Lit) {
	out := lits[:0:0]
	for _, l := range lits {
		switch l {
		case p.fls:
			continue
		case -p.fls:
			return
		}
		out = append(out, l)
	}
	p.f.Add(out...)
}

// swapBuild encodes "a plan of exactly opt.Steps moves exists"; Steps <= 0
// means the least T the lower bounds allow (0 when no T is possible).
func swapBuild(spec puzzle.Spec, enc card.Encoding, opt Options) (*Instance, error) {
	s, ok := spec.(puzzle.Swap)
	if !ok {
		return nil, fmt.Errorf("swap encoder given a %s spec", spec.Puzzle())
	}
	in := newSwapInfo(s)
	T := opt.Steps
	if T <= 0 {
		T = max(in.firstT(), 0)
	}
	p, err := buildSwapPlan(&in, T, enc, swapPlanRun)
	if err != nil {
		return nil, err
	}
	return &Instance{Formula: p.f, Decode: p.decode}, nil
}

// swapRun says what a formula asks for: a plan (start and targets fixed),
// or a loop-free run of positions (pairwise distinct) from the start or
// into the targets, for the recurrence-diameter argument.
type swapRun struct {
	start, goal bool
	distinct    bool
	blackFirst  bool // with alternating turns, black makes move 1
}

// swapPlanRun is the run of an ordinary plan.
var swapPlanRun = swapRun{start: true, goal: true}

// buildSwapPlan encodes a run of T moves.
func buildSwapPlan(in *swapInfo, T int, enc card.Encoding, run swapRun) (*swapPlan, error) {
	s := in.s
	n := in.n
	f := cnf.New()
	p := &swapPlan{in: in, T: T, f: f, blackFirst: run.blackFirst}
	p.fls = f.Aux("false")
	f.Add(-p.fls)
	wT, bT := p.movesBy(T)
	p.w, p.b = make([][]cnf.Lit, T+1), make([][]cnf.Lit, T+1)
	for t := 0; t <= T; t++ {
		wt, bt := p.movesBy(t)
		p.w[t], p.b[t] = make([]cnf.Lit, n), make([]cnf.Lit, n)
		for q := range n {
			p.w[t][q], p.b[t][q] = p.fls, p.fls
			if in.noPrune || (!run.start || in.fromW[q] <= wt) && (!run.goal || in.toW[q] <= wT-wt) {
				p.w[t][q] = f.Aux("w" + strconv.Itoa(t) + "_" + s.Board.Name(puzzle.Square(q)))
			}
			if in.noPrune || (!run.start || in.fromB[q] <= bt) && (!run.goal || in.toB[q] <= bT-bt) {
				p.b[t][q] = f.Aux("b" + strconv.Itoa(t) + "_" + s.Board.Name(puzzle.Square(q)))
			}
			p.add(-p.w[t][q], -p.b[t][q])
		}
	}
	fix := func(t int, white, black []puzzle.Square) {
		occW, occB := make([]bool, n), make([]bool, n)
		for _, q := range white {
			occW[q] = true
		}
		for _, q := range black {
			occB[q] = true
		}
		for q := range n {
			p.add(swapSign(p.w[t][q], occW[q]))
			p.add(swapSign(p.b[t][q], occB[q]))
		}
	}
	if run.start {
		fix(0, s.White, s.Black)
	}
	if run.goal {
		fix(T, s.TargetWhite, s.TargetBlack)
	}
	p.moves = make([][]swapMove, T+1)
	for t := 1; t <= T; t++ {
		if err := p.step(t, enc); err != nil {
			return nil, err
		}
	}
	if run.distinct {
		p.distinct()
	}
	return p, nil
}

// movesBy returns how many moves white and black make among the first t.
func (p *swapPlan) movesBy(t int) (w, b int) {
	if p.blackFirst {
		b, w = p.in.movesBy(t)
		return w, b
	}
	return p.in.movesBy(t)
}

func swapSign(l cnf.Lit, pos bool) cnf.Lit {
	if pos {
		return l
	}
	return -l
}

// step encodes move t (from the position after t-1 moves to the one after t).
func (p *swapPlan) step(t int, enc card.Encoding) error {
	in, s := p.in, p.in.s
	n := in.n
	white := !in.alt || (t%2 == 1) != p.blackFirst // may a white knight move now?
	black := !in.alt || (t%2 == 0) != p.blackFirst
	W0, B0, W1, B1 := p.w[t-1], p.b[t-1], p.w[t], p.b[t]
	var lits []cnf.Lit
	fromOf, toOf := make([][]cnf.Lit, n), make([][]cnf.Lit, n)
	for u := range n {
		for _, v := range in.nb[u] {
			okW := white && W0[u] != p.fls && W1[v] != p.fls
			okB := black && B0[u] != p.fls && B1[v] != p.fls
			if !okW && !okB {
				continue
			}
			m := p.f.Var(fmt.Sprintf("m%d_%s-%s", t, s.Board.Name(puzzle.Square(u)), s.Board.Name(puzzle.Square(v))))
			p.moves[t] = append(p.moves[t], swapMove{m, u, v})
			lits = append(lits, m)
			fromOf[u] = append(fromOf[u], m)
			toOf[v] = append(toOf[v], m)
			// Before: a knight that may move on u, v empty. After: u empty.
			switch {
			case okW && okB:
				p.add(-m, W0[u], B0[u])
			case okW:
				p.add(-m, W0[u])
			default:
				p.add(-m, B0[u])
			}
			p.add(-m, -W0[v])
			p.add(-m, -B0[v])
			p.add(-m, -W1[u])
			p.add(-m, -B1[u])
			// After: the knight stands on v, its colour kept.
			p.add(-m, -W0[u], W1[v])
			p.add(-m, -B0[u], B1[v])
			// The rule, on the board after the move (u is empty then).
			for _, x := range in.nb[v] {
				switch s.Rule {
				case puzzle.RuleOwn:
					p.add(-m, -W1[v], -W1[x])
					p.add(-m, -B1[v], -B1[x])
				case puzzle.RuleEnemy:
					p.add(-m, -W1[v], -B1[x])
					p.add(-m, -B1[v], -W1[x])
				}
			}
		}
	}
	// Exactly one move.
	switch len(lits) {
	case 0:
		p.f.Add()
	case 1:
		p.f.Add(lits[0])
	default:
		if err := enc.Encode(p.f, lits, cnf.Exactly, 1); err != nil {
			return err
		}
	}
	// Frame axioms: a knight leaves u only by a move from u, arrives on v
	// only by a move to v; the colour not on move keeps its squares.
	for q := range n {
		for _, c := range [2]struct {
			was, is []cnf.Lit
			moves   bool
		}{{W0, W1, white}, {B0, B1, black}} {
			if c.moves {
				p.add(append([]cnf.Lit{-c.was[q], c.is[q]}, fromOf[q]...)...)
				p.add(append([]cnf.Lit{c.was[q], -c.is[q]}, toOf[q]...)...)
			} else {
				p.add(-c.was[q], c.is[q])
				p.add(c.was[q], -c.is[q])
			}
		}
	}
	return nil
}

// distinct makes the positions after moves 0..T pairwise different (with
// alternating turns only positions with the same side to move can repeat).
func (p *swapPlan) distinct() {
	n := p.in.n
	for i := 0; i <= p.T; i++ {
		for j := i + 1; j <= p.T; j++ {
			if p.in.alt && (j-i)%2 == 1 {
				continue
			}
			var diff []cnf.Lit
			for q := range n {
				for _, c := range [2][][]cnf.Lit{p.w, p.b} {
					a, b := c[i][q], c[j][q]
					if a == p.fls && b == p.fls {
						continue
					}
					d := p.f.Aux(fmt.Sprintf("d%d_%d", i, j))
					p.add(-d, a, b)
					p.add(-d, -a, -b)
					diff = append(diff, d)
				}
			}
			p.add(diff...)
		}
	}
}

// decode reads the plan off a model's move variables.
func (p *swapPlan) decode(model []bool) (puzzle.Solution, error) {
	sol := puzzle.Solution{Board: p.in.s.Board, Plan: []puzzle.Move{}}
	for t := 1; t <= p.T; t++ {
		found := 0
		for _, m := range p.moves[t] {
			if model[m.lit] {
				found++
				sol.Plan = append(sol.Plan, puzzle.Move{From: puzzle.Square(m.from), To: puzzle.Square(m.to)})
			}
		}
		if found != 1 {
			return sol, fmt.Errorf("move %d: %d move variables true, want 1", t, found)
		}
	}
	return sol, nil
}

// swapDiameterFirst is the loop-free run length first checked for the
// recurrence diameter; later checks double it.
const swapDiameterFirst = 4

// swapSolve answers shortest, first and count by searching T upward. Per-T
// solver times go into Stats as "t<T>_ms" (and the run in Message). With
// certify, the formula of the last length found impossible is solved again
// by gophersat for its certificate of unsatisfiability, which swapCheckRUP
// checks (Stats "cert_lemmas", "cert_ms").
func swapSolve(ctx context.Context, req puzzle.Request, enc card.Encoding, certify bool) (puzzle.Answer, error) {
	s, ok := req.Spec.(puzzle.Swap)
	if !ok {
		return puzzle.Answer{}, fmt.Errorf("swap encoder given a %s spec", req.Spec.Puzzle())
	}
	solver, err := sat.Lookup(req.Solver)
	if err != nil {
		return puzzle.Answer{}, err
	}
	if certify && enc.Native {
		return puzzle.Answer{}, fmt.Errorf("model plancert needs a clausal cardinality encoding for its certificate, not %s", enc.Name)
	}
	m := &swapSearch{
		ctx: ctx, req: req, s: s, solver: solver.Name, enc: enc, certify: certify,
		ans: puzzle.Answer{Stats: map[string]int64{}, Solver: solver.Name},
		in:  newSwapInfo(s),
	}
	return m.search()
}

// swapSearch is one run of swapSolve: the request, the answer it fills in
// (times and solver statistics summed over every call) and the log of the
// calls that becomes the answer's Message.
type swapSearch struct {
	ctx     context.Context
	req     puzzle.Request
	s       puzzle.Swap
	solver  string
	enc     card.Encoding
	certify bool
	ans     puzzle.Answer
	in      swapInfo
	log     []string
}

// finish returns the answer with the log as its message.
func (m *swapSearch) finish() puzzle.Answer {
	m.ans.Message = strings.Join(m.log, "; ")
	return m.ans
}

// solve runs the solver on f, adding its time and statistics to the answer.
func (m *swapSearch) solve(f *cnf.Formula, claim string) (sat.Result, time.Duration, error) {
	start := time.Now()
	r, err := sat.Solve(sat.WithClaim(m.ctx, claim), f, m.solver)
	d := time.Since(start)
	m.ans.SolveSeconds += d.Seconds()
	for k, v := range r.Stats {
		if k != puzzle.StatSolverCalls {
			m.ans.Stats[k] += v
		}
	}
	m.ans.Stats[puzzle.StatSolverCalls]++
	return r, d, err
}

// build builds the plan formula of T moves, adding its time to the answer.
func (m *swapSearch) build(T int, run swapRun) (*swapPlan, error) {
	start := time.Now()
	p, err := buildSwapPlan(&m.in, T, m.enc, run)
	m.ans.EncodeSeconds += time.Since(start).Seconds()
	return p, err
}

// loopFree reports whether a loop-free run of moves moves exists as run
// asks; ok false means the solver gave no answer (recorded in ans).
func (m *swapSearch) loopFree(moves int, run swapRun, what string) (exists, ok bool, err error) {
	q, err := m.build(moves, run)
	if err != nil {
		return false, false, err
	}
	r, d, err := m.solve(q.f, fmt.Sprintf("%s has no loop-free run of %d moves %s", m.s, moves, what))
	if err != nil {
		return false, false, err
	}
	m.log = append(m.log, fmt.Sprintf("loop-free run of %d moves %s: %s %dms", moves, what, r.Status, d.Milliseconds()))
	switch r.Status {
	case puzzle.Unsat:
		return false, true, nil
	case puzzle.OK:
		return true, true, nil
	}
	m.ans.Status = r.Status
	m.log = append(m.log, r.Message)
	return false, false, nil
}

// search tries T = 0, 1, ... until a plan of T moves exists or the
// recurrence diameter shows that none does.
func (m *swapSearch) search() (puzzle.Answer, error) {
	ctx, in := m.ctx, &m.in
	if in.firstT() < 0 {
		m.ans.Status = puzzle.Unsat
		m.log = append(m.log, "a knight cannot reach any target square")
		sat.Note(ctx, "unsat because a knight cannot reach any target square (knight distances on the empty board, outside the proofs)")
		return m.finish(), nil
	}
	// A certified run refutes every length below the answer, also those
	// the lower bounds and the parity argument skip, with formulas not
	// pruned by knight distances: the answer then rests on the
	// refutations alone.
	proving := sat.Proving(ctx)
	in.noPrune = proving
	var lastUnsat *swapPlan
	limit := -1 // when >= 0, no position lies more than limit moves from the start
	nextCheck := swapDiameterFirst
	for T := 0; limit < 0 || T <= limit; T++ {
		if !in.possibleT(T) && !proving {
			continue
		}
		p, err := m.build(T, swapPlanRun)
		if err != nil {
			return puzzle.Answer{}, err
		}
		r, d, err := m.solve(p.f, fmt.Sprintf("%s has no plan of exactly %d moves", m.s, T))
		if err != nil {
			return puzzle.Answer{}, err
		}
		m.ans.Stats["t"+strconv.Itoa(T)+"_ms"] = d.Milliseconds()
		m.log = append(m.log, fmt.Sprintf("T=%d %s %dms", T, r.Status, d.Milliseconds()))
		switch r.Status {
		case puzzle.Unsat:
			lastUnsat = p
		case puzzle.OK:
			return m.found(p, r, T, lastUnsat)
		default:
			m.ans.Status = r.Status
			m.log = append(m.log, r.Message)
			return m.finish(), nil
		}
		if limit < 0 && T+1 >= nextCheck {
			nextCheck = 2 * (T + 1)
			bounded, ok, err := m.bounded(T + 1)
			if err != nil {
				return puzzle.Answer{}, err
			}
			if !ok {
				return m.finish(), nil
			}
			if bounded {
				limit = T
			}
		}
	}
	m.ans.Status = puzzle.Unsat
	sat.Note(ctx, "unsat because a shortest plan is loop-free: with no loop-free run of T+1 moves from the start (or into the targets), no plan has more than T moves, and the proofs refute every plan of at most T (an argument about the positions, outside the proofs)")
	m.log = append(m.log, fmt.Sprintf("a plan would have at most %d moves, and none of at most %d moves exists", limit, limit))
	return m.finish(), nil
}

// bounded reports, when every length up to moves-1 is excluded, whether no
// plan can be longer. If no loop-free run of moves moves leaves the start,
// every position the start reaches is within moves-1 of it; if none enters
// the targets (whichever side moves first), every position that reaches
// them does so within moves-1. Either way a plan would have at most moves-1
// moves: there is none. ok false means the solver gave no answer.
func (m *swapSearch) bounded(moves int) (bounded, ok bool, err error) {
	exists, ok, err := m.loopFree(moves, swapRun{start: true, distinct: true}, "from the start")
	if err != nil || !ok {
		return false, ok, err
	}
	if !exists {
		return true, true, nil
	}
	back := []swapRun{{goal: true, distinct: true}}
	if m.in.alt {
		back = append(back, swapRun{goal: true, distinct: true, blackFirst: true})
	}
	for _, br := range back {
		what := "into the targets"
		if m.in.alt {
			what += map[bool]string{false: ", white first", true: ", black first"}[br.blackFirst]
		}
		exists, ok, err := m.loopFree(moves, br, what)
		if err != nil || !ok {
			return false, ok, err
		}
		if exists {
			return false, true, nil
		}
	}
	return true, true, nil
}

// found answers from the plan p of T moves the solver found (r): certified
// first when asked, checked, and counted for the count task.
func (m *swapSearch) found(p *swapPlan, r sat.Result, T int, lastUnsat *swapPlan) (puzzle.Answer, error) {
	if m.certify && lastUnsat != nil && !m.certifyUnsat(lastUnsat) {
		return m.ans, nil
	}
	st := p.f.Stats()
	m.ans.Stats[puzzle.StatVariables] = int64(st.Variables)
	m.ans.Stats[puzzle.StatClauses] = int64(st.Clauses + st.PBConstraints)
	sol, err := p.decode(r.Model)
	if err == nil {
		err = puzzle.Check(m.s, sol)
	}
	if err != nil {
		m.ans.Status, m.ans.Message = puzzle.Error, "a decoded plan fails the checker (encoding bug): "+err.Error()
		return m.ans, nil
	}
	m.ans.Status, m.ans.Length = puzzle.OK, T
	if m.req.Task != puzzle.Count {
		m.ans.Solution = &sol
		return m.finish(), nil
	}
	start := time.Now()
	cr, err := sat.Count(m.ctx, p.f, sat.CountOptions{Solver: m.solver, Threads: m.req.Threads})
	m.ans.SolveSeconds += time.Since(start).Seconds()
	if err != nil {
		return puzzle.Answer{}, err
	}
	m.ans.Method = cr.Method
	for k, v := range cr.Stats {
		m.ans.Stats[k] += v
	}
	m.log = append(m.log, fmt.Sprintf("count T=%d %s %dms", T, cr.Status, time.Since(start).Milliseconds()))
	m.ans.Status = cr.Status
	if cr.Status == puzzle.OK {
		m.ans.Count = cr.Count
	} else {
		m.log = append(m.log, cr.Message)
	}
	return m.finish(), nil
}

// certifyUnsat has gophersat refute the plan formula of the last length
// found impossible and checks its certificate. It reports false, with the
// answer's status and message set, when the certificate is not had.
func (m *swapSearch) certifyUnsat(lastUnsat *swapPlan) bool {
	start := time.Now()
	cert := sat.Certify(m.ctx, lastUnsat.f)
	lemmas := cert.Lemmas
	var err error
	switch cert.Status {
	case puzzle.Unsat:
		err = swapCheckRUP(lastUnsat.f, lemmas)
	case puzzle.Timeout:
		m.ans.Status, m.ans.Message = puzzle.Timeout, fmt.Sprintf("certificate for T=%d: %s", lastUnsat.T, cert.Message)
		return false
	case puzzle.OK:
		err = errors.New("gophersat says the formula is satisfiable")
	default:
		err = errors.New(cert.Message)
	}
	if err != nil {
		m.ans.Status, m.ans.Message = puzzle.Error, fmt.Sprintf("certificate for T=%d: %v", lastUnsat.T, err)
		return false
	}
	m.ans.Stats["cert_lemmas"] = int64(len(lemmas))
	m.ans.Stats["cert_ms"] = time.Since(start).Milliseconds()
	m.log = append(m.log, fmt.Sprintf("certificate for T=%d: %d lemmas checked %dms", lastUnsat.T, len(lemmas), m.ans.Stats["cert_ms"]))
	return true
}

// swapCheckRUP checks gophersat's RUP certificate against f with the
// proof package's checkers (its DRAT checker, then the LRAT checker on
// the LRAT proof it writes): every lemma must follow from f and the
// lemmas before it, and the certificate must refute f.
func swapCheckRUP(f *cnf.Formula, lemmas [][]int) error {
	clauses := make([][]int, f.NumClauses())
	for i := range clauses {
		for _, l := range f.Clause(i) {
			clauses[i] = append(clauses[i], int(l))
		}
	}
	steps := make([]proof.Step, len(lemmas))
	for i, l := range lemmas {
		steps[i] = proof.Step{Lits: l}
	}
	rep, err := proof.VerifySteps(f.NumVars(), clauses, steps, 0, proof.Options{})
	if err != nil {
		return err
	}
	if !rep.Verified {
		return errors.New(rep.Reason)
	}
	return nil
}
