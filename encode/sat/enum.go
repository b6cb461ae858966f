package sat

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/boardsat/boardsat/encode/cnf"
	gs "github.com/crillab/gophersat/solver"
)

// The projected enumerator: a DPLL search with unit propagation that
// decides the projected (primary) variables first, branching on the
// shortest open clause or cardinality constraint over projected variables
// (the "fewest options" rule), and backtracks chronologically after each
// model, so it needs no blocking clauses. Once every projected variable is
// assigned without conflict it searches the remaining auxiliary variables
// for one satisfying extension and counts the projected assignment once if
// there is one. Propagation covers clauses (binary ones as implication
// lists, longer ones with true/false counters) and PB constraints
// (weighted slack counters), so native cardinality constraints need no
// translation. Should the search for an extension run into more than
// auxConflictBudget conflicts (an encoding whose propagation is weak, like
// the modulo totalizer), the question "does this projected assignment
// extend to a model?" goes to a fresh gophersat solver instead, with the
// assignment as unit clauses (not gophersat's Assume, which binds
// assumptions as top-level units on a solver that keeps what it learned:
// sound use across changing assumptions is not documented). Every branch is
// explored exactly once, so the count is exact whatever the encoding,
// whether or not its auxiliary variables are determined by the projected
// ones.

// auxConflictBudget is how many conflicts the search for one extension may
// meet before it hands the question to gophersat.
var auxConflictBudget = 50

// errStopped ends a search whose context is done.
var errStopped = errors.New("search stopped")

// enumPB is a normalised PB constraint: positive weights, distinct variables.
type enumPB struct {
	lits      []int32
	w         []int64
	op        cnf.Op
	k, total  int64
	maxW      int64
	projected bool // every literal is over a projected variable
}

type pbRef struct {
	c int32
	w int64
}

// enumFormula is a formula compiled for the enumerator; engines share it
// read-only.
type enumFormula struct {
	f        *cnf.Formula
	n        int
	primary  []bool // by variable
	nProj    int
	projVars []int32
	auxVars  []int32
	units    []int32
	empty    bool      // holds an empty clause (or an impossible constraint)
	bin      [][]int32 // by literal index: literals implied when it is true
	cls      [][]int32 // clauses of three literals or more
	occ      [][]int32 // by literal index: long clauses containing it
	cand     []int32   // long clauses over projected variables only
	pbs      []enumPB
	pbOcc    [][]pbRef // by literal index
	pbCand   []int32   // at-least / exactly PB constraints over projected variables only
}

// litIdx maps literal l to an index: 2v for v, 2v+1 for -v.
func litIdx(l int32) int32 {
	if l < 0 {
		return -2*l + 1
	}
	return 2 * l
}

func compileEnum(f *cnf.Formula) *enumFormula {
	n := f.NumVars()
	c := &enumFormula{f: f, n: n, primary: make([]bool, n+1), bin: make([][]int32, 2*n+2), occ: make([][]int32, 2*n+2), pbOcc: make([][]pbRef, 2*n+2)}
	for v := 1; v <= n; v++ {
		if f.Primary(v) {
			c.primary[v] = true
			c.nProj++
			c.projVars = append(c.projVars, int32(v))
		} else {
			c.auxVars = append(c.auxVars, int32(v))
		}
	}
	var buf []cnf.Lit
	for i := 0; i < f.NumClauses(); i++ {
		var taut bool
		buf, taut = cleanClause(buf[:0], f.Clause(i))
		if taut {
			continue
		}
		switch len(buf) {
		case 0:
			c.empty = true
		case 1:
			c.units = append(c.units, int32(buf[0]))
		case 2:
			a, b := int32(buf[0]), int32(buf[1])
			c.bin[litIdx(-a)] = append(c.bin[litIdx(-a)], b)
			c.bin[litIdx(-b)] = append(c.bin[litIdx(-b)], a)
		default:
			ci := int32(len(c.cls))
			cl := make([]int32, len(buf))
			proj := true
			for j, l := range buf {
				cl[j] = int32(l)
				c.occ[litIdx(int32(l))] = append(c.occ[litIdx(int32(l))], ci)
				proj = proj && c.primary[l.Var()]
			}
			c.cls = append(c.cls, cl)
			if proj {
				c.cand = append(c.cand, ci)
			}
		}
	}
	for _, p := range f.PBs() {
		c.addPB(p)
	}
	return c
}

