package session

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/proxy"
)

// Converge is how a plan run waits, after its workload and fault, for the
// controller to repair what differs from the reference's end state.
type Converge struct {
	// Oracle names the objects that differ and rechecks them.
	Oracle *oracle.Oracle
	// Bound is the longest wait; 0 means none. The run waits that long
	// for the controller's own resync when it cannot make the controller
	// list again (relist).
	Bound time.Duration
	// Recheck is how long the run rechecks after the controller listed
	// again: how long it took to go quiet after a burst of events in the
	// reference runs, or one period of its own timer (RecheckBound). If 0,
	// the run does not make it list again and waits up to Bound.
	Recheck time.Duration
	// Timer is the controller's own timer that Recheck waits for, when the
	// reference runs show one (zero Period: none).
	Timer plan.Timer
}

// convergePoll is how often a run waiting for convergence looks again.
const convergePoll = 100 * time.Millisecond

// relistGrace bounds the wait for the controller to watch again after a
// relist: client-go's reflector lists again 0.8 to 1.6 s after its watch
// ended, and then lists or watches every kind it had.
const relistGrace = 10 * time.Second

// converge waits, once the run has settled, until the objects that differ
// from the reference's end state agree with it again, the bound passes,
// or the controller is not running (no repair can come): a difference
// counts only if it lasts. It does not wait when nothing differs or
// nothing that differs is of a kind the controller writes
// (oracle.Converge). Rather than wait for the controller's periodic
// resync, it makes the controller resync now (relist), then rechecks for
// the short Quiet bound; it waits for the resync itself, up to Bound, only
// when that cannot be done. The wait and the relist are marked in the
// trace (converge start, relist and end), so that the judge reports the
// repaired differences as transient; after a repair, the controller
// settles again (for window, within limit).
func (s *session) converge(ctx context.Context, window, limit time.Duration) {
	cv := s.r.Converge
	if cv == nil || cv.Bound <= 0 {
		return
	}
	c := s.follow(cv.Oracle)
	if c == nil {
		return
	}
	pending := c.Pending()
	s.clock.enter(results.PhaseConverge, "")
	start := time.Now()
	s.sink(trace.Entry{Time: start, Type: trace.Converge, What: "start",
		Message: fmt.Sprintf("%d %s differ from the reference (%s); waiting up to %s for the controller to repair them",
			len(pending), plural(len(pending), "object", "objects"), keyList(pending), cv.Bound)})
	how := s.relist(ctx, c, cv)
	if how == "" {
		how = s.waitConverged(ctx, c, start, cv.Bound)
	}
	s.sink(trace.Entry{Time: time.Now(), Type: trace.Converge, What: "end", Message: how})
	if len(c.Pending()) == 0 {
		sctx, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		_ = s.settle(sctx, window)
	}
}

// relist makes the controller list again (proxy.Relist), so that its
// informers deliver every object as a resync does, and rechecks c for the
// Quiet bound once it watches again (never past Bound). It says how the
// wait ended, or "" when the relist could not be done: the controller
// watches nothing through the proxy, or did not watch again within
// relistGrace. The plan's hooks are lifted first: its fault is over, and
// the events the relist delivers are the harness's, no trigger's.
func (s *session) relist(ctx context.Context, c *oracle.Convergence, cv *Converge) string {
	if cv.Recheck <= 0 || !s.runner.Running() {
		return ""
	}
	n := 0
	if len(s.px.Streams()) > 0 {
		s.px.SetHooks(proxy.Hooks{})
		n = s.px.Relist()
	}
	if n == 0 {
		s.sink(trace.Entry{Time: time.Now(), Type: trace.Converge, What: "relist",
			Message: fmt.Sprintf("the controller has no watch open through the proxy: waiting up to %s for its own resync", cv.Bound)})
		return ""
	}
	start := time.Now()
	s.sink(trace.Entry{Time: start, Type: trace.Converge, What: "relist",
		Message: fmt.Sprintf("ended the controller's %d %s (410 Expired) so that it lists again and sees every object, as at a resync; rechecking for %s once it watches again%s",
			n, plural(n, "watch", "watches"), cv.Recheck, timerNote(cv.Timer))})
	if !s.rewatched(ctx, c, n) {
		if len(c.Pending()) == 0 || !s.runner.Running() || ctx.Err() != nil {
			return s.waitConverged(ctx, c, start, 0)
		}
		s.sink(trace.Entry{Time: time.Now(), Type: trace.Converge, What: "relist",
			Message: fmt.Sprintf("the controller did not watch again within %s: waiting up to %s for its own resync", relistGrace, cv.Bound)})
		return ""
	}
	until := time.Since(start) + cv.Recheck
	how := s.waitConverged(ctx, c, start, min(until, cv.Bound))
	if until > cv.Bound && len(c.Pending()) > 0 {
		how += fmt.Sprintf(" (the recheck reached the cap, the test's converge bound %s; `converge` raises it)", cv.Bound)
	}
	return how
}

// timerNote says, for the relist message, which timer of the controller's
// own the recheck waits for ("" for none).
func timerNote(t plan.Timer) string {
	if t.Period <= 0 {
		return ""
	}
	return fmt.Sprintf(", one period of the controller's own timer and more: %s", t)
}

