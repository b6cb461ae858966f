package proof

import (
	"fmt"
	"slices"
	"strconv"
)

// CheckOptions tune the DRAT checker.
type CheckOptions struct {
	// All verifies every lemma up to the refutation, not only the core
	// lemmas the refutation depends on (slower; a wrong lemma anywhere
	// is then reported even when the refutation does not need it).
	All bool
	// NoLRAT skips writing the LRAT proof (Result.LRAT stays nil).
	NoLRAT bool
}

// Result is the DRAT checker's verdict.
type Result struct {
	// Verified is true when every core lemma is RUP or RAT and the
	// empty clause follows by unit propagation.
	Verified bool
	// Reason says why the proof was not verified.
	Reason string
	// Lemma is the failing lemma's number (1-based, counting the
	// proof's lemmas, not its deletions), 0 when the failure is not one
	// lemma's; Step is the same step's number counting deletions too.
	Lemma, Step int
	// Lemmas and Deletions count all the proof's steps; CoreLemmas the
	// lemmas verified (the core, or every lemma up to the refutation
	// under All; lemmas after the top level conflicts are never needed);
	// RATLemmas those that needed RAT.
	Lemmas, Deletions, CoreLemmas, RATLemmas int
	// IgnoredDeletions counts deletions of unit clauses (or of the reason
	// of a literal assigned at the top level), which are ignored as
	// drat-trim ignores them; MissingDeletions those of clauses not in
	// the database (also ignored).
	IgnoredDeletions, MissingDeletions int
	// LRAT is the refutation as an ASCII LRAT proof of the formula (only
	// when Verified): the core lemmas with their unit-propagation hints,
	// the deletions, and the empty clause.
	LRAT []byte
}

// lit is a literal as 2v (positive) or 2v+1 (negative).
type lit uint32

// noLit is no literal (variables start at 1).
const noLit lit = 0

func toLit(x int) lit {
	if x > 0 {
		return lit(2 * x)
	}
	return lit(-2*x + 1)
}

func (l lit) neg() lit { return l ^ 1 }
func (l lit) v() int   { return int(l >> 1) }
func (l lit) int() int {
	if l&1 == 1 {
		return -int(l >> 1)
	}
	return int(l >> 1)
}

// clause is one clause of the checker's database. Its literals are
// arena[start:start+size]; the first two are watched (clauses of two
// literals or more).
type clause struct {
	start  int32
	size   int32
	pivot  lit  // the first literal as written (a lemma's RAT pivot)
	step   int  // the proof step that added it, -1 for the formula's
	core   bool // needed by the refutation (or to be verified)
	active bool
}

// watch is an entry of a watch list: a clause, where its literals start
// in the arena (so that propagation reads them without the clause), and
// its other watched literal, which spares a visit to the clause when it is
// true.
type watch struct {
	cls     int32
	start   int32
	blocker lit
}

// family returns the index of the watch lists clause idx belongs in.
func (c *checker) family(idx int32) int {
	if c.clauses[idx].core {
		return 1
	}
	return 0
}

// ratGroup is the part of a RAT lemma's LRAT hints for one clause that
// holds the negated pivot: the hints refuting the resolvent.
type ratGroup struct {
	cand  int32
	hints []int32
}

// lemmaHints is a verified lemma's LRAT justification: RUP hints, or one
// group per candidate clause of a RAT step.
type lemmaHints struct {
	rup []int32
	rat []ratGroup
	// isRAT marks a RAT lemma (rup is then empty).
	isRAT bool
}

// stepInfo records what a proof step did in the forward pass.
type stepInfo struct {
	clause  int32 // the added or deleted clause, -1 for an ignored deletion
	ignored bool
}

