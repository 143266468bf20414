package workload

import (
	"context"
	"errors"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
)

// TimeoutError is a wait step whose condition did not hold within its
// timeout.
type TimeoutError struct{ Msg string }

// Error returns the message: what was waited for, for how long, and how
// far it got.
func (e *TimeoutError) Error() string { return e.Msg }

// timedOut returns a *TimeoutError when ctx ended by its own deadline, and
// otherwise the context's error (the run was cancelled).
func timedOut(ctx context.Context, msg string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &TimeoutError{Msg: msg}
	}
	return ctx.Err()
}

// Outcomes of a wait that goes on when it times out, as its end entry's
// Message says.
const (
	// OutcomeMet: the condition held within the timeout.
	OutcomeMet = "met"
	// OutcomeTimedOut starts the message of a wait that timed out and let
	// the workload go on.
	OutcomeTimedOut = "timed out, went on (else continue): "
)

// outcome judges a wait that goes on when it times out: a timeout becomes
// its recorded outcome and no error; any other error still fails it.
func outcome(err error) (string, error) {
	var te *TimeoutError
	switch {
	case err == nil:
		return OutcomeMet, nil
	case errors.As(err, &te):
		return OutcomeTimedOut + te.Msg, nil
	}
	return "", err
}

// refusedOutcome judges an explored patch step: one the API server
// refused (a 4xx answer but 404, 408, 409 and 429, which say nothing of
// the change: the schema, a validation rule or an admission webhook said
// no) is recorded as refused and the workload goes on; any other error
// still fails it.
func refusedOutcome(err error) (string, error) {
	var st apierrors.APIStatus
	if !errors.As(err, &st) {
		return "", err
	}
	switch code := st.Status().Code; {
	case code < 400 || code >= 500, code == http.StatusNotFound, code == http.StatusRequestTimeout,
		code == http.StatusConflict, code == http.StatusTooManyRequests:
		return "", err
	}
	return trace.Refused + err.Error(), nil
}

// settleOutcome judges a settle step: one that ended at its bound goes on
// with a note, not an error.
func settleOutcome(err error) (string, error) {
	var te *TimeoutError
	if errors.As(err, &te) {
		return te.Msg + ", went on", nil
	}
	return "", err
}

// startNote is what a step's start entry says beyond its kind: for a wait
// that goes on when it times out, so (a hold is not lifted early for such
// a wait: it cannot fail); for an explored patch, its operation.
func startNote(s *ir.Step) string {
	switch {
	case s.Kind == ir.StepWait && s.Continue:
		return trace.ElseContinue
	case s.Explored != nil:
		if op, err := explore.FromIR(s.Explored); err == nil {
			return trace.Explored + op.String()
		}
		return trace.Explored + s.Explored.Path + " " + s.Explored.Change
	}
	return ""
}
