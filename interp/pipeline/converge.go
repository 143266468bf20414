package pipeline

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/oracle"
	"github.com/sievetool/sieve/interp/report"
	"github.com/sievetool/sieve/interp/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// Converge is how a plan run waits, after its workload and fault, for the
// controller to repair what differs from the reference's end state.
type Converge struct {
	// Oracle names the objects that differ and rechecks them.
	Oracle *oracle.Oracle
	// Bound is the longest wait; 0 means none.
	Bound time.Duration
}

// convergeBound is test t's converge bound (ir.DefaultConverge unless it
// sets one).
func convergeBound(t *ir.Test) time.Duration {
	if t.Converge == nil {
		return ir.DefaultConverge
	}
	return time.Duration(*t.Converge)
}

// convergePoll is how often a run waiting for convergence looks again.
const convergePoll = 100 * time.Millisecond

// converge waits, once the run has settled, until the objects that differ
// from the reference's end state agree with it again (the controller
// repaired them, at its periodic resync say), the bound passes, or the
// controller is not running (no repair can come): a difference counts
// only if it lasts. It does not wait when nothing differs or nothing that
// differs is of a kind the controller writes (oracle.Converge). The wait
// is marked in the trace (converge start and end), so that the judge
// reports the repaired differences as transient; after a repair, the
// controller settles again.
func (s *session) converge(ctx context.Context, settle time.Duration) {
	cv := s.r.Converge
	if cv == nil || cv.Bound <= 0 {
		return
	}
	c := s.follow(cv.Oracle)
	if c == nil {
		return
	}
	pending := c.Pending()
	s.clock.enter(report.PhaseConverge, "")
	s.sink(trace.Entry{Time: time.Now(), Type: trace.Converge, What: "start",
		Message: fmt.Sprintf("%d %s differ from the reference (%s); waiting up to %s for the controller to repair them",
			len(pending), plural(len(pending), "object", "objects"), keyList(pending), cv.Bound)})
	how := s.waitConverged(ctx, c, cv.Bound)
	s.sink(trace.Entry{Time: time.Now(), Type: trace.Converge, What: "end", Message: how})
	if len(c.Pending()) == 0 {
		sctx, cancel := context.WithTimeout(ctx, maxSettle)
		defer cancel()
		_ = s.settle(sctx, settle)
	}
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

// waitConverged waits for c to have nothing pending and says how the
// wait ended.
func (s *session) waitConverged(ctx context.Context, c *oracle.Convergence, bound time.Duration) string {
	start := time.Now()
	deadline := time.NewTimer(bound)
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
			return fmt.Sprintf("still differing after %s: %s", bound, keyList(c.Pending()))
		case <-tick.C:
		}
	}
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
