package cnftest

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/boardsat/boardsat/encode/cnf"
)

// TestCountsByHand checks the counter on formulas whose model counts are
// worked out by hand, with and without auxiliary variables and PB constraints.
func TestCountsByHand(t *testing.T) {
	f := cnf.New()
	x, y, z := f.Var("x"), f.Var("y"), f.Var("z")
	f.Add(x, y) // 6 of the 8 assignments of x, y, z
	all := []int{1, 2, 3}
	if got := New(f).CountUnder(nil, all, 0); got != 6 {
		t.Errorf("x|y over x,y,z: %d models, want 6", got)
	}
	if got := New(f).CountUnder([]cnf.Lit{x.Not()}, all, 0); got != 2 {
		t.Errorf("x|y with x false: %d models, want 2", got)
	}
	// An auxiliary variable a with a -> z and a free otherwise: projected
	// onto x, y, z the count stays 6.
	a := f.Aux("a")
	f.Add(a.Not(), z)
	if got := New(f).CountUnder(nil, all, 0); got != 6 {
		t.Errorf("with a free aux var, projected count %d, want 6", got)
	}
	// Exactly one of x, y, z as a PB constraint: 3 models, of which x|y keeps 2.
	f.AddPB([]cnf.Lit{x, y, z}, nil, cnf.Exactly, 1)
	if got := New(f).CountUnder(nil, all, 0); got != 2 {
		t.Errorf("x|y and exactly one: %d models, want 2", got)
	}
	// Free variables multiply the count.
	g := cnf.New()
	for range 10 {
		g.Var("v")
	}
	if got := New(g).CountUnder(nil, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0); got != 1024 {
		t.Errorf("10 free variables: %d, want 1024", got)
	}
	f.Add() // the empty clause
	if got := New(f).CountUnder(nil, all, 0); got != 0 {
		t.Errorf("formula with the empty clause: %d models, want 0", got)
	}
}

// TestOnModel checks that every counted model is reported and satisfies the formula.
func TestOnModel(t *testing.T) {
	f := cnf.New()
	x, y := f.Var("x"), f.Var("y")
	f.Add(x.Not(), y.Not()) // at most one: 3 models
	s := New(f)
	seen := 0
	s.OnModel = func(m []bool) {
		seen++
		if !f.Satisfied(m) {
			t.Errorf("reported model %v does not satisfy the formula", m)
		}
	}
	if got := s.CountUnder(nil, []int{1, 2}, 0); got != 3 || seen != 3 {
		t.Errorf("count %d with %d models reported, want 3 and 3", got, seen)
	}
}

// TestDebianPackages checks that the package each skip message names for a
// solver binary is one .ci/run installs: cryptominisat5 comes in the
// package cryptominisat, not in one named after the binary.
func TestDebianPackages(t *testing.T) {
	script, err := os.ReadFile("../../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	var installed []string
	for _, line := range strings.Split(string(script), "\n") {
		installed = append(installed, strings.Fields(strings.TrimSuffix(strings.TrimSpace(line), "\\"))...)
	}
	for _, bin := range append(DIMACSSolvers, "minisat+") {
		if p := DebianPackage(bin); !slices.Contains(installed, p) {
			t.Errorf("%s: Debian package %q is not among the packages .ci/run installs", bin, p)
		}
	}
	if p := DebianPackage("cryptominisat5"); p != "cryptominisat" {
		t.Errorf("cryptominisat5 is in Debian package %q, want cryptominisat", p)
	}
}
