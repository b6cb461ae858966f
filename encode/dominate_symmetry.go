package encode

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/puzzle"
)

// The board symmetries of the domination models: static lex-leader
// constraints, and the count of all sets from one set per class weighted
// by its orbit.

// dominateOrbitCount is count under a lex-leader model: it enumerates
// the sets the model keeps, exactly one per class of the board's
// symmetries, and adds up the size of each one's orbit (its distinct
// images under the symmetries), which is the number of sets of its class.
// Every set lies in exactly one class, so the sum is the count of all
// sets, reached by enumerating about one set in eight.
func dominateOrbitCount(ctx context.Context, req puzzle.Request, r *dominateRun, pr satPrepared, since time.Time) (puzzle.Answer, error) {
	maps := boardMaps(r.d.Board)
	var mu sync.Mutex
	var total uint64
	creq := req
	creq.Task = puzzle.All
	creq.Emit = func(sol puzzle.Solution) error {
		n := orbitSize(sol.Layout, maps)
		mu.Lock()
		total += n
		mu.Unlock()
		return nil
	}
	ans, err := satCount(ctx, creq, pr, r.solver, r.ans, since)
	if err != nil || ans.Status != puzzle.OK {
		return ans, err
	}
	r.log = append(r.log, fmt.Sprintf("%d classes under the board's symmetries, expanded by their orbits", ans.Count))
	if total > 0 {
		sat.Note(ctx, fmt.Sprintf("the count %d is the sum of the orbit sizes of the lex-leader formula's %d models under the board's %d symmetries (each class keeps exactly its least set: an argument outside the proofs)", total, ans.Count, len(maps)+1))
	}
	ans.Count = total
	return ans, nil
}

// orbitSize returns the number of distinct images of a placement under
// the identity and maps.
func orbitSize(layout []puzzle.Kind, maps [][]int) uint64 {
	seen := map[string]bool{string(kindBytes(layout, nil)): true}
	for _, p := range maps {
		img := make([]puzzle.Kind, len(layout))
		for s, k := range layout {
			img[p[s]] = k
		}
		seen[string(kindBytes(img, nil))] = true
	}
	return uint64(len(seen))
}

// kindBytes appends a placement's pieces as bytes (a map key).
func kindBytes(layout []puzzle.Kind, buf []byte) []byte {
	for _, k := range layout {
		buf = append(buf, byte(k))
	}
	return buf
}

// boardMaps returns the board's symmetries other than the identity as
// permutations of its squares (perm[s] is the image of s), computed here
// from coordinates: the 7 of a square board, the 3 that keep a
// rectangle's sides. Every piece's attacks are invariant under them.
func boardMaps(b puzzle.Board) [][]int {
	w, h := b.W, b.H
	maps := []func(f, r int) (int, int){
		func(f, r int) (int, int) { return w - 1 - f, r },
		func(f, r int) (int, int) { return f, h - 1 - r },
		func(f, r int) (int, int) { return w - 1 - f, h - 1 - r },
	}
	if w == h {
		maps = append(maps,
			func(f, r int) (int, int) { return r, f },
			func(f, r int) (int, int) { return h - 1 - r, f },
			func(f, r int) (int, int) { return r, w - 1 - f },
			func(f, r int) (int, int) { return h - 1 - r, w - 1 - f })
	}
	var out [][]int
	for _, m := range maps {
		perm := make([]int, w*h)
		moved := false
		for s := range w * h {
			f, r := m(s%w, s/w)
			perm[s] = r*w + f
			moved = moved || perm[s] != s
		}
		if moved {
			out = append(out, perm)
		}
	}
	return out
}

// dominateLexLeader adds static lex-leader constraints: for every board
// symmetry p, the placement read in square order is lexicographically no
// greater than its image (x <=lex x∘p, with a piece greater than none).
// Each symmetry class of sets keeps exactly its least member, so the
// optimum and the existence of a set are unchanged, while counts become
// counts of classes. For each p, e_i ("the first i squares agree with the
// image") is forced true when e_{i-1} holds and square i agrees; while
// e_{i-1} holds, x_i implies x_p(i). The chain stops at the last square
// that p moves.
func dominateLexLeader(f *cnf.Formula, b puzzle.Board, x []cnf.Lit) {
	for _, p := range boardMaps(b) {
		last := 0
		for s := range p {
			if p[s] != s {
				last = s
			}
		}
		var eq cnf.Lit // 0: the empty prefix, always equal
		for s := 0; s <= last; s++ {
			if p[s] == s {
				continue
			}
			a, c := x[s], x[p[s]]
			// e_{i-1} -> (a -> c)
			f.Add(orEq(eq, a.Not(), c)...)
			if s == last {
				break
			}
			next := f.Aux("lex" + strconv.Itoa(f.NumVars()+1))
			// e_{i-1} and a = c -> e_i
			f.Add(orEq(eq, a.Not(), c.Not(), next)...)
			f.Add(orEq(eq, a, c, next)...)
			eq = next
		}
	}
}

// orEq returns the clause lits, preceded by "not eq" unless eq is 0 (the
// empty prefix, which always agrees).
func orEq(eq cnf.Lit, lits ...cnf.Lit) []cnf.Lit {
	if eq == 0 {
		return lits
	}
	return append([]cnf.Lit{eq.Not()}, lits...)
}
