package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/proof/certify"
	"github.com/boardsat/boardsat/puzzle"
)

// certFlags are solve's options for certified answers.
type certFlags struct {
	certify bool
	dir     string
	force   bool
	cubes   int
}

func (c *certFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&c.certify, "certify", false, "prove every refutation the answer rests on and check each proof (sat backend, gophersat or cadical, clausal encodings); the answer gains certified and certificate")
	fs.StringVar(&c.dir, "proof", "", "write each refutation's CNF and ASCII DRAT proof and a MANIFEST to `DIR` (implies --certify)")
	fs.BoolVar(&c.force, "force", false, "with --proof, write into a directory that is not empty")
	fs.IntVar(&c.cubes, "cubes", 0, "with --certify and --task count: cube-and-conquer, the count split into 2^`D` cubes over D variables, each proved on its own as a subproblem (runs with --shard and --checkpoint); a refutation is the count 0")
}

// args returns the flags as the array tasks of slurm solve pass them on.
func (c *certFlags) args() []string {
	var a []string
	if c.on() {
		a = append(a, "--certify")
	}
	if c.cubes > 0 {
		a = append(a, "--cubes", strconv.Itoa(c.cubes))
	}
	return a
}

// on reports whether the run is certified.
func (c *certFlags) on() bool { return c.certify || c.dir != "" }

// start checks a certified request before it runs and returns the
// context that collects its proofs and the recorder that checks them;
// nil when the run is not certified.
func (c *certFlags) start(ctx context.Context, backend string, req puzzle.Request, sf *splitFlags) (context.Context, *certify.Recorder, error) {
	if !c.on() {
		if c.force {
			return ctx, nil, badInputf("--force is for --proof DIR")
		}
		if c.cubes != 0 {
			return ctx, nil, badInputf("--cubes is for certified counts: add --certify")
		}
		return ctx, nil, nil
	}
	if !puzzle.WritesProofs(backend) {
		return ctx, nil, badInputf("--certify needs a backend that writes proofs (--backend %s): the %s backend writes none",
			strings.Join(puzzle.BackendsWhere(puzzle.WritesProofs), " or "), backend)
	}
	if err := sat.Provable(req.Solver); err != nil {
		return ctx, nil, badInput(err)
	}
	switch {
	case c.cubes < 0 || c.cubes > sat.MaxCubeDepth:
		return ctx, nil, badInputf("--cubes takes 1 to %d variables (2^D cubes), not %d", sat.MaxCubeDepth, c.cubes)
	case c.cubes > 0 && req.Task != puzzle.Count:
		return ctx, nil, badInputf("--cubes splits a certified count (--task count; a refutation is the count 0), not task %s", req.Task)
	case c.cubes == 0 && (sf.shard != "" || sf.checkpoint != ""):
		return ctx, nil, badInputf("--certify runs whole: with --shard or --checkpoint, split it into cubes (--cubes D)")
	}
	if c.cubes > 0 {
		req.Split.Cubes = c.cubes
	}
	if req.Task == puzzle.Unique {
		return ctx, nil, badInputf("--certify does not do task unique: its count of classes rests on the symmetry argument alone; certify task count")
	}
	rec := &certify.Recorder{Dir: c.dir}
	if c.dir != "" {
		if err := certify.PrepareDir(c.dir, c.force); err != nil {
			return ctx, nil, badInput(err)
		}
	}
	return sat.WithProofs(ctx, rec), rec, nil
}

// finish turns the recorder's verdict into the answer: a proof that
// failed its check makes the answer an error naming it, never ok; the
// MANIFEST is written when proofs go to a directory.
func (c *certFlags) finish(rec *certify.Recorder, args []string, req puzzle.Request, ans *puzzle.Answer) error {
	if rec == nil {
		return nil
	}
	if r := req.Split.Ran; r != nil && r.Resumed > 0 {
		rec.Uncovered(fmt.Sprintf("%d of the %d cubes were taken from the checkpoint: proved and checked by an earlier run, whose proofs this certificate does not hold (run without the checkpoint to certify them all)", r.Resumed, r.InShard))
	}
	if msg := rec.Failure(); msg != "" {
		ans.Status, ans.Message = puzzle.Error, msg
	}
	summary := string(ans.Status)
	if ans.Objective != nil {
		summary += ", objective " + ans.Objective.String()
	}
	if ans.Status == puzzle.OK && (ans.Count > 0 || ans.Big != nil) {
		summary += ", count " + ans.CountString()
	}
	if ans.Length > 0 {
		summary += fmt.Sprintf(", length %d", ans.Length)
	}
	if err := rec.WriteManifest("boardsat solve "+strings.Join(args, " "), summary); err != nil {
		return badInput(err)
	}
	return nil
}

// certified reports whether an answer is certified: it is ok or unsat,
// and every refutation it rests on was checked.
func certified(rec *certify.Recorder, ans puzzle.Answer) bool {
	return rec != nil && rec.Certified() && (ans.Status == puzzle.OK || ans.Status == puzzle.Unsat)
}

// printCertificate prints a certified run's verdict and certificate as
// text rows: "proved" only for a claim whose proof was verified, "proof
// failed" with the reason for one whose proof was not.
func printCertificate(w io.Writer, ok bool, c answer.Certificate) {
	row := func(k string, v any) { fmt.Fprintf(w, "%-14s %v\n", k+":", v) }
	row("certified", ok)
	row("refutations", fmt.Sprintf("%d (%s; %d lemmas, %d bytes; checked in %.3f s, %.3f s CPU, by %s)", c.Refutations, c.Format, c.Lemmas, c.Bytes, c.CheckSeconds, c.CheckCPUSeconds, c.Checker))
	for _, cl := range c.Claims {
		row("proved", cl)
	}
	for _, f := range c.Failed {
		row("proof failed", f)
	}
	for _, a := range c.Arguments {
		row("not proved", a)
	}
}
