package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// stopSignals are the signals that end sieve. Each gives the exit code
// 128 + its number, as shells report a process a signal ended: SIGHUP
// 129, SIGINT 130, SIGQUIT 131, SIGPIPE 141, SIGTERM 143 (1 still wins:
// an interrupted run that found something exits 1).
func stopSignals() []os.Signal {
	return []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE}
}

// interruption is the cause of a command's context that a signal ended.
type interruption struct{ sig syscall.Signal }

func (i *interruption) Error() string { return "interrupted by " + signalName(i.sig) }

// signalName is the signal's usual name: SIGINT, SIGTERM...
func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	}
	return sig.String()
}

// interruptCode is the exit code of a command whose context ctx ended:
// 128 + the number of the signal that ended it, or exitInterrupted
// (SIGINT's) when no signal did.
func interruptCode(ctx context.Context) int {
	var i *interruption
	if errors.As(context.Cause(ctx), &i) {
		return 128 + int(i.sig)
	}
	return exitInterrupted
}

// interruptedErr is the error of a command that stops because ctx ended.
func interruptedErr(ctx context.Context) error { return printedErr(interruptCode(ctx)) }

// catcher catches the stop signals from the start of Main, so that none
// is lost while flags are parsed or the spec loads. Until the command
// says that it is interruptible, a signal ends sieve at once with its exit
// code. (A command is interruptible once it is about to make what it must
// remove: results, control planes, temporary directories.) From then on a
// signal cancels the command's context, with an *interruption as the
// cause. The command stops, removes what it made and keeps the results it
// wrote. Later signals do not end the process, which would leave the
// control planes' directories and keys behind. The cleanup goes on, and
// sieve says so; it is bounded, since every process it stops gets SIGKILL.
//
// SIGPIPE counts only when stdout or stderr is a pipe whose reader has
// gone (`sieve run ... | head`): sieve's own connections that break raise
// it too, and those are no interruption.
type catcher struct {
	ch     chan os.Signal
	cancel context.CancelCauseFunc
	stderr io.Writer
	quiet  *bool // -q, once parsed
	exit   func(code int)

	mu            sync.Mutex
	interruptible bool
	caught        syscall.Signal // the first signal, 0 before
}

// catchSignals starts catching the stop signals and returns the context
// they cancel; stop stops catching them.
func catchSignals(stderr io.Writer) (c *catcher, ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	c = &catcher{ch: make(chan os.Signal, 8), cancel: cancel, stderr: stderr, exit: os.Exit}
	signal.Notify(c.ch, stopSignals()...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for s := range c.ch {
			c.handle(s.(syscall.Signal))
		}
	}()
	return c, ctx, func() { signal.Stop(c.ch); close(c.ch); <-done }
}

// handle acts on one signal.
func (c *catcher) handle(sig syscall.Signal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sig == syscall.SIGPIPE && (c.caught != 0 || !stdioBroken()) {
		return // a connection of sieve's own broke, or a write to a broken stderr while stopping
	}
	if !c.interruptible {
		c.exit(128 + int(sig)) // nothing made yet that needs removing
		return
	}
	if c.caught != 0 {
		c.say("%s: still stopping: every process the run started is killed and its directories removed", signalName(sig))
		return
	}
	c.caught = sig
	c.say("%s: stopping, removing what the run made and keeping its results", signalName(sig))
	c.cancel(&interruption{sig: sig})
}

// say prints a line to stderr unless -q.
func (c *catcher) say(format string, args ...any) {
	if c.quiet == nil || !*c.quiet {
		fmt.Fprintf(c.stderr, "sieve: "+format+"\n", args...)
	}
}

// signal is the first stop signal that cancelled the context, 0 if none
// did.
func (c *catcher) signal() syscall.Signal {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.caught
}

// interruptible makes the stop signals cancel the command's context from
// now on instead of ending sieve at once: the command is about to make
// what it must remove when it stops. A command that has a catcher calls
// it before it makes anything.
func (g *globals) interruptible() {
	if g.signals == nil {
		return
	}
	g.signals.mu.Lock()
	defer g.signals.mu.Unlock()
	g.signals.interruptible = true
}

// signalCode is the exit code of a command that ended with err (code its
// own) after a stop signal: 128 + the signal's number unless it found
// something (1) or succeeded. ok is false when no signal came.
func signalCode(c *catcher, err error, code int) (int, bool) {
	sig := c.signal()
	if err == nil || code == exitFindings || sig == 0 {
		return 0, false
	}
	return 128 + int(sig), true
}

// pauseEnv names a phase at which sieve run waits until it is
// interrupted, after it says so on stderr ("sieve: paused at PHASE"): a
// hook of the interrupt tests, which signal it there. The phase is
// "report" (the results are in, the control planes stopped).
const pauseEnv = "SIEVE_TEST_PAUSE"

// pauseAt waits for ctx to end if $SIEVE_TEST_PAUSE names phase.
func pauseAt(ctx context.Context, g *globals, phase string) {
	if os.Getenv(pauseEnv) != phase {
		return
	}
	fmt.Fprintf(g.stderr, "sieve: paused at %s (%s)\n", phase, pauseEnv)
	<-ctx.Done()
}
