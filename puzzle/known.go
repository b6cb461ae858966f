package puzzle

// Published values a test or a cross-validation may assert live in each
// puzzle's own file, next to the descriptor that serves them (KnownCount,
// KnownShortest). Sources: OEIS A000170 and A002562 for N-Queens; OEIS
// A165134 and A001230 and the usual tables for knight's tours; widely
// published interview instances for non-attacking pieces; the knight-swap
// seed and Guarini's problem.

// knownIn looks a spec's Count up in a table of published counts keyed by
// canonical spec string; other tasks have no published value.
func knownIn(table map[string]uint64, spec Spec, task Task) (uint64, bool) {
	if task != Count {
		return 0, false
	}
	n, ok := table[spec.String()]
	return n, ok
}
