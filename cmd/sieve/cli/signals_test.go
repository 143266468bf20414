package cli

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
)

// TestCatcher: before the command is interruptible, a stop signal exits at
// once with 128 + its number. After, the first cancels the context with
// the signal as the cause, and later ones only say that sieve still stops.
// A SIGPIPE while stdout and stderr are whole (a connection of sieve's own
// broke) is no interruption.
func TestCatcher(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	var out strings.Builder
	exited := -1
	c := &catcher{cancel: cancel, stderr: &out, exit: func(code int) { exited = code }}

	c.handle(syscall.SIGQUIT)
	if exited != 131 || ctx.Err() != nil {
		t.Errorf("SIGQUIT before the command is interruptible: exit %d, context %v; want exit 131", exited, ctx.Err())
	}
	g := &globals{signals: c}
	g.interruptible()
	exited = -1
	c.handle(syscall.SIGPIPE)
	if ctx.Err() != nil || exited != -1 {
		t.Errorf("SIGPIPE with stdout and stderr whole: context %v, exit %d; want neither", ctx.Err(), exited)
	}
	c.handle(syscall.SIGHUP)
	c.handle(syscall.SIGTERM)
	if code := interruptCode(ctx); code != 129 || exited != -1 {
		t.Errorf("SIGHUP, then SIGTERM: code %d, exit %d; want 129 and no exit", code, exited)
	}
	if got := out.String(); !strings.Contains(got, "SIGHUP: stopping") || !strings.Contains(got, "SIGTERM: still stopping") {
		t.Errorf("catcher said:\n%s", got)
	}
	if code, ok := signalCode(c, errors.New("cancelled"), exitInfra); !ok || code != 129 {
		t.Errorf("signalCode of a failed interrupted command: %d, %v; want 129", code, ok)
	}
	if _, ok := signalCode(c, printedErr(exitFindings), exitFindings); ok {
		t.Errorf("signalCode replaced the findings code of an interrupted run")
	}
}
