package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/puzzle"
)

// plantedBackend is a backend registered only in this test binary (and so
// in bench's children, which are this binary acting as boardsat): it asks
// the native backend and then spoils the answer in one way.
type plantedBackend struct {
	name  string
	spoil func(req puzzle.Request, ans puzzle.Answer) puzzle.Answer
}

func (p plantedBackend) Name() string             { return p.name }
func (p plantedBackend) Doc() string              { return "planted fault (tests only)" }
func (p plantedBackend) Choices() []puzzle.Choice { return nil }

// KnownWrong keeps the planted backends out of "all" (the quick suite's
// other tests); named, they run, and their faults must be caught.
func (p plantedBackend) KnownWrong() string { return "planted fault" }
func (p plantedBackend) Solve(ctx context.Context, req puzzle.Request) (puzzle.Answer, error) {
	nb, err := puzzle.Backends.Lookup("native")
	if err != nil {
		return puzzle.Answer{}, err
	}
	req.Heuristic = ""
	ans, err := nb.Solve(ctx, req)
	if err != nil {
		return ans, err
	}
	return p.spoil(req, ans), nil
}

func init() {
	// Invalid model: a first solution the checker rejects; for a count, the
	// error a SAT backend gives when a decoded model fails the checker.
	puzzle.Backends.Add("planted-invalid", plantedBackend{"planted-invalid", func(req puzzle.Request, ans puzzle.Answer) puzzle.Answer {
		if req.Task == puzzle.First && ans.Solution != nil {
			bad := *ans.Solution
			bad.Layout = append([]puzzle.Kind(nil), bad.Layout...)
			for i := range bad.Layout {
				bad.Layout[i] = puzzle.NoPiece
			}
			ans.Solution = &bad
			return ans
		}
		return puzzle.Answer{Status: puzzle.Error, Message: "a decoded model fails the checker (encoding bug): planted"}
	}})
	puzzle.Backends.Add("planted-error", plantedBackend{"planted-error", func(req puzzle.Request, ans puzzle.Answer) puzzle.Answer {
		return puzzle.Answer{Status: puzzle.Error, Message: "planted failure"}
	}})
	puzzle.Backends.Add("planted-wrong", plantedBackend{"planted-wrong", func(req puzzle.Request, ans puzzle.Answer) puzzle.Answer {
		ans.Count++
		return ans
	}})
}

// TestPlantedFaultsCaught: a backend that returns an invalid model, one
// that errors, and one with a wrong count each make compare exit 1 and
// bench write "wrong", whether it runs first or last, whether the reference
// is published (queens:6), the brute force's (pieces:3x4:N2) or a majority
// (pieces:7x7:N2, past the brute force's limits).
func TestPlantedFaultsCaught(t *testing.T) {
	for _, planted := range []string{"planted-invalid", "planted-error", "planted-wrong"} {
		for _, spec := range []string{"queens:6", "pieces:3x4:N2", "pieces:7x7:N2"} {
			good := []string{"native/copies", "native/free"}
			if strings.HasPrefix(spec, "queens") {
				good = []string{"native/plain", "native/bitboard"}
			}
			for _, first := range []bool{true, false} {
				list := append([]string{planted}, good...)
				if !first {
					list = append(append([]string{}, good...), planted)
				}
				backends := strings.Join(list, ",")
				name := fmt.Sprintf("%s %s %s", planted, spec, backends)
				status, out, errOut := runCLI("compare", spec, "--backends", backends, "--task", "count")
				if status != 1 || !strings.Contains(out, "DISAGREEMENT") || !strings.Contains(out, planted) {
					t.Errorf("%s: compare exit %d\n%s%s", name, status, out, errOut)
				}
				csv := filepath.Join(t.TempDir(), "r.csv")
				suite := writeSuite(t, spec+" backends="+backends+" task=count timeout=60s")
				if status, _, errOut := runCLI("bench", suite, "-o", csv); status != 0 {
					t.Fatalf("%s: bench exit %d: %s", name, status, errOut)
				}
				rows, err := results.ReadFiles(csv)
				if err != nil || len(rows) != 3 {
					t.Fatalf("%s: %d rows, %v", name, len(rows), err)
				}
				for _, r := range rows {
					want := results.StatusOK
					if r.Backend == planted {
						want = results.StatusWrong
					}
					if r.Status != want {
						t.Errorf("%s: bench row %s: %s (%s), want %s", name, r.Variant, r.Status, r.Message, want)
					}
				}
			}
		}
	}
	// An invalid first solution, by the checker.
	status, out, _ := runCLI("compare", "queens:6", "--backends", "planted-invalid,native/bitboard", "--task", "first")
	if status != 1 || !strings.Contains(out, "checker rejects") {
		t.Errorf("invalid first solution: compare exit %d\n%s", status, out)
	}
}

// TestTheoremConfirmsOnce: a closed tour on 5x5 is impossible by the colour
// count; native answers by that theorem and the published 0 rests on it, so
// the two are one confirmation, not two, while the brute force and a SAT
// search are independent ones.
func TestTheoremConfirmsOnce(t *testing.T) {
	status, out, _ := runCLI("compare", "tour:3x5:a1:closed", "--backends", "native", "--task", "count")
	if status != 0 || !strings.Contains(out, "1 independent confirmation)") || !strings.Contains(out, "by theorem") {
		t.Errorf("theorem alone: exit %d\n%s", status, out)
	}
	status, out, _ = runCLI("compare", "tour:3x5:a1:closed", "--backends", "native,check", "--task", "count")
	if status != 0 || !strings.Contains(out, "2 independent confirmations)") {
		t.Errorf("theorem and brute force: exit %d\n%s", status, out)
	}
}
