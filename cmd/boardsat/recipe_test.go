package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/brute"
	"github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/encode/card"
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/native/search"
	"github.com/boardsat/boardsat/paradigm/mip"
	"github.com/boardsat/boardsat/paradigm/mzn"
	"github.com/boardsat/boardsat/puzzle"
)

// The recipes of docs/architecture.md ("How to add a puzzle family", "How
// to add a backend"), walked through: this file registers a toy family
// into every registry a family's files fill (puzzle, native, encode,
// brute, paradigm/mzn, paradigm/mip) and a toy backend into
// puzzle.Backends, with no other edit, and the tests below run this test
// binary as boardsat with them and find them where a user looks. The toy
// is registered only in that child (recipeEnv set), so that no other test
// of this package sees it.

// recipeEnv, set to 1, registers the toy family and backend.
const recipeEnv = "BOARDSAT_TEST_RECIPE"

// toy:N is one rook on a board of N squares in a row; it has N solutions.
type toy struct{ n int }

func (s toy) Puzzle() string { return "toy" }
func (s toy) String() string { return "toy:" + strconv.Itoa(s.n) }

// toyBoard is the board of toy:N.
func toyBoard(s puzzle.Spec) puzzle.Board { return puzzle.Board{W: s.(toy).n, H: 1} }

// toyAt is the solution with the rook on square sq.
func toyAt(b puzzle.Board, sq int) puzzle.Solution {
	return puzzle.PlacementOf(b, []puzzle.Square{puzzle.Square(sq)}, []puzzle.Kind{puzzle.Rook})
}

func init() {
	if os.Getenv(recipeEnv) != "1" {
		return
	}
	registerToyPuzzle()
	registerToyBackends()
	registerToyParadigms()
	// The backend recipe: a value of puzzle.Backend, registered.
	puzzle.Backends.Add("toyback", toyBackend{})
}

// toyTasks are the tasks every backend does for the toy family.
var toyTasks = []puzzle.Task{puzzle.Count, puzzle.First}

// registerToyPuzzle is step 1 of the family recipe.
func registerToyPuzzle() {
	// Step 1, puzzle/FAMILY.go: the descriptor.
	puzzle.Register(puzzle.Descriptor{
		Name: "toy", Order: 1000, Syntax: "toy:N",
		Parse: func(rest string) (puzzle.Spec, error) {
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 || n > 9 {
				return nil, fmt.Errorf("bad toy size %q: want 1 to 9", rest)
			}
			return toy{n}, nil
		},
		Board: toyBoard, DefaultTask: puzzle.Count, Shape: puzzle.PlacementShape,
		Size: puzzle.SizeMeasure{Name: "board side", Of: func(s puzzle.Spec) float64 { return float64(s.(toy).n) }},
		Check: func(spec puzzle.Spec, sol puzzle.Solution) error {
			pieces := 0
			for _, k := range sol.Layout {
				if k != puzzle.NoPiece && k != puzzle.Rook {
					return fmt.Errorf("a %v, want a rook", k)
				}
				if k == puzzle.Rook {
					pieces++
				}
			}
			if pieces != 1 {
				return fmt.Errorf("%d rooks, want one", pieces)
			}
			return nil
		},
		Count: func(spec puzzle.Spec, task puzzle.Task) (uint64, bool) {
			return uint64(spec.(toy).n), task == puzzle.Count
		},
		Probe: "toy:2",
	})
}

