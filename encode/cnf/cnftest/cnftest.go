// Package cnftest decides and counts small cnf.Formulas by a plain DPLL
// search, for tests: it shares no code with the solvers and counters under
// test (encode/sat), so agreement with it is evidence. It is slow by design
// and meant for formulas of a few hundred variables.
package cnftest

import "github.com/boardsat/boardsat/encode/cnf"

// Solver is a tiny DPLL solver, independent of the code under test, that
// decides and counts over a cnf.Formula: occurrence lists, unit propagation
// of clauses and cardinality (PB) constraints, chronological backtracking.
type Solver struct {
	f       *cnf.Formula
	nv      int
	clauses [][]cnf.Lit
	occ     [][]int // occ[code(l)]: clauses holding literal l
	pbOcc   [][]int // pbOcc[v]: PB constraints over variable v
	val     []int8  // val[v]: 0 unassigned, 1 true, -1 false
	trail   []cnf.Lit
	base    int  // trail length after the formula's own units
	dead    bool // the formula is unsatisfiable by propagation alone
	// OnModel, if set, receives every model found at a leaf of count (a
	// full assignment), and count branches on every variable of vars.
	OnModel func(model []bool)
	model   []bool // the last model sat found
}

func code(l cnf.Lit) int {
	if l > 0 {
		return 2 * int(l)
	}
	return 2*int(-l) + 1
}

// New returns a solver for f, with f's unit clauses already propagated.
func New(f *cnf.Formula) *Solver {
	s := &Solver{f: f, nv: f.NumVars()}
	s.occ = make([][]int, 2*s.nv+2)
	s.pbOcc = make([][]int, s.nv+1)
	s.val = make([]int8, s.nv+1)
	for i := range f.NumClauses() {
		c := f.Clause(i)
		s.clauses = append(s.clauses, c)
		for _, l := range c {
			s.occ[code(l)] = append(s.occ[code(l)], i)
		}
	}
	for i, p := range f.PBs() {
		for _, l := range p.Lits {
			s.pbOcc[l.Var()] = append(s.pbOcc[l.Var()], i)
		}
	}
	for _, c := range s.clauses {
		if len(c) == 0 || (len(c) == 1 && !s.assign(c[0])) {
			s.dead = true
		}
	}
	for i := range f.PBs() {
		if !s.checkPB(i) {
			s.dead = true
		}
	}
	if !s.dead && !s.propagate(0) {
		s.dead = true
	}
	s.base = len(s.trail)
	return s
}

func (s *Solver) value(l cnf.Lit) int8 {
	v := s.val[l.Var()]
	if l < 0 {
		return -v
	}
	return v
}

// assign makes l true; false if l is already false.
func (s *Solver) assign(l cnf.Lit) bool {
	switch s.value(l) {
	case 1:
		return true
	case -1:
		return false
	}
	if l > 0 {
		s.val[l] = 1
	} else {
		s.val[-l] = -1
	}
	s.trail = append(s.trail, l)
	return true
}

func (s *Solver) undo(to int) {
	for _, l := range s.trail[to:] {
		s.val[l.Var()] = 0
	}
	s.trail = s.trail[:to]
}

// propagate runs unit propagation over the trail from position from.
func (s *Solver) propagate(from int) bool {
	for i := from; i < len(s.trail); i++ {
		l := s.trail[i]
		for _, ci := range s.occ[code(l.Not())] {
			var unit cnf.Lit
			free, sat := 0, false
			for _, m := range s.clauses[ci] {
				switch s.value(m) {
				case 1:
					sat = true
				case 0:
					free++
					unit = m
				}
				if sat {
					break
				}
			}
			if sat {
				continue
			}
			if free == 0 {
				return false
			}
			if free == 1 && !s.assign(unit) {
				return false
			}
		}
		for _, pi := range s.pbOcc[l.Var()] {
			if !s.checkPB(pi) {
				return false
			}
		}
	}
	return true
}

// checkPB propagates one PB constraint (all weights must be 1).
func (s *Solver) checkPB(i int) bool {
	p := s.f.PBs()[i]
	t, u := 0, 0
	for j, l := range p.Lits {
		if p.Weights[j] != 1 {
			panic("Solver: weighted PB")
		}
		switch s.value(l) {
		case 1:
			t++
		case 0:
			u++
		}
	}
	upper := p.Op == cnf.AtMost || p.Op == cnf.Exactly
	lower := p.Op == cnf.AtLeast || p.Op == cnf.Exactly
	if (upper && t > p.K) || (lower && t+u < p.K) {
		return false
	}
	for _, l := range p.Lits {
		if s.value(l) != 0 {
			continue
		}
		if upper && t == p.K {
			s.assign(l.Not())
		} else if lower && t+u == p.K {
			s.assign(l)
		}
	}
	return true
}

