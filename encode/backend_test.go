package encode

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/cnf/cnftest"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/puzzle"
)

// backendTestQueens is a queens encoder written for these tests only (not
// registered): a variable per square, exactly one per row and column and
// at most one per diagonal, in the given card encoding. It lets the backend
// be tested independently of encode/queens.go.
var backendTestQueens = Encoder{
	Puzzle: "queens", Name: "backendtest",
	Tasks: []puzzle.Task{puzzle.Count, puzzle.First, puzzle.All},
	Build: func(spec puzzle.Spec, enc card.Encoding, _ Options) (*Instance, error) {
		n := spec.(puzzle.Queens).N
		f := cnf.New()
		x := make([]cnf.Lit, n*n)
		for i := range x {
			x[i] = f.Var(fmt.Sprint("q", i))
		}
		at := func(r, c int) cnf.Lit { return x[r*n+c] }
		for r := range n {
			var row, col []cnf.Lit
			for c := range n {
				row, col = append(row, at(r, c)), append(col, at(c, r))
			}
			if err := enc.Encode(f, row, cnf.Exactly, 1); err != nil {
				return nil, err
			}
			if err := enc.Encode(f, col, cnf.Exactly, 1); err != nil {
				return nil, err
			}
		}
		for d := -(n - 1); d <= n-1; d++ {
			var a, b []cnf.Lit
			for r := range n {
				if c := r + d; c >= 0 && c < n {
					a = append(a, at(r, c))
				}
				if c := n - 1 - r + d; c >= 0 && c < n {
					b = append(b, at(r, c))
				}
			}
			for _, line := range [][]cnf.Lit{a, b} {
				if err := enc.Encode(f, line, cnf.AtMost, 1); err != nil {
					return nil, err
				}
			}
		}
		decode := func(model []bool) (puzzle.Solution, error) {
			var sq []puzzle.Square
			var kinds []puzzle.Kind
			for i, l := range x {
				if model[l] {
					sq = append(sq, puzzle.Square(i))
					kinds = append(kinds, puzzle.Queen)
				}
			}
			return puzzle.PlacementOf(puzzle.BoardOf(spec), sq, kinds), nil
		}
		return &Instance{Formula: f, Decode: decode}, nil
	},
}

// TestBackendTestEncoder runs the backend on the test encoder: every card
// encoding, counts for n = 1..8 against the published values, all models
// streamed, decoded and checked, first solutions checked, with the default
// solver; and n = 1..5 with every installed external solver.
func TestBackendTestEncoder(t *testing.T) {
	ctx := context.Background()
	for _, c := range card.All() {
		for n := 1; n <= 8; n++ {
			spec := puzzle.Queens{N: n}
			want, _ := puzzle.KnownCount(spec, puzzle.Count)
			ans, err := satSolveWith(ctx, puzzle.Request{Spec: spec, Task: puzzle.Count}, backendTestQueens, c)
			if err != nil {
				t.Logf("%s: skipped: %v", c.Name, err)
				break
			}
			if ans.Status != puzzle.OK || ans.Count != want {
				t.Errorf("%s queens %d: %s count %d (%s), want %d", c.Name, n, ans.Status, ans.Count, ans.Message, want)
			}
			if ans.Stats[puzzle.StatVariables] < int64(n*n) || ans.Encoding != "backendtest+"+c.Name || ans.Solver != sat.DefaultSolver {
				t.Errorf("%s queens %d: stats %v encoding %q solver %q", c.Name, n, ans.Stats, ans.Encoding, ans.Solver)
			}
			var emitted uint64
			seen := map[string]bool{}
			ans, err = satSolveWith(ctx, puzzle.Request{Spec: spec, Task: puzzle.All, Emit: func(s puzzle.Solution) error {
				emitted++
				if err := puzzle.Check(spec, s); err != nil {
					t.Errorf("%s queens %d: emitted solution fails: %v", c.Name, n, err)
				}
				key := s.Text()
				if seen[key] {
					t.Errorf("%s queens %d: solution emitted twice", c.Name, n)
				}
				seen[key] = true
				return nil
			}}, backendTestQueens, c)
			if err != nil || ans.Status != puzzle.OK || ans.Count != want || emitted != want {
				t.Errorf("%s queens %d all: %s count %d emitted %d err %v", c.Name, n, ans.Status, ans.Count, emitted, err)
			}
			ans, err = satSolveWith(ctx, puzzle.Request{Spec: spec, Task: puzzle.First}, backendTestQueens, c)
			wantStatus := puzzle.OK
			if want == 0 {
				wantStatus = puzzle.Unsat
			}
			if err != nil || ans.Status != wantStatus {
				t.Fatalf("%s queens %d first: %s (%s) %v, want %s", c.Name, n, ans.Status, ans.Message, err, wantStatus)
			}
			if ans.Status == puzzle.OK {
				if err := puzzle.Check(spec, *ans.Solution); err != nil {
					t.Errorf("%s queens %d first: %v", c.Name, n, err)
				}
			}
		}
	}
	pairwise, err := card.Lookup("pairwise")
	if err != nil {
		t.Fatal("no pairwise encoding")
	}
	native, _ := card.Lookup("native")
	for _, s := range sat.All() {
		if s.Binary == "" {
			continue
		}
		if s.Binary != "" && cnftest.MissingSolver(t, s.Binary) {
			continue
		}
		c := pairwise
		if s.PB && native.Name != "" {
			c = native
		}
		for n := 1; n <= 5; n++ {
			spec := puzzle.Queens{N: n}
			want, _ := puzzle.KnownCount(spec, puzzle.Count)
			ans, err := satSolveWith(ctx, puzzle.Request{Spec: spec, Task: puzzle.Count, Solver: s.Name}, backendTestQueens, c)
			if err != nil || ans.Status != puzzle.OK || ans.Count != want {
				t.Errorf("%s queens %d: %s count %d (%s) %v, want %d", s.Name, n, ans.Status, ans.Count, ans.Message, err, want)
			}
		}
	}
}

