package sat

import (
	"context"
	"slices"
	"strings"
	"sync"
)

// Unchecked collects, over one request, the claims of external solvers
// that the answer rests on and that nothing confirmed: an UNSAT without a
// checked proof, a count or an optimum taken on the solver's word. A model
// is never such a claim (every model is checked against the formula).
// gophersat, which runs in boardsat and is the reference every external
// solver is held to, makes none.
type Unchecked struct {
	mu     sync.Mutex
	claims []string
}

type uncheckedKey struct{}

// WithUnchecked returns a context whose external solvers' unconfirmed
// claims are noted in u.
func WithUnchecked(ctx context.Context, u *Unchecked) context.Context {
	return context.WithValue(ctx, uncheckedKey{}, u)
}

// noteUnchecked notes claim (say "cadical's UNSAT") in ctx's Unchecked,
// once, when ctx has one and no proof is asked for: under WithProofs
// every refutation is proved and checked, or the request fails.
func noteUnchecked(ctx context.Context, claim string) {
	u, _ := ctx.Value(uncheckedKey{}).(*Unchecked)
	if u == nil || (Proving(ctx) && strings.HasSuffix(claim, "'s UNSAT")) {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if !slices.Contains(u.claims, claim) {
		u.claims = append(u.claims, claim)
	}
}

// String is the claims, comma-separated, "" when there are none.
func (u *Unchecked) String() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return strings.Join(u.claims, ", ")
}
