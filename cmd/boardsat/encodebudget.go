package main

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"sync"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/internal/membudget"
	"github.com/boardsat/boardsat/paradigm/mip"
	"github.com/boardsat/boardsat/puzzle"
)

// The bounds of encode, the same as solve's (docs/cli.md, "Memory"): a
// board the SAT backends refuse is refused; a formula that needs more than
// the memory budget at least is refused before it is built, with that
// estimate; and a formula that outgrows the budget while it is built ends
// the command with status memout, exit 4, one line on stderr, before
// anything is written.

// planPositionBytes is the floor of what one position variable of a plan
// costs its formula: a plan of T moves (swap) has a variable per square,
// colour and position, 2 x squares x (T+1), and each is at least a 4-byte
// literal in the encoder's tables (the SAT plan) or a named column (the
// integer programs), besides its clauses.
const planPositionBytes = 4

// encodeLimits sets the memory budget of encode (--mem, else membudget's
// default) and refuses, before anything is built, a spec the SAT backends
// refuse (sat: formats DIMACS, OPB, WCNF) and a plan whose formula, built
// out step by step (all formats but MiniZinc's, whose model states the
// horizon as a parameter), needs more than the budget at least. specText
// is the spec as given, for the messages.
func encodeLimits(specText string, spec puzzle.Spec, sat, unrolled bool, steps int, mem string) error {
	if mem != "" {
		mb, err := membudget.ParseMem(mem)
		if err != nil {
			return badInput(err)
		}
		membudget.Set(mb << 20)
	}
	if sat {
		if err := encode.CheckBoard("the SAT encoding", spec); err != nil {
			return badInput(err)
		}
	}
	if unrolled && steps > 0 && mip.NeedsHorizon(spec.Puzzle()) {
		// Big integers: --steps may be as large as an int holds.
		n := int64(puzzle.BoardOf(spec).Size())
		need := big.NewInt(int64(steps))
		need.Add(need, big.NewInt(1)).Mul(need, big.NewInt(2*n*planPositionBytes))
		if budget := membudget.Budget(); need.Cmp(big.NewInt(budget)) > 0 {
			return badInputf("%s with --steps %d is refused: its formula needs at least %s (2 x %d squares x %d positions of %d bytes), over the memory budget of %s (--mem sets it)",
				specText, steps, bigBytes(need), n, int64(steps)+1, planPositionBytes, membudget.Bytes(budget))
		}
	}
	return nil
}

// bigBytes is membudget.Bytes for a count that may pass an int64.
func bigBytes(n *big.Int) string {
	if n.IsInt64() {
		return membudget.Bytes(n.Int64())
	}
	return "more than " + membudget.Bytes(1<<62)
}

// guardEncoding watches the resident set while a formula is built: once
// it passes the memory budget, it prints one line naming the spec (as
// given, specText) and ends
// the process with exit status 4 (memout). stop ends the watch; once it
// has returned, the guard ends nothing, so that a file being written is
// written whole.
func guardEncoding(specText string) (stop func()) {
	budget := membudget.Budget()
	ctx, stopWatch := membudget.Watch(context.Background(), budget)
	var mu sync.Mutex
	stopped := false
	go func() {
		<-ctx.Done()
		mu.Lock()
		defer mu.Unlock()
		if e := membudget.Over(ctx); e != nil && !stopped {
			fmt.Fprintf(stderrOut, "boardsat encode: memout: %s while encoding %s; nothing was written\n", e, oneLine(specText))
			os.Exit(answer.ExitMemout)
		}
	}()
	return func() {
		mu.Lock()
		stopped = true
		mu.Unlock()
		stopWatch()
	}
}
