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
	// last delivered.
	Last time.Time
}

// activity tracks in-flight requests, held events and the last activity.
type activity struct {
	mu sync.Mutex
	a  Activity
}

func (t *activity) begin() { t.add(1, 0, 0) }
func (t *activity) end()   { t.add(-1, 0, 0) }
func (t *activity) touch() { t.add(0, 0, 0) }

func (t *activity) add(inflight, held, watches int) {
	t.mu.Lock()
	t.a.InFlight += inflight
	t.a.Held += held
	t.a.Watches += watches
	t.a.Last = time.Now()
	t.mu.Unlock()
}

func (t *activity) snapshot() Activity {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.a
}

// Activity returns what the proxy is doing now.
func (p *Proxy) Activity() Activity { return p.act.snapshot() }

// Quiet reports whether the controller has been quiet for the window: no
// request in flight, no held event, and no activity since now-window.
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