// TestBackendErrors checks the requests the backend refuses and the
// statuses of failed runs.
func TestBackendErrors(t *testing.T) {
	ctx := context.Background()
	pairwise, err := card.Lookup("pairwise")
	if err != nil {
		t.Fatal("no pairwise encoding")
	}
	q := puzzle.Queens{N: 6}
	if _, err := satSolveWith(ctx, puzzle.Request{Spec: q, Task: puzzle.Shortest}, backendTestQueens, pairwise); err == nil {
		t.Error("unsupported task accepted")
	}
	if _, err := satSolveWith(ctx, puzzle.Request{Spec: q, Task: puzzle.Count, Solver: "nosuch"}, backendTestQueens, pairwise); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown solver: %v", err)
	}
	if native, err := card.Lookup("native"); err == nil {
		if _, err := satSolveWith(ctx, puzzle.Request{Spec: q, Task: puzzle.First, Solver: "cadical"}, backendTestQueens, native); err == nil {
			t.Error("PB constraints accepted by a CNF-only solver")
		}
	}
	// A timeout is a status, with no count.
	tctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	ans, err := satSolveWith(tctx, puzzle.Request{Spec: puzzle.Queens{N: 13}, Task: puzzle.Count}, backendTestQueens, pairwise)
	if err != nil || ans.Status != puzzle.Timeout || ans.Count != 0 {
		t.Errorf("timeout: %s count %d err %v", ans.Status, ans.Count, err)
	}
	// A solver that prints a wrong model is an error, not an answer.
	cnftest.FakeSolver(t, "minisat", "printf 'SAT\\n1 0\\n' > \"$3\"\nexit 10")
	ans, err = satSolveWith(ctx, puzzle.Request{Spec: q, Task: puzzle.First, Solver: "minisat"}, backendTestQueens, pairwise)
	if err != nil || ans.Status != puzzle.Error {
		t.Errorf("lying solver: %s (%s) %v, want error", ans.Status, ans.Message, err)
	}
	// An absent binary is named in the error.
	t.Setenv("PATH", t.TempDir())
	if _, err := satSolveWith(ctx, puzzle.Request{Spec: q, Task: puzzle.First, Solver: "picosat"}, backendTestQueens, pairwise); err == nil || !strings.Contains(err.Error(), "picosat") {
		t.Errorf("absent binary: %v", err)
	}
}

