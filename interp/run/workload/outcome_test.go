package workload

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// TestOutcome holds the judgement of a wait that goes on when it times
// out: a timeout is its outcome, not an error; a cancelled run or another
// error still fails it.
func TestOutcome(t *testing.T) {
	dl, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-dl.Done()
	msg, err := outcome(timedOut(dl, "pod/default/x ready: timed out after 1ms (no object seen)"))
	if err != nil || !strings.HasPrefix(msg, OutcomeTimedOut) || !strings.HasSuffix(msg, "(no object seen)") {
		t.Errorf("timeout: got %q, %v; want the timed-out outcome and no error", msg, err)
	}
	if msg, err := outcome(nil); err != nil || msg != OutcomeMet {
		t.Errorf("met: got %q, %v", msg, err)
	}
	cc, stop := context.WithCancel(context.Background())
	stop()
	if _, err := outcome(timedOut(cc, "x")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: got %v, want context.Canceled", err)
	}
	other := errors.New("cel: no such overload")
	if _, err := outcome(other); err != other {
		t.Errorf("other error: got %v, want it unchanged", err)
	}
}

// TestRefusedOutcome holds the judgement of an explored patch step: an
// answer that refuses the change (invalid, bad request, forbidden by a
// webhook) is recorded as refused and no error; a missing object, a
// conflict, a server error or another error still fails it.
func TestRefusedOutcome(t *testing.T) {
	gr := schema.GroupResource{Group: "demo.sieve.dev", Resource: "things"}
	for _, err := range []error{
		apierrors.NewInvalid(schema.GroupKind{Group: "demo.sieve.dev", Kind: "Thing"}, "t", nil),
		apierrors.NewBadRequest("spec.replicas: must be even"),
		apierrors.NewForbidden(gr, "t", errors.New("admission webhook denied the request")),
	} {
		msg, got := refusedOutcome(err)
		if got != nil || !strings.HasPrefix(msg, trace.Refused) || !strings.HasSuffix(msg, err.Error()) {
			t.Errorf("%v: got %q, %v; want refused and no error", err, msg, got)
		}
	}
	for _, err := range []error{
		apierrors.NewNotFound(gr, "t"),
		apierrors.NewConflict(gr, "t", errors.New("changed")),
		apierrors.NewTooManyRequests("slow down", 1),
		apierrors.NewInternalError(errors.New("etcd")),
		errors.New("connection refused"),
	} {
		if msg, got := refusedOutcome(err); got != err || msg != "" {
			t.Errorf("%v: got %q, %v; want the error unchanged", err, msg, got)
		}
	}
}

// TestStartNote holds what a step's start entry says: else continue for
// a wait that goes on, the operation for an explored patch, nothing for
// another step.
func TestStartNote(t *testing.T) {
	op := &ir.Operation{Resource: ir.Ref{Kind: "thing.demo.sieve.dev", Namespace: "default", Name: "t"}, Path: "spec.replicas", Change: "bound", Value: 1.0}
	for _, c := range []struct {
		step *ir.Step
		want string
	}{
		{&ir.Step{Kind: ir.StepWait, Continue: true}, trace.ElseContinue},
		{&ir.Step{Kind: ir.StepPatch, Explored: op}, trace.Explored + "spec.replicas bound 1"},
		{&ir.Step{Kind: ir.StepPatch}, ""},
	} {
		if got := startNote(c.step); got != c.want {
			t.Errorf("%s step: start note %q, want %q", c.step.Kind, got, c.want)
		}
	}
}

// TestSleep holds that sleep waits its duration and ends early with its
// context.
func TestSleep(t *testing.T) {
	start := time.Now()
	if err := sleep(context.Background(), 50*time.Millisecond); err != nil || time.Since(start) < 50*time.Millisecond {
		t.Errorf("sleep 50ms: %v after %s", err, time.Since(start))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled sleep: got %v", err)
	}
}

// TestSettleBounded holds that a settle step whose controller is never
// quiet ends at its bound with a note, not an error, and that a cancelled
// run still ends it with an error.
func TestSettleBounded(t *testing.T) {
	x := &Executor{Settle: func(ctx context.Context, _ time.Duration) error { <-ctx.Done(); return ctx.Err() }}
	parent, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	short, stop := context.WithCancel(parent)
	stop()
	if err := x.settle(short, time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled settle: got %v", err)
	}
	msg, err := settleOutcome(&TimeoutError{Msg: "not quiet for 5s within 1m0s"})
	if err != nil || msg != "not quiet for 5s within 1m0s, went on" {
		t.Errorf("bounded settle: got %q, %v", msg, err)
	}
	if _, err := settleOutcome(context.Canceled); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}

// TestSettleMax holds that a settle step ends at the executor's SettleMax,
// or at twice its window if that is longer.
func TestSettleMax(t *testing.T) {
	x := &Executor{SettleMax: 100 * time.Millisecond, Settle: func(ctx context.Context, _ time.Duration) error { <-ctx.Done(); return ctx.Err() }}
	for _, tc := range []struct {
		window time.Duration
		want   string
	}{
		{10 * time.Millisecond, "not quiet for 10ms within 100ms"},
		{80 * time.Millisecond, "not quiet for 80ms within 160ms"},
	} {
		var te *TimeoutError
		if err := x.settle(context.Background(), tc.window); !errors.As(err, &te) || te.Msg != tc.want {
			t.Errorf("settle %s: got %v, want %q", tc.window, err, tc.want)
		}
	}
}