// checker holds the clause database, the top-level assignment and its
// trail, and the watch lists.
type checker struct {
	clauses []clause
	nOrig   int
	// watches[1][l] lists the core clauses watching literal l,
	// watches[0][l] the others: propagation visits them separately.
	watches  [2][][]watch
	val      []int8  // by literal: 1 true, -1 false, 0 unassigned
	reason   []int32 // by variable: the clause that implied it, -1 none
	trailPos []int32 // by variable: position on the trail
	trail    []lit
	qCore    int // trail position of the next literal for core clauses
	qAll     int // ... for the other clauses
	// A scan of the other clauses that stopped at a literal it assigned:
	// the watch list of pauseLit, entries kept up to pauseJ, next pauseI.
	paused         bool
	pauseLit       lit
	pauseI, pauseJ int
	units          []int32 // active clauses of one literal
	seen           []bool  // by variable, for conflict analysis
	stamp          []uint32
	stampNow       uint32
	index          map[uint64][]int32 // literal-set hash -> active clauses
	hints          map[int32]*lemmaHints
	final          []int32 // hints of the empty clause
	// arena holds every clause's literals side by side, each clause's
	// after its size: propagation touches one array.
	arena []lit
	info  []stepInfo
}

func (c *checker) grow(v int) {
	for len(c.reason) <= v {
		c.reason = append(c.reason, -1)
		c.trailPos = append(c.trailPos, 0)
		c.seen = append(c.seen, false)
		c.val = append(c.val, 0, 0)
		c.watches[0] = append(c.watches[0], nil, nil)
		c.watches[1] = append(c.watches[1], nil, nil)
		c.stamp = append(c.stamp, 0, 0)
	}
}

// newClause adds lits (duplicates dropped, order kept) to the database.
func (c *checker) newClause(in []int, step int) int32 {
	c.stampNow++
	c.arena = append(c.arena, 0) // the size, below
	start := len(c.arena)
	for _, x := range in {
		l := toLit(x)
		c.grow(l.v())
		if c.stamp[l] == c.stampNow {
			continue
		}
		c.stamp[l] = c.stampNow
		c.arena = append(c.arena, l)
	}
	lits := c.arena[start:len(c.arena):len(c.arena)]
	c.arena[start-1] = lit(len(lits))
	cl := clause{start: int32(start), size: int32(len(lits)), step: step, active: true}
	if len(lits) > 0 {
		cl.pivot = lits[0]
	}
	c.clauses = append(c.clauses, cl)
	idx := int32(len(c.clauses) - 1)
	h := hashLits(lits)
	c.index[h] = append(c.index[h], idx)
	return idx
}

// lits returns clause idx's literals (in the arena: valid until the next
// clause is added).
func (c *checker) lits(idx int32) []lit {
	cl := &c.clauses[idx]
	return c.arena[cl.start : cl.start+cl.size : cl.start+cl.size]
}

// hashLits hashes a set of literals independently of their order.
func hashLits(lits []lit) uint64 {
	var sum, xor uint64
	for _, l := range lits {
		x := uint64(l) * 0x9e3779b97f4a7c15
		x ^= x >> 29
		sum += x
		xor ^= x * 0xbf58476d1ce4e5b9
	}
	return sum ^ (xor << 1) ^ uint64(len(lits))
}

func (c *checker) assign(l lit, r int32) {
	c.val[l], c.val[l^1] = 1, -1
	v := l.v()
	c.reason[v] = r
	c.trailPos[v] = int32(len(c.trail))
	c.trail = append(c.trail, l)
}

// backtrack unassigns the trail from position t on.
func (c *checker) backtrack(t int) {
	for _, l := range c.trail[t:] {
		c.val[l], c.val[l^1] = 0, 0
		c.reason[l.v()] = -1
	}
	c.trail = c.trail[:t]
	c.qCore = min(c.qCore, t)
	c.qAll = min(c.qAll, t)
}

