package encode

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/puzzle"
)

// swapSAT runs the plan model on a spec string.
func swapSAT(t testing.TB, spec string, task puzzle.Task, encoding, solver string) puzzle.Answer {
	return swapSATCtx(t, context.Background(), spec, task, encoding, solver)
}

func swapSATCtx(t testing.TB, ctx context.Context, spec string, task puzzle.Task, encoding, solver string) puzzle.Answer {
	t.Helper()
	ans, err := Backend{}.Solve(ctx, puzzle.Request{Spec: puzzle.MustParse(spec), Task: task, Encoding: encoding, Solver: solver})
	if err != nil {
		t.Fatalf("%s %s: %v", spec, task, err)
	}
	return ans
}

// swapRefBFS is the test's own reference: breadth-first search over whole
// boards (strings of '.', 'W', 'B', plus the side to move), counting
// shortest paths, with move rules written like the checker's. It returns
// the shortest plan length and the number of shortest plans, or ok false
// when the targets are unreachable.
func swapRefBFS(s puzzle.Swap) (length int, count uint64, ok bool) {
	b := s.Board
	start := []byte(strings.Repeat(".", b.Size()) + "0")
	for _, q := range s.White {
		start[q] = 'W'
	}
	for _, q := range s.Black {
		start[q] = 'B'
	}
	goal := func(p string) bool {
		for _, q := range s.TargetWhite {
			if p[q] != 'W' {
				return false
			}
		}
		for _, q := range s.TargetBlack {
			if p[q] != 'B' {
				return false
			}
		}
		return true
	}
	apart := func(p, q int) bool {
		df, dr := p%b.W-q%b.W, p/b.W-q/b.W
		return df*df*dr*dr == 4
	}
	depth := map[string]int{string(start): 0}
	paths := map[string]uint64{string(start): 1}
	layer := []string{string(start)}
	for d := 0; len(layer) > 0; d++ {
		var found []string
		for _, p := range layer {
			if goal(p) {
				found = append(found, p)
			}
		}
		if len(found) > 0 {
			var total uint64
			for _, p := range found {
				total += paths[p]
			}
			return d, total, true
		}
		var next []string
		for _, p := range layer {
			for from := range b.Size() {
				c := p[from]
				if c == '.' || (s.Turns == puzzle.Alternate && (c == 'W') != (p[b.Size()] == '0')) {
					continue
				}
				for to := range b.Size() {
					if p[to] != '.' || !apart(from, to) {
						continue
					}
					nx := []byte(p)
					nx[from] = '.'
					legal := true
					for q := range b.Size() {
						o := nx[q]
						if o == '.' || !apart(q, to) {
							continue
						}
						if (s.Rule == puzzle.RuleOwn && o == c) || (s.Rule == puzzle.RuleEnemy && o != c) {
							legal = false
						}
					}
					if !legal {
						continue
					}
					nx[to] = c
					if s.Turns == puzzle.Alternate {
						nx[b.Size()] ^= 1 // '0' <-> '1'
					}
					key := string(nx)
					if od, seen := depth[key]; !seen {
						depth[key] = d + 1
						paths[key] = paths[p]
						next = append(next, key)
					} else if od == d+1 {
						paths[key] += paths[p]
					}
				}
			}
		}
		layer = next
	}
	return 0, 0, false
}

// swapSpecs returns n random small swap specs: boards 3x3 to 4x4, one or
// two knights a side, every rule and turn order, half with their own targets.
func swapSpecs(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 2))
	var out []string
	for len(out) < n {
		b := puzzle.Board{W: 3 + rng.IntN(2), H: 3 + rng.IntN(2)}
		kw, kb := 1+rng.IntN(2), 1+rng.IntN(2)
		place := func() (string, string) {
			perm := rng.Perm(b.Size())
			var w, bl []string
			for i := range kw + kb {
				if i < kw {
					w = append(w, b.Name(puzzle.Square(perm[i])))
				} else {
					bl = append(bl, b.Name(puzzle.Square(perm[i])))
				}
			}
			return strings.Join(w, ","), strings.Join(bl, ",")
		}
		w, bl := place()
		spec := fmt.Sprintf("swap:%s:w=%s:b=%s", b, w, bl)
		if rng.IntN(2) == 0 {
			tw, tb := place()
			spec += ":tw=" + tw + ":tb=" + tb
		}
		spec += ":rule=" + []string{"none", "own", "enemy"}[rng.IntN(3)]
		spec += ":turns=" + []string{"alternate", "free"}[rng.IntN(2)]
		parsed, err := puzzle.Parse(spec)
		if err != nil {
			continue // the default exchange needs as many knights a side
		}
		out = append(out, parsed.String())
	}
	return out
}

