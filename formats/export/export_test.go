package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/boardsat/boardsat/harness/suites"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/boardsat/boardsat/brute" // the suite's backends, for suites.Parse
	"github.com/boardsat/boardsat/encode/cnf"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/formats/competition"
	"github.com/boardsat/boardsat/formats/gbdhash"
	_ "github.com/boardsat/boardsat/native" // the native answers
	_ "github.com/boardsat/boardsat/paradigm/cpsolve"
	_ "github.com/boardsat/boardsat/paradigm/mipsolve"
	"github.com/boardsat/boardsat/puzzle"
)

// smallSuite covers every task exported, a count of 0, an unsatisfiable
// first task (proved), and optimisation models.
const smallSuite = `
queens:{3..6} pieces:3x3:K1R2 kingpath:4x4:b1:5 backends=native task=count
queens:3 queens:8 pieces:4x4:R2N4 backends=native task=first
dominate:4x4:Q intervals:random:6:seed=1 backends=native task=optimum
`

// exportSmall plans and writes the small suite to a temporary directory
// and reads its table back.
func exportSmall(t *testing.T) (string, []Row) {
	t.Helper()
	s, err := suites.Parse("small", smallSuite)
	if err != nil {
		t.Fatal(err)
	}
	items, _, err := Plan(context.Background(), s, Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, items, false); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(filepath.Join(dir, CSVName))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := ReadCSV(fh)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(items) {
		t.Fatalf("%d rows for %d files", len(rows), len(items))
	}
	return dir, rows
}

// TestExportAnswers: the rows say what the published tables and the
// proofs say, for instances whose answers are known by hand.
func TestExportAnswers(t *testing.T) {
	_, rows := exportSmall(t)
	byFile := map[string]Row{}
	for _, r := range rows {
		byFile[r.File] = r
	}
	want := []Row{
		{File: "queens_6.count.cnf", Answer: "sat", Count: "4", KnownBy: KnownPublished},
		{File: "queens_3.count.cnf", Answer: "unsat", Count: "0", KnownBy: KnownPublished},
		{File: "queens_3.count.opb", Answer: "unsat", KnownBy: KnownPublished},
		{File: "queens_3.first.cnf", Answer: "unsat", KnownBy: KnownCertified},
		{File: "queens_3.first.opb", Answer: "unsat", KnownBy: KnownCertified},
		{File: "queens_8.first.cnf", Answer: "sat", KnownBy: KnownCertified},
		{File: "kingpath_4x4_b1_5.count.cnf", Answer: "sat", Count: "435", KnownBy: KnownPublished},
		{File: "dominate_4x4_Q.optimum.opb", Answer: "sat", Optimum: "2", KnownBy: KnownPublished},
		{File: "dominate_4x4_Q.optimum.wcnf", Answer: "sat", Optimum: "2", KnownBy: KnownPublished},
		{File: "dominate_4x4_Q.optimum.mzn", Answer: "sat", Optimum: "2", KnownBy: KnownPublished},
		{File: "intervals_random_6_seed_1.optimum.lp", Answer: "sat", Optimum: "12", KnownBy: KnownNative},
	}
	for _, w := range want {
		r, ok := byFile[w.File]
		if !ok {
			t.Errorf("no row for %s", w.File)
			continue
		}
		if r.Answer != w.Answer || r.Count != w.Count || r.Optimum != w.Optimum || r.KnownBy != w.KnownBy {
			t.Errorf("%s: answer %q count %q optimum %q known by %q; want %q %q %q %q", w.File, r.Answer, r.Count, r.Optimum, r.KnownBy, w.Answer, w.Count, w.Optimum, w.KnownBy)
		}
	}
}