// registerToyBackends are steps 2 to 4: native, encode and brute.
func registerToyBackends() {
	// Step 2, native/FAMILY/: a strategy.
	search.Register(search.Strategy{Puzzle: "toy", Name: "line", Doc: "the rook on each square in turn", Default: true, Tasks: toyTasks,
		Solve: func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
			first := toyAt(toyBoard(req.Spec), 0)
			return search.Answer(req.Task, uint64(req.Spec.(toy).n), int64(req.Spec.(toy).n), false, &first, nil)
		}})
	// Step 3, encode/FAMILY.go: a SAT model, one variable per square,
	// exactly one true.
	encode.Register(encode.Encoder{Puzzle: "toy", Name: "onehot", Doc: "one variable per square, exactly one true", Default: true, Why: "the only model", Tasks: toyTasks,
		Build: func(spec puzzle.Spec, enc card.Encoding, _ encode.Options) (*encode.Instance, error) {
			b := toyBoard(spec)
			f := cnf.New()
			x := make([]cnf.Lit, b.Size())
			for s := range x {
				x[s] = f.Var("r_" + b.Name(puzzle.Square(s)))
			}
			if err := enc.Encode(f, x, cnf.Exactly, 1); err != nil {
				return nil, err
			}
			return &encode.Instance{Formula: f, Decode: func(model []bool) (puzzle.Solution, error) {
				for s, l := range x {
					if model[l] {
						return toyAt(b, s), nil
					}
				}
				return puzzle.Solution{}, fmt.Errorf("no rook in the model")
			}}, nil
		}})
	// Step 4, brute/FAMILY.go: candidates through the checker alone.
	brute.Register("toy", toyTasks, func(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
		b := toyBoard(req.Spec)
		ans := puzzle.Answer{Status: puzzle.OK}
		for s := range b.Size() {
			if sol := toyAt(b, s); puzzle.Check(req.Spec, sol) == nil {
				ans.Count++
				if ans.Solution == nil {
					ans.Solution = &sol
				}
			}
		}
		if req.Task != puzzle.First {
			ans.Solution = nil
		}
		return ans, nil
	})
}

// registerToyParadigms is step 5: the MiniZinc model and the integer
// program.
func registerToyParadigms() {
	// Step 5, paradigm/mzn/FAMILY.go and paradigm/mip/FAMILY.go.
	mzn.Register("toy", func(spec puzzle.Spec, _ mzn.Options) (*mzn.Model, error) {
		b := toyBoard(spec)
		text := fmt.Sprintf("array[1..1] of var 1..%d: x;\nsolve satisfy;\noutput [%q, show(x), \"\\n\"];\n", b.W, mzn.SolutionPrefix)
		return &mzn.Model{Text: text, PerSolution: 1, Decode: func(vals []int64) (puzzle.Solution, error) {
			if len(vals) != 1 || vals[0] < 1 || vals[0] > int64(b.W) {
				return puzzle.Solution{}, fmt.Errorf("values %v", vals)
			}
			return toyAt(b, int(vals[0])-1), nil
		}}, nil
	})
	mip.Register("toy", func(spec puzzle.Spec, _ mip.Options) (*mip.Model, error) {
		b := toyBoard(spec)
		m := &mip.Model{}
		vars := make([]int, b.Size())
		for s := range vars {
			vars[s] = m.NewVar("r_"+b.Name(puzzle.Square(s)), mip.Binary, 0, 1)
		}
		m.AddRow("one", vars, nil, mip.EQ, 1)
		m.Decode = func(values []int64) (puzzle.Solution, error) {
			for s, v := range vars {
				if values[v] == 1 {
					return toyAt(b, s), nil
				}
			}
			return puzzle.Solution{}, fmt.Errorf("no rook")
		}
		return m, nil
	})
}

// toyBackend answers the toy family alone, by its published count.
type toyBackend struct{}

func (toyBackend) Name() string { return "toyback" }
func (toyBackend) Doc() string  { return "the recipe test's toy backend" }
func (toyBackend) Choices() []puzzle.Choice {
	return []puzzle.Choice{{Field: "heuristic", Puzzle: "toy", Name: "lookup", Doc: "the published count", Default: true}}
}
func (toyBackend) Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	t, ok := req.Spec.(toy)
	if !ok || req.Task != puzzle.Count {
		return puzzle.Answer{}, fmt.Errorf("toyback counts the toy family only")
	}
	return puzzle.Answer{Status: puzzle.OK, Count: uint64(t.n)}, nil
}

// runToy runs this test binary as boardsat, the toy family and backend
// registered (withToy) or not, and returns its exit status and output.
func runToy(t *testing.T, withToy bool, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), testMainEnv+"=1")
	if withToy {
		cmd.Env = append(cmd.Env, recipeEnv+"=1")
	}
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("boardsat %s: %v", strings.Join(args, " "), err)
	}
	return code, string(out)
}