// swapUnreachableBudget bounds the SAT side's attempt to prove a goal
// unreachable in the random sweeps: the recurrence-diameter argument it
// rests on can need very long runs (see swap.go), so a sweep instance the
// reference finds unreachable may end in timeout, never in a plan.
const swapUnreachableBudget = time.Second

// swapAgreeRef checks the SAT answers (shortest and count) against the
// reference search and the checker. For an unreachable goal it returns
// whether the SAT side proved it (status unsat) within
// swapUnreachableBudget, when sweep is set, or without a limit otherwise.
func swapAgreeRef(t *testing.T, spec, encoding, solver string, count, sweep bool) (proved bool) {
	t.Helper()
	s := puzzle.MustParse(spec).(puzzle.Swap)
	l, n, ok := swapRefBFS(s)
	if !ok {
		ctx := context.Background()
		if sweep {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, swapUnreachableBudget)
			defer cancel()
		}
		tasks := []puzzle.Task{puzzle.Shortest}
		if count {
			tasks = append(tasks, puzzle.Count)
		}
		proved = true
		for _, task := range tasks {
			ans := swapSATCtx(t, ctx, spec, task, encoding, solver)
			switch {
			case ans.Status == puzzle.Unsat && ans.Count == 0:
			case ans.Status == puzzle.Timeout && sweep:
				proved = false
			default:
				t.Errorf("%s %s: sat says %s count %d (%s), reference says unreachable", spec, task, ans.Status, ans.Count, ans.Message)
			}
		}
		return proved
	}
	ans := swapSAT(t, spec, puzzle.Shortest, encoding, solver)
	if ans.Status != puzzle.OK || ans.Length != l {
		t.Errorf("%s: sat says %s length %d (%s), reference %d", spec, ans.Status, ans.Length, ans.Message, l)
	} else if err := puzzle.Check(s, *ans.Solution); err != nil || len(ans.Solution.Plan) != l {
		t.Errorf("%s: plan %v fails the checker: %v", spec, ans.Solution.MoveNames(), err)
	}
	if count {
		c := swapSAT(t, spec, puzzle.Count, encoding, solver)
		if c.Status != puzzle.OK || c.Count != n || c.Length != l {
			t.Errorf("%s: sat counts %d plans of %d (%s %s), reference %d of %d", spec, c.Count, c.Length, c.Status, c.Message, n, l)
		}
	}
	return false
}

// TestSwapSATKnown: the seed's 22 moves and Guarini's 16.
func TestSwapSATKnown(t *testing.T) {
	for _, spec := range []string{"swap:4x3", "swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free"} {
		want, _ := puzzle.KnownShortest(puzzle.MustParse(spec))
		ans := swapSAT(t, spec, puzzle.Shortest, "", "")
		if ans.Status != puzzle.OK || ans.Length != want {
			t.Fatalf("%s: %s length %d, want %d (%s)", spec, ans.Status, ans.Length, want, ans.Message)
		}
		if err := puzzle.Check(puzzle.MustParse(spec), *ans.Solution); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
		if ans.Stats[fmt.Sprintf("t%d_ms", want)] < 0 || ans.Stats[puzzle.StatSolverCalls] < 1 {
			t.Errorf("%s: stats %v", spec, ans.Stats)
		}
	}
}

// TestSwapSATSeedBelow: the seed's formula for 21 moves (excluded by the
// parity argument) and 18 (the last length the search tries) are
// unsatisfiable, and the one for 22 is satisfiable.
func TestSwapSATSeedBelow(t *testing.T) {
	enc, _ := card.Lookup(DefaultCard)
	for _, c := range []struct {
		T    int
		want puzzle.Status
	}{{18, puzzle.Unsat}, {21, puzzle.Unsat}, {22, puzzle.OK}} {
		inst, err := swapBuild(puzzle.MustParse("swap:4x3"), enc, Options{Steps: c.T})
		if err != nil {
			t.Fatal(err)
		}
		r, err := sat.Solve(context.Background(), inst.Formula, "")
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != c.want {
			t.Errorf("T=%d: %s, want %s", c.T, r.Status, c.want)
		}
	}
}

// swapCountSolver is the solver the sweeps count with: clasp's projected
// enumeration when installed (seconds where gophersat's DPLL enumerator,
// which cannot learn, takes minutes on planning formulas), else gophersat
// with small instances only (swapSmall).
func swapCountSolver() string {
	if _, err := sat.Lookup("clasp"); err == nil {
		return "clasp"
	}
	return ""
}