// TestExportReestablished re-reads every file written and establishes its
// answer again from the file alone: cnf by boardsat's counter and solver
// (gophersat, in-process), opb and wcnf by gophersat after a strict reading
// of the file, mzn by minizinc (Gecode) and lp by cbc when installed. Each
// file's GBD hash is recomputed from the file on disk.
func TestExportReestablished(t *testing.T) {
	dir, rows := exportSmall(t)
	have := map[string]bool{}
	for _, f := range Formats {
		have[f] = haveTool(t, f)
	}
	formats := map[string]int{}
	for _, r := range rows {
		data, err := os.ReadFile(filepath.Join(dir, r.File))
		if err != nil {
			t.Fatal(err)
		}
		if r.Answer == AnswerUnknown || r.KnownBy == KnownUnknown {
			t.Errorf("%s: no answer established (%s, %s)", r.File, r.Answer, r.KnownBy)
			continue
		}
		if !have[r.Format] {
			continue
		}
		formats[r.Format]++
		var got Row
		switch r.Format {
		case "cnf":
			got = recheckCNF(t, r, data)
		case "opb", "wcnf":
			got = recheckPB(t, r, data)
		case "mzn":
			got = recheckMZN(t, r, filepath.Join(dir, r.File))
		case "lp":
			got = recheckLP(t, r, filepath.Join(dir, r.File))
		}
		if got.Answer != r.Answer || got.Count != r.Count || got.Optimum != r.Optimum {
			t.Errorf("%s: the file says %q count %q optimum %q; the table %q %q %q", r.File, got.Answer, got.Count, got.Optimum, r.Answer, r.Count, r.Optimum)
		}
		if r.Format == "cnf" || r.Format == "opb" || r.Format == "wcnf" {
			hash := map[string]func([]byte) (string, error){"cnf": gbdhash.CNF, "opb": gbdhash.OPB, "wcnf": gbdhash.WCNF}[r.Format]
			if h, err := hash(data); err != nil || h != r.GBDHash {
				t.Errorf("%s: GBD hash %s %v, the table %s", r.File, h, err, r.GBDHash)
			}
		} else if r.GBDHash != "" {
			t.Errorf("%s: a GBD hash for a %s file", r.File, r.Format)
		}
	}
	for _, f := range Formats {
		if formats[f] == 0 && have[f] {
			t.Errorf("no %s file checked", f)
		}
	}
}

func recheckCNF(t *testing.T, r Row, data []byte) Row {
	in, err := competition.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", r.File, err)
	}
	s, err := competition.Solve(context.Background(), in, false)
	if err != nil {
		t.Fatalf("%s: %v", r.File, err)
	}
	got := Row{Answer: answerOf(t, r.File, s.Result.Status)}
	if r.Task == string(puzzle.Count) {
		c, err := competition.Count(context.Background(), in, 1)
		if err != nil || c.Status != puzzle.OK {
			t.Fatalf("%s: count %+v %v", r.File, c, err)
		}
		got.Count = strconv.FormatUint(c.Count, 10)
	}
	return got
}

func answerOf(t *testing.T, file string, st puzzle.Status) string {
	switch st {
	case puzzle.OK:
		return AnswerSat
	case puzzle.Unsat:
		return AnswerUnsat
	}
	t.Fatalf("%s: status %s", file, st)
	return ""
}

// recheckPB decides an OPB or WCNF file read back with gophersat, and
// minimises its objective when it has one.
func recheckPB(t *testing.T, r Row, data []byte) Row {
	read := readOPB
	if r.Format == "wcnf" {
		read = readWCNF
	}
	f, obj, err := read(string(data))
	if err != nil {
		t.Fatalf("%s: %v", r.File, err)
	}
	res, err := sat.Solve(context.Background(), f, "")
	if err != nil {
		t.Fatalf("%s: %v", r.File, err)
	}
	got := Row{Answer: answerOf(t, r.File, res.Status)}
	if obj.Lits != nil && res.Status == puzzle.OK {
		m, err := sat.Minimize(context.Background(), f, obj, sat.OptimizeOptions{})
		if err != nil || m.Status != puzzle.OK {
			t.Fatalf("%s: minimise %+v %v", r.File, m.Status, err)
		}
		got.Optimum = strconv.FormatInt(m.Cost, 10)
	}
	return got
}