// normalizePB rewrites p over distinct variables with positive weights:
// repeated variables merged, a literal and its negation cancelled, the
// constants moved into the bound.
func normalizePB(p cnf.PB) (lits []int32, w []int64, k int64) {
	coef := map[int32]int64{} // by variable: weight of the positive literal minus the negative one
	var order []int32
	k = int64(p.K)
	for i, l := range p.Lits {
		wt := int64(p.Weights[i])
		v := int32(l.Var())
		if _, ok := coef[v]; !ok {
			order = append(order, v)
		}
		if l > 0 {
			coef[v] += wt
		} else {
			// wt*(1-x) = wt - wt*x
			coef[v] -= wt
			k -= wt
		}
	}
	for _, v := range order {
		wt, l := coef[v], v
		if wt < 0 {
			// wt*x = |wt|*(1-x) - |wt|
			wt, l = -wt, -v
			k += wt
		}
		if wt != 0 {
			lits = append(lits, l)
			w = append(w, wt)
		}
	}
	return lits, w, k
}

// addPB adds p, normalised.
func (c *enumFormula) addPB(p cnf.PB) {
	lits, w, k := normalizePB(p)
	q := enumPB{op: p.Op, projected: true, lits: lits, w: w}
	for i, l := range lits {
		q.total += w[i]
		q.maxW = max(q.maxW, w[i])
		v := l
		if v < 0 {
			v = -v
		}
		q.projected = q.projected && c.primary[v]
	}
	q.k = k
	ci := int32(len(c.pbs))
	c.pbs = append(c.pbs, q)
	for i, l := range q.lits {
		c.pbOcc[litIdx(l)] = append(c.pbOcc[litIdx(l)], pbRef{ci, q.w[i]})
	}
	if q.projected && q.op != cnf.AtMost && len(q.lits) > 0 {
		c.pbCand = append(c.pbCand, ci)
	}
}

type frame struct {
	pos     int   // trail length before the decision
	lit     int32 // the literal currently assumed
	flipped bool  // both branches tried (or fixed by a cube)
	aux     bool  // a decision on an auxiliary variable
	auxIdx  int   // for aux decisions: the variable's index in auxVars
}

// engine is one worker's search state over a shared enumFormula.
type engine struct {
	c             *enumFormula
	val           []int8 // by variable: 0 unassigned, 1 true, -1 false
	trail         []int32
	qhead         int
	nAssigned     int
	nProjAssigned int
	nTrue, nFalse []int32 // per long clause, over processed literals
	nSat          int     // long clauses with a processed true literal
	pbT, pbF      []int64 // per PB: processed true / false weight
	pbNT, pbNF    []int32 // per PB: processed true / false literal counts
	frames        []frame
	root          int // trail length after level-0 propagation
	unsat         bool
	stop          *atomic.Bool
	ctx           context.Context
	onModel       func(model []bool) error
	auxConfl      int   // conflicts in the current extension search
	extCalls      int64 // extension questions handed to gophersat
	count         uint64
	decisions     int64
	props         int64
	conflicts     int64
	polls         int
}

func newEngine(ctx context.Context, c *enumFormula, stop *atomic.Bool) *engine {
	e := &engine{c: c, val: make([]int8, c.n+1), nTrue: make([]int32, len(c.cls)), nFalse: make([]int32, len(c.cls)),
		pbT: make([]int64, len(c.pbs)), pbF: make([]int64, len(c.pbs)), pbNT: make([]int32, len(c.pbs)), pbNF: make([]int32, len(c.pbs)),
		trail: make([]int32, 0, c.n), stop: stop, ctx: ctx}
	if c.empty {
		e.unsat = true
		return e
	}
	for _, u := range c.units {
		if !e.assign(u) {
			e.unsat = true
			return e
		}
	}
	for i := range c.pbs {
		if !e.pbAtMost(int32(i)) || !e.pbAtLeast(int32(i)) {
			e.unsat = true
			return e
		}
	}
	if e.propagate() {
		e.unsat = true
	}
	e.root = len(e.trail)
	return e
}

func (e *engine) value(l int32) int8 {
	if l < 0 {
		return -e.val[-l]
	}
	return e.val[l]
}

// assign makes l true; false when l is already false.
func (e *engine) assign(l int32) bool {
	v, s := l, int8(1)
	if l < 0 {
		v, s = -l, -1
	}
	switch e.val[v] {
	case s:
		return true
	case -s:
		return false
	}
	e.val[v] = s
	e.trail = append(e.trail, l)
	e.nAssigned++
	if e.c.primary[v] {
		e.nProjAssigned++
	}
	return true
}