// swapSmall reports whether gophersat's enumerator counts an instance's
// plans quickly: short plans, few of them.
func swapSmall(length int, count uint64) bool { return length <= 8 && count <= 64 }

// TestSwapSATSweep: on random small instances the plan model's shortest
// length and projected plan count equal the reference search's (the native
// tests check the native strategies on the same kind of sweep).
func TestSwapSATSweep(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 12
	}
	counter := swapCountSolver()
	proved, unreachable, counted := 0, 0, 0
	for _, spec := range swapSpecs(n, 7) {
		l, c, ok := swapRefBFS(puzzle.MustParse(spec).(puzzle.Swap))
		if !ok {
			unreachable++
		}
		if swapAgreeRef(t, spec, "", "", false, true) {
			proved++
		}
		switch {
		case ok && swapSmall(l, c):
			counted++
			swapAgreeRef(t, spec, "", "", true, true)
		case ok && counter != "":
			// The formula for the reference length, counted by clasp.
			counted++
			enc, _ := card.Lookup(DefaultCard)
			inst, err := swapBuild(puzzle.MustParse(spec), enc, Options{Steps: max(l, 1)})
			if err != nil {
				t.Fatal(err)
			}
			if l == 0 {
				continue
			}
			r, err := sat.Count(context.Background(), inst.Formula, sat.CountOptions{Solver: counter})
			if err != nil || r.Status != puzzle.OK || r.Count != c {
				t.Errorf("%s: %s counts %d plans of %d moves (%v %s %s), reference %d", spec, counter, r.Count, l, err, r.Status, r.Message, c)
			}
		}
	}
	t.Logf("%d instances, %d unreachable (%d proved unsat within %v), %d counts checked with solver %q",
		n, unreachable, proved, swapUnreachableBudget, counted, counter)
	// Without clasp only the small instances are counted (by gophersat);
	// with it, at least a quarter of all.
	switch {
	case counter == "" && cnftest.MissingSolver(t, "clasp") && counted == 0:
		t.Errorf("no count checked")
	case counter != "" && counted < n/4:
		t.Errorf("only %d counts checked", counted)
	}
}

// TestSwapSATEncodings: the count stays exact under cardinality encodings
// that add auxiliary variables (projection) and under native PB constraints
// (gophersat's enumerator, on instances it counts quickly).
func TestSwapSATEncodings(t *testing.T) {
	var specs []string
	for _, spec := range swapSpecs(40, 11) {
		if l, c, ok := swapRefBFS(puzzle.MustParse(spec).(puzzle.Swap)); ok && swapSmall(l, c) && len(specs) < 6 {
			specs = append(specs, spec)
		}
	}
	if len(specs) < 6 {
		t.Fatalf("only %d small instances", len(specs))
	}
	for _, e := range []string{"plan+pairwise", "plan+binary", "plan+totalizer", "plan+native", "ladder"} {
		for _, spec := range specs {
			swapAgreeRef(t, spec, e, "", true, true)
		}
	}
}

// TestSwapSATUnreachable: unreachable targets are answered unsat: by the
// distance bound (a knight on the centre of 3x3 never moves) and by the
// recurrence diameter (a side with no first move under alternating turns).
// (Guarini's ring with the cyclic order of colours changed,
// swap:3x3:w=a1,c3:b=c1,a3:tw=a3,c3:tb=a1,c1:rule=none:turns=free, is
// unreachable too, but the SAT side does not prove it in 30 s.)
func TestSwapSATUnreachable(t *testing.T) {
	for _, spec := range []string{
		"swap:3x3:w=b2,a1:b=c3,c1:rule=none:turns=free",
		"swap:4x4:w=a1,b1,c1,d1:b=a4,b4,c4,d4:rule=enemy:turns=alternate",
	} {
		if _, _, ok := swapRefBFS(puzzle.MustParse(spec).(puzzle.Swap)); ok {
			t.Fatalf("%s: reachable, the test wants an unreachable goal", spec)
		}
		if !swapAgreeRef(t, spec, "", "", true, false) {
			t.Errorf("%s: not proved unsat", spec)
		}
	}
}

// TestSwapSATExternal: an external solver gives the same answers, when installed.
func TestSwapSATExternal(t *testing.T) {
	for _, solver := range []string{"cadical", "minisat"} {
		if s, err := sat.Lookup(solver); err != nil {
			t.Logf("skipping %s: %v", s.Name, err)
			continue
		}
		for _, spec := range swapSpecs(4, 13) {
			swapAgreeRef(t, spec, "", solver, false, true)
		}
	}
}

