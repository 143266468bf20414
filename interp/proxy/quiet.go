package proxy

import (
	"context"
	"sync"
	"time"
)

// Activity is a snapshot of what is going on in the proxy.
type Activity struct {
	// InFlight counts requests (other than watches) not yet answered.
	InFlight int
	// Held counts watch events held back and not yet delivered, dropped or
	// lost with their stream.
	Held int
	// Watches counts open watch streams.
	Watches int
	// Last is when a request last arrived or was answered, or an event was
	// last delivered. A request that repeats one that failed, and fails
	// again, is not activity: a controller that only retries a write the
	// API server refuses (a 409 every second or two) makes no progress,
	// and waiting for it to stop would never end.
	Last time.Time
}

// activity tracks in-flight requests, held events and the last activity.
type activity struct {
	mu sync.Mutex
	a  Activity
	// failed holds the signatures (verb, object, subresource) of requests
	// whose latest answer was an error.
	failed map[string]bool
}

// maxFailed bounds the failed signatures remembered; past it they are
// forgotten, and a repeat counts as activity again.
const maxFailed = 1024

func (t *activity) touch() { t.add(0, 0, 0) }

func (t *activity) add(inflight, held, watches int) {
	t.mu.Lock()
	t.a.InFlight += inflight
	t.a.Held += held
	t.a.Watches += watches
	t.a.Last = time.Now()
	t.mu.Unlock()
}

// beginRequest counts a request in flight; it is activity unless it
// repeats a request that failed (it may be a retry).
func (t *activity) beginRequest(sig string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.a.InFlight++
	if !t.failed[sig] {
		t.a.Last = time.Now()
	}
}

// endRequest counts a request answered with code: activity, unless it
// repeated a request that failed and failed again.
func (t *activity) endRequest(sig string, code int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.a.InFlight--
	ok := code >= 200 && code < 400
	if !ok && t.failed[sig] {
		return // a retry that failed again: no progress
	}
	t.a.Last = time.Now()
	switch {
	case ok:
		delete(t.failed, sig)
	case len(t.failed) < maxFailed:
		if t.failed == nil {
			t.failed = map[string]bool{}
		}
		t.failed[sig] = true
	}
}

func (t *activity) snapshot() Activity {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.a
}

// Activity returns what the proxy is doing now.
func (p *Proxy) Activity() Activity { return p.act.snapshot() }

// Quiet reports whether the controller has been quiet for the window: no
// request in flight, no held event, and no activity since now-window
// (retries of failed requests that fail again are no activity; see
// Activity.Last).
func (p *Proxy) Quiet(window time.Duration) bool {
	a := p.act.snapshot()
	return a.InFlight == 0 && a.Held == 0 && time.Since(a.Last) >= window
}

// WaitQuiet blocks until Quiet(window) holds or ctx is done. Events held by
// a stale view count as undelivered, so during a stale view it returns only
// when the view is resumed (or ctx ends).
func (p *Proxy) WaitQuiet(ctx context.Context, window time.Duration) error {
	tick := time.NewTicker(quietPoll(window))
	defer tick.Stop()
	for !p.Quiet(window) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

func quietPoll(window time.Duration) time.Duration {
	d := window / 10
	if d < 5*time.Millisecond {
		d = 5 * time.Millisecond
	}
	if d > 100*time.Millisecond {
		d = 100 * time.Millisecond
	}
	return d
}