// attach makes clause idx active in the watch lists (or the unit list)
// and assigns what it implies under the current assignment. It returns
// false when the clause is falsified.
func (c *checker) attach(idx int32) bool {
	cl := &c.clauses[idx]
	cl.active = true
	lits := c.lits(idx)
	switch len(lits) {
	case 0:
		return false
	case 1:
		c.units = append(c.units, idx)
		switch c.val[lits[0]] {
		case -1:
			return false
		case 0:
			c.assign(lits[0], idx)
		}
		return true
	}
	// Move the two best literals (true, then unassigned, then false)
	// to the front.
	rank := func(l lit) int { return 1 - int(c.val[l]) } // true 0, free 1, false 2
	for k := range 2 {
		best := k
		for j := k + 1; j < len(lits); j++ {
			if rank(lits[j]) < rank(lits[best]) {
				best = j
			}
		}
		lits[k], lits[best] = lits[best], lits[k]
	}
	w := c.watches[c.family(idx)]
	w[lits[0]] = append(w[lits[0]], watch{idx, cl.start, lits[1]})
	w[lits[1]] = append(w[lits[1]], watch{idx, cl.start, lits[0]})
	switch {
	case c.val[lits[0]] == -1:
		return false
	case c.val[lits[1]] == -1 && c.val[lits[0]] == 0:
		c.assign(lits[0], idx)
	}
	return true
}

// detach removes clause idx from the watch lists or the unit list.
func (c *checker) detach(idx int32) {
	cl := &c.clauses[idx]
	cl.active = false
	switch cl.size {
	case 0:
	case 1:
		if i := slices.Index(c.units, idx); i >= 0 {
			c.units[i] = c.units[len(c.units)-1]
			c.units = c.units[:len(c.units)-1]
		}
	default:
		c.unwatch(idx, c.family(idx))
	}
}

// unwatch removes clause idx from the watch lists of family f.
func (c *checker) unwatch(idx int32, f int) {
	for _, l := range c.lits(idx)[:2] {
		ws := c.watches[f][l]
		for i := range ws {
			if ws[i].cls == idx {
				c.watches[f][l] = slices.Delete(ws, i, i+1)
				break
			}
		}
	}
}

// makeCore marks clause idx core, moving its watches to the core lists.
func (c *checker) makeCore(idx int32) {
	cl := &c.clauses[idx]
	if cl.core {
		return
	}
	cl.core = true
	if !cl.active || cl.size < 2 {
		return
	}
	c.unwatch(idx, 0)
	w := c.watches[1]
	lits := c.lits(idx)
	w[lits[0]] = append(w[lits[0]], watch{idx, cl.start, lits[1]})
	w[lits[1]] = append(w[lits[1]], watch{idx, cl.start, lits[0]})
}

// scan visits the clauses of watch-list family f (1 core, 0 the others)
// that watch fl, which has just become false, from entry i on (the
// entries kept so far are ws[:j]): it moves their watch, or assigns their
// last literal. It returns a falsified clause, or -1. When stop is set it
// stops after the first literal it assigns, leaving the entries between j
// and i stale, and returns where to resume (stopped); else, and at a
// conflict, the list is left whole.
func (c *checker) scan(fl lit, f, i, j int, stop bool) (confl int32, ni, nj int, stopped bool) {
	ws := c.watches[f][fl]
	for ; i < len(ws); i++ {
		w := ws[i]
		if c.val[w.blocker] == 1 {
			ws[j] = w
			j++
			continue
		}
		n := int32(c.arena[w.start-1])
		lits := c.arena[w.start : w.start+n : w.start+n]
		if lits[0] == fl {
			lits[0], lits[1] = lits[1], lits[0]
		}
		w.blocker = lits[0]
		if c.val[lits[0]] == 1 {
			ws[j] = w
			j++
			continue
		}
		moved := false
		for k := 2; k < len(lits); k++ {
			if c.val[lits[k]] != -1 {
				lits[1], lits[k] = lits[k], lits[1]
				c.watches[f][lits[1]] = append(c.watches[f][lits[1]], w)
				moved = true
				break
			}
		}
		if moved {
			continue
		}
		ws[j] = w
		j++
		if c.val[lits[0]] == -1 {
			j += copy(ws[j:], ws[i+1:])
			c.watches[f][fl] = ws[:j]
			return w.cls, 0, 0, false
		}
		c.assign(lits[0], w.cls)
		if stop {
			return -1, i + 1, j, true
		}
	}
	c.watches[f][fl] = ws[:j]
	return -1, 0, 0, false
}