// TestSwapSATSeedCount: the seed's number of shortest plans by projected
// enumeration equals the reference count (clasp's enumeration; skipped when
// clasp is absent or in -short mode).
func TestSwapSATSeedCount(t *testing.T) {
	if testing.Short() {
		t.Skip("counting the seed's plans takes tens of seconds")
	}
	cnftest.NeedSolver(t, "clasp")
	swapAgreeRef(t, "swap:4x3", "", "clasp", true, false)
}

// TestSwapSATBuild: Build with no Steps encodes the first length the bounds
// allow, and decoding a model gives a plan of that length.
func TestSwapSATBuild(t *testing.T) {
	enc, _ := card.Lookup(DefaultCard)
	inst, err := swapBuild(puzzle.MustParse("swap:3x3:w=a3,c3:b=a1,c1:rule=none:turns=free"), enc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(inst.Formula.Projection()) == 0 {
		t.Fatal("no move variables")
	}
	if _, err := swapBuild(puzzle.MustParse("queens:4"), enc, Options{}); err == nil {
		t.Error("a queens spec was accepted")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	ans, err := Backend{}.Solve(ctx, puzzle.Request{Spec: puzzle.MustParse("swap:4x3"), Task: puzzle.Shortest})
	if err != nil || ans.Status != puzzle.Timeout {
		t.Errorf("expired context: %v %s, want timeout", err, ans.Status)
	}
}

// BenchmarkSwapSATSeed: the seed's puzzle by SAT planning, the T search up
// to the 22-move plan (every shorter length proven impossible).
func BenchmarkSwapSATSeed(b *testing.B) {
	req := puzzle.Request{Spec: puzzle.MustParse("swap:4x3"), Task: puzzle.Shortest}
	for b.Loop() {
		ans, err := Backend{}.Solve(context.Background(), req)
		want, _ := puzzle.KnownShortest(req.Spec)
		if err != nil || ans.Status != puzzle.OK || ans.Length != want {
			b.Fatalf("%v %s %d", err, ans.Status, ans.Length)
		}
	}
}

// TestSwapSATCertificate: gophersat's UNSAT certificate for the seed's
// formulas at 18 moves (the last length the search tries below 22) and 21
// (the length the parity argument excludes) passes the RUP checker, and a
// certificate cut down to its empty clause does not.
func TestSwapSATCertificate(t *testing.T) {
	enc, _ := card.Lookup(DefaultCard)
	steps := []int{18, 21}
	if testing.Short() {
		steps = steps[:1]
	}
	for _, T := range steps {
		inst, err := swapBuild(puzzle.MustParse("swap:4x3"), enc, Options{Steps: T})
		if err != nil {
			t.Fatal(err)
		}
		cert := sat.Certify(context.Background(), inst.Formula)
		lemmas := cert.Lemmas
		if cert.Status != puzzle.Unsat {
			t.Fatalf("T=%d: %v %s", T, cert.Status, cert.Message)
		}
		if err := swapCheckRUP(inst.Formula, lemmas); err != nil {
			t.Errorf("T=%d: certificate of %d lemmas rejected: %v", T, len(lemmas), err)
		}
		if err := swapCheckRUP(inst.Formula, lemmas[len(lemmas)-1:]); err == nil {
			t.Errorf("T=%d: the bare empty clause passed as a certificate", T)
		}
		t.Logf("T=%d: %d lemmas checked", T, len(lemmas))
	}
	// The plancert model certifies the seed's last impossible length.
	ans := swapSAT(t, "swap:4x3", puzzle.Shortest, "plancert+seqcounter", "")
	if want, _ := puzzle.KnownShortest(puzzle.MustParse("swap:4x3")); ans.Status != puzzle.OK || ans.Length != want || ans.Stats["cert_lemmas"] == 0 {
		t.Errorf("plancert: %s %d %v (%s)", ans.Status, ans.Length, ans.Stats, ans.Message)
	}
	if _, err := (Backend{}).Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("swap:4x3"), Task: puzzle.Shortest, Encoding: "plancert+native"}); err == nil {
		t.Error("plancert with native PB constraints was accepted")
	}
	// A satisfiable formula has no certificate of unsatisfiability.
	inst, _ := swapBuild(puzzle.MustParse("swap:4x3"), enc, Options{Steps: 22})
	if cert := sat.Certify(context.Background(), inst.Formula); cert.Status != puzzle.OK {
		t.Errorf("T=22: %v, want satisfiable", cert.Status)
	}
	if err := swapCheckRUP(inst.Formula, [][]int{{}}); err == nil {
		t.Error("T=22: the empty clause passed for a satisfiable formula")
	}
}