// readOPB reads the OPB boardsat writes, strictly: "*" comments, an
// optional "min:" line, constraints "+W xV ... >= K ;" or "= K ;".
func readOPB(text string) (*cnf.Formula, sat.Objective, error) {
	var obj sat.Objective
	f := cnf.New()
	lit := func(tok string) (cnf.Lit, error) {
		v, err := strconv.Atoi(strings.TrimPrefix(tok, "x"))
		if !strings.HasPrefix(tok, "x") || err != nil || v < 1 {
			return 0, fmt.Errorf("%q is not a variable", tok)
		}
		for f.NumVars() < v {
			f.Var("x")
		}
		return cnf.Lit(v), nil
	}
	for n, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "*") {
			continue
		}
		toks := strings.Fields(line)
		if toks[len(toks)-1] != ";" {
			return nil, obj, fmt.Errorf("line %d does not end with ;", n+1)
		}
		toks = toks[:len(toks)-1]
		minimise := toks[0] == "min:"
		if minimise {
			toks = toks[1:]
		}
		var lits []cnf.Lit
		var ws []int
		k := 0
		for i := 0; i < len(toks); i += 2 {
			if toks[i] == ">=" || toks[i] == "=" {
				if minimise || i+2 != len(toks) {
					return nil, obj, fmt.Errorf("line %d: misplaced %s", n+1, toks[i])
				}
				c, err := strconv.Atoi(toks[i+1])
				if err != nil {
					return nil, obj, fmt.Errorf("line %d: %v", n+1, err)
				}
				op := cnf.AtLeast
				if toks[i] == "=" {
					op = cnf.Exactly
				}
				f.AddPB(lits, ws, op, c+k)
				lits = nil
				break
			}
			if i+1 >= len(toks) {
				return nil, obj, fmt.Errorf("line %d: a weight without a variable", n+1)
			}
			w, err := strconv.Atoi(toks[i])
			if err != nil {
				return nil, obj, fmt.Errorf("line %d: %v", n+1, err)
			}
			l, err := lit(toks[i+1])
			if err != nil {
				return nil, obj, fmt.Errorf("line %d: %v", n+1, err)
			}
			if w < 0 { // -w x = w (not x) - w
				w, l, k = -w, -l, k+(-w)
			}
			lits, ws = append(lits, l), append(ws, w)
		}
		if minimise {
			if k != 0 {
				return nil, obj, fmt.Errorf("line %d: a negative objective weight", n+1)
			}
			obj = sat.Objective{Lits: lits, Weights: ws}
		} else if lits != nil {
			return nil, obj, fmt.Errorf("line %d: no relation", n+1)
		}
	}
	return f, obj, nil
}

// readWCNF reads a classic WCNF file: hard clauses of weight TOP, soft
// clauses each relaxed by a fresh variable that the objective counts.
func readWCNF(text string) (*cnf.Formula, sat.Objective, error) {
	var obj sat.Objective
	f := cnf.New()
	top := -1
	var soft [][]cnf.Lit
	var softW []int
	for n, line := range strings.Split(text, "\n") {
		toks := strings.Fields(line)
		if len(toks) == 0 || toks[0] == "c" {
			continue
		}
		if toks[0] == "p" {
			if len(toks) != 5 || toks[1] != "wcnf" {
				return nil, obj, fmt.Errorf("line %d: bad header", n+1)
			}
			vars, err1 := strconv.Atoi(toks[2])
			t, err2 := strconv.Atoi(toks[4])
			if err := errors.Join(err1, err2); err != nil {
				return nil, obj, err
			}
			for i := 0; i < vars; i++ {
				f.Var("x")
			}
			top = t
			continue
		}
		if top < 0 || toks[len(toks)-1] != "0" {
			return nil, obj, fmt.Errorf("line %d: a clause before the header, or without its 0", n+1)
		}
		nums := make([]int, len(toks)-1)
		for i, tok := range toks[:len(toks)-1] {
			x, err := strconv.Atoi(tok)
			if err != nil || (i > 0 && (x == 0 || x > f.NumVars() || -x > f.NumVars())) {
				return nil, obj, fmt.Errorf("line %d: %q", n+1, tok)
			}
			nums[i] = x
		}
		var c []cnf.Lit
		for _, x := range nums[1:] {
			c = append(c, cnf.Lit(x))
		}
		if nums[0] >= top {
			f.Add(c...)
		} else {
			soft, softW = append(soft, c), append(softW, nums[0])
		}
	}
	for i, c := range soft {
		r := f.Aux("relax")
		f.Add(append(c, r)...)
		obj.Lits, obj.Weights = append(obj.Lits, r), append(obj.Weights, softW[i])
	}
	return f, obj, nil
}