// propagate runs unit propagation core-first, as drat-trim does: the core
// clauses to a fixpoint; then the other clauses, only until one of them
// assigns a literal, and back to the core clauses, resuming the other
// clauses later where they stopped. It returns a falsified clause, or -1.
func (c *checker) propagate() int32 {
	for {
		for c.qCore < len(c.trail) {
			l := c.trail[c.qCore]
			c.qCore++
			if confl, _, _, _ := c.scan(l.neg(), 1, 0, 0, false); confl >= 0 {
				c.closePause()
				return confl
			}
		}
		var fl lit
		i, j := 0, 0
		if c.paused {
			fl, i, j = c.pauseLit, c.pauseI, c.pauseJ
			c.paused = false
		} else {
			if c.qAll >= len(c.trail) {
				return -1
			}
			fl = c.trail[c.qAll].neg()
			c.qAll++
		}
		confl, ni, nj, stopped := c.scan(fl, 0, i, j, true)
		if confl >= 0 {
			return confl
		}
		if stopped {
			c.paused, c.pauseLit, c.pauseI, c.pauseJ = true, fl, ni, nj
		}
	}
}

// closePause drops the stale entries of a non-core watch list whose scan
// stopped midway (no literal's list is ever left with a gap between two
// propagations).
func (c *checker) closePause() {
	if !c.paused {
		return
	}
	ws := c.watches[0][c.pauseLit]
	n := copy(ws[c.pauseJ:], ws[c.pauseI:])
	c.watches[0][c.pauseLit] = ws[:c.pauseJ+n]
	c.paused = false
}

// repropagate recomputes the top-level assignment from trail position t
// on, after a clause it depended on left the database.
func (c *checker) repropagate(t int) int32 {
	c.backtrack(t)
	c.qCore, c.qAll = 0, 0
	for _, u := range c.units {
		l := c.lits(u)[0]
		switch c.val[l] {
		case -1:
			return u
		case 0:
			c.assign(l, u)
		}
	}
	return c.propagate()
}

// chain walks the trail back from its end and returns, in trail order,
// the reasons of the pending marked variables and of everything they
// depend on, marking those reasons core.
func (c *checker) chain(pending int) []int32 {
	var out []int32
	for i := len(c.trail) - 1; pending > 0; i-- {
		l := c.trail[i]
		v := l.v()
		if !c.seen[v] {
			continue
		}
		c.seen[v] = false
		pending--
		r := c.reason[v]
		if r < 0 {
			continue
		}
		out = append(out, r)
		c.makeCore(r)
		for _, x := range c.lits(r) {
			if w := x.v(); w != v && !c.seen[w] {
				c.seen[w] = true
				pending++
			}
		}
	}
	slices.Reverse(out)
	return out
}

// analyze returns the hints of a conflict on clause confl: the reasons
// its falsified literals rest on, in trail order, then confl.
func (c *checker) analyze(confl int32) []int32 {
	pending := 0
	for _, x := range c.lits(confl) {
		if w := x.v(); !c.seen[w] {
			c.seen[w] = true
			pending++
		}
	}
	out := c.chain(pending)
	c.makeCore(confl)
	return append(out, confl)
}

// analyzeLit returns the hints of a conflict on a literal l that is true
// but must be made false: the chain ending with l's reason.
func (c *checker) analyzeLit(l lit) []int32 {
	c.seen[l.v()] = true
	return c.chain(1)
}

// assumeFalse makes every literal of lits false. It returns done when a
// literal is already true, with the hints of that conflict (none when
// the literal was itself assumed: a tautology).
func (c *checker) assumeFalse(lits []lit, skip lit) (done bool, hints []int32) {
	for _, l := range lits {
		if l == skip {
			continue
		}
		switch c.val[l] {
		case -1:
			continue
		case 1:
			if c.reason[l.v()] < 0 {
				return true, nil
			}
			return true, c.analyzeLit(l)
		}
		c.assign(l.neg(), -1)
	}
	return false, nil
}

