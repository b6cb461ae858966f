package puzzle

// Published values a test or a cross-validation may assert. Sources: OEIS
// A000170 and A002562 for N-Queens; OEIS A165134 and A001230 and the usual
// tables for knight's tours; widely published interview instances for
// non-attacking pieces; the knight-swap seed and Guarini's problem.

// queensAll[n-1] is the number of N-Queens solutions (OEIS A000170).
var queensAll = []uint64{
	1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
	14772512, 95815104, 666090624, 4968057848, 39029188884, 314666222712,
	2691008701644, 24233937684440, 227514171973736, 2207893435808352,
	22317699616364044, 234907967154122528,
}

// queensUnique[n-1] is the number of N-Queens solutions up to rotation and
// reflection (OEIS A002562).
var queensUnique = []uint64{
	1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955,
	11977939, 83263591,
}

// knownCounts maps canonical spec strings to published solution counts.
// Tour counts are directed for open tours and undirected for closed tours
// (a closed tour is a cycle, counted once whatever its start and direction).
var knownCounts = map[string]uint64{
	"pieces:3x3:K1R2":     4,
	"pieces:4x4:R2N4":     8,
	"pieces:7x7:K2Q2B2N1": 3063828,

	"tour:5x5:*":  1728,
	"tour:5x5:a1": 304,
	"tour:5x5:e1": 304,
	"tour:5x5:a5": 304,
	"tour:5x5:e5": 304,
	"tour:6x6:*":  6637920,

	"tour:6x6:*:closed": 9862,
	"tour:8x8:*:closed": 13267364410532,
}

// knownShortest maps canonical swap specs to published shortest plan lengths.
var knownShortest = map[string]int{
	// The seed's puzzle.
	"swap:4x3:w=a1,a2,a3:b=d1,d2,d3:rule=own:turns=alternate": 22,
	// Guarini's problem (1512): no landing rule, knights move in any order.
	"swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free": 16,
}

// KnownCount returns the published number of solutions of spec for the
// Count or Unique task, if one is known. Closed tours count undirected
// cycles, so every start of a board shares the board's count; no closed tour
// exists when both sides are odd, nor on a board with a side of 4 (a 1x1
// board has no closed tour by convention).
func KnownCount(spec Spec, task Task) (uint64, bool) {
	switch s := spec.(type) {
	case Queens:
		table := queensAll
		if task == Unique {
			table = queensUnique
		} else if task != Count {
			return 0, false
		}
		if s.N <= len(table) {
			return table[s.N-1], true
		}
		return 0, false
	case Tour:
		if task != Count {
			return 0, false
		}
		if s.Closed {
			w, h := s.Board.W, s.Board.H
			if (w%2 == 1 && h%2 == 1) || w == 4 || h == 4 {
				return 0, true
			}
			s.AllStarts, s.Start = true, 0
		}
		n, ok := knownCounts[s.String()]
		return n, ok
	}
	if task != Count {
		return 0, false
	}
	n, ok := knownCounts[spec.String()]
	return n, ok
}

// KnownShortest returns the published length of a shortest plan for a swap
// spec, if one is known.
func KnownShortest(spec Spec) (int, bool) {
	n, ok := knownShortest[spec.String()]
	return n, ok
}