// pbAtMost propagates the upper bound of PB ci; false on conflict.
func (e *engine) pbAtMost(ci int32) bool {
	p := &e.c.pbs[ci]
	if p.op == cnf.AtLeast {
		return true
	}
	t := e.pbT[ci]
	if t > p.k {
		return false
	}
	if t+p.maxW <= p.k {
		return true
	}
	for i, m := range p.lits {
		if t+p.w[i] > p.k && e.value(m) == 0 {
			e.assign(-m)
			e.props++
		}
	}
	return true
}

// pbAtLeast propagates the lower bound of PB ci; false on conflict.
func (e *engine) pbAtLeast(ci int32) bool {
	p := &e.c.pbs[ci]
	if p.op == cnf.AtMost {
		return true
	}
	avail := p.total - e.pbF[ci]
	if avail < p.k {
		return false
	}
	if avail-p.maxW >= p.k {
		return true
	}
	for i, m := range p.lits {
		if avail-p.w[i] < p.k && e.value(m) == 0 {
			e.assign(m)
			e.props++
		}
	}
	return true
}

// process updates the counters for l, now true, and propagates; true on
// conflict. The counters are always updated in full, so undo stays exact.
func (e *engine) process(l int32) bool {
	c := e.c
	li, ni := litIdx(l), litIdx(-l)
	for _, ci := range c.occ[li] {
		if e.nTrue[ci]++; e.nTrue[ci] == 1 {
			e.nSat++
		}
	}
	conflict := false
	for _, ci := range c.occ[ni] {
		e.nFalse[ci]++
		if conflict || e.nTrue[ci] > 0 {
			continue
		}
		cl := c.cls[ci]
		if int(e.nFalse[ci]) >= len(cl)-1 {
			found := false
			for _, m := range cl {
				if vm := e.value(m); vm >= 0 {
					found = true
					if vm == 0 {
						e.assign(m)
						e.props++
					}
					break
				}
			}
			conflict = !found
		}
	}
	for _, r := range c.pbOcc[li] {
		e.pbT[r.c] += r.w
		e.pbNT[r.c]++
		if !conflict {
			conflict = !e.pbAtMost(r.c)
		}
	}
	for _, r := range c.pbOcc[ni] {
		e.pbF[r.c] += r.w
		e.pbNF[r.c]++
		if !conflict {
			conflict = !e.pbAtLeast(r.c)
		}
	}
	if !conflict {
		for _, m := range c.bin[li] {
			switch e.value(m) {
			case -1:
				return true
			case 0:
				e.assign(m)
				e.props++
			}
		}
	}
	return conflict
}

func (e *engine) unprocess(l int32) {
	c := e.c
	li, ni := litIdx(l), litIdx(-l)
	for _, ci := range c.occ[li] {
		if e.nTrue[ci]--; e.nTrue[ci] == 0 {
			e.nSat--
		}
	}
	for _, ci := range c.occ[ni] {
		e.nFalse[ci]--
	}
	for _, r := range c.pbOcc[li] {
		e.pbT[r.c] -= r.w
		e.pbNT[r.c]--
	}
	for _, r := range c.pbOcc[ni] {
		e.pbF[r.c] -= r.w
		e.pbNF[r.c]--
	}
}

// propagate processes the trail to a fixpoint; true on conflict.
func (e *engine) propagate() bool {
	for e.qhead < len(e.trail) {
		l := e.trail[e.qhead]
		conflict := e.process(l)
		e.qhead++
		if conflict {
			return true
		}
	}
	return false
}

// undo unassigns the trail down to length pos.
func (e *engine) undo(pos int) {
	for i := len(e.trail) - 1; i >= pos; i-- {
		l := e.trail[i]
		if i < e.qhead {
			e.unprocess(l)
		}
		v := l
		if v < 0 {
			v = -v
		}
		e.val[v] = 0
		e.nAssigned--
		if e.c.primary[v] {
			e.nProjAssigned--
		}
	}
	e.trail = e.trail[:pos]
	if e.qhead > pos {
		e.qhead = pos
	}
}