// rup checks that lits is implied by unit propagation, leaving the top
// level as it found it; it returns the hints.
func (c *checker) rup(lits []lit, skip lit) ([]int32, bool) {
	done, hints := c.assumeFalse(lits, skip)
	if !done {
		confl := c.propagate()
		if confl < 0 {
			return nil, false
		}
		hints = c.analyze(confl)
	}
	return hints, true
}

// verify checks lemma idx against the database (which no longer holds
// it): RUP, or else RAT on its pivot. It records the LRAT hints.
func (c *checker) verify(idx int32) bool {
	cl := &c.clauses[idx]
	tl := len(c.trail)
	defer c.backtrack(tl)
	if hints, ok := c.rup(c.lits(idx), noLit); ok {
		c.hints[idx] = &lemmaHints{rup: hints}
		return true
	}
	if cl.size == 0 {
		return false
	}
	// The state now holds the negated lemma and what it propagates.
	t1 := len(c.trail)
	p := cl.pivot
	lh := &lemmaHints{isRAT: true}
	for di := range c.clauses {
		d := &c.clauses[di]
		if !d.active || !slices.Contains(c.lits(int32(di)), p.neg()) {
			continue
		}
		hints, ok := c.rup(c.lits(int32(di)), p.neg())
		c.backtrack(t1)
		if !ok {
			return false
		}
		lh.rat = append(lh.rat, ratGroup{cand: int32(di), hints: hints})
	}
	c.hints[idx] = lh
	return true
}

// Check verifies a DRAT refutation of f: a forward pass applies the
// steps up to the first top-level conflict, then a backward pass verifies
// the lemmas the refutation needs (every lemma under opts.All), each as
// RUP or as RAT on its first literal, against the clauses present when
// it was added, propagating core clauses first; the verified lemmas and
// their hints become an LRAT proof.
//
// Deletions of unit clauses, and of clauses that are the reason of a
// literal at the top level, are ignored (as drat-trim ignores them), and
// so are deletions of clauses not present; Result counts both.
func Check(f *CNF, steps []Step, opts CheckOptions) Result {
	c := &checker{index: map[uint64][]int32{}, hints: map[int32]*lemmaHints{}}
	var res Result
	for _, st := range steps {
		if st.Delete {
			res.Deletions++
		} else {
			res.Lemmas++
		}
		if bad := invalid(st.Lits); bad != 0 {
			return fail(res, 0, -1, fmt.Sprintf("the proof holds the invalid literal %d", bad))
		}
	}
	for _, cl := range f.Clauses {
		if bad := invalid(cl); bad != 0 {
			return fail(res, 0, -1, fmt.Sprintf("the formula holds the invalid literal %d", bad))
		}
	}
	confl := int32(-1)
	for _, cl := range f.Clauses {
		idx := c.newClause(cl, -1)
		if confl < 0 && !c.attach(idx) {
			confl = idx
		}
	}
	c.nOrig = len(c.clauses)
	if confl < 0 {
		confl = c.propagate()
	}
	last := -1 // the step after which the top level conflicts
	var lemmaAt []int
	if confl < 0 {
		var bad *Result
		if confl, last, lemmaAt, bad = c.forward(steps, &res); bad != nil {
			return *bad
		}
	}
	c.final = c.analyze(confl)
	if opts.All {
		for i := c.nOrig; i < len(c.clauses); i++ {
			c.makeCore(int32(i))
		}
	}
	if bad := c.backward(steps, last, lemmaAt, &res); bad != nil {
		return *bad
	}
	res.Verified = true
	if !opts.NoLRAT {
		res.LRAT = c.lrat(steps, last)
	}
	return res
}

