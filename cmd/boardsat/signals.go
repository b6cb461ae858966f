package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/boardsat/boardsat/solvers/solverproc"
)

// interruptSignals end a run early, cleanly: SIGINT (Ctrl-C) and SIGTERM
// (kill's default, and what Slurm sends at a job's time limit). solve,
// bench and compare all take them through interruptible.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// interrupted is the cause of a context that a signal cancelled.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string {
	name := e.sig.String()
	switch e.sig {
	case os.Interrupt:
		name = "SIGINT"
	case syscall.SIGTERM:
		name = "SIGTERM"
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
	return ctx, func() {
		signal.Stop(sigs)
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
