package swap

import (
	"fmt"

	"github.com/boardsat/boardsat/internal/membudget"
)

// swapBudget is the memory budget of a breadth-first swap search: it ends
// a search whose projected store clearly passes the budget, early and with
// the estimate, instead of letting it grow to the budget (where the
// watchdog of package membudget stops it with status memout) or past the
// machine's memory.
//
// The projection: a shortest plan needs at least lower moves (the A*
// heuristic at the start), so the search stores every layer up to that
// depth; a finished layer of n states is taken to be followed, up to that
// depth, by layers no smaller (layers grow, and shrink only when the state
// space runs out, which the projection caps). So after layer d of n states
// it projects stored + (lower - d) * n states, at most the state space.
type swapBudget struct {
	lower    int    // least plan length; -1 when unknown
	perState int64  // bytes a stored state costs
	fixed    int64  // bytes of the dense index
	space    uint64 // the state space, or 0 when it does not fit 64 bits
	budget   int64
}

// newSwapBudget prepares the budget of a breadth-first search whose stores
// index states with keyMode; stores is 1 for BFS, 2 for bidirectional.
func newSwapBudget(g *swapGame, keyMode, stores int) *swapBudget {
	b := &swapBudget{lower: -1, space: g.keySpace, budget: membudget.Budget()}
	if g.k > 0 && g.n*g.k <= 1<<24 {
		h := newSwapHeur(g)
		dp := make([]int32, 1<<min(max(g.kw, g.kb), swapMatchExact))
		if v := h.value(g.start, 0, dp); v != swapInf {
			b.lower = int(v)
		}
	}
	// The slices of a state (squares, side, depth, parent, path count)
	// and its index entry, doubled for the slack of growing slices and
	// maps (appends and rehashes copy into tables up to twice the size).
	// Measured (peak RSS over states stored): swap:5x5 (rank keys) 2.46 GB
	// for 10.5 M states, 233 bytes (226 estimated); swap:8x8 (byte keys)
	// 2.36 GB for 7.3 M, 321 bytes (354 estimated).
	per := int64(4*g.k + 1 + 4 + 4 + 8)
	switch keyMode {
	case swapKeyDense:
		b.fixed = int64(stores) * 4 * int64(g.keySpace)
	case swapKeyRank:
		per += 56
	default:
		per += 32 + int64(3*g.k+1+7)/8*8
	}
	b.perState = 2 * per
	return b
}

// check returns why the search should stop now, or "": stored states are
// held after finishing a layer of n states at depth d (for bidirectional
// search, d is the depth both searches have reached together).
func (b *swapBudget) check(stored, n, d int) string {
	if b.lower < 0 || n <= 0 {
		return ""
	}
	est := uint64(stored) + uint64(max(b.lower-d, 0))*uint64(n)
	if b.space > 0 {
		est = min(est, b.space)
	}
	need := b.fixed + int64(min(est, 1<<50))*b.perState
	if need <= b.budget {
		return ""
	}
	return fmt.Sprintf("the search refuses to go on: a plan needs at least %d moves, and after %d of them it holds %d positions with %d in the last layer, so it would store about %d positions, about %s, over its memory budget of %s (--mem sets it)",
		b.lower, d, stored, n, est, membudget.Bytes(need), membudget.Bytes(b.budget))
}