// forward applies the steps up to the first top-level conflict, counting
// the ignored deletions in res. It returns the conflict, the step after
// which it arose, and each step's lemma number (deletions: the lemma
// before), or the rejection when there is none.
func (c *checker) forward(steps []Step, res *Result) (confl int32, last int, lemmaAt []int, bad *Result) {
	lemma := 0
	lemmaAt = make([]int, 0, len(steps))
	for i, st := range steps {
		if st.Delete {
			c.info = append(c.info, c.delete(st.Lits, res))
			lemmaAt = append(lemmaAt, lemma)
			continue
		}
		lemma++
		lemmaAt = append(lemmaAt, lemma)
		idx := c.newClause(st.Lits, i)
		c.info = append(c.info, stepInfo{clause: idx})
		if c.clauses[idx].size == 0 {
			r := fail(*res, lemma, i, "the empty clause does not follow by unit propagation")
			return -1, -1, nil, &r
		}
		if !c.attach(idx) {
			confl = idx
		} else {
			confl = c.propagate()
		}
		if confl >= 0 {
			return confl, i, lemmaAt, nil
		}
	}
	r := fail(*res, 0, -1, "no conflict: the proof does not derive the empty clause")
	return -1, -1, nil, &r
}

// backward verifies, from step last down, the core lemmas, each against
// the clauses present when it was added (deleted clauses restored on the
// way), counting them in res. It returns the rejection of the first that
// fails, or nil.
func (c *checker) backward(steps []Step, last int, lemmaAt []int, res *Result) *Result {
	reject := func(lemma, step int, why string) *Result {
		r := fail(*res, lemma, step, why)
		return &r
	}
	for i := last; i >= 0; i-- {
		in := c.info[i]
		if steps[i].Delete {
			if in.ignored {
				continue
			}
			if !c.attach(in.clause) || c.propagate() >= 0 {
				return reject(0, i, "internal error: a restored clause conflicts at the top level")
			}
			continue
		}
		idx := in.clause
		c.detach(idx)
		if i == last {
			if c.repropagate(0) >= 0 {
				return reject(0, i, "internal error: the top level conflicts before the refutation")
			}
		} else {
			for _, l := range c.lits(idx) {
				if c.reason[l.v()] == idx {
					if c.repropagate(int(c.trailPos[l.v()])) >= 0 {
						return reject(0, i, "internal error: the top level conflicts before the refutation")
					}
					break
				}
			}
		}
		if !c.clauses[idx].core {
			continue
		}
		if !c.verify(idx) {
			return reject(lemmaAt[i], i, fmt.Sprintf("neither RUP nor RAT on its first literal %d", c.clauses[idx].pivot.int()))
		}
		res.CoreLemmas++
		if c.hints[idx].isRAT {
			res.RATLemmas++
		}
	}
	return nil
}

// fail records a rejection; lemma and step (from 0) name the failing
// lemma when lemma > 0.
// invalid returns a literal of lits that is above MaxVar (1<<62 for a
// literal 0), or 0 when all are valid.
func invalid(lits []int) int {
	for _, l := range lits {
		if l == 0 {
			return 1 << 62
		}
		if l > MaxVar || l < -MaxVar { // not abs(l): it overflows for the least int
			return l
		}
	}
	return 0
}

func fail(res Result, lemma, step int, reason string) Result {
	res.Verified = false
	res.Lemma = lemma
	res.Reason = reason
	if lemma > 0 {
		res.Step = step + 1
		res.Reason = fmt.Sprintf("lemma %d (step %d): %s", lemma, step+1, reason)
	}
	return res
}