// tools holds the external solvers the mzn and lp files are checked with,
// by format.
var tools = map[string]string{"mzn": "minizinc", "lp": "cbc"}

// haveTool reports whether the solver of a format is installed; when it is
// not, the files of that format go unchecked with a note, and under
// CI=true the test fails.
func haveTool(t *testing.T, format string) bool {
	t.Helper()
	name, ok := tools[format]
	if !ok {
		return true
	}
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed, and CI=true requires it", name)
		}
		t.Logf("%s is not installed: the %s files are not checked (CI=true makes this a failure)", name, format)
		return false
	}
	return true
}

var objectiveLine = regexp.MustCompile(`(?m)^objective: (-?\d+)$`)

// recheckMZN solves a MiniZinc file with Gecode: "----------" is a
// solution, "==========" a finished search (optimality proved when
// optimising), "=====UNSATISFIABLE=====" none.
func recheckMZN(t *testing.T, r Row, path string) Row {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "minizinc", "--solver", "gecode", path).Output()
	if err != nil {
		t.Fatalf("%s: minizinc: %v", r.File, err)
	}
	text := string(out)
	switch {
	case strings.Contains(text, "=====UNSATISFIABLE====="):
		return Row{Answer: AnswerUnsat}
	case !strings.Contains(text, "----------"):
		t.Fatalf("%s: minizinc gave no verdict: %q", r.File, text)
	}
	got := Row{Answer: AnswerSat}
	if r.Optimum != "" {
		m := objectiveLine.FindAllStringSubmatch(text, -1)
		if m == nil || !strings.Contains(text, "==========") {
			t.Fatalf("%s: no proved optimum: %q", r.File, text)
		}
		got.Optimum = m[len(m)-1][1]
	}
	return got
}

var cbcInfeasible = regexp.MustCompile(`(?m)^Result - (Problem proven infeasible|Linear relaxation infeasible)$`)

var cbcObjective = regexp.MustCompile(`(?m)^Objective value:\s+(-?\d+)\.0+$`)

// recheckLP solves an LP file with cbc.
func recheckLP(t *testing.T, r Row, path string) Row {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, _ := exec.CommandContext(ctx, "cbc", path, "solve").Output()
	text := string(out)
	switch {
	case cbcInfeasible.MatchString(text):
		return Row{Answer: AnswerUnsat}
	case !strings.Contains(text, "Result - Optimal solution found"):
		t.Fatalf("%s: cbc gave no verdict: %q", r.File, text)
	}
	got := Row{Answer: AnswerSat}
	if r.Optimum != "" {
		m := cbcObjective.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("%s: no objective value: %q", r.File, text)
		}
		got.Optimum = m[1]
	}
	return got
}

// TestWriteRefuses: a directory that holds anything is refused without
// force; with force, a non-regular file where a file goes is refused
// before anything is written.
func TestWriteRefuses(t *testing.T) {
	items := []Item{{Row: Row{File: "a.cnf"}, Data: []byte("p cnf 1 1\n1 0\n")}}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("mine"), 0o644)
	if err := Write(dir, items, false); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("non-empty directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.cnf")); err == nil {
		t.Error("a file was written into a refused directory")
	}
	os.Mkdir(filepath.Join(dir, CSVName), 0o755)
	if err := Write(dir, items, true); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory named instances.csv: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.cnf")); err == nil {
		t.Error("a file was written before the refusal")
	}
	os.Remove(filepath.Join(dir, CSVName))
	os.Symlink(filepath.Join(dir, "mine.txt"), filepath.Join(dir, "a.cnf"))
	if err := Write(dir, items, true); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a link named a.cnf: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "mine.txt")); string(data) != "mine" {
		t.Errorf("the linked file changed: %q", data)
	}
	os.Remove(filepath.Join(dir, "a.cnf"))
	if err := Write(dir, items, true); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, CSVName)); !strings.HasPrefix(string(data), strings.Join(Header, ",")+"\na.cnf,") {
		t.Errorf("instances.csv: %q", data)
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	if err := Write(file, items, true); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file as the directory: %v", err)
	}
}