// rewatched waits until the controller has n watches open again, the
// objects converged, the controller stopped running or relistGrace
// passed; it reports whether the controller watches again.
func (s *session) rewatched(ctx context.Context, c *oracle.Convergence, n int) bool {
	deadline := time.Now().Add(relistGrace)
	for len(s.px.Streams()) < n {
		if len(c.Pending()) == 0 || !s.runner.Running() || time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(convergePoll):
		}
	}
	return true
}

// follow hands the run so far to the oracle and the history entries
// written since to the convergence it returns (nil: nothing to wait for).
func (s *session) follow(o *oracle.Oracle) *oracle.Convergence {
	s.mu.Lock()
	s.since = []trace.Entry{}
	s.mu.Unlock()
	t, err := trace.Read(s.tracePath)
	var c *oracle.Convergence
	if err == nil {
		c, err = o.Converge(t)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	since := s.since
	s.since = nil
	if err != nil || c == nil {
		return nil // a malformed trace is the judge's to report
	}
	last := int64(0)
	if n := len(t.Entries); n > 0 {
		last = t.Entries[n-1].Seq
	}
	for i := range since {
		if since[i].Seq > last {
			c.Observe(&since[i])
		}
	}
	s.conv = c
	return c
}

// observe shows a history entry to the convergence being waited for, or
// keeps it for follow while it reads the trace.
func (s *session) observe(e trace.Entry) {
	if e.Type != trace.History {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.conv != nil:
		s.conv.Observe(&e)
	case s.since != nil:
		s.since = append(s.since, e)
	}
}

// waitConverged waits, up to bound from start, for c to have nothing
// pending and says how the wait ended.
func (s *session) waitConverged(ctx context.Context, c *oracle.Convergence, start time.Time, bound time.Duration) string {
	deadline := time.NewTimer(time.Until(start.Add(bound)))
	defer deadline.Stop()
	tick := time.NewTicker(convergePoll)
	defer tick.Stop()
	for {
		if len(c.Pending()) == 0 {
			return fmt.Sprintf("converged after %.1fs", time.Since(start).Seconds())
		}
		if !s.runner.Running() {
			return fmt.Sprintf("the controller is not running, so no repair can come: %s still differ", keyList(c.Pending()))
		}
		select {
		case <-ctx.Done():
			return "interrupted"
		case <-deadline.C:
			return fmt.Sprintf("still differing after %s: %s", time.Since(start).Round(100*time.Millisecond), keyList(c.Pending()))
		case <-tick.C:
		}
	}
}

// RecheckBound is how long a plan run rechecks the objects that differ
// after the controller listed again, and the controller's own timer it
// waits for: the longer of twice the longest burst of the controller's
// activity in the reference runs refs (the events delivered to it and its
// writes, heartbeats aside, none window or more after the one before),
// plus window, and one period of its own timer (plan.OwnTimer, read with
// masks m) plus twice window; at least minRecheck. A timer faster than
// window is left out: it keeps the controller from being quiet, so the
// settles before the comparison already wait through it.
//
// Both are upper bounds learned from the reference's structure: waiting
// longer never turns a lasting difference into a transient one, only lets
// a repair the controller makes on its own clock (a RequeueAfter that no
// relist wakes) come before the verdict, so a loaded machine, which
// stretches the references' gaps, can only make the wait longer. The
// converge bound caps it (see relist).
func RecheckBound(refs []*trace.Trace, m *mask.Matcher, window time.Duration) (time.Duration, plan.Timer) {
	d := max(minRecheck, 2*longestBurst(refs, window)+window)
	timer, ok := plan.OwnTimer(refs, m)
	if !ok || timer.Period < window {
		return d, plan.Timer{}
	}
	return max(d, timer.Period+2*window), timer
}

// longestBurst is the longest burst of the controller's activity in refs
// (see RecheckBound).
func longestBurst(refs []*trace.Trace, window time.Duration) time.Duration {
	longest := time.Duration(0)
	for _, t := range refs {
		var first, last time.Time
		var beats leader.Beats
		var locks leader.Locks
		for i := range t.Entries {
			e := &t.Entries[i]
			if locks.Request(e) || beats.Entry(*e) || !burstEntry(e) {
				continue
			}
			if first.IsZero() || e.Time.Sub(last) >= window {
				first = e.Time
			}
			last = e.Time
			longest = max(longest, last.Sub(first))
		}
	}
	return longest
}

// minRecheck is the shortest recheck after a relist.
const minRecheck = 2 * time.Second

// burstEntry reports whether e is the controller's activity as RecheckBound
// counts it, heartbeats aside (a leader renewing its lock every few
// seconds is no burst; the caller tells them): an event delivered to it,
// or a write.
func burstEntry(e *trace.Entry) bool {
	return e.Type == trace.Delivery || e.Type == trace.Request && observe.IsWrite(e.Verb)
}

// keyList lists keys for a message, the first five.
func keyList(keys []trace.Key) string {
	var names []string
	for i, k := range keys {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(keys)-5))
			break
		}
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