// TestBackendQueens runs the registered sat backend on queens n = 1..10
// with every card encoding and the default solver, and n = 1..6 with every
// card encoding on every installed external solver, against the published
// counts, and checks first and all solutions. A missing encoder is a
// failure.
func TestBackendQueens(t *testing.T) {
	if len(Encoders("queens")) == 0 {
		t.Fatal("no queens encoder registered")
	}
	ctx := context.Background()
	b := Backend{}
	for _, c := range card.All() {
		for n := 1; n <= 10; n++ {
			spec := puzzle.Queens{N: n}
			want, _ := puzzle.KnownCount(spec, puzzle.Count)
			ans, err := b.Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.Count, Encoding: c.Name})
			if err != nil {
				t.Logf("%s: skipped: %v", c.Name, err)
				break
			}
			if ans.Status != puzzle.OK || ans.Count != want {
				t.Errorf("%s queens %d: %s count %d (%s), want %d", c.Name, n, ans.Status, ans.Count, ans.Message, want)
			}
			if n <= 8 {
				var emitted uint64
				ans, err = b.Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.All, Encoding: c.Name, Emit: func(s puzzle.Solution) error {
					emitted++
					return puzzle.Check(spec, s)
				}})
				if err != nil || ans.Status != puzzle.OK || emitted != want {
					t.Errorf("%s queens %d all: %s emitted %d err %v", c.Name, n, ans.Status, emitted, err)
				}
				ans, err = b.Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.First, Encoding: c.Name})
				if err == nil && ans.Status == puzzle.OK {
					if cerr := puzzle.Check(spec, *ans.Solution); cerr != nil {
						t.Errorf("%s queens %d first: %v", c.Name, n, cerr)
					}
				} else if err != nil || want != 0 || ans.Status != puzzle.Unsat {
					t.Errorf("%s queens %d first: %s (%s) %v", c.Name, n, ans.Status, ans.Message, err)
				}
			}
		}
	}
	for _, s := range sat.All() {
		if s.Binary == "" {
			continue
		}
		if s.Binary != "" && cnftest.MissingSolver(t, s.Binary) {
			continue
		}
		// Every encoding the solver takes: with and without auxiliary
		// variables, determined by the inputs or not (README table).
		var encs []string
		for _, c := range card.All() {
			if !c.Native || s.PB {
				encs = append(encs, c.Name)
			}
		}
		for _, enc := range encs {
			for n := 1; n <= 6; n++ {
				spec := puzzle.Queens{N: n}
				want, _ := puzzle.KnownCount(spec, puzzle.Count)
				ans, err := b.Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.Count, Encoding: enc, Solver: s.Name})
				if err != nil || ans.Status != puzzle.OK || ans.Count != want {
					t.Errorf("%s %s queens %d: %s count %d (%s) %v, want %d", s.Name, enc, n, ans.Status, ans.Count, ans.Message, err, want)
				}
			}
			var emitted uint64
			spec := puzzle.Queens{N: 5}
			ans, err := b.Solve(ctx, puzzle.Request{Spec: spec, Task: puzzle.All, Encoding: enc, Solver: s.Name,
				Emit: func(sol puzzle.Solution) error { emitted++; return puzzle.Check(spec, sol) }})
			if err != nil || ans.Status != puzzle.OK || emitted != 10 {
				t.Errorf("%s %s queens 5 all: %s emitted %d (%s) %v, want 10", s.Name, enc, ans.Status, emitted, ans.Message, err)
			}
		}
	}
}

// TestCountModelsBackend checks the labelled, untrustworthy backend only
// answers counts, and never as ok: its finished count is status error,
// the figure gophersat gave in the message.
func TestCountModelsBackend(t *testing.T) {
	b := CountModelsBackend{}
	if !strings.Contains(b.Doc(), "not trustworthy") {
		t.Error("gophersat-count is not labelled untrustworthy")
	}
	if _, err := b.Solve(context.Background(), puzzle.Request{Spec: puzzle.Queens{N: 5}, Task: puzzle.First}); err == nil {
		t.Error("gophersat-count accepted task first")
	}
	if len(Encoders("queens")) == 0 {
		t.Fatal("no queens encoder registered")
	}
	for _, n := range []int{6, 8} {
		ans, err := b.Solve(context.Background(), puzzle.Request{Spec: puzzle.Queens{N: n}, Task: puzzle.Count, Encoding: "pairwise"})
		if err != nil || ans.Status != puzzle.Error || ans.Count != 0 {
			t.Errorf("gophersat-count queens %d pairwise: %s count %d %v, want status error and no count", n, ans.Status, ans.Count, err)
		}
		if n == 8 && ans.Message != CountModelsMessage(103) {
			// The figure the doc comments quote: 103 for the 92
			// solutions of queens:8.
			t.Errorf("gophersat-count queens 8 pairwise: message %q, want %q", ans.Message, CountModelsMessage(103))
		}
	}
}

