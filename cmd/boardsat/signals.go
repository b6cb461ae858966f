package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/boardsat/boardsat/internal/atomicfile"
	"github.com/boardsat/boardsat/solvers/solverproc"
)

// interruptSignals end a run early, cleanly: SIGINT (Ctrl-C), SIGTERM
// (kill's default, and what Slurm sends at a job's time limit) and SIGHUP
// (a closed terminal), all alike. solve, bench, compare, cnf and export
// take them through interruptible; every other command through
// handleSignals.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// running counts the interruptible contexts not yet stopped: while there
// is one, a signal is theirs.
var running atomic.Int32

// handleSignals takes interruptSignals for the whole process (main calls
// it first): a signal that no interruptible context takes (encode -o,
// results plot, a command between its run and its exit) removes the
// temporary files of the writes in progress (atomicfile.RemoveTemps) and
// ends the process with status 128 + the signal's number, as the signal's
// default action would, but leaving no hidden partial file behind.
func handleSignals() {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, interruptSignals...)
	go func() {
		for s := range sigs {
			if running.Load() > 0 {
				continue // interruptible's to answer
			}
			atomicfile.RemoveTemps()
			n := 1
			if sn, ok := s.(syscall.Signal); ok {
				n = int(sn)
			}
			os.Exit(128 + n)
		}
	}()
}

// interrupted is the cause of a context that a signal cancelled.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string {
	name := e.sig.String()
	switch e.sig {
	case os.Interrupt:
		name = "SIGINT"
	case syscall.SIGTERM:
		name = "SIGTERM"
	case syscall.SIGHUP:
		name = "SIGHUP"
	}
	return name + " received"
}

// interruptible returns a context that the first of interruptSignals
// cancels, the signal as its cause (interruption reads it), so that the
// run ends the way a time limit ends it, external solvers and their
// temporary files included, and reports what it has. Until stop is called
// further signals are taken too and change nothing: a run winding down
// (writing its last rows, its checkpoint, its answer) is not cut short.
func interruptible(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	running.Add(1)
	signal.Notify(sigs, interruptSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			solverproc.StopProbes() // a version probe answers at once
			cancel(interrupted{s})
		case <-done:
		}
	}()
	var stopped atomic.Bool
	return ctx, func() {
		if stopped.Swap(true) {
			return
		}
		signal.Stop(sigs)
		running.Add(-1)
		close(done)
		cancel(context.Canceled)
	}
}

// interruption returns the signal's error ("SIGTERM received") when
// a signal cancelled ctx (or a context it derives from), else nil.
func interruption(ctx context.Context) error {
	var e interrupted
	if errors.As(context.Cause(ctx), &e) {
		return e
	}
	return nil
}
