package competition

import (
	"math"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/puzzle"
	"github.com/boardsat/boardsat/solvers/solverproto"
)

// TestCountOutputReadByCounterProtocol: every answer "boardsat cnf count"
// writes (WriteCount) is read by the strict Model Counting Competition
// reader that runs every mc and pmc solver definition
// (solverproto.ReadCount) as the same answer: the count, its s line, its
// type; and a count that did not finish as s UNKNOWN with no count. The
// two sides were written apart, against the same MCC 2024 text, so that
// boardsat can be defined as a counter for itself.
func TestCountOutputReadByCounterProtocol(t *testing.T) {
	for _, typ := range []string{TypeMC, TypePMC} {
		for _, n := range []uint64{0, 1, 2, 92, 1 << 40, math.MaxUint64} {
			var b strings.Builder
			if err := WriteCount(&b, typ, Counted{Status: puzzle.OK, Count: n}); err != nil {
				t.Fatal(err)
			}
			a, err := solverproto.ReadCount([]byte(b.String()), typ)
			want := solverproto.Sat
			if n == 0 {
				want = solverproto.Unsat
			}
			if err != nil || a.Status != want || !a.Count.IsUint64() || a.Count.Uint64() != n {
				t.Errorf("%s %d: read %+v, %v from %q; want s %s and the count", typ, n, a, err, b.String(), want)
			}
			// The reader checks the type line against the input's.
			other := TypePMC
			if typ == TypePMC {
				other = TypeMC
			}
			if _, err := solverproto.ReadCount([]byte(b.String()), other); err == nil || !strings.Contains(err.Error(), "type") {
				t.Errorf("%s %d read as %s: %v, want the type line refused", typ, n, other, err)
			}
		}
		for _, st := range []puzzle.Status{puzzle.Timeout, puzzle.Error} {
			var b strings.Builder
			if err := WriteCount(&b, typ, Counted{Status: st, Message: "stopped\nat 3 s"}); err != nil {
				t.Fatal(err)
			}
			a, err := solverproto.ReadCount([]byte(b.String()), typ)
			if err != nil || a.Status != solverproto.Unknown || a.Count != nil {
				t.Errorf("%s %s: read %+v, %v from %q; want s UNKNOWN without a count", typ, st, a, err, b.String())
			}
		}
	}
}