// TestUniqueRefused: the SAT backends refuse task unique, whose count their
// partial symmetry breaking would get wrong (46 for queens:8, not 12).
func TestUniqueRefused(t *testing.T) {
	for _, b := range []puzzle.Backend{Backend{}, CountModelsBackend{}} {
		_, err := b.Solve(context.Background(), puzzle.Request{Spec: puzzle.Queens{N: 8}, Task: puzzle.Unique})
		if err == nil {
			t.Errorf("%s accepted task unique", b.Name())
		}
	}
	_, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.Queens{N: 8}, Task: puzzle.Unique})
	if err == nil || err.Error() != ErrUniqueRefused {
		t.Errorf("sat unique: %v", err)
	}
	// What the refusal protects against: the symmetry breaking keeps 46.
	e, c, err := Resolve("queens", "pairwise")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := e.Build(puzzle.Queens{N: 8}, c, Options{SymmetryBreaking: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := sat.Count(context.Background(), inst.Formula, sat.CountOptions{})
	if err != nil || r.Status != puzzle.OK || r.Count != 46 {
		t.Errorf("queens:8 under symmetry breaking: %s %d %v, want 46", r.Status, r.Count, err)
	}
}

// TestPlancertBesideCount runs the plancert model (gophersat with its
// certificate) beside a counting variant in one process, as compare does:
// under -race any gophersat call outside encode/sat's lock shows up, and
// both answers must stay exact.
func TestPlancertBesideCount(t *testing.T) {
	errs := make(chan error, 2)
	go func() {
		ans, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.MustParse("swap:4x3"), Task: puzzle.Shortest, Encoding: "plancert+seqcounter"})
		want, _ := puzzle.KnownShortest(puzzle.MustParse("swap:4x3"))
		if err == nil && (ans.Status != puzzle.OK || ans.Length != want || ans.Stats["cert_lemmas"] == 0) {
			err = fmt.Errorf("plancert: %s %d %v (%s)", ans.Status, ans.Length, ans.Stats, ans.Message)
		}
		errs <- err
	}()
	go func() {
		var err error
		for range 3 {
			var ans puzzle.Answer
			ans, err = Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.Queens{N: 8}, Task: puzzle.Count, Encoding: "pairwise", Solver: sat.BlockingSolver})
			if err == nil && (ans.Status != puzzle.OK || ans.Count != 92) {
				err = fmt.Errorf("count queens 8 beside plancert: %s %d", ans.Status, ans.Count)
			}
			if err != nil {
				break
			}
		}
		errs <- err
	}()
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestBackendPieces counts the small published pieces instances with every
// card encoding and checks every streamed solution.
func TestBackendPieces(t *testing.T) {
	if len(Encoders("pieces")) == 0 {
		t.Fatal("no pieces encoder registered")
	}
	for _, s := range []string{"pieces:3x3:K1R2", "pieces:4x4:R2N4"} {
		spec := puzzle.MustParse(s)
		want, ok := puzzle.KnownCount(spec, puzzle.Count)
		if !ok {
			t.Fatalf("no published count for %s", s)
		}
		for _, c := range card.All() {
			var emitted uint64
			ans, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: spec, Task: puzzle.All, Encoding: c.Name,
				Emit: func(sol puzzle.Solution) error { emitted++; return puzzle.Check(spec, sol) }})
			if err != nil {
				t.Logf("%s %s: skipped: %v", s, c.Name, err)
				continue
			}
			if ans.Status != puzzle.OK || ans.Count != want || emitted != want {
				t.Errorf("%s %s: %s count %d emitted %d (%s), want %d", s, c.Name, ans.Status, ans.Count, emitted, ans.Message, want)
			}
		}
	}
}