// wantIn fails unless out holds every one of want; what is the command.
func wantIn(t *testing.T, what, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s: no %q in\n%s", what, w, out)
		}
	}
}

// TestRecipeNewFamily: a family registered by the recipe's steps is in
// list, help and solve's errors, each backend solves it, compare and a
// suite's plan take it with every backend, and encode writes it, with no
// edit in cmd/boardsat or harness/. Without the registrations (the same
// binary, recipeEnv unset) none of that holds, so the test sees the
// registrations, not text that was there anyway.
func TestRecipeNewFamily(t *testing.T) {
	if testing.Short() {
		t.Skip("runs boardsat a dozen times")
	}
	_, list := runToy(t, true, "list")
	wantIn(t, "list", list, "puzzles: ", ", toy\n", " toy ", "line", "onehot")
	_, help := runToy(t, true, "help")
	wantIn(t, "help", help, "toy:N")
	for _, backend := range []string{"native", "sat", "check"} {
		code, out := runToy(t, true, "solve", "toy:5", "--backend", backend, "--format", "json")
		if code != 0 || !strings.Contains(out, `"status":"ok","count":5,`) {
			t.Errorf("solve toy:5 --backend %s: status %d, %q; want the count 5", backend, code, out)
		}
	}
	paradigms := map[string]string{"cp": "minizinc", "mip": "cbc"}
	for backend, program := range paradigms {
		if _, err := exec.LookPath(program); err != nil {
			if os.Getenv("CI") == "true" {
				t.Errorf("%s not on PATH", program)
			}
			t.Logf("skipped solve --backend %s: %s not on PATH", backend, program)
			delete(paradigms, backend)
			continue
		}
		code, out := runToy(t, true, "solve", "toy:5", "--backend", backend, "--task", "first")
		if code != 0 || !strings.Contains(out, "status:        ok") || strings.Count(out, "R") != 1 {
			t.Errorf("solve toy:5 --backend %s --task first: status %d, %q; want a placement of one rook", backend, code, out)
		}
	}
	variants := []string{"native/line", "sat/onehot+seqcounter", "check", "toyback/lookup"}
	for backend := range paradigms {
		variants = append(variants, backend)
	}
	code, out := runToy(t, true, "compare", "toy:4", "--backends", strings.Join(variants, ","))
	if code != 0 {
		t.Errorf("compare toy:4: status %d\n%s", code, out)
	}
	wantIn(t, "compare toy:4", out, append(variants, fmt.Sprintf("all answers agree (4, published; %d independent confirmations)", len(variants)))...)
	// cp and mip run only when named (they are left out of "all").
	suite := writeSuite(t, "toy:{3..4} backends=all task=first\ntoy:3 backends=cp,mip task=first\n")
	code, out = runToy(t, true, "bench", suite, "--dry-run")
	if code != 0 {
		t.Errorf("bench --dry-run: status %d\n%s", code, out)
	}
	wantIn(t, "bench --dry-run", out, "toy:4\tnative/line\tfirst", "toy:4\tsat/seqcounter\tfirst", "toy:4\tcheck\tfirst")
	for backend := range paradigms {
		wantIn(t, "bench --dry-run", out, "toy:3\t"+backend)
	}
	code, out = runToy(t, true, "encode", "toy:3")
	wantIn(t, "encode toy:3", out, "c p show 1 2 3 0", "c var 1 r_a1")
	if code != 0 {
		t.Errorf("encode toy:3: status %d", code)
	}
	_, help = runToy(t, true, "encode", "-h")
	wantIn(t, "encode -h", help, "mzn:      dominate, intervals, kingpath, pieces, queens, swap (plan), tour, toy\n", "lp, mps:  dominate, intervals, pieces, queens, swap (plan), tour, toy\n")
	for _, format := range []string{"mzn", "lp"} {
		if code, out := runToy(t, true, "encode", "toy:3", "--format", format); code != 0 {
			t.Errorf("encode toy:3 --format %s: status %d\n%s", format, code, out)
		}
	}
	// The counter-case: the same binary without the registrations.
	_, list = runToy(t, false, "list")
	code, out = runToy(t, false, "solve", "toy:5")
	if strings.Contains(list, "toy") || code != 2 || !strings.Contains(out, `unknown puzzle "toy"`) {
		t.Errorf("without the toy: list mentions it, or solve toy:5 gave status %d, %q", code, out)
	}
}