// delete applies a deletion step in the forward pass.
func (c *checker) delete(in []int, res *Result) stepInfo {
	c.stampNow++
	var lits []lit
	for _, x := range in {
		l := toLit(x)
		c.grow(l.v())
		if c.stamp[l] != c.stampNow {
			c.stamp[l] = c.stampNow
			lits = append(lits, l)
		}
	}
	h := hashLits(lits)
	cands := c.index[h]
	for k := len(cands) - 1; k >= 0; k-- {
		idx := cands[k]
		cl := &c.clauses[idx]
		if int(cl.size) != len(lits) || !allStamped(c.lits(idx), c.stamp, c.stampNow) {
			continue
		}
		isReason := false
		for _, l := range c.lits(idx) {
			if c.reason[l.v()] == idx {
				isReason = true
			}
		}
		if cl.size == 1 || isReason {
			res.IgnoredDeletions++
			return stepInfo{clause: -1, ignored: true}
		}
		c.index[h] = slices.Delete(cands, k, k+1)
		c.detach(idx)
		return stepInfo{clause: idx}
	}
	res.MissingDeletions++
	return stepInfo{clause: -1, ignored: true}
}

// allStamped reports whether every literal of a is stamped now: with no
// duplicates and as many literals as the stamped set, a is that set.
func allStamped(a []lit, stamp []uint32, now uint32) bool {
	for _, l := range a {
		if stamp[l] != now {
			return false
		}
	}
	return true
}

// lrat writes the verified refutation as ASCII LRAT: core lemmas in
// proof order with new ids after the formula's, deletions of clauses the
// LRAT proof holds, and the empty clause.
func (c *checker) lrat(steps []Step, last int) []byte {
	ids := make([]int64, len(c.clauses))
	for i := range c.nOrig {
		ids[i] = int64(i + 1)
	}
	next := int64(c.nOrig)
	// Size the output first: about as many bytes as digits and spaces
	// of its numbers, so that it is not copied as it grows.
	numbers := len(c.final) + 3
	for i := 0; i <= last; i++ {
		in := c.info[i]
		if in.ignored || steps[i].Delete || !c.clauses[in.clause].core {
			numbers++
			continue
		}
		h := c.hints[in.clause]
		numbers += int(c.clauses[in.clause].size) + len(h.rup) + 3
		for _, g := range h.rat {
			numbers += len(g.hints) + 1
		}
	}
	digits := len(strconv.FormatInt(int64(len(c.clauses)), 10)) + 2
	out := make([]byte, 0, numbers*digits)
	appendHints := func(hs []int32) {
		for _, h := range hs {
			out = strconv.AppendInt(out, ids[h], 10)
			out = append(out, ' ')
		}
	}
	var dels []int64
	flush := func() {
		if len(dels) == 0 {
			return
		}
		out = strconv.AppendInt(out, next, 10)
		out = append(out, " d "...)
		for _, d := range dels {
			out = strconv.AppendInt(out, d, 10)
			out = append(out, ' ')
		}
		out = append(out, "0\n"...)
		dels = dels[:0]
	}
	for i := 0; i <= last; i++ {
		in := c.info[i]
		if in.ignored {
			continue
		}
		idx := in.clause
		if steps[i].Delete {
			if ids[idx] != 0 {
				dels = append(dels, ids[idx])
			}
			continue
		}
		if !c.clauses[idx].core {
			continue
		}
		flush()
		next++
		ids[idx] = next
		out = strconv.AppendInt(out, next, 10)
		out = append(out, ' ')
		cl := &c.clauses[idx]
		out = strconv.AppendInt(out, int64(cl.pivot.int()), 10)
		out = append(out, ' ')
		for _, l := range c.lits(idx) {
			if l != cl.pivot {
				out = strconv.AppendInt(out, int64(l.int()), 10)
				out = append(out, ' ')
			}
		}
		out = append(out, "0 "...)
		h := c.hints[idx]
		appendHints(h.rup)
		for _, g := range h.rat {
			if ids[g.cand] == 0 {
				continue // a lemma the LRAT proof does not hold
			}
			out = strconv.AppendInt(out, -ids[g.cand], 10)
			out = append(out, ' ')
			appendHints(g.hints)
		}
		out = append(out, "0\n"...)
	}
	flush()
	next++
	out = strconv.AppendInt(out, next, 10)
	out = append(out, " 0 "...)
	appendHints(c.final)
	out = append(out, "0\n"...)
	return out
}
