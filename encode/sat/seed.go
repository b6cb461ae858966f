package sat

import "context"

type seedKey struct{}

// WithSeed returns a context whose external solvers get seed for their
// {seed} placeholder: solve --seed, and bench's repetition number, so
// that the repetitions of a randomised solver differ as the harness
// means them to and each is reproducible.
func WithSeed(ctx context.Context, seed int64) context.Context {
	return context.WithValue(ctx, seedKey{}, seed)
}

// seedOf is ctx's seed (WithSeed), 0 when none was given.
func seedOf(ctx context.Context) int64 {
	s, _ := ctx.Value(seedKey{}).(int64)
	return s
}
