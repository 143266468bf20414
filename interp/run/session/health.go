package session

import (
	"context"
	"fmt"
	"time"
)

// UnhealthyError says that the control plane or the proxy's upstream
// failed during a run: the run proves nothing about the controller, and
// the worker replaces its control plane before its next run.
type UnhealthyError struct {
	Err error
}

func (e *UnhealthyError) Error() string { return "unhealthy: " + e.Err.Error() }

func (e *UnhealthyError) Unwrap() error { return e.Err }

// healther is a backend that knows whether its components still run (the
// embedded one).
type healther interface {
	Health() error
}

// healthPoll is how often a run looks at the health of its control plane
// and proxy.
const healthPoll = 100 * time.Millisecond

// health returns why the run's control plane or proxy is unhealthy, or nil.
// An upstream that failed is most often an API server that died: the
// control plane is given upstreamGrace to say so, which names the
// component, before the upstream's error is the reason.
func (s *session) health() error {
	h, _ := s.w.Backend.(healther)
	if h != nil {
		if err := h.Health(); err != nil {
			return &UnhealthyError{Err: err}
		}
	}
	px := s.proxy()
	if px == nil {
		return nil
	}
	err := px.UpstreamErr()
	if err == nil {
		return nil
	}
	if herr := lateHealth(h); herr != nil {
		return herr
	}
	return &UnhealthyError{Err: err}
}

// lateHealth gives the control plane upstreamGrace to report a component
// that exited, as an UnhealthyError (nil if none did or h is nil).
func lateHealth(h healther) error {
	for end := time.Now().Add(upstreamGrace); h != nil && time.Now().Before(end); time.Sleep(healthPoll / 4) {
		if err := h.Health(); err != nil {
			return &UnhealthyError{Err: err}
		}
	}
	return nil
}

// upstreamGrace is how long a failure that may come from a component's
// death (an upstream that failed, a request refused) waits for the control
// plane to report it: a process is reaped a moment after its connections
// break.
const upstreamGrace = time.Second

// watchHealth ends the run (cancel) as soon as the control plane or the
// proxy's upstream fails, keeping why, until ctx ends.
func (s *session) watchHealth(ctx context.Context, cancel context.CancelFunc) {
	tick := time.NewTicker(healthPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if err := s.health(); err != nil {
			s.mu.Lock()
			s.unhealthy = err
			s.mu.Unlock()
			cancel()
			return
		}
	}
}

// replace stops the worker's unhealthy backend and starts it anew.
func (w *Worker) replace(ctx context.Context) error {
	_ = w.Backend.Stop() // what failed is already known
	w.used, w.checkpointed = false, false
	if err := w.Backend.Start(ctx); err != nil {
		return fmt.Errorf("replacing the control plane: %w", err)
	}
	w.unhealthy = false
	return nil
}

// resetErr is the error of a failed reset: an UnhealthyError if a
// component died (the reset failed because of it, and the plane is
// replaced before the next run), else err. A component killed during the
// reset may be seen dead a moment after the reset fails: it looks for
// healthPoll*5.
func (w *Worker) resetErr(err error) error {
	if h, ok := w.Backend.(healther); ok {
		for range 5 {
			if herr := h.Health(); herr != nil {
				w.unhealthy = true
				return &UnhealthyError{Err: herr}
			}
			time.Sleep(healthPoll)
		}
	}
	return fmt.Errorf("run: reset cluster: %w", err)
}
