package proxy

import (
	"context"
	"net/http"
	"strconv"
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
	// Arriving counts watch events read from the API server and not yet
	// delivered to the controller, held or dropped.
	Arriving int
	// Retries counts objects about which the controller is expected to
	// send a request again and has not. That is a request answered 409
	// (but a create: the object exists), 429 or 5xx with no request about
	// the same object since.
	// (controller-runtime, and most controllers, requeue a reconcile that
	// failed so. The retry may be another verb: an update refused, a patch
	// that succeeds.)
	Retries int
	// RetryAt is the latest time a Retry-After header of an answer asked
	// the controller to retry at (zero: none asked).
	RetryAt time.Time
	// Last is when a request last arrived or was answered, or an event was
	// last delivered. A request that repeats one that failed, and fails
	// again, is not activity. A controller that only retries a write the
	// API server refuses (a 409 every second or two) makes no progress,
	// and waiting for it to stop would never end. Nor are heartbeats: the
	// controller's reads and renewals of a leader-election lock, and watch
	// events that only show a lock renewed (leader.Locks, leader.Beats).
	Last time.Time
	// LockWait is until when the controller waits for a leader-election
	// lock that another process holds (leader.Locks.Until; zero: it waits
	// for none). It is not running yet, and its silence is not quiet.
	LockWait time.Time
}

// activity tracks in-flight requests, held events and the last activity.
type activity struct {
	mu sync.Mutex
	a  Activity
	// failed holds the signatures (verb, object, subresource) of requests
	// whose latest answer was an error.
	failed map[string]bool
	// expect holds the objects of requests whose answer announced a
	// retry that has not come yet (Activity.Retries).
	expect map[string]bool
}

// maxFailed bounds the failed signatures remembered; past it they are
// forgotten, and a repeat counts as activity again.
const maxFailed = 1024

// call is a request as activity knows it: its signature (trace.Call: verb,
// object, subresource), its object and its verb.
type call struct{ sig, obj, verb string }

func (t *activity) touch() { t.add(0, 0, 0) }

func (t *activity) add(inflight, held, watches int) {
	t.mu.Lock()
	t.a.InFlight += inflight
	t.a.Held += held
	t.a.Watches += watches
	t.a.Last = time.Now()
	t.mu.Unlock()
}

// beginRequest counts a request in flight; its arrival is activity
// unless it repeats a request that failed (it may be a retry) or touch is
// false (a request about a lock, which its answer may show a heartbeat).
func (t *activity) beginRequest(c call, touch bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.a.InFlight++
	delete(t.expect, c.obj) // the retry came
	if touch && !t.failed[c.sig] {
		t.a.Last = time.Now()
	}
}

// endRequest counts a request answered with code: activity, unless it
// repeated a request that failed and failed again, or is a heartbeat
// (beat: a read or a renewal of a leader-election lock). An answer that
// announces a retry (retries) is expected to be followed by one, after
// after if the answer said so (its Retry-After).
func (t *activity) endRequest(c call, code int, after time.Duration, beat bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.a.InFlight--
	t.expectRetry(c, code, after)
	sig := c.sig
	ok := code >= 200 && code < 400
	if !ok && t.failed[sig] {
		return // a retry that failed again: no progress
	}
	if !beat {
		t.a.Last = time.Now()
	}
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

// expectRetry notes a retry about c's object that an answer with code
// announces. A create answered 409 announces none: the object exists
// (AlreadyExists), and a controller that created it twice, its cache
// behind, finds it there on its next reconcile, off the wire.
func (t *activity) expectRetry(c call, code int, after time.Duration) {
	if !retries(code) || (code == http.StatusConflict && c.verb == "create") {
		return
	}
	if at := time.Now().Add(after); after > 0 && at.After(t.a.RetryAt) {
		t.a.RetryAt = at
	}
	if len(t.expect) < maxFailed {
		if t.expect == nil {
			t.expect = map[string]bool{}
		}
		t.expect[c.obj] = true
	}
}

// retries reports whether an answer with code makes a controller try again:
// a conflict, too many requests, a server error. Other failures (a 404 of
// a read that checks whether an object exists, a 422 of an invalid object)
// are not retried by many controllers, or not soon.
func retries(code int) bool {
	return code == http.StatusConflict || code == http.StatusTooManyRequests || code >= 500
}

// arrive counts a watch event read from the API server (n 1) or passed on
// (n -1); it is activity unless it is a heartbeat (beat).
func (t *activity) arrive(n int, beat bool) {
	t.mu.Lock()
	t.a.Arriving += n
	if !beat {
		t.a.Last = time.Now()
	}
	t.mu.Unlock()
}

func (t *activity) snapshot() Activity {
	t.mu.Lock()
	defer t.mu.Unlock()
	a := t.a
	a.Retries = len(t.expect)
	return a
}

// Activity returns what the proxy is doing now.
func (p *Proxy) Activity() Activity {
	a := p.act.snapshot()
	a.LockWait = p.locks.Until()
	return a
}

// Bounds say how long a controller must have been quiet to count as
// settled. The zero value takes no evidence and needs no quiet time.
type Bounds struct {
	// Quiet is how long the controller and the cluster must have done
	// nothing, with nothing under way or due, for that evidence to end the
	// wait (0: evidence alone never ends it).
	Quiet time.Duration
	// Window is the upper bound: a controller quiet for Window has settled,
	// whatever the cluster does or the controller was told to retry.
	Window time.Duration
}

// Settled reports whether, at now, a controller whose proxy activity is a,
// in a cluster that last changed at moved (zero: unknown), has settled. It
// has if nothing is under way: no request in flight, no watch event
// arriving or held, no leader-election lock waited for
// (Activity.LockWait). Then either it has been quiet for b.Window (the
// constant of old, now the upper bound), or the evidence says it is done.
// The evidence is quiet for b.Quiet, the cluster unchanged as long, no
// retry expected (Activity.Retries) and none due later (Activity.RetryAt).
// What the wire cannot show is a timer the controller set itself (a
// RequeueAfter, a resync). A controller that polls less often than
// b.Quiet and changes nothing in between looks settled. The caller leaves
// out of a what it knows is held on purpose (a hold's events, requests
// waiting for it).
func Settled(a Activity, moved, now time.Time, b Bounds) bool {
	if a.InFlight > 0 || a.Held > 0 || a.Arriving > 0 || now.Before(a.LockWait) {
		return false
	}
	idle := now.Sub(a.Last)
	if idle >= b.Window {
		return true
	}
	return b.Quiet > 0 && idle >= b.Quiet && now.Sub(moved) >= b.Quiet && a.Retries == 0 && !now.Before(a.RetryAt)
}

// Quiet reports whether the controller has been quiet for the window: no
// request in flight, no event arriving or held, and no activity since
// now-window (retries of failed requests that fail again are no activity;
// see Activity.Last).
func (p *Proxy) Quiet(window time.Duration) bool {
	return Settled(p.Activity(), time.Time{}, time.Now(), Bounds{Window: window})
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

// retryAfter reads a Retry-After header given in seconds, as the API
// server sends it (0: none, or a date, which it does not send).
func retryAfter(h string) time.Duration {
	n, err := strconv.Atoi(h)
	if err != nil || n <= 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}