// pick scans the constraints not yet satisfied and returns an unassigned
// variable accepted by in from the one with the fewest unassigned literals
// (0 if none has one), and whether any constraint is not yet satisfied.
func (s *Solver) pick(in func(v int) bool) (best int, open bool) {
	size := 1 << 30
	for _, c := range s.clauses {
		free, cand, sat := 0, 0, false
		for _, m := range c {
			switch s.value(m) {
			case 1:
				sat = true
			case 0:
				free++
				if cand == 0 && in(m.Var()) {
					cand = m.Var()
				}
			}
			if sat {
				break
			}
		}
		if sat {
			continue
		}
		open = true
		if cand != 0 && free < size {
			best, size = cand, free
		}
	}
	for _, p := range s.f.PBs() {
		t, u, cand := 0, 0, 0
		for _, l := range p.Lits {
			switch s.value(l) {
			case 1:
				t++
			case 0:
				u++
				if cand == 0 && in(l.Var()) {
					cand = l.Var()
				}
			}
		}
		entailed := true
		if p.Op != cnf.AtLeast && t+u > p.K {
			entailed = false
		}
		if p.Op != cnf.AtMost && t < p.K {
			entailed = false
		}
		if entailed {
			continue
		}
		open = true
		if cand != 0 && u < size {
			best, size = cand, u
		}
	}
	return best, open
}

// count returns the number of assignments of the variables in vars
// (stopping at limit if limit > 0) that extend, under the current trail, to
// a model. inVars[v] marks the members of vars.
func (s *Solver) count(vars []int, inVars []bool, limit uint64) uint64 {
	v, open := s.pick(func(v int) bool { return inVars[v] })
	if v == 0 && s.OnModel != nil {
		for _, u := range vars {
			if s.val[u] == 0 {
				v = u
				break
			}
		}
		if v == 0 {
			if open && !s.sat() {
				return 0
			}
			if !open {
				s.sat()
			}
			s.OnModel(s.model)
			return 1
		}
	}
	if v == 0 {
		free := 0
		for _, u := range vars {
			if s.val[u] == 0 {
				free++
			}
		}
		if open && !s.sat() {
			return 0
		}
		if free >= 63 {
			return 1 << 63
		}
		return 1 << free
	}
	var total uint64
	for _, l := range []cnf.Lit{cnf.Lit(v), cnf.Lit(-v)} {
		mark := len(s.trail)
		if s.assign(l) && s.propagate(mark) {
			total += s.count(vars, inVars, sub(limit, total))
		}
		s.undo(mark)
		if limit > 0 && total >= limit {
			break
		}
	}
	return total
}

func sub(limit, done uint64) uint64 {
	if limit == 0 {
		return 0
	}
	return limit - done
}

// sat decides whether the current trail extends to a model.
func (s *Solver) sat() bool {
	v, open := s.pick(func(int) bool { return true })
	if !open {
		s.model = make([]bool, s.nv+1)
		for u := 1; u <= s.nv; u++ {
			s.model[u] = s.val[u] > 0
		}
		return true
	}
	if v == 0 {
		return false
	}
	for _, l := range []cnf.Lit{cnf.Lit(-v), cnf.Lit(v)} { // false first: aux flags are mostly off
		mark := len(s.trail)
		ok := s.assign(l) && s.propagate(mark) && s.sat()
		s.undo(mark)
		if ok {
			return true
		}
	}
	return false
}

// CountUnder counts assignments of vars extending to a model once lits are
// assigned; it leaves the solver as it found it.
func (s *Solver) CountUnder(lits []cnf.Lit, vars []int, limit uint64) uint64 {
	if s.dead {
		return 0
	}
	mark := len(s.trail)
	defer s.undo(mark)
	for _, l := range lits {
		if !s.assign(l) {
			return 0
		}
	}
	if !s.propagate(mark) {
		return 0
	}
	in := make([]bool, s.nv+1)
	for _, v := range vars {
		in[v] = true
	}
	return s.count(vars, in, limit)
}

// Refutes reports whether unit propagation alone, with lits assigned, finds
// a conflict (no search); it leaves the solver as it found it. Encodings
// whose violations show up this way let a projected enumerator reject a
// bad assignment of the inputs without searching the auxiliary variables.
func (s *Solver) Refutes(lits []cnf.Lit) bool {
	if s.dead {
		return true
	}
	mark := len(s.trail)
	defer s.undo(mark)
	for _, l := range lits {
		if !s.assign(l) {
			return true
		}
	}
	return !s.propagate(mark)
}