// pickProjected chooses the next projected decision literal: the first
// open literal of the open clause or at-least constraint over projected
// variables with the fewest open literals, else the lowest unassigned
// projected variable, false first.
func (e *engine) pickProjected() int32 {
	c := e.c
	best, bestU, bestPB := int32(-1), int32(1<<30), false
	for _, ci := range c.cand {
		if e.nTrue[ci] > 0 {
			continue
		}
		if u := int32(len(c.cls[ci])) - e.nFalse[ci]; u < bestU {
			best, bestU = ci, u
			if u <= 2 {
				break
			}
		}
	}
	if bestU > 2 {
		for _, ci := range c.pbCand {
			if e.pbT[ci] >= c.pbs[ci].k {
				continue
			}
			if u := int32(len(c.pbs[ci].lits)) - e.pbNT[ci] - e.pbNF[ci]; u > 0 && u < bestU {
				best, bestU, bestPB = ci, u, true
			}
		}
	}
	if best >= 0 {
		var lits []int32
		if bestPB {
			lits = c.pbs[best].lits
		} else {
			lits = c.cls[best]
		}
		for _, m := range lits {
			if e.value(m) == 0 {
				return m
			}
		}
	}
	for _, v := range c.projVars {
		if e.val[v] == 0 {
			return -v
		}
	}
	return 0
}

// decideAux decides the lowest unassigned auxiliary variable, false first.
// Auxiliary variables below the newest auxiliary decision's were all
// assigned when it was made, so the scan starts there.
func (e *engine) decideAux() bool {
	i := 0
	if k := len(e.frames); k > 0 && e.frames[k-1].aux {
		i = e.frames[k-1].auxIdx + 1
	} else {
		e.auxConfl = 0 // a new extension search
	}
	for ; i < len(e.c.auxVars); i++ {
		if v := e.c.auxVars[i]; e.val[v] == 0 {
			e.decisions++
			e.frames = append(e.frames, frame{pos: len(e.trail), lit: -v, aux: true, auxIdx: i})
			e.assign(-v)
			return true
		}
	}
	return false
}

// errInternal reports a broken invariant of the enumerator (a bug), as an
// error rather than a wrong count.
var errInternal = errors.New("internal error in the projected enumerator: assignment counts out of step")

// decide pushes a decision on projected literal l.
func (e *engine) decide(l int32) {
	e.decisions++
	e.frames = append(e.frames, frame{pos: len(e.trail), lit: l})
	e.assign(l)
}

// backtrack takes the other branch of the newest open decision (after a
// model, dropAux first drops every auxiliary decision: one extension is
// enough). False when no open decision is left.
func (e *engine) backtrack(dropAux bool) bool {
	for len(e.frames) > 0 {
		fr := &e.frames[len(e.frames)-1]
		e.undo(fr.pos)
		if fr.flipped || (dropAux && fr.aux) {
			e.frames = e.frames[:len(e.frames)-1]
			continue
		}
		fr.flipped = true
		fr.lit = -fr.lit
		e.assign(fr.lit)
		return true
	}
	return false
}

// reset returns the engine to its root state.
func (e *engine) reset() {
	e.undo(e.root)
	e.frames = e.frames[:0]
}

// fix asserts a cube's literals as decisions that are never flipped; false
// when they conflict.
func (e *engine) fix(cube []int32) bool {
	for _, l := range cube {
		e.frames = append(e.frames, frame{pos: len(e.trail), lit: l, flipped: true})
		if !e.assign(l) || e.propagate() {
			return false
		}
	}
	return true
}

// run searches every branch below the current frames. With cubeDepth > 0,
// a branch that reaches cubeDepth decisions with projected variables still
// open is handed to onCube (as its decision literals) instead.
func (e *engine) run(cubeDepth int, onCube func([]int32) error) error {
	if e.unsat {
		return nil
	}
	for {
		if e.polls++; e.polls&1023 == 0 && e.stop != nil && e.stop.Load() {
			return errStopped
		}
		if e.propagate() {
			e.conflicts++
			if k := len(e.frames); k > 0 && e.frames[k-1].aux {
				if e.auxConfl++; e.auxConfl > auxConflictBudget {
					if err := e.extendExternal(); err != nil {
						return err
					}
					if !e.backtrack(true) {
						return nil
					}
					continue
				}
			}
			if !e.backtrack(false) {
				return nil
			}
			continue
		}
		if free, ok := e.allSatisfied(); ok && free > 0 {
			// Every constraint holds already: each of the 2^free
			// assignments of the open projected variables is a model
			// (with any values of the open auxiliary ones), counted at
			// once instead of one at a time.
			if err := e.addFree(free); err != nil {
				return err
			}
			if !e.backtrack(true) {
				return nil
			}
			continue
		}
		if e.nProjAssigned == e.c.nProj {
			if e.nAssigned == e.c.n {
				e.count++
				if e.onModel != nil {
					if err := e.onModel(e.model()); err != nil {
						return err
					}
				}
				if !e.backtrack(true) {
					return nil
				}
				continue
			}
			if !e.decideAux() {
				return errInternal
			}
			continue
		}
		if cubeDepth > 0 && len(e.frames) >= cubeDepth {
			cube := make([]int32, len(e.frames))
			for i, fr := range e.frames {
				cube[i] = fr.lit
			}
			if err := onCube(cube); err != nil {
				return err
			}
			if !e.backtrack(false) {
				return nil
			}
			continue
		}
		l := e.pickProjected()
		if l == 0 {
			return errInternal
		}
		e.decide(l)
	}
}