// benchSatCount counts queens:n with the sat backend b.N times.
func benchSatCount(b *testing.B, n int, encoding, solver string, threads int) {
	if len(Encoders("queens")) == 0 {
		b.Fatal("no queens encoder registered")
	}
	if s, err := sat.Lookup(solver); err != nil {
		b.Skip(err)
	} else {
		solver = s.Name
	}
	spec := puzzle.Queens{N: n}
	want, _ := puzzle.KnownCount(spec, puzzle.Count)
	req := puzzle.Request{Spec: spec, Task: puzzle.Count, Encoding: encoding, Solver: solver, Threads: threads}
	for range b.N {
		ans, err := Backend{}.Solve(context.Background(), req)
		if err != nil || ans.Status != puzzle.OK || ans.Count != want {
			b.Fatalf("%s %s: %s count %d (%s) %v, want %d", encoding, solver, ans.Status, ans.Count, ans.Message, err, want)
		}
	}
}

// BenchmarkCountQueens12 counts queens:12 (14,200) with the sat backend:
// the projected enumerator on two goroutines and on one, with pairwise
// (the best encoding here), native and seqcounter; and clasp -n 0 on the
// same pairwise CNF (it has no auxiliary variables, so boardsat hands clasp
// the plain DIMACS file: the side-by-side reference).
func BenchmarkCountQueens12(b *testing.B) {
	b.Run("pairwise/gophersat/threads=2", func(b *testing.B) { benchSatCount(b, 12, "pairwise", "", 2) })
	b.Run("pairwise/gophersat/threads=1", func(b *testing.B) { benchSatCount(b, 12, "pairwise", "", 1) })
	b.Run("native/gophersat/threads=2", func(b *testing.B) { benchSatCount(b, 12, "native", "", 2) })
	b.Run("seqcounter/gophersat/threads=2", func(b *testing.B) { benchSatCount(b, 12, "seqcounter", "", 2) })
	b.Run("pairwise/clasp", func(b *testing.B) { benchSatCount(b, 12, "pairwise", "clasp", 0) })
}

// BenchmarkCountQueens13 counts queens:13 (73,712) likewise.
func BenchmarkCountQueens13(b *testing.B) {
	b.Run("pairwise/gophersat/threads=2", func(b *testing.B) { benchSatCount(b, 13, "pairwise", "", 2) })
	b.Run("pairwise/gophersat/threads=1", func(b *testing.B) { benchSatCount(b, 13, "pairwise", "", 1) })
	b.Run("pairwise/clasp", func(b *testing.B) { benchSatCount(b, 13, "pairwise", "clasp", 0) })
}

// TestCountRecordsMethod: a SAT count says which counting method ran,
// clasp's two enumeration modes included.
func TestCountRecordsMethod(t *testing.T) {
	for _, c := range []struct {
		encoding, solver, want string
		external               bool
	}{
		{"pairwise", "", sat.MethodNameEnum, false},
		{"pairwise", sat.BlockingSolver, sat.MethodNameBlocking, false},
		{"pairwise", "clasp", sat.MethodNameClaspDIMACS, true},
		{"seqcounter", "clasp", sat.MethodNameClaspASPIF, true},
	} {
		if c.external && cnftest.MissingSolver(t, c.solver) {
			continue
		}
		ans, err := Backend{}.Solve(context.Background(), puzzle.Request{Spec: puzzle.Queens{N: 6}, Task: puzzle.Count, Encoding: c.encoding, Solver: c.solver})
		if err != nil || ans.Status != puzzle.OK || ans.Count != 4 || ans.Method != c.want {
			t.Errorf("%s %s: %v %s %d method %q, want %q", c.encoding, c.solver, err, ans.Status, ans.Count, ans.Method, c.want)
		}
	}
}

