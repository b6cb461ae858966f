package cnf

import "fmt"

// Pigeonhole returns the formula of holes+1 pigeons in holes holes (every
// pigeon in a hole, no two in one): unsatisfiable, not by unit propagation
// alone, and hard for resolution, so beyond any solver's reach from about
// 12 holes. It is the project's one such formula: solver checks refute it
// with 2 holes, tests that need a search which does not finish use it
// larger. Variable p<i>h<j> says pigeon i sits in hole j.
func Pigeonhole(holes int) *Formula {
	f := New()
	x := make([][]Lit, holes+1)
	for p := range x {
		x[p] = make([]Lit, holes)
		for h := range holes {
			x[p][h] = f.Var(fmt.Sprintf("p%dh%d", p, h))
		}
		f.Add(x[p]...)
	}
	for h := range holes {
		for p := range holes + 1 {
			for q := p + 1; q <= holes; q++ {
				f.Add(x[p][h].Not(), x[q][h].Not())
			}
		}
	}
	return f
}