// bulkMinFree is the fewest open projected variables for which a branch
// is checked for every constraint holding (allSatisfied): below it, the
// check costs more than the few models it would count at once.
const bulkMinFree = 6

// allSatisfied reports whether, at a propagated node without conflict,
// every clause and constraint already holds, and how many projected
// variables are open. It answers false when models are emitted one by
// one, when the formula has PB constraints, or when fewer than
// bulkMinFree projected variables are open. A binary clause is open only
// when both its literals are (one false would have forced the other), so
// every open variable's binary partners must be assigned.
func (e *engine) allSatisfied() (int, bool) {
	c := e.c
	free := c.nProj - e.nProjAssigned
	if e.onModel != nil || len(c.pbs) > 0 || e.nSat < len(c.cls) || free < bulkMinFree {
		return free, false
	}
	for v := int32(1); v <= int32(c.n); v++ {
		if e.val[v] != 0 {
			continue
		}
		for _, li := range [2]int32{litIdx(v), litIdx(-v)} {
			for _, m := range c.bin[li] {
				if e.value(m) == 0 {
					return free, false
				}
			}
		}
	}
	return free, true
}

// errCountOverflow ends a count past what a count here holds.
var errCountOverflow = errors.New("the projected count exceeds 2^64, more than a count here can hold")

// addFree adds the 2^free models of a branch on which every constraint
// holds to the count.
func (e *engine) addFree(free int) error {
	if free >= 64 {
		return errCountOverflow
	}
	sum, carry := bits.Add64(e.count, 1<<free, 0)
	if carry != 0 {
		return errCountOverflow
	}
	e.count = sum
	return nil
}

// model returns the engine's current full assignment as model[v].
func (e *engine) model() []bool {
	m := make([]bool, e.c.n+1)
	for v := 1; v <= e.c.n; v++ {
		m[v] = e.val[v] > 0
	}
	return m
}

// extendExternal drops the auxiliary decisions and asks gophersat whether
// the current projected assignment extends to a model; it counts (and
// emits) the assignment if so.
func (e *engine) extendExternal() error {
	i := len(e.frames)
	for i > 0 && e.frames[i-1].aux {
		i--
	}
	e.undo(e.frames[i].pos)
	e.frames = e.frames[:i]
	units := make([][]cnf.Lit, 0, len(e.c.projVars))
	for _, v := range e.c.projVars {
		l := cnf.Lit(v)
		if e.val[v] < 0 {
			l = -l
		}
		units = append(units, []cnf.Lit{l})
	}
	s := gs.New(gophersatProblem(e.c.f, units))
	st, err := gophersatRunHook(e.ctx, s)
	e.extCalls++
	if err != nil {
		if e.ctx.Err() != nil {
			return errStopped
		}
		return err
	}
	switch st {
	case gs.Unsat:
		return nil
	case gs.Sat:
	default:
		return fmt.Errorf("gophersat ended with status %v", st)
	}
	model, err := gophersatModel(s, e.c.n)
	if err != nil {
		return err
	}
	for _, v := range e.c.projVars {
		if model[v] != (e.val[v] > 0) {
			return errors.New("gophersat returned a model that ignores its unit clauses")
		}
	}
	if !e.c.f.Satisfied(model) {
		return errors.New("gophersat returned a model that violates the formula")
	}
	e.count++
	if e.onModel != nil {
		return e.onModel(model)
	}
	return nil
}
