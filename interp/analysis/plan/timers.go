package plan

import (
	"fmt"
	"time"

	"github.com/sievetool/sieve/interp/analysis/leader"
	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/formats/trace"
)

// Timer is the controller's own periodic activity that a reference run
// shows. That is the same request (verb, subresource, object) sent twice
// with nothing from outside reaching the controller in between (one burst,
// see index.segment). The second came from the controller itself: a
// requeue after a delay (controller-runtime's RequeueAfter), a retry with
// backoff, a poll. A repair can come on such a timer long after the last
// change a run makes, and no relist wakes it. The renewals and reads of a
// leader-election lock (leader.Locks) are heartbeats, not such timers.
type Timer struct {
	// Period is how long after the first request the second came.
	Period time.Duration
	// Run is the reference run (trace.Header.Run), First and Next the
	// sequence numbers of the two requests, Verb, Subresource and Key what
	// they were.
	Run         int
	First, Next int64
	Verb        string
	Subresource string
	Key         trace.Key
}

// String names the timer's evidence, for a converge message.
func (t Timer) String() string {
	verb := t.Verb
	if t.Subresource != "" {
		verb += " " + t.Subresource
	}
	return fmt.Sprintf("#%d %s %s came %s after #%d with nothing from outside in between (reference run %d)",
		t.Next, verb, t.Key, t.Period.Round(time.Millisecond), t.First, t.Run)
}

// OwnTimer returns the longest timer of the controller's own over the
// reference runs refs, read with masks m; false when none shows one.
func OwnTimer(refs []*trace.Trace, m *mask.Matcher) (Timer, bool) {
	var best Timer
	for _, tr := range refs {
		if t := newIndex(tr, m).ownTimer(); t.Period > best.Period {
			best = t
		}
	}
	return best, best.Period > 0
}

// ownTimer returns the longest gap between two sendings of the same
// request within one burst, heartbeats aside (zero Period: none).
func (ix *index) ownTimer() Timer {
	type sent struct {
		at    time.Time
		seq   int64
		burst int
	}
	var locks leader.Locks
	last := map[string]sent{}
	best := Timer{Run: ix.run}
	for i, e := range ix.requests {
		if locks.Request(e) || e.Key == nil {
			continue
		}
		sig := e.Verb + " " + e.Subresource + " " + e.Key.String()
		b := ix.reqBurst[i]
		if p, ok := last[sig]; ok && p.burst == b && e.Time.Sub(p.at) > best.Period {
			best = Timer{Period: e.Time.Sub(p.at), Run: ix.run, First: p.seq, Next: e.Seq, Verb: e.Verb, Subresource: e.Subresource, Key: *e.Key}
		}
		last[sig] = sent{at: e.Time, seq: e.Seq, burst: b}
	}
	return best
}