// BenchmarkCountPiecesMtotalizer counts pieces:5x5:K2Q1N2 (the quick
// suite's instance where the one-directional modulo totalizer once took
// seconds against centiseconds for every other encoding) with the
// modulo totalizer beside the totalizer and the sequential counter; each
// count must equal the totalizer's.
func BenchmarkCountPiecesMtotalizer(b *testing.B) {
	spec, err := puzzle.Parse("pieces:5x5:K2Q1N2")
	if err != nil {
		b.Fatal(err)
	}
	count := func(b *testing.B, encoding string) string {
		req := puzzle.Request{Spec: spec, Task: puzzle.Count, Encoding: encoding, Threads: 1}
		ans, err := Backend{}.Solve(context.Background(), req)
		if err != nil || ans.Status != puzzle.OK {
			b.Fatalf("%s: %s %s %v", encoding, ans.Status, ans.Message, err)
		}
		return ans.CountString()
	}
	want := count(b, "totalizer")
	for _, enc := range []string{"mtotalizer", "totalizer", "seqcounter"} {
		b.Run(enc, func(b *testing.B) {
			for b.Loop() {
				if got := count(b, enc); got != want {
					b.Fatalf("%s counts %s, the totalizer %s", enc, got, want)
				}
			}
		})
	}
}

// TestModelAloneResolves: every model boardsat list names can be given
// alone to --encoding, with its own default card encoding (satunsat is
// satunsat+seqcounter, dominate's default model takes totalizer), except
// a name that is also a card encoding (intervals' pairwise), which stays
// the card encoding on the default model; a name that is neither is
// refused.
func TestModelAloneResolves(t *testing.T) {
	for _, p := range puzzle.Puzzles {
		var def Encoder
		for _, e := range Encoders(p) {
			if e.Default {
				def = e
			}
		}
		for _, e := range Encoders(p) {
			got, c, err := Resolve(p, e.Name)
			if err != nil {
				t.Errorf("%s --encoding %s: %v", p, e.Name, err)
				continue
			}
			wantModel, wantCard := e.Name, cmp.Or(e.DefaultCard, DefaultCard)
			if _, isCard := card.Lookup(e.Name); isCard == nil {
				wantModel, wantCard = def.Name, e.Name
			}
			if got.Name != wantModel || c.Name != wantCard {
				t.Errorf("%s --encoding %s: %s+%s, want %s+%s", p, e.Name, got.Name, c.Name, wantModel, wantCard)
			}
		}
	}
	if e, c, err := Resolve("dominate", "satunsat"); err != nil || e.Name != "satunsat" || c.Name != "seqcounter" {
		t.Errorf("dominate --encoding satunsat: %s+%s %v, want satunsat+seqcounter", e.Name, c.Name, err)
	}
	if e, c, err := Resolve("intervals", "pairwise"); err != nil || e.Name != "clique" || c.Name != "pairwise" {
		t.Errorf("intervals --encoding pairwise: %s+%s %v, want clique+pairwise (the card encoding)", e.Name, c.Name, err)
	}
	if _, _, err := Resolve("dominate", "nosuch"); err == nil || !strings.HasPrefix(err.Error(), `unknown encoding "nosuch": want a cardinality encoding (`) {
		t.Errorf("dominate --encoding nosuch: %v", err)
	}
}

// TestBackendSolverChoices: the sat backend's --solver choices come from
// its solver set (solverproc's one helper): every solver sat.All lists,
// in its order, exactly one default (gophersat, the solver used when none
// is named), the in-process ones never marked as not installed, a
// definition whose binary is absent marked.
func TestBackendSolverChoices(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var got []puzzle.Choice
	for _, c := range (Backend{}).Choices() {
		if c.Field == "solver" {
			got = append(got, c)
		}
	}
	all := sat.All()
	if len(got) != len(all) {
		t.Fatalf("%d solver choices, sat.All has %d solvers", len(got), len(all))
	}
	for i, c := range got {
		s := all[i]
		notInstalled := strings.HasSuffix(c.Doc, " [not installed]")
		if c.Name != s.Name || c.Default != (s.Name == sat.DefaultSolver) || notInstalled != (s.Binary != "") {
			t.Errorf("choice %d: %+v; want %s, default %v, marked not installed %v (PATH is empty)", i, c, s.Name, s.Name == sat.DefaultSolver, s.Binary != "")
		}
	}
	if got[0].Name != sat.DefaultSolver || !got[0].Default {
		t.Errorf("the first solver choice is %+v, want the default %s", got[0], sat.DefaultSolver)
	}
}