// TestRecipeNewBackend: a backend registered from its package's init is in
// list and solve's help, answers solve, and is a variant of compare and of
// a suite's plan, with no other edit.
func TestRecipeNewBackend(t *testing.T) {
	if testing.Short() {
		t.Skip("runs boardsat several times")
	}
	_, list := runToy(t, true, "list")
	wantIn(t, "list", list, "backend toyback: the recipe test's toy backend", "lookup")
	_, help := runToy(t, true, "solve", "-h")
	wantIn(t, "solve -h", help, "toyback")
	code, out := runToy(t, true, "solve", "toy:6", "--backend", "toyback", "--format", "json")
	if code != 0 || !strings.Contains(out, `"status":"ok","count":6,`) {
		t.Errorf("solve toy:6 --backend toyback: status %d, %q", code, out)
	}
	code, out = runToy(t, true, "compare", "toy:6", "--backends", "toyback/lookup,native/line")
	if code != 0 {
		t.Errorf("compare: status %d\n%s", code, out)
	}
	wantIn(t, "compare", out, "toyback/lookup")
	code, out = runToy(t, true, "bench", writeSuite(t, "toy:5 backends=toyback\n"), "--dry-run")
	if code != 0 {
		t.Errorf("bench --dry-run: status %d\n%s", code, out)
	}
	wantIn(t, "bench --dry-run", out, "toy:5\ttoyback\tcount")
	_, list = runToy(t, false, "list")
	if strings.Contains(list, "toyback") {
		t.Error("list names toyback without the registration")
	}
}

// TestRecipeNewSolver: a solver defined in JSON (docs/solvers.md), here
// minisat under a name of its own, is listed by solvers, passes solvers
// check, answers solve, and is the variant sat//NAME of compare and of a
// suite's plan, on the toy family, with no code at all.
func TestRecipeNewSolver(t *testing.T) {
	if testing.Short() {
		t.Skip("runs minisat through boardsat several times")
	}
	if _, err := exec.LookPath("minisat"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("minisat not on PATH")
		}
		t.Skip("minisat not on PATH")
	}
	def := writeDef(t, t.TempDir(), "toysat.json", `{"name": "toysat", "kind": "sat", "command": ["minisat", "-verb=0", "{input}", "{output}"], "protocol": "minisat-result", "doc": "the recipe test's solver"}`)
	_, out := runToy(t, true, "solvers", "--solvers", def)
	wantIn(t, "solvers", out, "toysat", def)
	code, out := runToy(t, true, "solvers", "check", "toysat", "--solvers", def)
	if code != 0 {
		t.Errorf("solvers check toysat: status %d\n%s", code, out)
	}
	wantIn(t, "solvers check", out, "solver toysat: all 3 checks conformed")
	code, out = runToy(t, true, "solve", "toy:4", "--backend", "sat", "--solver", "toysat", "--solvers", def, "--format", "json")
	if code != 0 || !strings.Contains(out, `"solver":"toysat","task":"count","status":"ok","count":4,`) {
		t.Errorf("solve toy:4 --solver toysat: status %d, %q", code, out)
	}
	code, out = runToy(t, true, "compare", "toy:4", "--backends", "sat/toysat,native/line", "--solvers", def)
	if code != 0 {
		t.Errorf("compare: status %d\n%s", code, out)
	}
	wantIn(t, "compare", out, "sat//toysat  ok", "all answers agree (4, published")
	code, out = runToy(t, true, "bench", writeSuite(t, "toy:4 backends=sat/toysat\n"), "--dry-run", "--solvers", def)
	if code != 0 {
		t.Errorf("bench --dry-run: status %d\n%s", code, out)
	}
	wantIn(t, "bench --dry-run", out, "toy:4\tsat//toysat\tcount")
	if code, out := runToy(t, true, "solve", "toy:4", "--backend", "sat", "--solver", "toysat"); code != 2 {
		t.Errorf("solve --solver toysat without its definition: status %d, %q; want 2", code, out)
	}
}
